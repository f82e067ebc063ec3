"""A club's members and its log: each member a row with the hash of a token of its own,
so one member is removed without touching another."""
from __future__ import annotations

import json
from typing import Any

from sqlite_utils import Database

from .club_writes import _bump_club
from .connection import now
from .transaction import writes


def _log(db: Database, cid: str, action: str, member: int | None, by: str) -> None:
    """One entry of the club's log: ``joined``, ``removed`` or ``renewed``."""
    db.conn.execute("insert into club_log (club_id, at, action, member_id, by) "
                    "values (?, ?, ?, ?, ?)", [cid, now(), action, member, by])


@writes
def add_member(db: Database, cid: str, token_hash: str) -> int:
    """A new member of ``cid`` whose token hashes to ``token_hash``; its id."""
    _bump_club(db, cid)
    mid = int(db.conn.execute("insert into club_members (club_id, token_hash, joined_at) "
                              "values (?, ?, ?)", [cid, token_hash, now()]).lastrowid)
    _log(db, cid, "joined", mid, "member")
    return mid


@writes
def remove_member(db: Database, cid: str, mid: int, by: str) -> bool:
    """Member ``mid`` of ``cid`` is one no more; whether there was one."""
    gone = db.conn.execute("delete from club_members where club_id = ? and id = ?",
                           [cid, mid]).rowcount == 1
    if gone:
        _bump_club(db, cid)
        _log(db, cid, "removed", mid, by)
    return gone


@writes
def remove_every_member(db: Database, cid: str, by: str) -> int:
    """Every member of ``cid`` removed at once (they join again by the new invitation);
    how many there were."""
    count = db.conn.execute("delete from club_members where club_id = ?", [cid]).rowcount
    _bump_club(db, cid)
    _log(db, cid, "renewed", None, by)
    return int(count)


def is_member(db: Database, cid: str, hashes: list[str]) -> bool:
    """Whether any of the token hashes is a current member's of ``cid``."""
    return bool(hashes) and db.conn.execute(
        "select 1 from club_members where token_hash in (select value from json_each(?)) "
        "and club_id = ? limit 1", [json.dumps(hashes), cid]).fetchone() is not None


def members(db: Database, cid: str) -> list[dict[str, Any]]:
    """A club's members, in the order they joined: id and when."""
    return list(db.query("select id, joined_at from club_members where club_id = ? order by id",
                         [cid]))


def log(db: Database, cid: str, limit: int = 100) -> list[dict[str, Any]]:
    """A club's log, newest first."""
    return list(db.query("select id, at, action, member_id, by from club_log where club_id = ? "
                         "order by id desc limit ?", [cid, limit]))


def tables_among(db: Database, tid: str, gids: list[str]) -> bool:
    """Whether any of the games ``gids`` is a table of tournament ``tid``."""
    return not set(gids).isdisjoint(tournament_games(db, tid))


def tournament_games(db: Database, tid: str) -> list[str]:
    """The games of a tournament's tables (a token is checked against each)."""
    return [r[0] for r in db.conn.execute(
        "select game_id from tournament_tables where tournament_id = ?", [tid])]
