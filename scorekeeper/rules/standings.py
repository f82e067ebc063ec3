"""A tournament's standings from its finished games: pure, the one home of how players rank.

By points, players rank by the sum of their game totals (each table's game sums to its
ruleset's total); by places, each game gives its places 3 down to 0, spread evenly at any
table size, tied places sharing the average. Ties break by table wins, then the best game.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .places import shared_places

#: How a tournament ranks: by the sum of game totals, or by the points places give.
SCORINGS = ("points", "places")

#: What first place at a table gives when ranking by places (last place gives 0).
PLACE_TOP = 3


@dataclass(frozen=True)
class Seat:
    """One player's result in one finished game: their entry number and game total."""

    player: int
    total: int


@dataclass(frozen=True)
class Standing:
    player: int
    #: A whole number ranking by points (the sum of game totals), a fraction by places.
    points: Fraction | int
    wins: int
    games: int
    best: int | None
    rank: int


def place_points(totals: Sequence[int]) -> list[Fraction]:
    """What each side's place in one game gives when ranking by places.

    >>> [str(p) for p in place_points([30, -10, 0, -20])]
    ['3', '1', '2', '0']
    >>> [str(p) for p in place_points([30, 30, -40, -20])]
    ['5/2', '5/2', '0', '1']
    """
    n = len(totals)
    if n < 2:
        return [Fraction(0)] * n
    return [PLACE_TOP * (n - p) / Fraction(n - 1) for p in shared_places(totals)]


def standings(games: Iterable[Sequence[Seat]], players: Iterable[int],
              scoring: str = "points") -> list[Standing]:
    """Every player's line, best first (a player with no finished game has zeros); equal
    lines share a rank (1, 2, 2, 4).

    >>> rows = standings([[Seat(1, 40), Seat(2, -40)], [Seat(1, -10), Seat(3, 10)]], [1, 2, 3])
    >>> [(r.player, int(r.points), r.wins, r.rank) for r in rows]
    [(1, 30, 1, 1), (3, 10, 1, 2), (2, -40, 0, 3)]
    """
    points: dict[int, int | Fraction] = dict.fromkeys(players, 0)
    wins, played = dict.fromkeys(points, 0), dict.fromkeys(points, 0)
    best: dict[int, int | None] = dict.fromkeys(points)
    for seats in games:
        totals = [s.total for s in seats]
        top = max(totals, default=0)
        gets = place_points(totals) if scoring == "places" else totals
        for seat, got in zip(seats, gets, strict=True):
            p, b = seat.player, best.get(seat.player)
            points[p] = points.get(p, 0) + got
            wins[p] = wins.get(p, 0) + (seat.total == top)
            played[p] = played.get(p, 0) + 1
            best[p] = seat.total if b is None else max(b, seat.total)
    keys = {p: (-x, -wins[p], -best[p] if best[p] is not None else math.inf)
            for p, x in points.items()}
    order = sorted(points, key=lambda p: (keys[p], p))
    rows: list[Standing] = []
    for i, p in enumerate(order):
        rank = rows[-1].rank if rows and keys[order[i - 1]] == keys[p] else i + 1
        rows.append(Standing(p, points[p], wins[p], played[p], best[p], rank))
    return rows
