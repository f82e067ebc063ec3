"""Tybet on the web (the web layer's adapter of :class:`..family.Tybet`): its deal form
both ways, what its templates need and its charts."""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ....common.i18n import localized
from ...base import WebFamily
from .. import words
from ..family import Tybet
from ..rules import (
    ACES,
    CARD_POINTS,
    CEZAR_POINTS,
    FOUR_POINTS,
    HONOUR_CARDS,
    HONOURS,
    RANKS,
    SWEEPS,
    TRIO_POINTS,
    TybetDeal,
    TybetRules,
)
from . import forms
from .charts import charts as game_charts


class TybetWeb(WebFamily):
    templates = MappingProxyType({"game": "tybet/game.html", "edit": "tybet/game.html",
                 "sheet": "tybet/sheet.html", "rules": "tybet/rules.html",
                 "setup": "tybet/_setup.html"})
    param_labels = MappingProxyType({"special": words.LABELS})
    words = words
    form_values = staticmethod(forms.values)
    posted_values = staticmethod(forms.posted_values)
    deal_points = staticmethod(words.deal_points)
    charts = staticmethod(game_charts)

    def __init__(self, family: Tybet):
        self.family = family
        self.key = family.key

    def parse_form(self, game: Any, deal: TybetDeal, form: Mapping[str, Any]) -> dict[str, Any]:
        return forms.parse(form)

    def page_context(self, game: Any, deal: TybetDeal | None,
                     args: Mapping[str, Any]) -> dict[str, Any]:
        rules: TybetRules = game.rules
        specials = [(kind, f"+{spec['bonus']}" if "bonus" in spec else f"×{spec['multiply']}",
                     spec["by"]) for kind, spec in rules.data["specials"].items()]
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
                           for extra in range(len(RANKS) - 2)],  # extra cards after 3-2-A
            "four_ranks": RANKS, "four_points": FOUR_POINTS,
            "trio_ranks": [(r, TRIO_POINTS[r]) for r in RANKS if r in TRIO_POINTS],
            "pair_counts": [("aces", ACES), ("honours", HONOUR_CARDS)],
            "honour_ranks": HONOURS,
            "specials": specials,
            # special wins after which the other pair took nothing (rules._check_special):
            # choosing one gives the winners every ace and honour on the form (entry.js)
            "sweeps": SWEEPS,
            "special_reading": [localized(item) for item in rules.special_reading()],
        }

    def history_line(self, game: Any, deal: TybetDeal, result: dict[str, Any]) -> str:
        rules: TybetRules = game.rules
        return " : ".join(map(str, rules.score(rules.validate(result, leader=deal.leader))))


Web = TybetWeb
