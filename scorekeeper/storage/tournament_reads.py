"""A tournament's reads: whole, or what moved in it since a kept read; a game's table,
where a round's players sit next, its changes.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from .game_reads import _CHANGE, _changes


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
    page names, without reading the whole tournament. The tournament's last round is read by its primary key (the last entry of an index)."""
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


def tournament_changes(db: Database, tid: str, limit: int = 500) -> list[dict[str, Any]]:
    """A tournament's changes (its games' corrections and undos, its closing and
    reopening), the latest first, each with its round and table."""
    return _changes(db.conn.execute(_CHANGE + "where c.tournament_id = ? order by c.id desc "
                                    "limit ?", [tid, limit]))


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
