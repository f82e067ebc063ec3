"""A club's ratings and seasons as kept, and what their replay and their pages read."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from .game_reads import GameNotFound


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


def rating_before(db: Database, pid: int, seq: int) -> tuple[float, float, int] | None:
    """A person's rating after their last rated game before ``seq``."""
    row = db.conn.execute("select mu, sigma, games from rating_seats where person_id = ? "
                          "and seq < ? order by seq desc limit 1", [pid, seq]).fetchone()
    return tuple(row) if row else None  # type: ignore[return-value]


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


def finishing_order(db: Database) -> list[str]:
    """Every club's finished one-player-a-side games in finishing order."""
    return [r[0] for r in db.conn.execute("select game_id from rated_games order by seq")]


def seat_places(db: Database, games: list[str]) -> list[tuple[str, int, int, str, int]]:
    """Each seat of the given finished games: (game, seat, person, club, place)."""
    return db.conn.execute(
        "select f.game_id, f.seat, f.person_id, g.club_id, f.place from figures f "
        "join games g on g.id = f.game_id where f.game_id in (select value from json_each(?))",
        [json.dumps(games)]).fetchall()


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
    to ``ends`` (ISO days, both in), night by night; with ``person``, only the nights
    they played in."""
    mine = ("and exists (select 1 from tournament_players p where p.tournament_id = n.id "
            "and p.person_id = ?) " if person is not None else "")
    return [NightFigure(*r) for r in db.conn.execute(
        "select n.id, n.name, n.created_at, n.scoring, f.game_id, f.person_id, f.total "
        "from tournaments n join tournament_tables t on t.tournament_id = n.id "
        "join figures f on f.game_id = t.game_id "
        "where n.club_id = ? and n.created_at >= ? and n.created_at < date(?, '+1 day') "
        f"{mine}order by n.created_at, n.rowid, t.round, t.number, f.seat",
        [club, starts, ends] + ([person] if person is not None else []))]


def rating_rows(db: Database, ids: list[int]) -> dict[int, tuple[float, float, float, int]]:
    """The given people's ratings now: (mu, sigma, conservative, rated games)."""
    return {r[0]: tuple(r[1:]) for r in db.conn.execute(  # type: ignore[misc]
        "select person_id, mu, sigma, conservative, games from ratings "
        "where person_id in (select value from json_each(?))", [json.dumps(ids)])}
