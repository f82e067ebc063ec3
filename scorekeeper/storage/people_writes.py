"""People's writes: the one place a typed name becomes a person (:func:`_person_named`),
their counts of games, and renames (kept, and taken back)."""
from __future__ import annotations

import json
from typing import Any

from sqlite_utils import Database

from ..rules.checks import person_key
from . import connection, people_reads
from .connection import StoreError, check_right, sort_keys
from .transaction import writes


def _person_named(db: Database, name: str, now: str, club: str) -> tuple[int, str]:
    """The person of this name in ``club`` (made the first time it is seen there) and the
    name they go by: the one first written (or last given by a rename), whatever case or
    spacing ``name`` is typed in. Two clubs' "Ania" are two people."""
    key = person_key(name)
    row = db.conn.execute("select id, name from people where club_id = ? and key = ?",
                          [club, key]).fetchone()
    if row:
        return int(row[0]), str(row[1])
    return int(db.conn.execute("insert into people (name, key, created_at, sort_en, sort_pl, "
                               "club_id) values (?, ?, ?, ?, ?, ?)",
                               [name, key, now, *sort_keys(name), club]).lastrowid), name


def _count_seats(db: Database, ids: list[Any], step: int) -> None:
    """A game made (``step`` 1) or deleted (-1): its people's counts of games, in all and
    at its table (``people.games``, ``table_seats``)."""
    if not ids or None in ids:
        return
    db.conn.executemany("update people set games = games + ? where id = ?",
                        [(step, pid) for pid in ids])
    key = "-".join(str(p) for p in sorted(ids))
    db.conn.executemany("insert into table_seats (person_id, table_key, games) "
                        "values (?, ?, ?) on conflict (person_id, table_key) do update "
                        "set games = games + excluded.games",
                        [(pid, key, step) for pid in sorted(set(ids))])
    if step < 0:
        db.conn.execute("delete from table_seats where table_key = ? and games <= 0", [key])


class Frozen(StoreError):
    """The game is a table of a closed tournament: nothing of it changes until the
    director reopens the tournament."""

    def __init__(self, tournament_id: str):
        self.tournament_id = tournament_id
        super().__init__(f"game of the closed tournament {tournament_id}")


class NameTaken(StoreError):
    """Another person already has this name (in another case or spelling)."""


@writes
def rename_person(db: Database, pid: int, name: str, by: str = "host") -> list[str]:
    return _rename(db, pid, name, by, keep=True)


def _rename(db: Database, pid: int, name: str, by: str, keep: bool) -> list[str]:
    """Give a person a new name everywhere: the person and every seat they played. Their
    games and tournaments change version, so every page shows the new name. With
    ``keep`` the rename is kept in ``renames``. The games it changed."""
    key = person_key(name)
    now = connection.now()
    old = db.conn.execute("select name, club_id from people where id = ?", [pid]).fetchone()
    if old is None:
        raise people_reads.PersonNotFound(pid)
    if db.conn.execute("select 1 from people where club_id = ? and key = ? and id != ?",
                       [old[1], key, pid]).fetchone():
        raise NameTaken(name)
    check_right(by)
    if keep and old[0] != name:
        db.conn.execute("insert into renames (person_id, old_name, new_name, at, by) "
                        "values (?, ?, ?, ?, ?)", [pid, old[0], name, now, by])
    db.conn.execute("update people set name = ?, key = ?, sort_en = ?, sort_pl = ? "
                    "where id = ?", [name, key, *sort_keys(name), pid])
    games = list(people_reads.person_games(db, pid))
    listed = json.dumps(games)
    closed = db.conn.execute(
        "select t.tournament_id from tournament_tables t join tournaments n on n.id = "
        "t.tournament_id where n.closed and t.game_id in (select value from json_each(?)) "
        "limit 1", [listed]).fetchone()
    if closed:  # a closed night's names are final, as its results
        raise Frozen(closed[0])
    db.conn.execute("update players set name = ? where person_id = ?", [name, pid])
    db.conn.execute("update games set version = version + 1, updated_at = ? where id in "
                    "(select value from json_each(?))", [now, listed])
    db.conn.execute("update tournaments set version = version + 1, updated_at = ? where id in "
                    "(select tournament_id from tournament_players where person_id = ?)",
                    [now, pid])
    return games


class RenameChanged(StoreError):
    """The rename cannot be taken back: it was already, or the person has been renamed
    again since."""


@writes
def undo_rename(db: Database, rename_id: int) -> int:
    """Take a rename back (the host's): the person gets the old name again, and the rename
    is marked undone. Returns the person's id."""
    row = db.conn.execute("select r.person_id, r.old_name, r.new_name, r.undone_at, p.name "
                          "from renames r join people p on p.id = r.person_id where r.id = ?",
                          [rename_id]).fetchone()
    if row is None:
        raise people_reads.PersonNotFound(rename_id)
    pid, old_name, new_name, undone, current = row
    if undone or current != new_name:
        raise RenameChanged(rename_id)
    _rename(db, pid, old_name, "host", keep=False)
    db.conn.execute("update renames set undone_at = ? where id = ?", [connection.now(), rename_id])
    return int(pid)
