"""Kierki on the web (the web layer's adapter of :class:`..family.Kierki`): its deal form
both ways, the check while a deal is entered, what its templates need, its charts, its
table tools and its house-variant editor."""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

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
    templates = MappingProxyType({"game": "kierki/game.html", "edit": "kierki/edit_deal.html",
                 "sheet": "kierki/sheet.html", "rules": "kierki/rules.html", "setup": None,
                 "variant": "kierki/variant.html"})
    home_links = ((_l("Trick checker"), "tools.trick_checker"),)
    param_labels = MappingProxyType({"unit": words.SET_UNITS})
    words = words
    editor = variant_form  # the page that makes a house variant
    blueprint = staticmethod(tools.blueprint)  # the trick checker and the loteryjka board
    form_values = staticmethod(form_values)
    deal_points = staticmethod(words.deal_points)
    charts = staticmethod(game_charts)

    def __init__(self, family: Kierki):
        self.family = family
        self.key = family.key

    def parse_form(self, game: Any, deal: Deal, form: Mapping[str, Any]) -> dict[str, Any]:
        return parse_deal(deal.contract, form, len(game.players), form.get("mode") == "cards")

    def check_entry(self, game: Any, deal: Deal, raw: dict[str, Any]) -> dict[str, Any]:
        """What the values entered so far already break (a blank is no problem yet), each
        problem with the input it concerns in words, and how far each count has got
        ("Tricks: 9 of 13")."""
        contract = deal.contract
        problems = []
        for key, messages in field_errors(contract.entered(raw, deal.dealer)).items():
            place = words.error_summary({key: messages}, contract, game.players)
            where = place[0][1] if place else ""
            problems += [{"field": key, "where": where, "message": m} for m in messages]
        progress = []
        for field in (f for f in contract.fields() if f.type == "counts"):
            given = raw.get(field.name)
            values = [checks.whole_number(v) for v in given] \
                if isinstance(given, (list, tuple)) else []
            got = sum(v for v in values if v is not None)
            done = len(values) == len(game.players) and None not in values and got == field.total
            text = gettext("%(what)s: %(got)s of %(total)s", what=words.field_label(field.name),
                           got=got, total=field.total)
            progress.append({"field": field.name, "entered": got, "total": field.total,
                             "done": done, "text": text + (" ✓" if done else "")})
        return {"ok": not problems, "complete": not contract.blanks(raw),
                "problems": problems, "progress": progress}

    def posted_values(self, form: Any) -> dict[str, Any]:
        return {k: v for k, v in form.items() if k not in ("csrf_token", "version")}

    def page_context(self, game: Any, deal: Deal | None, args: Mapping[str, Any]) -> dict[str, Any]:
        if deal is None:
            return {}
        stored = game.stored.results
        by_card = args.get("mode") == "cards" or (  # a deal entered card by card is corrected so
            args.get("mode") is None and deal.number <= len(stored)
            and "cards" in stored[deal.number - 1])
        return {"deal": deal, "by_card": by_card, "costs": words.costs(deal.contract),
                "rules": words.deal_notes(deal, game.players)}

    def history_line(self, game: Any, deal: Deal, result: dict[str, Any]) -> str:
        return words.describe(deal.contract, result, game.players)


Web = KierkiWeb
