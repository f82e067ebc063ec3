"""A club's writes: made, its settings and invitation code changed, its directors."""
from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from . import club_reads, connection
from .connection import Then, _free_code
from .transaction import writes


@writes
def create_club(db: Database, cid: str, name: str, public: bool = True) -> str:
    """A new club (its id the caller's, from :func:`new_id`); its invitation code."""
    now = connection.now()
    code = _free_code(db)
    db.conn.execute("insert into clubs (id, name, public, casual_rated, invite_code, version, "
                    "created_at, updated_at) values (?, ?, ?, 0, ?, 1, ?, ?)",
                    [cid, name, int(public), code, now, now])
    return code


#: What a club's manager may change, each a column of ``clubs``.
CLUB_SETTINGS = ("name", "public", "casual_rated", "default_ruleset")


def _bump_club(db: Database, cid: str, sets: str = "", values: tuple[Any, ...] = ()) -> int:
    """Inside a write: the club's version bumped (and ``sets`` set to ``values``); the new
    version."""
    row = db.conn.execute(f"update clubs set {sets}version = version + 1, updated_at = ? "
                          "where id = ? returning version",
                          [*values, connection.now(), cid]).fetchone()
    if row is None:
        raise club_reads.ClubNotFound(cid)
    return int(row[0])


@writes
def change_club(db: Database, cid: str, changes: dict[str, Any], then: Then = None) -> int:
    """A club's settings changed (``changes``: columns of :data:`CLUB_SETTINGS`); its new
    version. The domain's ``then`` runs in the same write."""
    if not set(changes) <= set(CLUB_SETTINGS):
        raise ValueError(f"not a club's setting: {sorted(set(changes) - set(CLUB_SETTINGS))}")
    version = _bump_club(db, cid, "".join(f"{column} = ?, " for column in changes),
                         tuple(changes.values()))
    if then is not None:
        then(db, cid)
    return version


@writes
def renew_club_code(db: Database, cid: str) -> str:
    """A club's new invitation code (the old one invites nobody any more)."""
    code = _free_code(db)
    _bump_club(db, cid, "invite_code = ?, ", (code,))
    return code


@writes
def add_club_director(db: Database, cid: str, name: str) -> int:
    """A director named by the club's manager; the director's row id."""
    club_reads.club(db, cid)  # ClubNotFound if there is none
    return int(db.conn.execute("insert into club_directors (club_id, name, created_at) "
                               "values (?, ?, ?)", [cid, name, connection.now()]).lastrowid)


@writes
def remove_club_director(db: Database, cid: str, did: int) -> bool:
    """A director no more (their link and token stop working); whether there was one."""
    return db.conn.execute("delete from club_directors where club_id = ? and id = ?",
                           [cid, did]).rowcount == 1
