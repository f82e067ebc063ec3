"""A club's ratings (the rows the domain computes, kept inside a game's write) and its
seasons."""
from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from . import connection
from .connection import StoreError
from .transaction import writes

#: The setting that says every rating must be made from the games finished so far (set by
#: migration 0014; the domain's backfill at the app's start clears it).
RATINGS_WANTED = "ratings_wanted"


#: A seat's rating row as the domain hands it to :func:`put_rating_seats`: ``(game_id,
#: seat, person_id, club_id, seq, place, games, mu_before, sigma_before, mu, sigma)``.
RatingSeat = tuple[Any, ...]


#: A person's rating now: ``(person_id, club_id, mu, sigma, conservative, games)``.
PersonRating = tuple[Any, ...]

_INSERT_SEATS = ("insert into rating_seats (game_id, seat, person_id, club_id, seq, place, "
                 "games, mu_before, sigma_before, mu, sigma) "
                 "values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")


def add_rated_game(db: Database, gid: str, club: str, casual: bool, counted: bool) -> int:
    """Inside a write: game ``gid`` finished, last in its finishing order; its ``seq``."""
    return int(db.conn.execute(
        "insert into rated_games (game_id, club_id, seq, casual, counted) values "
        "(?, ?, (select coalesce(max(seq), 0) + 1 from rated_games), ?, ?) returning seq",
        [gid, club, int(casual), int(counted)]).fetchone()[0])


def drop_rated_game(db: Database, gid: str) -> None:
    """Inside a write: game ``gid`` no longer finished (undone, corrected, deleted)."""
    db.conn.execute("delete from rating_seats where game_id = ?", [gid])
    db.conn.execute("delete from rated_games where game_id = ?", [gid])


def count_casual(db: Database, club: str, counted: bool) -> int | None:
    """Inside a write: the club's casual games count for ratings (or no more); the first
    ``seq`` that changed, or None."""
    row = db.conn.execute("update rated_games set counted = ? where club_id = ? and casual "
                          "and counted != ? returning seq",
                          [int(counted), club, int(counted)]).fetchall()
    return min((r[0] for r in row), default=None)


def put_rating_seats(db: Database, club: str, seq: int, rows: list[RatingSeat]) -> None:
    """Inside a write: the club's seats' ratings from game ``seq`` on replaced by
    ``rows``."""
    db.conn.execute("delete from rating_seats where club_id = ? and seq >= ?", [club, seq])
    db.conn.executemany(_INSERT_SEATS, rows)


def put_ratings(db: Database, rows: list[PersonRating], gone: tuple[int, ...] = ()) -> None:
    """Inside a write: people's ratings now (``gone``: people left with no rated game)."""
    db.conn.executemany(
        "insert into ratings (person_id, club_id, mu, sigma, conservative, games) values "
        "(?, ?, ?, ?, ?, ?) on conflict (person_id) do update set club_id = excluded.club_id, "
        "mu = excluded.mu, sigma = excluded.sigma, conservative = excluded.conservative, "
        "games = excluded.games", rows)
    db.conn.executemany("delete from ratings where person_id = ?", [(p,) for p in gone])


@writes
def replace_ratings(db: Database, games: list[tuple[str, str, bool, bool]],
                    seats: list[RatingSeat], ratings: list[PersonRating]) -> None:
    """Every rating made afresh (the backfill of a database older than them): the rated
    games in their finishing order ``(game_id, club_id, casual, counted)``, their seats'
    ratings and each person's now."""
    for table in ("rating_seats", "rated_games", "ratings"):
        db.conn.execute(f"delete from {table}")
    db.conn.executemany("insert into rated_games (game_id, club_id, seq, casual, counted) "
                        "values (?, ?, ?, ?, ?)",
                        [(g, c, i, int(casual), int(counted))
                         for i, (g, c, casual, counted) in enumerate(games, start=1)])
    db.conn.executemany(_INSERT_SEATS, seats)
    put_ratings(db, ratings)
    db.conn.execute("delete from settings where key = ?", [RATINGS_WANTED])


class SeasonNotFound(StoreError):
    """No season of this club has this id."""


@writes
def put_season(db: Database, sid: str, club: str, name: str, starts: str, ends: str,
               scoring: str, best: int | None) -> None:
    """A club's season made, or changed (its name, range, scoring, best N)."""
    db.conn.execute(
        "insert into seasons (id, club_id, name, starts, ends, scoring, best, created_at) "
        "values (?, ?, ?, ?, ?, ?, ?, ?) on conflict (id) do update set name = excluded.name, "
        "starts = excluded.starts, ends = excluded.ends, scoring = excluded.scoring, "
        "best = excluded.best where seasons.club_id = excluded.club_id",
        [sid, club, name, starts, ends, scoring, best, connection.now()])
