"""People's reads: a person, the people a page at a time in their language's order,
their tables, games and renames.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from sqlite_utils import Database

from .game_reads import PLAYED_AT


class PersonNotFound(LookupError):
    """No person has this id."""


def people(db: Database, club: str = "home") -> list[dict[str, Any]]:
    """Everyone of ``club`` who has played, by name, with how many games each played."""
    return list(db.query("""
        select pe.id, pe.name, pe.created_at, count(pl.game_id) as games
        from people pe left join players pl on pl.person_id = pe.id
        where pe.club_id = ?
        group by pe.id order by pe.name collate nocase, pe.id""", [club]))


#: SQLite's integers (signed 64 bits): an id outside them names no row (and SQLite could
#: not even be asked about it).
ROW_IDS = range(-2**63, 2**63)


def person(db: Database, pid: Any) -> dict[str, Any]:
    """A person by id (every page and API answer about one reads it first); an id that is
    not an int SQLite holds is simply not found."""
    rows = list(db.query("select id, name, created_at from people where id = ?", [pid])) \
        if isinstance(pid, int) and pid in ROW_IDS else []
    if not rows:
        raise PersonNotFound(pid)
    return rows[0]


def seatings(db: Database) -> list[dict[str, Any]]:
    """Every game with who sat where (person ids in seat order), oldest first: what
    evenings, tables and statistics are worked out from."""
    return [{**r, "people": json.loads(r["people"])} for r in db.query(f"""
        select g.id, g.family, g.ruleset_id, g.finished, g.created_at, g.updated_at,
               g.rematch_of, {PLAYED_AT} as played_at,
               (select json_group_array(person_id) from (select person_id from players p
                 where p.game_id = g.id order by seat)) as people
        from games g order by g.created_at, g.rowid""")]


def names(db: Database, ids: Any) -> dict[int, str]:
    """The names of the people of ``ids``."""
    return dict(db.conn.execute("select id, name from people where id in "
                                "(select value from json_each(?))",
                                [json.dumps(sorted(set(ids)))]).fetchall())


#: The languages whose name order is kept (``people.sort_<language>``); others sort as
#: English does.
SORTED_LANGUAGES = ("en", "pl")


def sort_keys(db: Database, ids: Any, language: str) -> dict[int, bytes]:
    """The stored collation keys of the names of the people of ``ids`` in ``language``
    (``people.sort_<language>``: ordered as :func:`.collation.by_name` orders the names)."""
    column = f"sort_{language if language in SORTED_LANGUAGES else 'en'}"
    return {pid: key or b"" for pid, key in db.conn.execute(
        f"select id, {column} from people where id in (select value from json_each(?))",
        [json.dumps(sorted(set(ids)))])}


def people_page(db: Database, language: str, page: int, size: int, club: str = "home"
                ) -> tuple[list[dict[str, Any]], bool]:
    """One page (from 1) of everyone of ``club`` who has played, in the order ``language``
    sorts names, each with how many games they played; and whether another page follows
    (by index: ``(club_id, sort_<language>, name, id)``)."""
    column = f"sort_{language if language in SORTED_LANGUAGES else 'en'}"
    rows = list(db.query(f"""
        select pe.id, pe.name, pe.created_at, pe.games
        from people pe where pe.club_id = ? order by pe.{column}, pe.name, pe.id
        limit ? offset ?""", [club, size + 1, (page - 1) * size]))
    return rows[:size], len(rows) > size


def count_people(db: Database, club: str = "home") -> int:
    return int(db.conn.execute("select count(*) from people where club_id = ?",
                               [club]).fetchone()[0])


def person_tables(db: Database, pid: int, limit: int = -1) -> list[tuple[str, int]]:
    """The tables a person sat at (``games.table_key``) and how many games each, the
    most games first (then by key): at most ``limit`` of them (-1: all), by index
    (``table_seats``, kept by the writes that make and delete games)."""
    return [(k, n) for k, n in db.conn.execute(
        "select table_key, games from table_seats where person_id = ? "
        "order by games desc, table_key limit ?", [pid, limit]).fetchall()]


def table_count(db: Database, key: str) -> int:
    """How many games one table (its people's ids sorted, ``3-5-7-9``) played, by index:
    each of them sat at every one (0: no such table)."""
    first = key.split("-")[0]
    row = db.conn.execute("select games from table_seats where person_id = ? and "
                          "table_key = ?", [int(first) if first.isdigit() else -1,
                                            key]).fetchone()
    return int(row[0]) if row else 0


def person_games(db: Database, pid: int) -> Iterator[str]:
    """Every game a person played in, read as it is asked for (by index: who stops at
    the first game pays for one row)."""
    seen: set[str] = set()
    cursor = db.conn.execute("select game_id from players where person_id = ?", [pid])
    try:
        for (gid,) in cursor:
            if gid not in seen:
                seen.add(gid)
                yield gid
    finally:
        cursor.close()  # a reader that stopped early holds no statement open


def renames(db: Database, limit: int = 100) -> list[dict[str, Any]]:
    """The latest renames of people, newest first, with the person's name now."""
    keys = ("id", "person_id", "old_name", "new_name", "at", "by", "undone_at", "name")
    return [dict(zip(keys, r, strict=True)) for r in db.conn.execute(
        "select r.id, r.person_id, r.old_name, r.new_name, r.at, r.by, r.undone_at, p.name "
        "from renames r join people p on p.id = r.person_id order by r.id desc limit ?",
        [limit])]


def names_of(db: Database, ids: list[int]) -> dict[int, str]:
    """The names the given people go by."""
    out: dict[int, str] = {}
    for i in range(0, len(ids), 500):
        chunk = ids[i:i + 500]
        marks = ", ".join("?" * len(chunk))
        out.update(db.conn.execute(f"select id, name from people where id in ({marks})",
                                   chunk).fetchall())
    return out


def person_in_club(db: Database, pid: int, club: str) -> str | None:
    """The name of person ``pid`` if they are of ``club``."""
    row = db.conn.execute("select name from people where id = ? and club_id = ?",
                          [pid, club]).fetchone()
    return row[0] if row else None


def last_rename(db: Database) -> int:
    """The id of the latest rename of anyone (0: none), the last entry of the primary key:
    what a kept list of names is stamped with, so that a rename shows at once."""
    return int(db.conn.execute("select coalesce(max(id), 0) from renames").fetchone()[0])
