"""Places in one game from its sides' totals: who finished where, and what settling by
place counts. Pure: the figures kept per finished game (``storage``) and an evening's
standings (``domain.people``) both take their places from here.
"""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction


def places(totals: Sequence[int]) -> list[int]:
    """Each side's place by its total, higher first; equal totals share a place.

    >>> places([120, -40, 120, -200])
    [1, 3, 1, 4]
    """
    return [1 + sum(other > t for other in totals) for t in totals]


def shared_places(totals: Sequence[int]) -> list[Fraction]:
    """Each side's place for settling by place: equal totals share the average of the
    places they cover, so the places always add up to 1 + 2 + … + n.

    >>> [str(p) for p in shared_places([120, -40, 120, -200])]
    ['3/2', '3', '3/2', '4']
    """
    # the middle of above+1 … above+tied
    return [Fraction(2 * sum(o > t for o in totals) + totals.count(t) + 1, 2) for t in totals]


def above_middle(totals: Sequence[int]) -> list[Fraction]:
    """How many places each side finished above the middle place: what settling by place
    counts for one game. Adds up to zero for every game, ties or not."""
    middle = Fraction(len(totals) + 1, 2)
    return [middle - p for p in shared_places(totals)]
