"""A tournament's reads: whole, a game's table, where a round's players sit next, its
changes."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from .connection import one_value
from .game_reads import _CHANGE, one_read


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
    first_dealer: int = 0
    #: How many of its players signed its finished game, and whether the director did.
    signed_seats: int = 0
    director_signed: bool = False


@dataclass(frozen=True)
class TournamentFigure:
    """One seat of a finished game of the tournament."""

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
    """The tournament's version (bumped by any change to it or to its games)."""
    return int(one_value(db, "select version from tournaments where id = ?", tid,
                        TournamentNotFound))


def load_tournament(db: Database, tid: str) -> StoredTournament:
    """A whole tournament in one read transaction: its players, every table of every
    round with its game's progress, and the figures of its finished games."""
    conn = db.conn
    with one_read(conn):
        row = conn.execute("select id, name, rounds, rulesets, scoring, seed, version, closed, "
                           "created_at from tournaments where id = ?", [tid]).fetchone()
        if row is None:
            raise TournamentNotFound(tid)
        players = [TournamentPlayer(*r) for r in conn.execute(
            "select t.number, t.person_id, p.name, t.joined, t.left_after "
            "from tournament_players t join people p on p.id = t.person_id "
            "where t.tournament_id = ? order by t.number", [tid])]
        tables = [TournamentTable(*r[:3], json.loads(r[3]), r[4] or "", r[5] or "", bool(r[6]),
                                  *r[7:9], int(r[9] or 0), r[10], bool(r[11]))
                  for r in conn.execute(
            "select t.round, t.number, t.game_id, t.seats, g.join_code, g.ruleset_id, "
            "g.finished, (select count(*) from deals d where d.game_id = g.id), g.version, "
            "json_extract(g.settings, '$.first_dealer'), "
            "(select count(*) from signatures s where s.game_id = g.id and s.seat >= 0), "
            "exists (select 1 from signatures s where s.game_id = g.id and s.seat = -1) "
            "from tournament_tables t join games g on g.id = t.game_id "
            "where t.tournament_id = ? order by t.round, t.number", [tid])]
        figures = [TournamentFigure(*r[:5], bool(r[5])) for r in conn.execute(
            "select f.game_id, f.seat, f.person_id, f.total, f.place, f.won "
            "from tournament_tables t join figures f on f.game_id = t.game_id "
            "where t.tournament_id = ? order by t.round, t.number, f.seat", [tid])]
    return StoredTournament(*row[:3], json.loads(row[3]), *row[4:7], bool(row[7]), row[8],
                            players, tables, figures)


@dataclass(frozen=True)
class TableOfGame:
    """Where a game was drawn: its tournament, round and table."""

    tournament_id: str
    name: str
    round: int
    table: int
    #: The tournament is closed: its games are frozen until the director reopens it.
    closed: bool = False
    #: The last round drawn in the tournament.
    latest: int = 0


def table_of_game(db: Database, gid: str) -> TableOfGame | None:
    """The tournament, round and table a game was drawn for, in one row."""
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


def tournament_changes(db: Database, tid: str) -> list[dict[str, Any]]:
    """A tournament's latest 500 changes (its games' corrections and undos, its closing
    and reopening), the latest first, each with its round and table."""
    return list(db.query(_CHANGE + "where c.tournament_id = ? order by c.id desc limit 500",
                         [tid]))


def round_moves(db: Database, tid: str, old_round: int, new_round: int,
                gid: str) -> list[MovedPlayer] | None:
    """Game ``gid``'s table of round ``old_round``: its players in seat order and where
    each sits in round ``new_round`` (None: the game is no table of that round)."""
    row = db.conn.execute("select seats from tournament_tables where tournament_id = ? and "
                          "round = ? and game_id = ?", [tid, old_round, gid]).fetchone()
    if row is None:
        return None
    later = {n: (number, i, game_id) for n, number, i, game_id in db.conn.execute(
        "select j.value, t.number, j.key, t.game_id from tournament_tables t, "
        "json_each(t.seats) j where t.tournament_id = ? and t.round = ? "
        "and j.value in (select value from json_each(?))", [tid, new_round, row[0]])}
    names = dict(db.conn.execute(
        "select t.number, p.name from tournament_players t join people p "
        "on p.id = t.person_id where t.tournament_id = ? "
        "and t.number in (select value from json_each(?))", [tid, row[0]]))
    return [MovedPlayer(i, n, names.get(n, ""), *later.get(n, (None, None, None)))
            for i, n in enumerate(json.loads(row[0]))]


def round_sizes(db: Database, tids: list[str]) -> dict[str, dict[int, int]]:
    """Each given tournament's rounds drawn so far, with how many tables each has."""
    sizes: dict[str, dict[int, int]] = {}
    for tid, number, count in db.conn.execute(
            "select tournament_id, round, count(*) from tournament_tables where tournament_id "
            "in (select value from json_each(?)) group by tournament_id, round",
            [json.dumps(tids)]):
        sizes.setdefault(tid, {})[number] = count
    return sizes
