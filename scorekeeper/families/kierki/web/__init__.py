"""Kierki on the web: its deal form both ways, the check while a deal is entered, what
its templates need, its words in them, its charts, its table tools (the trick checker,
the loteryjka board) and its house-variant editor (the web layer's adapter of
:class:`..family.Kierki`)."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from flask import Blueprint

from ....common.i18n import field_errors, gettext
from ....common.i18n import lazy_gettext as _l
from ....rules import checks
from ...base import WebFamily
from .. import words
from ..family import Kierki
from ..rules.schedule import Deal
from . import tools, variant_form
from .charts import charts as game_charts
from .forms import form_values, parse_deal


class KierkiWeb(WebFamily):
    """Kierki's pages: the shared ones in its templates, and its table tools."""

    templates = MappingProxyType({"game": "kierki/game.html", "edit": "kierki/edit_deal.html",
                 "sheet": "kierki/sheet.html", "rules": "kierki/rules.html", "setup": None,
                 "variant": "kierki/variant.html"})
    home_links = ((_l("Trick checker"), "tools.trick_checker"),)
    param_labels = MappingProxyType({"unit": words.SET_UNITS})
    words = words
    editor = variant_form  # the page that makes a house variant

    def __init__(self, family: Kierki):
        self.family = family
        self.key = family.key

    def blueprint(self, load_game: Callable[[str], Any],
                  find_rules: Callable[[str], Any] | None = None) -> Blueprint:
        """The table tools: the trick checker (by any ruleset id, a house variant's too)
        and the loteryjka board."""
        return tools.blueprint(load_game, find_rules)

    def parse_form(self, game: Any, deal: Deal, form: Mapping[str, Any]) -> dict[str, Any]:
        return parse_deal(deal.contract, form, len(game.players), form.get("mode") == "cards")

    def check_entry(self, game: Any, deal: Deal, raw: dict[str, Any]) -> dict[str, Any]:
        """A deal's result while it is being entered, checked by the rules that check it
        when it is saved (``POST /api/games/<id>/deals/<n>/check``; nothing is stored):
        what the values entered already break (a blank is no problem yet; with none
        left, exactly what saving would refuse), each problem with the input it concerns
        in words, and how far each count has got ("Tricks: 9 of 13")."""
        contract = deal.contract
        problems = []
        for key, messages in field_errors(contract.entered(raw, deal.dealer)).items():
            place = words.error_summary({key: messages}, contract, game.players)
            where = place[0][1] if place else ""
            problems += [{"field": key, "where": where, "message": m} for m in messages]
        progress = []
        for field in contract.fields():
            if field.type != "counts":
                continue
            given = raw.get(field.name)
            values = [checks.whole_number(v) for v in given] \
                if isinstance(given, (list, tuple)) else []
            got = sum(v for v in values if v is not None)
            done = len(values) == len(game.players) and None not in values \
                and got == field.total
            text = gettext("%(what)s: %(got)s of %(total)s", what=words.field_label(field.name),
                           got=got, total=field.total)
            progress.append({"field": field.name, "entered": got, "total": field.total,
                             "done": done, "text": text + (" ✓" if done else "")})
        return {"ok": not problems, "complete": not contract.blanks(raw),
                "problems": problems, "progress": progress}

    def form_values(self, result: dict[str, Any]) -> dict[str, Any]:
        return form_values(result)

    def posted_values(self, form: Any) -> dict[str, Any]:
        return {k: v for k, v in form.items() if k not in ("csrf_token", "version")}

    def page_context(self, game: Any, deal: Deal | None,
                     args: Mapping[str, Any]) -> dict[str, Any]:
        if deal is None:
            return {}
        mode = args.get("mode")
        by_card = mode == "cards"
        stored = game.stored.results
        if mode is None and deal.number <= len(stored) and "cards" in stored[deal.number - 1]:
            by_card = True  # a deal entered card by card is corrected card by card
        return {"deal": deal, "by_card": by_card, "costs": words.costs(deal.contract),
                "rules": words.deal_notes(deal, game.players)}

    def deal_points(self, game: Any, number: int) -> str:
        return words.deal_points(game, number)

    def charts(self, game: Any) -> list[Any]:
        return game_charts(game)

    def history_line(self, game: Any, deal: Deal, result: dict[str, Any]) -> str:
        return words.describe(deal.contract, result, game.players)


Web = KierkiWeb
