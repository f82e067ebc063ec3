"""The partnership game (seed 003) as a game family (its pages are :mod:`.web`'s)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...common.i18n import gettext
from ...common.i18n import lazy_gettext as _l
from ...rules import checks
from ...rules.errors import N_
from ..base import Family
from . import words
from .rules import (
    TybetDeal,
    TybetRules,
    TybetScore,
    TybetState,
    advance,
    deal_at,
    from_data,
    registry,
    replay,
)

KEY = "tybet"


class Tybet(Family):
    """Two pairs play deals until one reaches the target score."""

    key = KEY
    title = _l("Tybet")
    settles_per_point = False

    # -- rulesets -------------------------------------------------------------
    def rulesets(self) -> Mapping[str, TybetRules]:
        return registry()

    load_rules = staticmethod(from_data)  # RulesetError, naming the fault and its field

    def settings(self, rules: TybetRules, given: Mapping[str, Any]) -> dict[str, Any]:
        """The score to play to: one of the ruleset's targets (its default if none given)."""
        target = given.get("target")
        if checks.blank(target):
            return {"target": rules.target}
        return {"target": checks.one_of(target, rules.targets, "target",
                                        N_("Choose the score to play to."))}

    def deals_total(self, rules: TybetRules) -> None:
        return None

    # -- the game -------------------------------------------------------------
    def fold(self, rules: TybetRules, settings: Mapping[str, Any],
             results: Sequence[dict[str, Any]], checked: bool = True) -> TybetState:
        return replay(rules, settings["first_dealer"], list(results), settings.get("target"),
                      checked)

    advance = staticmethod(advance)

    def deal(self, rules: TybetRules, settings: Mapping[str, Any], number: int) -> TybetDeal:
        return deal_at(settings["first_dealer"], number)

    def validate(self, rules: TybetRules, deal: TybetDeal, raw: dict[str, Any]) -> dict[str, Any]:
        return rules.validate(raw, leader=deal.leader)

    # -- exports and the API ----------------------------------------------------
    def game_json(self, game: Any) -> dict[str, Any]:
        state: TybetState = game.state
        return {"pairs": [{"pair": p, "seats": [p, p + 2]} for p in (0, 1)],
                "target": state.target, "to_go": state.to_go, "winner": state.winner}

    def deal_json(self, game: Any, scored: TybetScore) -> dict[str, Any]:
        return {"breakdown": scored.rows}

    # -- players across games --------------------------------------------------
    def sides(self, rules: TybetRules) -> list[list[int]]:
        """The pairs: seats 0 and 2 against 1 and 3."""
        return [[0, 2], [1, 3]]

    def seat_stats(self, game: Any, seat: int) -> dict[str, Any]:
        return {}

    def seat_numbers(self, game: Any, seat: int) -> dict[str, Any]:
        return {}

    def ruleset_json(self, rules: TybetRules) -> dict[str, Any]:
        return {"target": rules.target, "targets": rules.targets}

    def csv(self, game: Any) -> tuple[list[str], list[list[Any]]]:
        """One row per deal, a column per pair, running totals."""
        p, state = game.players, game.state
        pairs = words.pair_names(p)
        header = ["#", gettext("Dealer"), *pairs,
                  *[gettext("%(name)s (total)", name=n) for n in pairs], gettext("Detail")]
        rows: list[list[Any]] = [
            [s.deal.number, p[s.deal.dealer], *s.points, *s.totals, words.breakdown(s.rows, "; ")]
            for s in state.scored]
        rows.append(["", gettext("Total"), *state.totals, *state.totals, ""])
        return header, rows
