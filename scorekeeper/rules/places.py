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
    return [1 + sum(1 for other in totals if other > t) for t in totals]


def shared_places(totals: Sequence[int]) -> list[Fraction]:
    """Each side's place for settling by place: equal totals share the average of the
    places they cover, so the places always add up to 1 + 2 + … + n.

    >>> [str(p) for p in shared_places([120, -40, 120, -200])]
    ['3/2', '3', '3/2', '4']
    """
    out = []
    for t in totals:
        above = sum(1 for other in totals if other > t)
        tied = sum(1 for other in totals if other == t)
        out.append(Fraction(2 * above + tied + 1, 2))  # the middle of above+1 … above+tied
    return out


def above_middle(totals: Sequence[int]) -> list[Fraction]:
    """How many places each side finished above the middle place: what settling by place
    counts for one game. Adds up to zero for every game, ties or not."""
    middle = Fraction(len(totals) + 1, 2)
    return [middle - p for p in shared_places(totals)]
