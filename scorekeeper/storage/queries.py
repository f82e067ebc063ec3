"""Reads: every query the pages, the API and the service make. Writes are in :mod:`.store`."""
from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
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
    #: The game this one is the rematch of, and this one's rematch (issue 35), if any.
    rematch_of: str | None = None
    rematch: str | None = None
    #: The tournament the game is a table of, if any (fixed when the game is made).
    tournament: str | None = None


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
            "join_code, rematch_of, (select r.id from games r where r.rematch_of = games.id), "
            "(select t.tournament_id from tournament_tables t where t.game_id = games.id) "
            "from games where id = ?", [gid]).fetchone()
        if row is None:
            raise GameNotFound(gid)
        players = [name for (name,) in conn.execute(
            "select name from players where game_id = ? order by seat", [gid])]
        results = [json.loads(result) for (result,) in conn.execute(
            "select result from deals where game_id = ? order by number", [gid])]
    finally:
        if own:
            conn.execute("COMMIT")
    gid, family, ruleset, settings, version, finished, created, updated, code, of, next_, \
        tournament = row
    return StoredGame(gid, family, json.loads(ruleset), json.loads(settings or "{}"), players,
                      results, version, bool(finished), created, updated, code or "", ruleset,
                      of, next_, tournament)


def rematch_of(db: Database, gid: str) -> str | None:
    """The rematch game ``gid`` has (by index), or None."""
    row = db.conn.execute("select id from games where rematch_of = ?", [gid]).fetchone()
    return row[0] if row else None


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


def rulesets(db: Database, club: str = "home") -> list[dict[str, Any]]:
    """The house variants a club offers, oldest first: the home club's (every club's
    games may be played by them) and ``club``'s own; id, family, made_by, created_at and
    its data."""
    return [{**r, "data": json.loads(r["data"])} for r in db.query(
        "select id, family, data, made_by, created_at from rulesets "
        "where club_id in ('home', ?) order by created_at, id", [club])]


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


def setting(db: Database, key: str) -> str | None:
    """One of this server's choices, or None when it was never made."""
    rows = list(db.query("select value from settings where key = ?", [key]))
    return rows[0]["value"] if rows else None


def ruleset_in_use(db: Database, rid: str) -> bool:
    return bool(list(db.query("select 1 from games where ruleset_id = ? limit 1", [rid])))


# -- people's figures (kept per finished game by the store: table ``figures``, see its
# migrations 0007 and 0016) -----------------------------------------------------------

def _only(table: str | None, alias: str = "f") -> tuple[str, list[Any]]:
    """The filter to the games of one table (its key, ``3-5-7-9``; all games when None)."""
    if table is None:
        return "", []
    return f" and {alias}.table_key = ?", [table]


#: The order games were played in, oldest first (as :func:`seatings` lists them).
_ORDER = "f.played, f.game_row"


def unfinished_seats(db: Database, pid: int, only: str | None = None) -> dict[str, int]:
    """How many unfinished games a person sits at, per family (from the few unfinished
    games, by index)."""
    where, params = _only(only, "g")
    rows = db.conn.execute(f"""
        select g.family, count(*) from games g indexed by idx_games_finished
        where g.finished = 0 and exists (select 1 from players p where p.game_id = g.id
                                         and p.person_id = ?){where}
        group by g.family""", [pid, *params]).fetchall()
    return dict(rows)


def figure_wins(db: Database, pid: int, family: str, only: str | None = None
                ) -> list[bool]:
    """Whether the person won each of their finished games of ``family``, oldest first."""
    where, params = _only(only)
    return [bool(w) for (w,) in db.conn.execute(f"""
        select won from figures f where person_id = ? and family = ?{where}
        order by {_ORDER}""", [pid, family, *params])]


_LINE = "f.game_id, f.seat, f.played, f.ruleset_id, f.total, f.place, f.sides"


def _lines(rows: list[tuple[Any, ...]]) -> list[dict[str, Any]]:
    return [{"game": g, "seat": s, "date": (d or "")[:10], "ruleset": r, "total": t,
             "place": p, "sides": n} for g, s, d, r, t, p, n in rows]


def figure_lines(db: Database, pid: int, family: str, last: int,
                 only: str | None = None) -> dict[str, Any]:
    """A person's ``recent`` finished games of ``family`` (up to ``last``, oldest first),
    their ``best`` and ``worst`` (the highest and the lowest total; of equal totals the
    earliest game), each a line: game, seat, date, ruleset, total, place, sides."""
    where, params = _only(only)
    base = f"select {_LINE} from figures f where person_id = ? and family = ?{where}"
    args = [pid, family, *params]
    conn = db.conn
    extreme = (f"{base} and f.total = (select {{}}(f.total) from figures f where "
               f"person_id = ? and family = ?{where}) order by {_ORDER} limit 1")
    best = _lines(conn.execute(extreme.format("max"), args + args).fetchall())
    worst = _lines(conn.execute(extreme.format("min"), args + args).fetchall())
    return {"best": best[0] if best else None, "worst": worst[0] if worst else None,
            "recent": _lines(conn.execute(
                f"{base} order by f.played desc, f.game_row desc limit ?",
                [*args, last]).fetchall())[::-1]}


# -- running totals (migration 0011: ``figure_totals``, kept by the domain's handler in
# the write that changes a game's figures) -------------------------------------------

#: A running total's columns as its readers get them (:func:`totals`, :func:`all_totals`).
TOTAL_KEYS = ("family", "part", "key", "games", "wins", "places", "points", "deals", "grp",
              "first_played", "first_row", "first_position", "first_game", "first_seat",
              "streak", "longest", "last_played", "last_row")
