"""What is still in play: the points the deals left to play will share out, and which
places are already decided.

A deal's *swing* is the most one player can gain on another in it: the largest gap
between two players' points over every result the deal can have. Deals are played
independently, so the gaps of the deals left add up, and that sum is reached when one
player takes the worst of every deal left and another the best. A lead larger than it
can no longer be closed; a lead of exactly it can still be drawn level (a shared place).

The swing is found by scoring every result of the deal's inputs (every split of the 13
tricks, of the hearts, every taker of the K♥, every finishing order…), so it follows the
contract's own scoring, a house variant's multipliers included. The robber scores the sum
of its parts, so its swing is at most the sum of theirs (and exactly that: one player can
take every trick). A deal with an auction has no bound: a bid moves any number of points.

>>> from .rulesets import get_ruleset
>>> from .game import replay
>>> rules = get_ruleset("standard-4")
>>> [swing(d.contract) for d in start_deals(rules)][:3]
[260, 260, 240]
>>> state = replay(rules, 0, [])
>>> view = outlook(state)
>>> view.left[0], view.clinched, view.out
(('tricks', -260), [], [])
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import permutations, product
from typing import Any

from .contracts import Contract, Field, Robber
from .game import GameState
from .schedule import Deal, schedule

#: Past this many results to score, a deal's inputs are not enumerated (none is near it).
_MOST_RESULTS = 200_000


def start_deals(rules: Any) -> list[Deal]:
    """Every deal of a game under ``rules`` (the first dealer moves no contract)."""
    return schedule(rules, 0)


def _splits(total: int, players: int) -> Iterator[tuple[int, ...]]:
    """Every way to share ``total`` among ``players`` (counts of tricks, of hearts…)."""
    if players == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _splits(total - first, players - 1):
            yield (first, *rest)


def _values(field: Field, players: int) -> list[Any] | None:
    """Every value one input can take, or None for one that has no bound (a bid)."""
    if field.type == "counts":
        return [list(s) for s in _splits(field.total, players)]
    if field.type == "seat":
        return list(range(players))
    if field.type == "seats":
        count = len(field.labels)
        if field.distinct:
            return [list(p) for p in permutations(range(players), count)]
        return [list(p) for p in product(range(players), repeat=count)]
    if field.type == "suit":
        return ["H"]  # the trump suit names no points
    return None


def swing(contract: Contract) -> int | None:
    """The most points one player can gain on another in one deal of ``contract``
    (None when a bid makes it unbounded)."""
    if isinstance(contract, Robber):
        parts = [swing(p) for p in contract.parts]
        if any(p is None for p in parts):
            return None
        most = max((abs(m) for m in contract.data.get("multipliers") or ()), default=1)
        return sum(p for p in parts if p is not None) * most
    fields = contract.fields()
    spaces = [_values(f, contract.table.players) for f in fields]
    if any(s is None for s in spaces):
        return None
    size = 1
    for s in spaces:
        size *= len(s or ())
    if size > _MOST_RESULTS:
        return None
    best = 0
    for values in product(*(s or () for s in spaces)):
        points = contract.scored(dict(zip((f.name for f in fields), values)), 0)
        best = max(best, max(points) - min(points))
    return best


@dataclass(frozen=True)
class Outlook:
    """What the deals left to play can still change."""

    #: Each deal left to play: its kind and the points it shares out, in order.
    left: list[tuple[str, int]]
    #: The most a player can still gain on another; None while a deal with a bid is left.
    reach: int | None
    #: The seat in first place that nobody can reach any more (at most one).
    clinched: list[int]
    #: Seats that can no longer reach first place, not even level.
    out: list[int]


def outlook(state: GameState, swings: Sequence[int | None] | None = None) -> Outlook:
    """What is still in play after the deals ``state`` has recorded. ``swings`` gives
    each deal's swing in schedule order, if already worked out (they follow from the
    rules alone)."""
    deals = state.deals[len(state.scored):]
    if swings is None:
        swings = [swing(d.contract) for d in state.deals]
    rest = swings[len(state.scored):]
    left = [(d.contract.kind, d.contract.expected_sum) for d in deals]
    if not deals:
        return Outlook(left, 0, [], [])
    if any(s is None for s in rest):
        return Outlook(left, None, [], [])
    reach = sum(s for s in rest if s is not None)
    totals = state.totals
    top = max(totals)
    out = [seat for seat, t in enumerate(totals) if top - t > reach]
    leaders = [seat for seat, t in enumerate(totals) if t == top]
    clinched = leaders if len(leaders) == 1 and len(out) == len(totals) - 1 else []
    return Outlook(left, reach, clinched, out)
