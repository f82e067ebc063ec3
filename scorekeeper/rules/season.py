"""A club's season table from its nights (tournaments): pure.

Each night gives every player who finished a game there a :class:`NightLine` (points,
place, field size, games, wins). A season adds up the nights' ``points``, or the
``places`` (``field + 1 − place`` a night, so a bigger night weighs more), perhaps only
each player's best ``best`` nights.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .standings import Seat, standings

#: How a season adds its nights up: the nights' points, or what each night's place gives.
SCORINGS = ("points", "places")


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
    players = sorted({s.player for g in games for s in g})
    rows = standings(games, players, scoring)
    out = []
    for row in rows:
        tied = sum(1 for r in rows if r.rank == row.rank)
        place = row.rank + Fraction(tied - 1, 2)
        out.append(NightLine(row.player, row.points, place, len(rows), row.games, row.wins))
    return out


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
    games: dict[int, int] = {}
    wins: dict[int, int] = {}
    for lines in nights:
        for line in lines:
            scores.setdefault(line.player, []).append(line.scored(scoring))
            games[line.player] = games.get(line.player, 0) + line.games
            wins[line.player] = wins.get(line.player, 0) + line.wins
    points: dict[int, Fraction] = {}
    counted: dict[int, int] = {}
    for player, nights_points in scores.items():
        kept = sorted(nights_points, reverse=True)[:best] if best else nights_points
        points[player] = sum(kept, Fraction(0))
        counted[player] = len(kept)

    def key(p: int) -> tuple[Fraction, int]:
        return points[p], wins[p]

    order = sorted(scores, key=lambda p: (-points[p], -wins[p], p))
    out: list[SeasonLine] = []
    for i, p in enumerate(order):
        rank = out[-1].rank if out and key(order[i - 1]) == key(p) else i + 1
        out.append(SeasonLine(p, points[p], len(scores[p]), games[p], wins[p], counted[p],
                              rank))
    return out
