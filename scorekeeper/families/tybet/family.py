"""The partnership game (seed 003) as a game family: its adapter to the shared app."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from ...common.i18n import lazy_gettext as _l
from ...common.i18n import localized
from ...rules import checks
from ...rules.errors import N_
from . import forms, words
from .charts import charts as game_charts
from .rules import (
    ACES,
    CARD_POINTS,
    CEZAR_POINTS,
    FOUR_POINTS,
    HONOUR_CARDS,
    HONOURS,
    RANKS,
    TRIO_POINTS,
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
SWEEPS = ("kalanda", "perla", "kondriona")


class Tybet:
    """Two pairs play deals until one reaches the target score."""

    key = KEY
    title = _l("Tybet")
    settles_per_point = False
    templates = MappingProxyType({"game": "tybet/game.html", "edit": "tybet/game.html",
                 "sheet": "tybet/sheet.html", "rules": "tybet/rules.html",
                 "setup": "tybet/_setup.html"})
    home_links = ()
    param_labels = MappingProxyType({"special": words.LABELS})
    words = words

    def blueprint(self, load_game: Any) -> None:
        return None  # no pages of its own yet

    # -- rulesets -------------------------------------------------------------
    def rulesets(self) -> Mapping[str, TybetRules]:
        return registry()

    def load_rules(self, data: Any) -> TybetRules:
        return from_data(data)  # RulesetError, naming the fault and its field

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
             results: Sequence[dict[str, Any]]) -> TybetState:
        return replay(rules, settings["first_dealer"], list(results), settings.get("target"))

    def advance(self, state: TybetState, raw: dict[str, Any]) -> TybetState:
        return advance(state, raw)

    def deal(self, rules: TybetRules, settings: Mapping[str, Any], number: int) -> TybetDeal:
        return deal_at(settings["first_dealer"], number)

    def validate(self, rules: TybetRules, deal: TybetDeal, raw: dict[str, Any]) -> dict[str, Any]:
        return rules.validate(raw, leader=deal.leader)

    # -- the web --------------------------------------------------------------
    def parse_form(self, game: Any, deal: TybetDeal, form: Mapping[str, Any]) -> dict[str, Any]:
        return forms.parse(form)

    def form_values(self, result: dict[str, Any]) -> dict[str, Any]:
        return forms.values(result)

    def posted_values(self, form: Any) -> dict[str, Any]:
        return forms.posted_values(form)

    def page_context(self, game: Any, deal: TybetDeal | None,
                     args: Mapping[str, Any]) -> dict[str, Any]:
        rules: TybetRules = game.rules
        specials = []
        for kind, spec in rules.data["specials"].items():
            worth = f"+{spec['bonus']}" if "bonus" in spec else f"×{spec['multiply']}"
            specials.append((kind, worth, spec["by"]))
        detail = forms.detailed(args)
        stored = game.stored.results
        if not args.get("mode") and deal is not None and deal.number <= len(stored):
            detail = detail or "aces" in stored[deal.number - 1]  # corrected as entered
        return {
            "deal": deal,
            "detail": detail,  # aces, honours and the last trick; else card points
            "card_points": CARD_POINTS,
            "pairs": words.pair_names(game.players),
            "cezar_runs": [(extra, RANKS[:3 + extra], CEZAR_POINTS + extra)
                           for extra in forms.CEZAR_RUNS],
            "four_ranks": forms.FOUR_RANKS, "four_points": FOUR_POINTS,
            "trio_ranks": [(r, TRIO_POINTS[r]) for r in forms.TRIO_RANKS],
            "pair_counts": [("aces", ACES), ("honours", HONOUR_CARDS)],
            "honour_ranks": HONOURS,
            "specials": specials,
            # special wins after which the other pair took nothing (rules._check_special):
            # choosing one gives the winners every ace and honour on the form (entry.js)
            "sweeps": SWEEPS,
            "special_reading": [localized(item) for item in rules.special_reading()],
        }

    def deal_points(self, game: Any, number: int) -> str:
        return words.deal_points(game, number)

    def charts(self, game: Any) -> list[Any]:
        return game_charts(game)

    def history_line(self, game: Any, deal: TybetDeal, result: dict[str, Any]) -> str:
        rules: TybetRules = game.rules
        return " : ".join(map(str, rules.score(rules.validate(result, leader=deal.leader))))

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
        """Nothing counted per seat beyond the pair's totals and places."""
        return {}

    def seat_numbers(self, game: Any, seat: int) -> dict[str, Any]:
        return {}

    def ruleset_json(self, rules: TybetRules) -> dict[str, Any]:
        return {"target": rules.target, "targets": rules.targets}

    def csv(self, game: Any) -> tuple[list[str], list[list[Any]]]:
        """One row per deal, a column per pair, running totals."""
        p = game.players
        pairs = words.pair_names(p)
        state: TybetState = game.state
        header = ["#", "dealer", *pairs, *[f"{n} (total)" for n in pairs], "detail"]
        rows: list[list[Any]] = [
            [s.deal.number, p[s.deal.dealer], *s.points, *s.totals,
             "; ".join(f"{words.label(r['key'])} {r['points'][0]}:{r['points'][1]}"
                       for r in s.rows if any(r["points"]))]
            for s in state.scored]
        rows.append(["", "total", *state.totals, *state.totals, ""])
        return header, rows
