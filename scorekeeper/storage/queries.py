"""Reads: every query the pages, the API and the service make. Writes are in :mod:`.store`."""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlite_utils import Database


class GameNotFound(Exception):
    """No game has this id (never had, or it was deleted)."""


@dataclass(frozen=True)
class StoredGame:
    """A game's row as stored: the family key, the ruleset snapshot, seats and results."""

    id: str
    family: str
    ruleset: dict[str, Any]
    settings: dict[str, Any]
    players: list[str]
    results: list[dict[str, Any]]
    version: int
    finished: bool
    created_at: str
    updated_at: str
    join_code: str = ""
    #: The ruleset snapshot as stored: what the service keys its loaded rules by.
    ruleset_text: str = ""


def game_version(db: Database, gid: str) -> int:
    """The game's version alone: a cheap "has anything changed?" for polling phones.

    Asked on every request that names a game, so it is one statement on the connection
    itself, without the savepoint sqlite-utils puts around a query (three statements);
    a read needs none."""
    row = db.conn.execute("select version from games where id = ?", [gid]).fetchone()
    if row is None:
        raise GameNotFound(gid)
    return int(row[0])


def game_header(db: Database, gid: str) -> dict[str, Any]:
    """What a download's name needs (family, players, date, version), without the deals."""
    rows = list(db.query("""
        select g.id, g.family, g.version, g.created_at,
               (select json_group_array(name) from
                   (select name from players p where p.game_id = g.id order by seat)) as players
        from games g where g.id = ?""", [gid]))
    if not rows:
        raise GameNotFound(gid)
    return {**rows[0], "players": json.loads(rows[0]["players"])}


def load_game(db: Database, gid: str) -> StoredGame:
    """A whole game, read in one read transaction: its version and its deals agree even
    while another phone writes."""
    conn = db.conn  # the driver's own: no sqlite-utils per statement (asked per game loaded)
    own = not conn.in_transaction
    if own:
        conn.execute("BEGIN")
    try:
        row = conn.execute(
            "select id, family, ruleset, settings, version, finished, created_at, updated_at, "
            "join_code from games where id = ?", [gid]).fetchone()
        if row is None:
            raise GameNotFound(gid)
        players = [name for (name,) in conn.execute(
            "select name from players where game_id = ? order by seat", [gid])]
        results = [json.loads(result) for (result,) in conn.execute(
            "select result from deals where game_id = ? order by number", [gid])]
    finally:
        if own:
            conn.execute("COMMIT")
    gid, family, ruleset, settings, version, finished, created, updated, code = row
    return StoredGame(gid, family, json.loads(ruleset), json.loads(settings or "{}"), players,
                      results, version, bool(finished), created, updated, code or "", ruleset)


def game_versions(db: Database, ids: list[str]) -> list[tuple[str, int]]:
    """(id, version) of each of ``ids`` that exists: has any of them changed? (One
    statement, as :func:`game_version`.)"""
    rows = db.conn.execute("select id, version from games where id in (select value from "
                           "json_each(?)) order by id", [json.dumps(ids)]).fetchall()
    return [(gid, version) for gid, version in rows]


def count_games(db: Database) -> int:
    return int(next(iter(db.query("select count(*) as n from games")))["n"])




#: When a game was played: its last deal's recording (a correction counts), else its
#: creation. Not ``updated_at``, which a rename of a player moves in every game they sat in.
PLAYED_AT = ("coalesce((select max(d.recorded_at) from deals d where d.game_id = g.id), "
             "g.created_at)")


#: How long a finished game's join code keeps working (its link works for good).
CODE_AFTER_FINISH = timedelta(days=1)


def game_by_code(db: Database, code: str, now: datetime | None = None) -> str:
    """The id of the game with this join code; a game finished more than a day ago has
    none any more (fewer live codes leave a guesser less to find)."""
    cutoff = ((now or datetime.now(UTC)) - CODE_AFTER_FINISH).isoformat()
    rows = list(db.query(f"select id from games g where join_code = ? and not (finished "
                         f"and {PLAYED_AT} < ?)", [code, cutoff]))
    if not rows:
        raise GameNotFound(code)
    return rows[0]["id"]


def list_games(db: Database, ids: list[str] | None = None) -> list[dict[str, Any]]:
    """Games (all, or those of ``ids``), the latest played first, with players, deals
    entered and the ruleset snapshot.

    ``played_at`` is when the game was played: its last deal's recording (a correction
    counts), else its creation. Not ``updated_at``, which a rename of a player moves in
    every game they sat in."""
    where, params = "", []
    if ids is not None:
        where = "where g.id in (select value from json_each(?))"
        params = [json.dumps(ids)]
    rows = db.query(f"""
        select g.id, g.family, g.ruleset_id, g.ruleset, g.finished, g.created_at, g.updated_at,
               g.join_code,
               {PLAYED_AT} as played_at,
               (select count(*) from deals d where d.game_id = g.id) as deals_entered,
               (select json_group_array(name) from
                   (select name from players p where p.game_id = g.id order by seat)) as players
        from games g {where} order by played_at desc, g.created_at desc""", params)
    return [{**r, "players": json.loads(r["players"]), "ruleset": json.loads(r["ruleset"])}
            for r in rows]


def deal_history(db: Database, gid: str, number: int | None = None) -> list[dict[str, Any]]:
    """Every replaced or undone result of a game (or of one deal), oldest first."""
    sql = "select number, result, action, replaced_at from deal_history where game_id = ?"
    params: list[Any] = [gid]
    if number is not None:
        sql += " and number = ?"
        params.append(number)
    return [{**r, "result": json.loads(r["result"])}
            for r in db.query(sql + " order by id", params)]


class RulesetNotFound(LookupError):
    """No house variant has this id."""


def rulesets(db: Database) -> list[dict[str, Any]]:
    """Every house variant, oldest first: id, family, made_by, created_at and its data."""
    return [{**r, "data": json.loads(r["data"])} for r in db.query(
        "select id, family, data, made_by, created_at from rulesets order by created_at, id")]


def count_rulesets(db: Database) -> int:
    """How many house variants this server keeps."""
    return int(db.execute("select count(*) from rulesets").fetchone()[0])


def ruleset(db: Database, rid: str) -> dict[str, Any]:
    rows = list(db.query("select id, family, data, made_by, created_at from rulesets "
                         "where id = ?", [rid]))
    if not rows:
        raise RulesetNotFound(rid)
    return {**rows[0], "data": json.loads(rows[0]["data"])}


class PersonNotFound(LookupError):
    """No person has this id."""


def people(db: Database) -> list[dict[str, Any]]:
    """Everyone who has played here, by name, with how many games each played."""
    return list(db.query("""
        select pe.id, pe.name, pe.created_at, count(pl.game_id) as games
        from people pe left join players pl on pl.person_id = pe.id
        group by pe.id order by pe.name collate nocase, pe.id"""))


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
               {PLAYED_AT} as played_at,
               (select json_group_array(person_id) from (select person_id from players p
                 where p.game_id = g.id order by seat)) as people
        from games g order by g.created_at, g.rowid""")]


def setting(db: Database, key: str) -> str | None:
    """One of this server's choices, or None when it was never made."""
    rows = list(db.query("select value from settings where key = ?", [key]))
    return rows[0]["value"] if rows else None


def ruleset_in_use(db: Database, rid: str) -> bool:
    return bool(list(db.query("select 1 from games where ruleset_id = ? limit 1", [rid])))
