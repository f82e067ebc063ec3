"""A game's reads: the game whole or its version, found by join code, listed, its deal
history, signatures and changes; a table's and an evening's games."""
from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlite_utils import Database

from .connection import one_value


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
    #: The game this one is the rematch of, and this one's rematch, if any.
    rematch_of: str | None = None
    rematch: str | None = None
    #: The tournament the game is a table of, if any.
    tournament: str | None = None


@contextmanager
def one_read(conn: Any) -> Iterator[None]:
    """Its reads in one read transaction (one snapshot), unless the caller has one."""
    own = not conn.in_transaction
    if own:
        conn.execute("BEGIN")
    try:
        yield
    finally:
        if own:
            conn.execute("COMMIT")


def game_version(db: Database, gid: str) -> int:
    """The game's version alone: has anything changed?"""
    return int(one_value(db, "select version from games where id = ?", gid, GameNotFound))


#: A game's players' names (or person ids) in seat order, as a JSON list.
_SEATED = ("(select json_group_array({0}) from (select {0} from players p "
           "where p.game_id = g.id order by seat))")


def game_header(db: Database, gid: str) -> dict[str, Any]:
    """What a download's name needs (family, players, date, version), without the deals."""
    rows = list(db.query("select g.id, g.family, g.version, g.created_at, "
                         f"{_SEATED.format('name')} as players from games g "
                         "where g.id = ?", [gid]))
    if not rows:
        raise GameNotFound(gid)
    return {**rows[0], "players": json.loads(rows[0]["players"])}


def load_game(db: Database, gid: str) -> StoredGame:
    """A whole game, read in one transaction: its version and its deals agree."""
    conn = db.conn
    with one_read(conn):
        row = conn.execute(
            "select id, family, ruleset, settings, version, finished, created_at, updated_at, "
            "join_code, rematch_of, (select r.id from games r where r.rematch_of = games.id), "
            "(select t.tournament_id from tournament_tables t where t.game_id = games.id) "
            "from games where id = ?", [gid]).fetchone()
        if row is None:
            raise GameNotFound(gid)
        players = [name for (name,) in conn.execute(
            "select name from players where game_id = ? order by seat", [gid])]
        results = [json.loads(result) for (result,) in conn.execute(
            "select result from deals where game_id = ? order by number", [gid])]
    return StoredGame(row[0], row[1], json.loads(row[2]), json.loads(row[3] or "{}"), players,
                      results, row[4], bool(row[5]), *row[6:8], row[8] or "", row[2], *row[9:])


def rematch_of(db: Database, gid: str) -> str | None:
    """The rematch game ``gid`` has, or None."""
    row = db.conn.execute("select id from games where rematch_of = ?", [gid]).fetchone()
    return row[0] if row else None


def game_versions(db: Database, ids: list[str]) -> list[tuple[str, int]]:
    """(id, version) of each of ``ids`` that exists."""
    return [tuple(r) for r in db.conn.execute(  # type: ignore[misc]
        "select id, version from games where id in (select value from json_each(?)) "
        "order by id", [json.dumps(ids)])]


def running_totals(db: Database, ids: list[str]) -> dict[str, list[int]]:
    """The running totals kept with each of ``ids`` (those that have them)."""
    return {gid: json.loads(totals) for gid, totals in db.conn.execute(
        "select id, totals from games where id in (select value from json_each(?)) "
        "and totals is not null", [json.dumps(ids)])}


def count_games(db: Database) -> int:
    return int(db.conn.execute("select count(*) from games").fetchone()[0])


#: When a game was played: its last deal's recording, else its creation (not
#: ``updated_at``, which a rename of a player moves).
PLAYED_AT = ("coalesce((select max(d.recorded_at) from deals d where d.game_id = g.id), "
             "g.created_at)")


def game_by_code(db: Database, code: str) -> str:
    """The id of the game with this join code; a game finished more than a day ago has
    none any more (fewer live codes leave a guesser less to find)."""
    cutoff = (datetime.now(UTC) - timedelta(days=1)).isoformat()
    row = db.conn.execute(f"select id from games g where join_code = ? and not (finished "
                          f"and {PLAYED_AT} < ?)", [code, cutoff]).fetchone()
    if row is None:
        raise GameNotFound(code)
    return str(row[0])


