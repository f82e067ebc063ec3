"""People's reads: a person, the people a page at a time in their language's order,
their tables, games and renames."""
from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from sqlite_utils import Database

from .game_reads import seating_rows


class PersonNotFound(LookupError):
    """No person has this id."""


def people(db: Database, club: str = "home") -> list[dict[str, Any]]:
    """Everyone of ``club`` who has played, by name, with how many games each played."""
    return list(db.query("""
        select pe.id, pe.name, pe.created_at, count(pl.game_id) as games
        from people pe left join players pl on pl.person_id = pe.id
        where pe.club_id = ?
        group by pe.id order by pe.name collate nocase, pe.id""", [club]))


#: SQLite's integers (signed 64 bits): an id outside them names no row.
ROW_IDS = range(-2**63, 2**63)


def person(db: Database, pid: Any) -> dict[str, Any]:
    """A person by id; an id that is not an int SQLite holds is simply not found."""
    rows = list(db.query("select id, name, created_at from people where id = ?", [pid])) \
        if isinstance(pid, int) and pid in ROW_IDS else []
    if not rows:
        raise PersonNotFound(pid)
    return rows[0]


def seatings(db: Database) -> list[dict[str, Any]]:
    """Every game with who sat where (person ids in seat order), oldest first."""
    return seating_rows(db, "order by g.created_at, g.rowid", [])


def names(db: Database, ids: Any) -> dict[int, str]:
    """The names of the people of ``ids``."""
    return dict(db.conn.execute("select id, name from people where id in "
                                "(select value from json_each(?))",
                                [json.dumps(sorted(set(ids)))]).fetchall())



def _sort_column(language: str) -> str:
    """The column of a language's name order (``people.sort_<language>``; else English's)."""
    return f"sort_{language if language in ('en', 'pl') else 'en'}"


def sort_keys(db: Database, ids: Any, language: str) -> dict[int, bytes]:
    """The stored collation keys of the names of the people of ``ids`` in ``language``."""
    return {pid: key or b"" for pid, key in db.conn.execute(
        f"select id, {_sort_column(language)} from people where id in "
        "(select value from json_each(?))", [json.dumps(sorted(set(ids)))])}


def people_page(db: Database, language: str, page: int, size: int, club: str = "home"
                ) -> tuple[list[dict[str, Any]], bool]:
    """One page (from 1) of everyone of ``club`` who has played, in the order ``language``
    sorts names, each with how many games they played; and whether another page follows."""
    rows = list(db.query(f"""
        select pe.id, pe.name, pe.created_at, pe.games
        from people pe where pe.club_id = ? order by pe.{_sort_column(language)}, pe.name, pe.id
        limit ? offset ?""", [club, size + 1, (page - 1) * size]))
    return rows[:size], len(rows) > size


def count_people(db: Database, club: str = "home") -> int:
    return int(db.conn.execute("select count(*) from people where club_id = ?",
                               [club]).fetchone()[0])


def person_tables(db: Database, pid: int, limit: int = -1) -> list[tuple[str, int]]:
    """The tables a person sat at and how many games each, the most games first (then by
    key): at most ``limit`` of them (-1: all)."""
    return [(k, n) for k, n in db.conn.execute(
        "select table_key, games from table_seats where person_id = ? "
        "order by games desc, table_key limit ?", [pid, limit]).fetchall()]


def table_count(db: Database, key: str) -> int:
    """How many games one table (its people's ids sorted, ``3-5-7-9``) played (0: no such
    table)."""
    first = key.split("-")[0]
    row = db.conn.execute("select games from table_seats where person_id = ? and "
                          "table_key = ?", [int(first) if first.isdigit() else -1,
                                            key]).fetchone()
    return int(row[0]) if row else 0


def person_games(db: Database, pid: int) -> Iterator[str]:
    """Every game a person played in, read as it is asked for."""
    cursor = db.conn.execute("select distinct game_id from players where person_id = ?", [pid])
    try:
        for (gid,) in cursor:
            yield gid
    finally:
        cursor.close()  # a reader that stopped early holds no statement open


def renames(db: Database) -> list[dict[str, Any]]:
    """The latest 100 renames of people, newest first, with the person's name now."""
    return list(db.query(
        "select r.id, r.person_id, r.old_name, r.new_name, r.at, r.by, r.undone_at, p.name "
        "from renames r join people p on p.id = r.person_id order by r.id desc limit 100"))


def person_in_club(db: Database, pid: int, club: str) -> str | None:
    """The name of person ``pid`` if they are of ``club``."""
    row = db.conn.execute("select name from people where id = ? and club_id = ?",
                          [pid, club]).fetchone()
    return row[0] if row else None