#: A person's total of one part and key (a kind of deal, a count) as it is kept inside
#: their ``game`` total's ``parts`` (migration 0016): ``{part: {key: entry}}``, an entry
#: these numbers and where the part was first played.
PART_ENTRY = ("games", "points", "deals", "grp", "first_played", "first_row",
              "first_position", "first_game", "first_seat")


def unpack(text: str | None) -> dict[str, dict[str, list[Any]]]:
    """A kept ``parts`` text (figure totals') as ``{part: {key: entry}}``."""
    return json.loads(text) if text else {}


def _expanded(row: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
    """A kept total (:data:`TOTAL_KEYS` then ``parts``) and the totals of its parts, each
    as the row it would be on its own (no wins, places or runs of its own)."""
    yield row[:-1]
    for part, keyed in unpack(row[-1]).items():
        for key, (games, points, deals, grp, *first) in keyed.items():
            yield (row[0], part, key, games, 0, 0, points, deals, grp, *first, 0, 0, None, None)


def totals(db: Database, pid: int, table: str | None = None) -> list[dict[str, Any]]:
    """A person's running totals (of every game, or of those at ``table``), each family's
    rows together in key order: one row per part and key, read from a few rows by
    primary key whatever the number of games (the parts' totals ride in their family's
    ``game`` row)."""
    rows = db.conn.execute(
        f"select {', '.join(TOTAL_KEYS)}, parts from figure_totals where person_id = ? "
        "and table_key = ?", [pid, table or ""]).fetchall()
    return [dict(zip(TOTAL_KEYS, r, strict=True))
            for r in sorted((x for row in rows for x in _expanded(row)), key=_by_key)]


def _by_key(row: tuple[Any, ...]) -> tuple[Any, ...]:
    return row[:3]  # family, part, key: one total each


def runs(db: Database, pid: int, table: str | None, family: str
         ) -> tuple[int, int, str | None, int | None] | None:
    """A person's wins in a row now and at most in one family (everywhere, or at
    ``table``), and (played, row) of the last game they count: one row by primary key."""
    row = db.conn.execute("select streak, longest, last_played, last_row from figure_totals "
                          "where person_id = ? and table_key = ? and family = ? and "
                          "part = 'game' and key = ''", [pid, table or "", family]).fetchone()
    return tuple(row) if row else None  # type: ignore[return-value]


def wins_beside(db: Database, pid: int, family: str, only: str | None,
                at: tuple[str, int]) -> tuple[int, int, bool]:
    """How many games in a row a person won just before the game played at ``at``
    ``(played, row)`` and just after it, and whether those after reach their last game:
    the nearest game lost on each side, then the games between counted, both by SQLite
    on the figures' covering index (a player who wins every game has one run as long as
    their history: no row of it reaches Python)."""
    where, params = _only(only)
    conn = db.conn
    counted = []
    for op, back, order in (("<", ">", "desc"), (">", "<", "asc")):
        within = (f"from figures f where person_id = ? and family = ?{where} and "
                  f"(f.played, f.game_row) {op} (?, ?)")
        args = [pid, family, *params, *at]
        lost = conn.execute(f"select f.played, f.game_row {within} and f.won = 0 order by "
                            f"f.played {order}, f.game_row {order} limit 1", args).fetchone()
        if lost is not None:
            within += f" and (f.played, f.game_row) {back} (?, ?)"
            args += list(lost)
        counted.append((int(conn.execute(f"select count(*) {within}", args).fetchone()[0]),
                        lost is not None))
    (before, _), (after, lost_after) = counted
    return before, after, not lost_after


def all_totals(db: Database) -> list[tuple[Any, ...]]:
    """Every running total, in key order (what a full recomputation is compared with),
    the parts' totals as rows of their own."""
    return sorted(((pid, scope, *x) for pid, scope, *row in db.conn.execute(
        f"select person_id, table_key, {', '.join(TOTAL_KEYS)}, parts from figure_totals")
        for x in _expanded(tuple(row))), key=lambda r: r[:5])


#: A seat's figures' columns as :func:`game_figures` gives them.
SEAT_KEYS = ("seat", "person_id", "family", "ruleset_id", "table_key", "played", "game_row",
             "total", "place", "won")


def seat_parts(text: str | None) -> list[tuple[Any, ...]]:
    """A seat's parts as kept in its figures row (``figures.parts``, migration 0016:
    ``[part, key, position, grp, points, deals]`` each, by part and position)."""
    return [tuple(p) for p in json.loads(text)] if text else []


def game_figures(db: Database, gid: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A game's figures as kept (its seats', then their parts), with their person, family,
    ruleset, table and when: what its running totals hold of it."""
    seats, parts = [], []
    for *row, text in db.conn.execute(
            f"select {', '.join(SEAT_KEYS)}, parts from figures where game_id = ? "
            "order by seat", [gid]):
        f = dict(zip(SEAT_KEYS, row, strict=True))
        seats.append(f)
        parts += [{"seat": f["seat"], "person_id": f["person_id"], "family": f["family"],
                   "table_key": f["table_key"], "played": f["played"],
                   "game_row": f["game_row"], "part": part, "key": key, "position": position,
                   "grp": grp, "points": points, "deals": deals}
                  for part, key, position, grp, points, deals in seat_parts(text)]
    return seats, parts


def all_figures(db: Database) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every figure kept, oldest game first (a full recomputation of the totals): seats
    ``(game_id, seat, person_id, family, ruleset_id, table_key, played, game_row, total,
    place, won)`` and parts ``(game_id, seat, person_id, family, table_key, played,
    game_row, part, key, position, grp, points, deals)``."""
    seats, parts = [], []
    for *row, text in db.conn.execute(
            "select game_id, seat, person_id, family, ruleset_id, table_key, played, "
            "game_row, total, place, won, parts from figures "
            "order by played, game_row, seat"):
        seats.append(tuple(row))
        gid, seat, pid, family, _ruleset, table, played, game_row = row[:8]
        parts += [(gid, seat, pid, family, table, played, game_row, part, key, position, grp,
                   points, deals)
                  for part, key, position, grp, points, deals in seat_parts(text)]
    return seats, parts


def first_figure(db: Database, pid: int, table: str | None, family: str, part: str,
                 key: str) -> tuple[Any, ...] | None:
    """Where a person's total of ``part`` and ``key`` was first played now: ``(played,
    row, position, game, seat)`` of the earliest finished game counted in it."""
    where, params = _only(table)
    if part in ("game", "ruleset"):
        if part == "ruleset":
            where += " and coalesce(f.ruleset_id, '') = ?"
            params = [*params, key]
        sql = (f"select played, game_row, 0, game_id, seat from figures f where person_id = ? "
               f"and family = ?{where} order by {_ORDER} limit 1")
        row = db.conn.execute(sql, [pid, family, *params]).fetchone()
    else:  # the person's games in the order played (the figures' index), the first that
        # counts it (each by the parts' primary key): what a page lists first, where a
        # kind of deal was first played (migration 0016: the parts ride in the figures' rows)
        row = db.conn.execute(
            "select f.played, f.game_row, p.value ->> 2, f.game_id, f.seat from figures f, "
            f"json_each(f.parts) p where f.person_id = ? and f.family = ?{where} and "
            f"p.value ->> 0 = ? and p.value ->> 1 = ? order by {_ORDER} limit 1",
            [pid, family, *params, part, key]).fetchone()
    return tuple(row) if row else None


def last_figure(db: Database, pid: int, table: str | None, family: str
                ) -> tuple[Any, Any] | None:
    """(played, row) of a person's latest finished game of ``family`` (by index)."""
    where, params = _only(table)
    row = db.conn.execute(f"select played, game_row from figures f where person_id = ? and "
                          f"family = ?{where} order by f.played desc, f.game_row desc limit 1",
                          [pid, family, *params]).fetchone()
    return (row[0], row[1]) if row else None


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


def _seating_rows(where: str) -> str:
    return f"""
        select g.id, g.family, g.ruleset_id, g.finished, g.created_at, g.updated_at,
               g.rematch_of, {PLAYED_AT} as played_at,
               (select json_group_array(person_id) from (select person_id from players p
                 where p.game_id = g.id order by seat)) as people
        from games g {where}"""


#: A game's place among its table's: ``(id, table_key, created_at, rowid)``.
Place = tuple[str, str | None, str, int]


def game_place(db: Database, gid: str) -> Place:
    """Where a game stands among its table's games (``GameNotFound``)."""
    row = db.conn.execute("select id, table_key, created_at, rowid from games where id = ?",
                          [gid]).fetchone()
    if row is None:
        raise GameNotFound(gid)
    return tuple(row)  # type: ignore[return-value]


def evening_game(db: Database, eid: str) -> Place | None:
    """The game whose evening would have id ``eid`` (None if no game's)."""
    row = db.conn.execute("select id, table_key, created_at, rowid from games "
                          "where evening_id = ? limit 1", [eid]).fetchone()
    return tuple(row) if row else None  # type: ignore[return-value]


def table_window(db: Database, key: str, created: str, row: int, since: str, back: int,
                 forward: int) -> list[dict[str, Any]]:
    """:func:`seatings` of the games of one table around one of its games (``created``,
    ``row``), oldest first: at most ``back`` before it, none started before ``since``,
    and it with at most ``forward - 1`` after it; by index (``table_key, created_at``)."""
    before = list(db.query(_seating_rows(
        "where g.table_key = ? and g.created_at >= ? and (g.created_at, g.rowid) < (?, ?) "
        "order by g.created_at desc, g.rowid desc limit ?"), [key, since, created, row, back]))
    after = list(db.query(_seating_rows(
        "where g.table_key = ? and (g.created_at, g.rowid) >= (?, ?) "
        "order by g.created_at, g.rowid limit ?"), [key, created, row, forward]))
    return [{**r, "people": json.loads(r["people"])} for r in before[::-1] + after]


def latest_games(db: Database, offset: int, size: int, club: str | None = None
                 ) -> list[Place]:
    """Games (of ``club``; None: of every club), the latest started first, ``size`` from
    ``offset``: where each stands."""
    if club is not None:
        return [tuple(r) for r in db.conn.execute(  # type: ignore[misc]
            "select id, table_key, created_at, rowid from games where club_id = ? "
            "order by created_at desc, rowid desc limit ? offset ?", [club, size, offset])]
    return [tuple(r) for r in db.conn.execute(  # type: ignore[misc]
        "select id, table_key, created_at, rowid from games "
        "order by created_at desc, rowid desc limit ? offset ?", [size, offset])]


def table_of(db: Database, gid: str) -> str | None:
    """The table key of a game (None if it has none)."""
    row = db.conn.execute("select table_key from games where id = ?", [gid]).fetchone()
    if row is None:
        raise GameNotFound(gid)
    return row[0]


def evening_table(db: Database, eid: str) -> str | None:
    """The table of the game whose evening would have id ``eid`` (None if no game's)."""
    row = db.conn.execute("select table_key from games where evening_id = ? limit 1",
                          [eid]).fetchone()
    return row[0] if row else None


def latest_tables(db: Database, offset: int, size: int) -> list[tuple[str | None, str]]:
    """(table key, created_at) of games, the latest started first, ``size`` from
    ``offset``."""
    return db.conn.execute("select table_key, created_at from games "
                           "order by created_at desc, rowid desc limit ? offset ?",
                           [size, offset]).fetchall()


class TournamentNotFound(LookupError):
    """No tournament has this id (or no player this number in it)."""


@dataclass(frozen=True)
class TournamentPlayer:
    number: int
    person_id: int
    name: str
    joined: int
    left_after: int | None


@dataclass(frozen=True)
class TournamentTable:
    """One table of one round: its game and how far that game is."""

    round: int
    number: int
    game_id: str
    seats: list[int]
    join_code: str
    ruleset_id: str
    finished: bool
    deals: int
    version: int
    #: The seat that deals first (drawn with the table).
    first_dealer: int = 0
    #: How many of its players signed its finished game, and whether the director did.
    signed_seats: int = 0
    director_signed: bool = False


@dataclass(frozen=True)
class TournamentFigure:
    """One seat of a finished game of the tournament (the store's ``figures``)."""

    game_id: str
    seat: int
    person_id: int
    total: int
    place: int
    won: bool


@dataclass(frozen=True)
class StoredTournament:
    id: str
    name: str
    rounds: int
    rulesets: dict[str, str]
    scoring: str
    seed: str
    version: int
    closed: bool
    created_at: str
    players: list[TournamentPlayer]
    tables: list[TournamentTable]
    figures: list[TournamentFigure]


def tournament_version(db: Database, tid: str) -> int:
    """The tournament's version alone (bumped by any change to it or to its games)."""
    row = db.conn.execute("select version from tournaments where id = ?", [tid]).fetchone()
    if row is None:
        raise TournamentNotFound(tid)
    return int(row[0])


_TOURNAMENT_HEAD = ("select id, name, rounds, rulesets, scoring, seed, version, closed, "
                    "created_at from tournaments where id = ?")
_TOURNAMENT_PLAYERS = ("select t.number, t.person_id, p.name, t.joined, t.left_after "
                       "from tournament_players t join people p on p.id = t.person_id "
                       "where t.tournament_id = ?")
_TOURNAMENT_TABLES = (
    "select t.round, t.number, t.game_id, t.seats, g.join_code, g.ruleset_id, "
    "g.finished, (select count(*) from deals d where d.game_id = g.id), g.version, "
    "json_extract(g.settings, '$.first_dealer'), "
    "(select count(*) from signatures s where s.game_id = g.id and s.seat >= 0), "
    "exists (select 1 from signatures s where s.game_id = g.id and s.seat = -1) "
    "from tournament_tables t join games g on g.id = t.game_id "
    "where t.tournament_id = ?")
_TOURNAMENT_FIGURES = (
    "select f.game_id, f.seat, f.person_id, f.total, f.place, f.won "
    "from tournament_tables t join figures f on f.game_id = t.game_id "
    "where t.tournament_id = ?")
#: Of the given games only (a JSON list of their ids).
_OF_GAMES = " and t.game_id in (select value from json_each(?))"


def _tables(conn: Any, tid: str, gids: list[str] | None = None) -> list[TournamentTable]:
    sql, params = _TOURNAMENT_TABLES, [tid]
    if gids is not None:
        sql, params = sql + _OF_GAMES, [tid, json.dumps(gids)]
    return [TournamentTable(r[0], r[1], r[2], json.loads(r[3]), r[4] or "", r[5] or "",
                            bool(r[6]), r[7], r[8], int(r[9] or 0), r[10], bool(r[11]))
            for r in conn.execute(sql + " order by t.round, t.number", params)]


def _figures(conn: Any, tid: str, gids: list[str] | None = None) -> list[TournamentFigure]:
    sql, params = _TOURNAMENT_FIGURES, [tid]
    if gids is not None:
        sql, params = sql + _OF_GAMES, [tid, json.dumps(gids)]
    return [TournamentFigure(r[0], r[1], r[2], r[3], r[4], bool(r[5]))
            for r in conn.execute(sql + " order by t.round, t.number, f.seat", params)]


def _head(row: Any, players: list[TournamentPlayer], tables: list[TournamentTable],
          figures: list[TournamentFigure]) -> StoredTournament:
    tid, name, rounds, rulesets, scoring, seed, version, closed, created = row
    return StoredTournament(tid, name, rounds, json.loads(rulesets), scoring, seed, version,
                            bool(closed), created, players, tables, figures)


def load_tournament(db: Database, tid: str) -> StoredTournament:
    """A whole tournament in one read transaction: its players (under the names they go
    by), every table of every round with its game's progress, and the figures of its
    finished games."""
    conn = db.conn
    with _one_read(conn):
        row = conn.execute(_TOURNAMENT_HEAD, [tid]).fetchone()
        if row is None:
            raise TournamentNotFound(tid)
        players = [TournamentPlayer(*r) for r in conn.execute(
            _TOURNAMENT_PLAYERS + " order by t.number", [tid])]
        tables = _tables(conn, tid)
        figures = _figures(conn, tid)
    return _head(row, players, tables, figures)


@contextmanager
def _one_read(conn: Any) -> Iterator[None]:
    """Its reads in one read transaction (one snapshot), unless the caller has one."""
    own = not conn.in_transaction
    if own:
        conn.execute("BEGIN")
    try:
        yield
    finally:
        if own:
            conn.execute("COMMIT")


@dataclass(frozen=True)
class TournamentSince:
    """What moved in a tournament since a kept read of it (:func:`tournament_since`)."""

    #: The tournament's own row (``players``, ``tables`` and ``figures`` left empty).
    head: StoredTournament
    #: How many players are entered (a late arrival adds one).
    players: int
    #: Every table's game and its version now.
    versions: dict[str, int]
    #: The tables whose game's version is not the kept one, and their games' figures
    #: (None: more moved than asked for, none read).
    tables: list[TournamentTable] | None
    figures: list[TournamentFigure] | None


def tournament_since(db: Database, tid: str, kept: Mapping[str, int],
                     most: int) -> TournamentSince:
    """In one read transaction: the tournament's row, its count of players, every table's
    game version, and the tables (with their figures) whose game's version is not the one
    in ``kept``, if at most ``most`` of them: a projector that keeps its tournament reads
    the games saved since, not the whole field (a game's version only goes up, and every
    write of the game, a signature or a rename of its players included, moves it)."""
    conn = db.conn
    with _one_read(conn):
        row = conn.execute(_TOURNAMENT_HEAD, [tid]).fetchone()
        if row is None:
            raise TournamentNotFound(tid)
        players = conn.execute("select count(*) from tournament_players where "
                               "tournament_id = ?", [tid]).fetchone()[0]
        versions = dict(conn.execute(
            "select t.game_id, g.version from tournament_tables t join games g on "
            "g.id = t.game_id where t.tournament_id = ?", [tid]).fetchall())
        moved = [g for g, v in versions.items() if kept.get(g) != v]
        tables = figures = None
        if len(moved) <= most:
            tables = _tables(conn, tid, moved) if moved else []
            figures = _figures(conn, tid, moved) if moved else []
    return TournamentSince(_head(row, [], [], []), players, versions, tables, figures)


def tournament_names(db: Database, tid: str, numbers: list[int]) -> dict[int, str]:
    """The names some of a tournament's players go by now, by entry number (a page of
    the projector's standings: a few dozen by the primary key, not the whole field)."""
    return dict(db.conn.execute(
        "select t.number, p.name from tournament_players t join people p on "
        "p.id = t.person_id where t.tournament_id = ? and t.number in "
        "(select value from json_each(?))", [tid, json.dumps(numbers)]).fetchall())


def tournament_of(db: Database, gid: str) -> str | None:
    """The tournament a game was drawn for, if any."""
    row = db.conn.execute("select tournament_id from tournament_tables where game_id = ?",
                          [gid]).fetchone()
    return row[0] if row else None


@dataclass(frozen=True)
class TableOfGame:
    """Where a game was drawn: its tournament, round and table."""

    tournament_id: str
    name: str
    round: int
    table: int
    #: The tournament is closed: its games are frozen until the director reopens it.
    closed: bool = False
    #: The last round drawn in the tournament: past ``round``, this table's players have
    #: moved on (the game's page says where, :func:`moved_on`).
    latest: int = 0


def table_of_game(db: Database, gid: str) -> TableOfGame | None:
    """The tournament, round and table a game was drawn for, in one row: what a game's
    page names, without reading the whole tournament (``bench/club.py``: at 150 tables
    :func:`load_tournament` is 1 to 2 ms, this a few µs, on every phone's page). The
    tournament's last round is read by its primary key (the last entry of an index)."""
    row = db.conn.execute(
        "select t.tournament_id, n.name, t.round, t.number, n.closed, (select max(l.round) "
        "from tournament_tables l where l.tournament_id = t.tournament_id) "
        "from tournament_tables t join tournaments n on n.id = t.tournament_id "
        "where t.game_id = ?", [gid]).fetchone()
    return TableOfGame(*row[:4], bool(row[4]), row[5] or 0) if row else None


@dataclass(frozen=True)
class MovedPlayer:
    """Where a player of a finished round's table sits in a later round."""

    seat: int          # at the old table (0-based)
    number: int        # entry number
    name: str
    table: int | None  # in the later round (None: not drawn in it, withdrawn)
    new_seat: int | None
    game_id: str | None


def round_seats(db: Database, tid: str, round_number: int) -> dict[int, tuple[int, int, str]]:
    """Every seat of one round of a tournament: entry number → (table, seat, game id);
    one indexed read of the round's tables."""
    out: dict[int, tuple[int, int, str]] = {}
    for number, seats, game_id in db.conn.execute(
            "select number, seats, game_id from tournament_tables "
            "where tournament_id = ? and round = ?", [tid, round_number]):
        for i, n in enumerate(json.loads(seats)):
            out[n] = (number, i, game_id)
    return out


def moved_on(db: Database, gid: str, round_number: int,
             seats_of: Callable[[str], dict[int, tuple[int, int, str]]] | None = None
             ) -> list[MovedPlayer]:
    """The players of game ``gid``'s table, in its seat order, and where each sits in
    round ``round_number`` of the same tournament: a few indexed statements, the later
    round's seat lists searched by SQLite (``json_each``) for these players alone, or
    looked up in ``seats_of(tournament id)`` (the round's every seat, :func:`round_seats`,
    which the caller may keep: a round's seats never change once drawn)."""
    row = db.conn.execute("select tournament_id, seats from tournament_tables "
                          "where game_id = ?", [gid]).fetchone()
    if row is None:
        return []
    tid, seats = row[0], json.loads(row[1])
    marks = ", ".join("?" * len(seats))
    names = dict(db.conn.execute(
        "select t.number, p.name from tournament_players t join people p "
        f"on p.id = t.person_id where t.tournament_id = ? and t.number in ({marks})",
        [tid, *seats]))
    if seats_of is not None:
        later = seats_of(tid)
        found = {n: later[n] for n in seats if n in later}
    else:
        found = {r[0]: r[1:] for r in db.conn.execute(
            "select s.value, n.number, s.key, n.game_id from tournament_tables n, "
            "json_each(n.seats) s where n.tournament_id = ? and n.round = ? "
            f"and s.value in ({marks})", [tid, round_number, *seats])}
    return [MovedPlayer(i, n, names.get(n, ""), *found.get(n, (None, None, None)))
            for i, n in enumerate(seats)]


def signatures(db: Database, gid: str) -> dict[int, dict[str, Any]]:
    """A game's signatures by seat (the director's under -1): by which right, when."""
    return {r[0]: {"by": r[1], "at": r[2]} for r in db.conn.execute(
        "select seat, by, signed_at from signatures where game_id = ? order by seat", [gid])}


_CHANGE = ("select c.id, c.at, c.game_id, c.action, c.number, c.by, c.finished, t.round, "
           "t.number from changes c left join tournament_tables t on t.game_id = c.game_id ")


def _changes(rows: Any) -> list[dict[str, Any]]:
    keys = ("id", "at", "game_id", "action", "number", "by", "finished", "round", "table")
    return [dict(zip(keys, r, strict=True)) for r in rows]


def game_changes(db: Database, gid: str) -> list[dict[str, Any]]:
    """What was changed in a game after the fact (corrections, undos, signatures taken
    off), oldest first."""
    return _changes(db.conn.execute(_CHANGE + "where c.game_id = ? order by c.id", [gid]))


def tournament_changes(db: Database, tid: str, limit: int = 500) -> list[dict[str, Any]]:
    """A tournament's changes (its games' corrections and undos, its closing and
    reopening), the latest first, each with its round and table."""
    return _changes(db.conn.execute(_CHANGE + "where c.tournament_id = ? order by c.id desc "
                                    "limit ?", [tid, limit]))


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


def finished_without_figures(db: Database) -> list[str]:
    """The finished games that have no figures (a database made before they were kept),
    oldest first."""
    return [r[0] for r in db.conn.execute(
        "select id from games g where finished = 1 and not exists "
        "(select 1 from figures f where f.game_id = g.id) order by rowid")]


def versions(db: Database, ids: list[str]) -> dict[str, int]:
    """Every given game's or tournament's version (a missing one left out), in one query
    per 500 of them (their ids are both 96 random bits: one never names the other)."""
    found: dict[str, int] = {}
    for i in range(0, len(ids), 500):
        chunk = ids[i:i + 500]
        marks = ", ".join("?" * len(chunk))
        for key, version in db.conn.execute(
                f"select id, version from games where id in ({marks}) union all "
                f"select id, version from tournaments where id in ({marks})",
                chunk + chunk).fetchall():
            found[key] = int(version)
    return found


# -- ratings and seasons (issue 36: tables ``rated_games``, ``rating_seats``, ``ratings``,
# ``seasons``) -------------------------------------------------------------------------

@dataclass(frozen=True)
class RatedGame:
    """A finished game's place in its club's finishing order."""

    club_id: str
    seq: int
    casual: bool
    counted: bool


def rated_game(db: Database, gid: str) -> RatedGame | None:
    row = db.conn.execute("select club_id, seq, casual, counted from rated_games "
                          "where game_id = ?", [gid]).fetchone()
    return RatedGame(row[0], int(row[1]), bool(row[2]), bool(row[3])) if row else None


def game_club(db: Database, gid: str) -> tuple[str, bool, bool]:
    """The game's club, whether it is casual (no tournament's), and whether that club's
    casual games count for ratings."""
    row = db.conn.execute(
        "select g.club_id, not exists (select 1 from tournament_tables t where t.game_id "
        "= g.id), coalesce(c.casual_rated, 0) from games g left join clubs c on "
        "c.id = g.club_id where g.id = ?", [gid]).fetchone()
    if row is None:
        raise GameNotFound(gid)
    return row[0], bool(row[1]), bool(row[2])


def seat_people(db: Database, gid: str) -> list[int]:
    """The people at game ``gid``, by seat."""
    return [r[0] for r in db.conn.execute(
        "select person_id from players where game_id = ? order by seat", [gid])]


def ratings_now(db: Database, people: list[int]) -> dict[int, tuple[float, float, int]]:
    """Each given person's rating now: (mu, sigma, rated games); none if unrated."""
    marks = ", ".join("?" * len(people))
    return {r[0]: (r[1], r[2], r[3]) for r in db.conn.execute(
        f"select person_id, mu, sigma, games from ratings where person_id in ({marks})",
        people)}


def rating_before(db: Database, pid: int, seq: int) -> tuple[float, float, int] | None:
    """A person's rating after their last rated game before ``seq`` (by index)."""
    row = db.conn.execute("select mu, sigma, games from rating_seats where person_id = ? "
                          "and seq < ? order by seq desc limit 1", [pid, seq]).fetchone()
    return (row[0], row[1], row[2]) if row else None


def rated_people_from(db: Database, club: str, seq: int) -> set[int]:
    """The people with a rated game of the club from ``seq`` on."""
    return {r[0] for r in db.conn.execute(
        "select distinct person_id from rating_seats where club_id = ? and seq >= ?",
        [club, seq])}


def counted_places(db: Database, club: str | None, seq: int = 0
                   ) -> list[tuple[str, int, str, int, int, int]]:
    """The counted games of a club (None: every club) from ``seq`` on, in finishing
    order, a row per seat: (game, seq, club, seat, person, place)."""
    where = "r.club_id = ? and " if club is not None else ""
    return db.conn.execute(
        "select r.game_id, r.seq, r.club_id, f.seat, f.person_id, f.place from rated_games r "
        f"join figures f on f.game_id = r.game_id where {where}r.counted = 1 and r.seq >= ? "
        "order by r.seq, f.seat", ([club] if club is not None else []) + [seq]).fetchall()


def finished_to_rate(db: Database) -> list[tuple[str, str, bool, bool]]:
    """Every finished one-player-a-side game with figures (each seat its own side), in
    the order they finished (a game rated already keeps its place in the order; the rest
    by their last deal's time): (game, club, casual, counted now)."""
    return [(r[0], r[1], bool(r[2]), bool(r[3])) for r in db.conn.execute(
        "select g.id, g.club_id, t.game_id is null, t.game_id is not null or "
        "coalesce(c.casual_rated, 0) from games g "
        "left join tournament_tables t on t.game_id = g.id "
        "left join clubs c on c.id = g.club_id left join rated_games r on r.game_id = g.id "
        "where g.finished and (select count(*) = max(f.sides) from figures f "
        "where f.game_id = g.id) "
        "order by r.seq is null, r.seq, "
        "(select max(d.recorded_at) from deals d where d.game_id = g.id), g.rowid")]


def kept_ratings(db: Database) -> list[tuple[Any, ...]]:
    """Every person's rating as kept: (person, club, mu, sigma, games), by person."""
    return db.conn.execute("select person_id, club_id, mu, sigma, games from ratings "
                           "order by person_id").fetchall()


def kept_rating_seats(db: Database) -> list[tuple[Any, ...]]:
    return db.conn.execute(
        "select game_id, seat, person_id, club_id, seq, place, games, mu_before, "
        "sigma_before, mu, sigma from rating_seats order by seq, seat").fetchall()


def finishing_order(db: Database, club: str | None = None) -> list[str]:
    """The club's (every club's) finished one-player-a-side games in finishing order."""
    where = " where club_id = ?" if club else ""
    return [r[0] for r in db.conn.execute(
        f"select game_id from rated_games{where} order by seq", [club] if club else [])]


def seat_places(db: Database, games: list[str]) -> list[tuple[str, int, int, str, int]]:
    """Each seat of the given finished games: (game, seat, person, club, place)."""
    out: list[tuple[str, int, int, str, int]] = []
    for i in range(0, len(games), 500):
        chunk = games[i:i + 500]
        marks = ", ".join("?" * len(chunk))
        out += db.conn.execute(
            "select f.game_id, f.seat, f.person_id, g.club_id, f.place from figures f "
            f"join games g on g.id = f.game_id where f.game_id in ({marks})",
            chunk).fetchall()
    return out


@dataclass(frozen=True)
class StoredSeason:
    id: str
    club_id: str
    name: str
    starts: str
    ends: str
    scoring: str
    best: int | None


_SEASON = "id, club_id, name, starts, ends, scoring, best"


def seasons(db: Database, club: str) -> list[StoredSeason]:
    """A club's seasons, the latest first."""
    return [StoredSeason(*r) for r in db.conn.execute(
        f"select {_SEASON} from seasons where club_id = ? order by starts desc, id",
        [club])]


def season(db: Database, club: str, sid: str) -> StoredSeason | None:
    row = db.conn.execute(f"select {_SEASON} from seasons where id = ? and club_id = ?",
                          [sid, club]).fetchone()
    return StoredSeason(*row) if row else None


def season_on(db: Database, club: str, day: str) -> StoredSeason | None:
    """The club's season that ``day`` (ISO) falls in (of two, the later starting), else
    the last one that ended before it."""
    row = db.conn.execute(
        f"select {_SEASON} from seasons where club_id = ? and starts <= ? "
        "order by ends >= ? desc, starts desc, id limit 1", [club, day, day]).fetchone()
    return StoredSeason(*row) if row else None


@dataclass(frozen=True)
class NightFigure:
    """One seat of a finished game of a club night within a season."""

    tournament_id: str
    name: str
    created_at: str
    scoring: str
    game_id: str
    person_id: int
    total: int


def season_figures(db: Database, club: str, starts: str, ends: str,
                   person: int | None = None) -> list[NightFigure]:
    """Every seat of every finished game of the club's tournaments begun from ``starts``
    to ``ends`` (ISO days, both in), night by night (by index: the club's tournaments by
    their start, each one's tables and figures by their keys); with ``person``, only the
    nights they played in."""
    mine = ("and exists (select 1 from tournament_players p where p.tournament_id = n.id "
            "and p.person_id = ?) " if person is not None else "")
    return [NightFigure(*r) for r in db.conn.execute(
        "select n.id, n.name, n.created_at, n.scoring, f.game_id, f.person_id, f.total "
        "from tournaments n join tournament_tables t on t.tournament_id = n.id "
        "join figures f on f.game_id = t.game_id "
        "where n.club_id = ? and n.created_at >= ? and n.created_at < date(?, '+1 day') "
        f"{mine}order by n.created_at, n.rowid, t.round, t.number, f.seat",
        [club, starts, ends] + ([person] if person is not None else []))]


def names_of(db: Database, ids: list[int]) -> dict[int, str]:
    """The names the given people go by."""
    out: dict[int, str] = {}
    for i in range(0, len(ids), 500):
        chunk = ids[i:i + 500]
        marks = ", ".join("?" * len(chunk))
        out.update(db.conn.execute(f"select id, name from people where id in ({marks})",
                                   chunk).fetchall())
    return out


def rating_rows(db: Database, ids: list[int]) -> dict[int, tuple[float, float, float, int]]:
    """The given people's ratings now: (mu, sigma, conservative, rated games)."""
    out: dict[int, tuple[float, float, float, int]] = {}
    for i in range(0, len(ids), 500):
        chunk = ids[i:i + 500]
        marks = ", ".join("?" * len(chunk))
        out.update({r[0]: tuple(r[1:]) for r in db.conn.execute(  # type: ignore[misc]
            "select person_id, mu, sigma, conservative, games from ratings "
            f"where person_id in ({marks})", chunk)})
    return out


def person_in_club(db: Database, pid: int, club: str) -> str | None:
    """The name of person ``pid`` if they are of ``club``."""
    row = db.conn.execute("select name from people where id = ? and club_id = ?",
                          [pid, club]).fetchone()
    return row[0] if row else None


def games_together(db: Database, a: int, b: int, club: str, starts: str, ends: str
                   ) -> list[tuple[str, str, int, int, int, int]]:
    """The finished games of the club's nights from ``starts`` to ``ends`` at which ``a``
    and ``b`` both sat: (game, tournament, a's total, a's place, b's total, b's place),
    found from ``a``'s figures by index."""
    return db.conn.execute(
        "select fa.game_id, n.id, fa.total, fa.place, fb.total, fb.place "
        "from figures fa join figures fb on fb.game_id = fa.game_id and fb.person_id = ? "
        "join tournament_tables t on t.game_id = fa.game_id "
        "join tournaments n on n.id = t.tournament_id "
        "where fa.person_id = ? and n.club_id = ? and n.created_at >= ? "
        "and n.created_at < date(?, '+1 day') order by fa.played, fa.game_row",
        [b, a, club, starts, ends]).fetchall()


# -- clubs (issue 36) --------------------------------------------------------------------


class ClubNotFound(LookupError):
    """No club has this id (or this invitation code)."""


_CLUB = ("id", "name", "public", "casual_rated", "default_ruleset", "invite_code", "version",
         "created_at")


def club(db: Database, cid: Any) -> dict[str, Any]:
    """A club's row, by primary key."""
    row = db.conn.execute(f"select {', '.join(_CLUB)} from clubs where id = ?",
                          [cid]).fetchone() if isinstance(cid, str) else None
    if row is None:
        raise ClubNotFound(cid)
    return dict(zip(_CLUB, row, strict=True))


def club_by_code(db: Database, code: str) -> str:
    """The id of the club whose invitation code this is."""
    row = db.conn.execute("select id from clubs where invite_code = ?", [code]).fetchone()
    if row is None:
        raise ClubNotFound(code)
    return str(row[0])


def club_directors(db: Database, cid: str) -> list[dict[str, Any]]:
    """The directors a club's manager named, in the order named."""
    return [{"id": r[0], "name": r[1], "created_at": r[2]} for r in db.conn.execute(
        "select id, name, created_at from club_directors where club_id = ? order by id",
        [cid])]


def club_of_game(db: Database, gid: str) -> str:
    row = db.conn.execute("select club_id from games where id = ?", [gid]).fetchone()
    if row is None:
        raise GameNotFound(gid)
    return str(row[0])


def club_of_tournament(db: Database, tid: str) -> str:
    row = db.conn.execute("select club_id from tournaments where id = ?", [tid]).fetchone()
    if row is None:
        raise TournamentNotFound(tid)
    return str(row[0])


def club_of_person(db: Database, pid: Any) -> str:
    row = db.conn.execute("select club_id from people where id = ?", [pid]).fetchone() \
        if isinstance(pid, int) and pid in ROW_IDS else None
    if row is None:
        raise PersonNotFound(pid)
    return str(row[0])


def club_tournaments(db: Database, cid: str, limit: int) -> list[dict[str, Any]]:
    """A club's tournaments (its nights), the latest first, by index."""
    keys = ("id", "name", "rounds", "closed", "created_at")
    return [dict(zip(keys, r, strict=True)) for r in db.conn.execute(
        "select id, name, rounds, closed, created_at from tournaments where club_id = ? "
        "order by created_at desc, rowid desc limit ?", [cid, limit])]


def count_clubs(db: Database) -> int:
    return int(db.conn.execute("select count(*) from clubs").fetchone()[0])


# ---- the round change (issue 34, item 2) -------------------------------------------------


def round_moves(db: Database, tid: str, old_round: int,
                new_round: int) -> dict[str, list[MovedPlayer]]:
    """Every table of round ``old_round`` of a tournament, by its game: its players in seat
    order and where each sits in round ``new_round`` (:class:`MovedPlayer`). Three indexed
    statements for the whole round, whatever its size (the later round's seats, the
    tournament's names, the earlier round's tables): what the round change's fragments of
    every table are made from at once, not a few statements per table."""
    later = round_seats(db, tid, new_round)
    names = dict(db.conn.execute(
        "select t.number, p.name from tournament_players t join people p "
        "on p.id = t.person_id where t.tournament_id = ?", [tid]))
    out: dict[str, list[MovedPlayer]] = {}
    for game_id, seats in db.conn.execute(
            "select game_id, seats from tournament_tables where tournament_id = ? "
            "and round = ? order by number", [tid, old_round]):
        out[game_id] = [MovedPlayer(i, n, names.get(n, ""), *later.get(n, (None, None, None)))
                        for i, n in enumerate(json.loads(seats))]
    return out


def round_tables(db: Database, tid: str, round_number: int) -> int:
    """How many tables round ``round_number`` of a tournament has (its primary key's
    range)."""
    return int(db.conn.execute(
        "select count(*) from tournament_tables where tournament_id = ? and round = ?",
        [tid, round_number]).fetchone()[0])


def last_rename(db: Database) -> int:
    """The id of the latest rename of anyone (0: none), the last entry of the primary key:
    what a kept list of names is stamped with, so that a rename shows at once."""
    return int(db.conn.execute("select coalesce(max(id), 0) from renames").fetchone()[0])
