"""The partnership game's words: headings of a deal's points and the special wins.

Words only; templates under ``templates/tybet/`` reach this module as ``tybet``.
"""
from __future__ import annotations

from typing import Any

from ...common.i18n import gettext, ngettext
from ...common.i18n import lazy_gettext as _l

LABELS = {
    "declarations": _l("declarations"),
    "aces": _l("aces"),
    "honours": _l("honours"),
    "last": _l("last trick"),
    "card_points": _l("card points"),
    "tybet": _l("Tybet"),
    "sariat": _l("Sariat"),
    "kalanda": _l("Kalanda"),
    "perla": _l("Perła"),
    "kondriona": _l("Kondriona"),
}

#: Where a ruleset's rules come from (its ``source``), as a player reads it on the rules page.
SOURCES = {
    "003": _l("the Tybet rules published by Wydawnictwo Karuzela"),
    "house": _l("a house variant, in no printed rules"),
}


def label(key: str) -> str:
    """A heading of a deal's breakdown or a special win, in the UI language."""
    return str(LABELS.get(key, key))


def pair_names(players: list[str]) -> list[str]:
    """Partners sit opposite: seats 1 and 3 against 2 and 4."""
    return [gettext("%(a)s and %(b)s", a=players[0], b=players[2]),
            gettext("%(a)s and %(b)s", a=players[1], b=players[3])]


def deal_points(game: Any, number: int) -> str:
    """What one recorded deal gave each pair: ``Ala and Cela 7, Bolek and Darek 4``."""
    points = game.state.scored[number - 1].points
    return ", ".join(f"{name} {p}" for name, p in zip(pair_names(game.players), points))


def breakdown(rows: list[dict], sep: str = " · ") -> str:
    """A deal's points by heading, e.g. ``declarations 4:0 · aces 3:1``."""
    return sep.join(f"{label(r['key'])} {r['points'][0]}:{r['points'][1]}"
                      for r in rows if any(r["points"]))


def missing_points(pairs: list[str], total: int, names: str | None = None) -> str:
    """``Missing card points: Ala and Cela, Bolek and Darek — 11 card points left``;
    ``names`` in place of the pairs' (``{names}`` for static/entry.js)."""
    return gettext("Missing card points: %(names)s — %(left)s",
                   names=", ".join(pairs) if names is None else names,
                   left=ngettext("%(num)s card point left", "%(num)s card points left", total))
