"""A Tybet game: the fold of its deals until a pair reaches the target."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from scorekeeper.rules.errors import N_, InvalidDeal, Problem

from .deal import TybetRules, declaration_points, pair_of


@dataclass(frozen=True)
class TybetDeal:
    number: int
    dealer: int
    leader: int


@dataclass(frozen=True)
class TybetScore:
    deal: TybetDeal
    result: dict[str, Any]
    points: list[int]
    totals: list[int]
    rows: list[dict[str, Any]]


@dataclass(frozen=True)
class TybetState:
    """The fold of the recorded deals: totals per pair, the winner once decided."""

    ruleset: TybetRules
    first_dealer: int
    target: int
    scored: list[TybetScore]
    winner: int | None
    #: a game played to a target has no fixed number of deals
    deals_total = None

    @property
    def totals(self) -> list[int]:
        return self.scored[-1].totals if self.scored else [0, 0]

    @property
    def winners(self) -> list[int]:
        return [] if self.winner is None else [self.winner]

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def current(self) -> TybetDeal | None:
        return None if self.finished else deal_at(self.first_dealer, len(self.scored) + 1)

    @property
    def to_go(self) -> list[int]:
        """Chips still missing to the target, per pair."""
        return [max(0, self.target - t) for t in self.totals]


def deal_at(first_dealer: int, number: int) -> TybetDeal:
    dealer = (first_dealer + number - 1) % 4
    return TybetDeal(number, dealer, (dealer + 1) % 4)


def _decide(rules: TybetRules, before: list[int], result: dict[str, Any], deal: TybetDeal,
            after: list[int], target: int) -> int | None:
    reached = [p for p in (0, 1) if after[p] >= target]
    if len(reached) < 2:
        return reached[0] if reached else None
    if rules.both_reach == "declared_first":
        running = list(before)
        for i in range(4):  # declarations are announced in turn from the leader
            seat = (deal.leader + i) % 4
            running[pair_of(seat)] += sum(map(declaration_points, result["declarations"][seat]))
            if running[pair_of(seat)] >= target:
                return pair_of(seat)
    if after[0] != after[1]:
        return 0 if after[0] > after[1] else 1
    return None  # level on the same total: play on


def advance(state: TybetState, raw: dict[str, Any], checked: bool = True) -> TybetState:
    """The state after the next deal; a deal after the game is won is refused. A stored
    result (``checked=False``) is already the canonical form ``validate`` returned."""
    if state.winner is not None:
        raise InvalidDeal([Problem("", N_("The game is already won."))])
    deal = deal_at(state.first_dealer, len(state.scored) + 1)
    rules = state.ruleset
    result = rules.validate(raw, leader=deal.leader) if checked else raw
    rows = rules.breakdown(result)
    points = [sum(r["points"][p] for r in rows) for p in (0, 1)]
    totals = [t + p for t, p in zip(state.totals, points)]
    winner = _decide(rules, state.totals, result, deal, totals, state.target)
    return replace(state, scored=[*state.scored, TybetScore(deal, result, points, totals, rows)],
                   winner=winner)


def replay(rules: TybetRules, first_dealer: int, results: list[dict[str, Any]],
           target: int | None = None, checked: bool = True) -> TybetState:
    """Score the recorded deals in order; a deal after the game is won is refused."""
    state = TybetState(rules, first_dealer, target or rules.target, [], None)
    for raw in results:
        state = advance(state, raw, checked)
    return state
