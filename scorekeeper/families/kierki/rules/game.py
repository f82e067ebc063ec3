"""A game's scores as the fold of its recorded deals: undo and correction replay."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from scorekeeper.rules.errors import N_, InvalidDeal, Problem
from scorekeeper.rules.places import places

from .contracts import Result
from .rulesets import Ruleset
from .schedule import Deal, schedule


@dataclass(frozen=True)
class DealScore:
    """A recorded deal with its points and the totals after it."""

    deal: Deal
    result: Result
    points: list[int]
    totals: list[int]

    @property
    def sum(self) -> int:
        return sum(self.points)

    @property
    def expected_sum(self) -> int:
        return self.deal.contract.sum_for(self.result)


class Standing(NamedTuple):
    """A seat's place."""

    seat: int
    total: int
    place: int  # 1 for the winner; equal totals share a place


@dataclass(frozen=True)
class GameState:
    """Everything a score sheet shows, computed from the results alone."""

    ruleset: Ruleset
    first_dealer: int
    deals: list[Deal]
    scored: list[DealScore]

    @property
    def players(self) -> int:
        return self.ruleset.players

    @property
    def deals_total(self) -> int:
        return len(self.deals)

    @property
    def totals(self) -> list[int]:
        return self.scored[-1].totals if self.scored else [0] * self.players

    @property
    def finished(self) -> bool:
        return len(self.scored) == len(self.deals)

    @property
    def current(self) -> Deal | None:
        """The next deal to enter, or None when the game is over."""
        return None if self.finished else self.deals[len(self.scored)]

    @property
    def total_sum(self) -> int:
        return sum(self.totals)

    @property
    def expected_sum_so_far(self) -> int:
        return sum(s.expected_sum for s in self.scored)

    def standings(self) -> list[Standing]:
        """Players by total, highest first (seat order on a tie); ties share a place."""
        totals = self.totals
        return [Standing(seat, totals[seat], place)
                for place, seat in sorted(zip(places(totals), range(len(totals))))]

    @property
    def winners(self) -> list[int]:
        """Seats in first place (more than one on a tie)."""
        return [s.seat for s in self.standings() if s.place == 1]


def start(ruleset: Ruleset, first_dealer: int) -> GameState:
    """A game before its first deal."""
    return GameState(ruleset, first_dealer, schedule(ruleset, first_dealer), [])


def advance(state: GameState, raw: Result, checked: bool = True) -> GameState:
    """The state after the next deal's result, checked against its contract unless it is
    a stored result (``checked=False``): stored results are the canonical form
    ``validate`` returned when they were saved."""
    deal = state.current
    if deal is None:
        raise InvalidDeal([Problem("", N_("The game is over; correct a deal instead."))])
    result = deal.contract.validate(raw, deal.dealer) if checked else raw
    points = deal.contract.scored(result, deal.dealer)
    totals = [t + p for t, p in zip(state.totals, points)]
    return GameState(state.ruleset, state.first_dealer, state.deals,
                     [*state.scored, DealScore(deal, result, points, totals)])


def replay(ruleset: Ruleset, first_dealer: int, results: Sequence[Result],
           checked: bool = True) -> GameState:
    """Score the results of deals 1..len(results) in order, each checked again unless
    they are stored results (``checked=False``)."""
    state = start(ruleset, first_dealer)
    if len(results) > len(state.deals):
        raise InvalidDeal([Problem("", N_("The file has more deals than its rules."))])
    for raw in results:
        state = advance(state, raw, checked)
    return state


def summary(state: GameState) -> dict[str, Any]:
    """Plain data for the API and exports."""
    standings, current = state.standings(), state.current
    return {"finished": state.finished, "current_deal": current and current.number,
            "totals": state.totals, "sum": state.total_sum,
            "expected_sum": state.ruleset.expected_sum,
            "standings": [s._asdict() for s in standings],
            "winners": state.winners if state.finished else []}
