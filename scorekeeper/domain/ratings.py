"""A club's ratings kept as its games finish (the model: :mod:`..rules.ratings`).

A game that finishes goes last in the finishing order; if it counts (a tournament's game,
or a casual game of a club that counts those), the club's counted games are rated again
from it on, as they are from a finished game corrected, undone or deleted, or from the
first casual game the club's switch touched: each player from their rating before it.
Only games of one player a side are rated.
"""
from __future__ import annotations

from itertools import groupby
from operator import itemgetter
from typing import Any

from ..rules.ratings import Rating, rate_places
from ..storage import rating_reads, rating_writes


def keep(db: Any, gid: str, game: Any | None) -> None:
    """Inside the write that finished, corrected, undid or deleted game ``gid`` (``game``:
    the game after it, or None): its club's ratings follow."""
    finished = game is not None and game.state.finished \
        and all(len(side) == 1 for side in game.family.sides(game.rules))
    kept = rating_reads.rated_game(db, gid)
    if finished and kept is None:
        club, casual, casual_counts = rating_reads.game_club(db, gid)
        counted = not casual or casual_counts
        seq = rating_writes.add_rated_game(db, gid, club, casual, counted)
        if counted:
            replay(db, club, seq)
    elif finished and kept.counted:
        replay(db, kept.club_id, kept.seq)
    elif kept is not None and not finished:
        rating_writes.drop_rated_game(db, gid)
        if kept.counted:
            people = {p for p in rating_reads.seat_people(db, gid) if p is not None}
            replay(db, kept.club_id, kept.seq, also=people)


def _rated(rows: list[tuple[Any, ...]], start: dict[int, tuple[float, float, int] | None]
           ) -> tuple[list[rating_writes.RatingSeat], list[rating_writes.PersonRating]]:
    """The games of ``rows`` (per seat, in finishing order) rated in turn from ``start``
    (None: a new player): every seat's rating row, and every person's at the end."""
    now = {pid: (Rating(*r[:2]), r[2]) if r else (Rating(), 0) for pid, r in start.items()}
    seats: list[rating_writes.RatingSeat] = []
    clubs: dict[int, str] = {}
    for _, group in groupby(rows, key=itemgetter(0)):
        game = list(group)
        before = [now[r[4]][0] for r in game]
        for (gid, seq, club, seat, pid, place), b, a in zip(
                game, before, rate_places(before, [r[5] for r in game]), strict=True):
            now[pid] = (a, now[pid][1] + 1)
            clubs[pid] = club
            seats.append((gid, seat, pid, club, seq, place, now[pid][1], b.mu, b.sigma, a.mu,
                          a.sigma))
    people = [(pid, clubs[pid], r.mu, r.sigma, r.conservative, games)
              for pid, (r, games) in sorted(now.items()) if pid in clubs]
    return seats, people


def replay(db: Any, club: str, seq: int, also: frozenset[int] | set[int] = frozenset()
           ) -> None:
    """The club's counted games from ``seq`` on rated again from each person's rating
    before it; ``also``: people whose game from ``seq`` on no longer counts."""
    rows = rating_reads.counted_places(db, club, seq)
    people = rating_reads.rated_people_from(db, club, seq) | {r[4] for r in rows} | set(also)
    start = {pid: rating_reads.rating_before(db, pid, seq) for pid in people}
    seats, now = _rated(rows, {pid: start[pid] for pid in {r[4] for r in rows}})
    rating_writes.put_rating_seats(db, club, seq, seats)
    moved = {row[0] for row in now}
    back = [(pid, club, r[0], r[1], Rating(r[0], r[1]).conservative, r[2])
            for pid in sorted(people - moved) if (r := start[pid]) is not None]
    gone = tuple(sorted(pid for pid in people - moved if start[pid] is None))
    rating_writes.put_ratings(db, now + back, gone=gone)


def casual_switched(db: Any, club: str, counted: bool) -> None:
    """Inside the write that changes whether the club's casual games count: its ratings
    replayed from the first casual game that changed."""
    first = rating_writes.count_casual(db, club, counted)
    if first is not None:
        replay(db, club, first)


def _from_start(rows: list[tuple[Any, ...]]
                ) -> tuple[list[rating_writes.RatingSeat], list[rating_writes.PersonRating]]:
    """Counted games' seats (in finishing order) rated from the start, each club's apart."""
    by_club: dict[str, list[tuple[Any, ...]]] = {}
    for r in rows:
        by_club.setdefault(r[2], []).append(r)
    rated = [_rated(by_club[club], dict.fromkeys({r[4] for r in by_club[club]}))
             for club in sorted(by_club)]
    return [s for seats, _ in rated for s in seats], [p for _, people in rated for p in people]


def recomputed(db: Any) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every rating made from the history alone (what the kept ratings must equal): each
    person's (person, club, mu, sigma, games) and each seat's rating row."""
    seats, people = _from_start(rating_reads.counted_places(db, None))
    return (sorted((p[0], p[1], p[2], p[3], p[5]) for p in people),
            sorted(seats, key=lambda s: (s[4], s[1])))


def rebuild(db: Any) -> None:
    """Every rating made afresh from the finished games, in one write."""
    games = rating_reads.finished_to_rate(db)
    order = {gid: i for i, (gid, *_rest) in enumerate(games, start=1)}
    counted = {gid for gid, _, _, c in games if c}
    rows = sorted(((gid, order[gid], club, seat, pid, place) for gid, seat, pid, club, place
                   in rating_reads.seat_places(db, sorted(counted))),
                  key=lambda r: (r[1], r[3]))
    seats, people = _from_start(rows)
    rating_writes.replace_ratings(db, games, seats, people)
