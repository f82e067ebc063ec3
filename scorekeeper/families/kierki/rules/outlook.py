"""What is still in play: the points the deals left will share out, and which places are
already decided.

A deal's *swing* is the most one player can gain on another in it, found by scoring every
result of its inputs (a robber's from its parts; an auction has no bound). The swings of
the deals left add up: a lead larger than their sum can no longer be closed. When the
deals left are few, the places are found by trying every end they can give.

>>> from .rulesets import get_ruleset
>>> from .game import replay
>>> from .schedule import schedule
>>> rules = get_ruleset("standard-4")
>>> [swing(d.contract) for d in schedule(rules, 0)][:3]
[260, 260, 240]
>>> state = replay(rules, 0, [])
>>> view = outlook(state)
>>> view.left[0], view.clinched, view.out
(('tricks', -260), [], [])
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations, product
from math import prod
from operator import add
from typing import Any

from .contracts import Contract, Field, Loteryjka, PenaltyTricks, Robber
from .game import GameState
from .schedule import Deal

#: Past this many results to score, a deal's inputs are not enumerated.
_MOST_RESULTS = 200_000
#: Past this many ends of the game to try, the places are judged by the swings alone.
_MOST_ENDS = 30_000


def _splits(total: int, players: int) -> list[list[int]]:
    """Every way to share ``total`` among ``players`` (counts of tricks, of hearts…)."""
    if players == 1:
        return [[total]]
    return [[first, *rest] for first in range(total + 1)
            for rest in _splits(total - first, players - 1)]


def _values(field: Field, players: int) -> list[Any] | None:
    """Every value one input can take, or None for one that has no bound (a bid)."""
    if field.type == "counts":
        return _splits(field.total, players)
    if field.type == "seat":
        return list(range(players))
    if field.type == "seats":
        count = len(field.labels)
        return [list(p) for p in (permutations(range(players), count) if field.distinct
                                  else product(range(players), repeat=count))]
    if field.type == "suit":
        return ["H"]  # the trump suit names no points
    return None


def _place_points(contract: Loteryjka) -> list[int]:
    """What each finishing place of the table scores (0 past the prizes)."""
    return contract.prizes + [0] * (contract.table.players - len(contract.prizes))


def _robber_swing(contract: Robber) -> int | None:
    """A robber's swing from its parts' swings. With multipliers, per number ``z`` of
    players taking no trick: they score nothing, each other player but one takes the
    cheapest trick, the rest goes to one player. Exact when every part's points have one
    sign; otherwise the parts' swings times the largest multiplier, an upper bound."""
    parts = [swing(p) for p in contract.parts]
    if any(p is None for p in parts):
        return None
    whole = sum(p for p in parts if p is not None)
    multipliers = list(contract.data.get("multipliers") or ())
    sweep = contract.data.get("all_tricks") == "others_pay"
    counted = [p for p in contract.parts if p.kind == "tricks"]
    if not counted or (not multipliers and not sweep):
        return whole  # no trick count, no multiplier: nothing but the parts' points
    signs = {(pts > 0) - (pts < 0) for p in contract.parts
             for pts in (p.points if isinstance(p, PenaltyTricks) else [p.data["points"]])}
    if len(signs - {0}) > 1:
        return whole * max(multipliers or [1], key=abs)
    players = contract.table.players
    trick = sum(abs(p.data["points"]) for p in counted)  # one trick's own cost
    # the penalty positions (deal 6's tricks) by cost, cheapest first: a player who must
    # take a trick takes one at no penalty position while there is one
    positions = sorted(abs(v) for p in contract.parts if isinstance(p, PenaltyTricks)
                       for v in p.points)
    clean = contract.table.tricks - len(positions)

    def cheapest(tricks: int) -> int:
        """What ``tricks`` single tricks taken by different players cost at least."""
        return tricks * trick + sum(positions[:max(0, tricks - clean)])

    best = 0
    for z in range(players):  # z players take no trick
        times = multipliers[min(z, len(multipliers) - 1)] if multipliers else 1
        if z == players - 1:  # one player takes every trick
            gap = whole if sweep else whole * times
        elif z == 0:  # everybody takes a trick: the best off the cheapest of them
            gap = (whole - cheapest(players - 1) - cheapest(1)) * times
        else:
            gap = (whole - cheapest(players - z - 1)) * times
        best = max(best, gap)
    return best


def swing(contract: Contract) -> int | None:
    """The most points one player can gain on another in one deal of ``contract``
    (None when a bid makes it unbounded)."""
    if isinstance(contract, Robber):
        return _robber_swing(contract)
    outcomes = _outcomes(contract)
    return None if outcomes is None else max((max(p) - min(p) for p in outcomes), default=0)


@lru_cache(maxsize=256)
def _outcomes(contract: Contract) -> frozenset[tuple[int, ...]] | None:
    """Every distinct set of points one deal of ``contract`` can give the players (None
    for a robber, whose results are too many, and where a bid has no bound). Kept per
    contract of a loaded ruleset: every game page asks it for each deal left."""
    if isinstance(contract, Robber):
        return None
    if isinstance(contract, Loteryjka):
        places = _place_points(contract)
        return frozenset(tuple(places[order.index(seat)] for seat in range(len(places)))
                         for order in permutations(range(len(places))))
    fields = contract.fields()
    spaces = [_values(f, contract.table.players) for f in fields]
    if any(s is None for s in spaces) or prod(len(s or ()) for s in spaces) > _MOST_RESULTS:
        return None
    names = [f.name for f in fields]
    return frozenset(tuple(contract.scored(dict(zip(names, values)), 0))
                     for values in product(*(s or () for s in spaces)))


def _exact_places(totals: Sequence[int], deals: Sequence[Deal]
                  ) -> tuple[list[int], list[int]] | None:
    """Who has first place for sure and who can no longer reach it (not even level),
    from every end the deals left can give, when they are few enough to try; None
    otherwise."""
    contracts = [d.contract for d in deals]
    size = 1  # a bound on the ends, known before any is tried: most deals stop here
    for contract in contracts:
        outcomes = _outcomes(contract)
        if outcomes is None:
            return None
        size *= len(outcomes)
        if size > _MOST_ENDS:
            return None
    ends: set[tuple[int, ...]] = {tuple(totals)}
    for contract in contracts:
        outcomes = _outcomes(contract) or frozenset()
        ends = {tuple(map(add, end, points)) for end in ends for points in outcomes}
    players = range(len(totals))
    can_top: set[int] = set()
    always = set(players)  # first alone in every end so far
    for end in ends:
        top = max(end)
        firsts = [s for s in players if end[s] == top]
        can_top.update(firsts)
        if len(firsts) > 1:
            always.clear()
        else:
            always &= set(firsts)
    return sorted(always), [s for s in players if s not in can_top]


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
    """What is still in play after the deals ``state`` has recorded; ``swings``, each
    deal's swing in schedule order, when already worked out."""
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
    exact = _exact_places(totals, deals)
    if exact is not None:
        return Outlook(left, reach, *exact)
    # Too many ends to try: a lead larger than ``reach`` is first place for sure; a player
    # further than it behind the leader is out (one held off by a third is not named).
    top = max(totals)
    out = [seat for seat, t in enumerate(totals) if top - t > reach]
    leaders = [seat for seat, t in enumerate(totals) if t == top]
    clinched = leaders if len(leaders) == 1 and len(out) == len(totals) - 1 else []
    return Outlook(left, reach, clinched, out)