def list_games(db: Database, ids: list[str] | None = None) -> list[dict[str, Any]]:
    """Games (all, or those of ``ids``), the latest played first, with players, deals
    entered and the ruleset snapshot."""
    where, params = ("where g.id in (select value from json_each(?))", [json.dumps(ids)]) \
        if ids is not None else ("", [])
    rows = db.query(f"""
        select g.id, g.family, g.ruleset_id, g.ruleset, g.finished, g.created_at, g.updated_at,
               g.join_code, {PLAYED_AT} as played_at,
               (select count(*) from deals d where d.game_id = g.id) as deals_entered,
               {_SEATED.format('name')} as players
        from games g {where} order by played_at desc, g.created_at desc""", params)
    return [{**r, "players": json.loads(r["players"]), "ruleset": json.loads(r["ruleset"])}
            for r in rows]


def deal_history(db: Database, gid: str, number: int | None = None) -> list[dict[str, Any]]:
    """Every replaced or undone result of a game (or of one deal), oldest first."""
    only = " and number = ?" if number is not None else ""
    return [{**r, "result": json.loads(r["result"])} for r in db.query(
        f"select number, action, result, replaced_at from deal_history where game_id = ?{only} "
        "order by id", [gid] + ([number] if only else []))]


def seating_rows(db: Database, where: str, params: list[Any]) -> list[dict[str, Any]]:
    """Games with who sat where (``people``: person ids in seat order)."""
    return [{**r, "people": json.loads(r["people"])} for r in db.query(f"""
        select g.id, g.family, g.ruleset_id, g.finished, g.created_at, g.updated_at,
               g.rematch_of, {PLAYED_AT} as played_at,
               {_SEATED.format('person_id')} as people
        from games g {where}""", params)]


#: A game's place among its table's: ``(id, table_key, created_at, rowid)``.
Place = tuple[str, str | None, str, int]
_PLACE = "select id, table_key, created_at, rowid from games "


def _place(db: Database, where: str, value: str) -> Place | None:
    row = db.conn.execute(f"{_PLACE}where {where} = ? limit 1", [value]).fetchone()
    return tuple(row) if row else None  # type: ignore[return-value]


def game_place(db: Database, gid: str) -> Place:
    """Where a game stands among its table's games (``GameNotFound``)."""
    if (place := _place(db, "id", gid)) is None:
        raise GameNotFound(gid)
    return place


def evening_game(db: Database, eid: str) -> Place | None:
    """The game whose evening would have id ``eid`` (None if no game's)."""
    return _place(db, "evening_id", eid)


def table_window(db: Database, key: str, created: str, row: int, since: str, back: int,
                 forward: int) -> list[dict[str, Any]]:
    """The seatings of one table's games around one of them (``created``, ``row``),
    oldest first: at most ``back`` before it (none before ``since``), and it with at most
    ``forward - 1`` after it."""
    before = seating_rows(
        db, "where g.table_key = ? and g.created_at >= ? and (g.created_at, g.rowid) < "
        "(?, ?) order by g.created_at desc, g.rowid desc limit ?",
        [key, since, created, row, back])
    after = seating_rows(db, "where g.table_key = ? and (g.created_at, g.rowid) >= (?, ?) "
                         "order by g.created_at, g.rowid limit ?", [key, created, row, forward])
    return before[::-1] + after


def latest_games(db: Database, offset: int, size: int, club: str | None = None
                 ) -> list[Place]:
    """Games (of ``club``; None: of every club), the latest started first, ``size`` from
    ``offset``: where each stands."""
    where = "where club_id = ? " if club is not None else ""
    return [tuple(r) for r in db.conn.execute(  # type: ignore[misc]
        f"{_PLACE}{where}order by created_at desc, rowid desc limit ? offset ?",
        ([club] if where else []) + [size, offset])]


def signatures(db: Database, gid: str) -> dict[int, dict[str, Any]]:
    """A game's signatures by seat (the director's under -1): by which right, when."""
    return {r[0]: {"by": r[1], "at": r[2]} for r in db.conn.execute(
        "select seat, by, signed_at from signatures where game_id = ? order by seat", [gid])}


_CHANGE = ("select c.id, c.at, c.game_id, c.action, c.number, c.by, c.finished, t.round, "
           "t.number as \"table\" from changes c left join tournament_tables t on "
           "t.game_id = c.game_id ")


def game_changes(db: Database, gid: str) -> list[dict[str, Any]]:
    """A game's corrections, undos and signatures taken off, oldest first."""
    return list(db.query(_CHANGE + "where c.game_id = ? order by c.id", [gid]))


def versions(db: Database, ids: list[str]) -> dict[str, int]:
    """Every given game's or tournament's version (a missing one left out)."""
    of = "where id in (select value from json_each(?))"
    return {key: int(version) for key, version in db.conn.execute(
        f"select id, version from games {of} union all select id, version from tournaments "
        f"{of}", [json.dumps(ids)] * 2)}
