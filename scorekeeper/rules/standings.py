"""A tournament's standings from its finished games: pure, the one home of how players rank.

Each table's game sums to its ruleset's total (a Kierki game to zero), so players who
sat at different tables compare by the sum of their game totals: a tournament ranks by
points only when every table's rules give the same total a player (the domain refuses
zdanowicz-5's +44 a player beside standard-4's 0, and any rules whose total depends on
the play) and offers ranking by places instead. Ties break by table
wins (first place at a table, shared first places each count), then by the best single
game. Ranked *by places* instead, each game gives its places 3, 2, 1, 0 at a table of
four (spread evenly from 3 to 0 at a table of three or five: 3, 1½, 0 and 3, 2¼, 1½, ¾, 0)
and tied places share the average of what they cover, so every table hands out the same
points whatever its size.
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
    """Every player's line, best first: ``games`` are the finished games (each its seats'
    results), ``players`` every entry number (a player with no finished game yet has a
    line of zeros). Equal lines share a rank (1, 2, 2, 4).

    >>> rows = standings([[Seat(1, 40), Seat(2, -40)], [Seat(1, -10), Seat(3, 10)]], [1, 2, 3])
    >>> [(r.player, int(r.points), r.wins, r.rank) for r in rows]
    [(1, 30, 1, 1), (3, 10, 1, 2), (2, -40, 0, 3)]
    """
    # Points are summed as whole numbers where they are (game totals), and places' points
    # as fractions; the order compares whole numbers only (each line's points scaled by
    # the least common denominator), so that 4,000 players sort in milliseconds.
    points: dict[int, int | Fraction] = dict.fromkeys(players, 0)
    wins = dict.fromkeys(points, 0)
    played = dict.fromkeys(points, 0)
    best: dict[int, int | None] = dict.fromkeys(points)
    for seats in games:
        totals = [s.total for s in seats]
        top = max(totals, default=0)
        by_place = place_points(totals) if scoring == "places" else None
        for i, seat in enumerate(seats):
            p = seat.player
            if p not in points:
                points[p], wins[p], played[p], best[p] = 0, 0, 0, None
            points[p] += by_place[i] if by_place is not None else seat.total
            wins[p] += seat.total == top
            played[p] += 1
            b = best[p]
            best[p] = seat.total if b is None or seat.total > b else b

    scale = math.lcm(*(x.denominator for x in points.values() if isinstance(x, Fraction)))
    keys = {p: (-(x.numerator * (scale // x.denominator) if isinstance(x, Fraction)
                  else x * scale),
                -wins[p], -best[p] if best[p] is not None else math.inf)
            for p, x in points.items()}
    order = sorted(points, key=lambda p: (keys[p], p))
    rows: list[Standing] = []
    for i, p in enumerate(order):
        rank = rows[-1].rank if rows and keys[order[i - 1]] == keys[p] else i + 1
        rows.append(Standing(p, points[p], wins[p], played[p], best[p], rank))
    return rows
