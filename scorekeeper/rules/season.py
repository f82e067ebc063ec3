"""A club's season table from its nights (tournaments): pure.

Each night gives every player who finished a game there a :class:`NightLine` (points,
place, field size, games, wins). A season adds up the nights' ``points``, or the
``places`` (``field + 1 − place`` a night, so a bigger night weighs more), perhaps only
each player's best ``best`` nights.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .standings import SCORINGS, Seat, standings


@dataclass(frozen=True)
class NightLine:
    """One player's result of one night."""

    player: int
    points: Fraction
    place: Fraction
    field: int
    games: int
    wins: int

    @property
    def place_points(self) -> Fraction:
        """What the night's place gives when the season adds up places.

        >>> NightLine(1, Fraction(0), Fraction(1), 12, 4, 2).place_points
        Fraction(12, 1)
        >>> str(NightLine(1, Fraction(0), Fraction(5, 2), 12, 4, 1).place_points)
        '21/2'
        """
        return self.field + 1 - self.place

    def scored(self, scoring: str) -> Fraction:
        return self.place_points if scoring == "places" else self.points


@dataclass(frozen=True)
class SeasonLine:
    player: int
    points: Fraction
    nights: int
    games: int
    wins: int
    counted: int
    rank: int


def night(games: Iterable[Sequence[Seat]], scoring: str = "points") -> list[NightLine]:
    """One night's lines from its finished games (each its seats' ``Seat``), ranked by
    ``scoring``; equal standings share the average of the places they cover.

    >>> lines = night([[Seat(7, 30), Seat(8, -10), Seat(9, -20)],
    ...                [Seat(7, -5), Seat(8, 5)]])
    >>> [(n.player, int(n.points), str(n.place), n.field, n.games, n.wins) for n in lines]
    [(7, 25, '1', 3, 2, 1), (8, -5, '2', 3, 2, 1), (9, -20, '3', 3, 1, 0)]
    """
    games = [list(g) for g in games]
    rows = standings(games, sorted({s.player for g in games for s in g}), scoring)
    tied = Counter(r.rank for r in rows)
    return [NightLine(r.player, r.points, r.rank + Fraction(tied[r.rank] - 1, 2), len(rows),
                      r.games, r.wins) for r in rows]


def season(nights: Iterable[Sequence[NightLine]], scoring: str = "points",
           best: int | None = None) -> list[SeasonLine]:
    """The season table, best first by points then wins (equal lines share a rank); with
    ``best``, only each player's ``best`` best nights' points count (``counted``).

    >>> a = [NightLine(1, Fraction(40), Fraction(1), 3, 2, 2),
    ...      NightLine(2, Fraction(-10), Fraction(2), 3, 2, 0),
    ...      NightLine(3, Fraction(-30), Fraction(3), 3, 2, 0)]
    >>> b = [NightLine(2, Fraction(50), Fraction(1), 2, 1, 1),
    ...      NightLine(3, Fraction(-50), Fraction(2), 2, 1, 0)]
    >>> [(s.player, int(s.points), s.nights, s.wins, s.rank) for s in season([a, b])]
    [(1, 40, 1, 2, 1), (2, 40, 2, 1, 2), (3, -80, 2, 0, 3)]
    >>> [(s.player, int(s.points), s.counted) for s in season([a, b], "places", best=1)]
    [(1, 3, 1), (2, 2, 1), (3, 1, 1)]
    """
    if scoring not in SCORINGS:
        raise ValueError(f"no such scoring: {scoring!r}")
    if best is not None and best < 1:
        raise ValueError("best must be at least 1")
    scores: dict[int, list[Fraction]] = {}
    games: Counter[int] = Counter()
    wins: Counter[int] = Counter()
    for line in (line for lines in nights for line in lines):
        scores.setdefault(line.player, []).append(line.scored(scoring))
        games[line.player] += line.games
        wins[line.player] += line.wins
    kept = {p: sorted(s, reverse=True)[:best] if best else s for p, s in scores.items()}
    points = {p: sum(k, Fraction(0)) for p, k in kept.items()}
    out: list[SeasonLine] = []
    for i, p in enumerate(sorted(scores, key=lambda p: (-points[p], -wins[p], p))):
        same = out and (out[-1].points, out[-1].wins) == (points[p], wins[p])
        out.append(SeasonLine(p, points[p], len(scores[p]), games[p], wins[p], len(kept[p]),
                              out[-1].rank if same else i + 1))
    return out
