"""Languages (Polish and English): choosing one, and putting the rules' sentences in it.

Words only. The rules say what to show as :class:`~.rules.text.Text` and
:class:`~.rules.errors.Problem` values (a message id with parameters); this module
translates them, turns parameters into words (cards as players read them, seats as
names, points as :mod:`.formats` writes them, the words each family registers in
``param_labels``) and offers the same
helpers to templates. Each family's own words live in its folder and reach its
templates as a global named by the family's key.
"""
from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from babel import Locale
from flask import Flask, current_app, g, request
from flask_babel import Babel, get_locale, gettext
from markupsafe import Markup, escape
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from ..rules.errors import Problem
from . import formats
from .formats import signed
from .lru import LRU

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_LABELS = {"en": {"J": "J", "Q": "Q", "K": "K", "A": "A"},
               "pl": {"J": "W", "Q": "D", "K": "K", "A": "A"}}


def lang() -> str:
    """The request's language, ``"pl"`` or ``"en"`` (asked many times per page)."""
    locale = get_locale()
    return _LANGS.made_for(locale, id(locale), _code, locale)


def _code(locale: Locale | None) -> str:
    return str(locale or "en")[:2]


_LANGS = LRU(64)

def select_locale() -> Locale:
    """The ``lang`` cookie's language, else the browser's best."""
    return choose_locale(request.cookies.get("lang"), request.headers.get("Accept-Language", ""),
                         tuple(current_app.config["LANGUAGES"]))


@lru_cache(maxsize=512)
def choose_locale(cookie: str | None, accept_language: str,
                  languages: tuple[str, ...]) -> Locale:
    """The language for a ``lang`` cookie and an ``Accept-Language`` header, worked out
    once per pair (a phone sends the same ones every time).

    >>> str(choose_locale(None, "pl-PL,pl;q=0.9,en;q=0.5", ("en", "pl")))
    'pl'
    >>> str(choose_locale("en", "pl", ("en", "pl"))), str(choose_locale(None, "", ("en", "pl")))
    ('en', 'en')
    """
    code = cookie if cookie in languages else (
        parse_accept_header(accept_language, LanguageAccept).best_match(list(languages))
        or "en")
    return Locale.parse(code)


def rank_label(rank: str) -> str:
    return RANK_LABELS.get(lang(), RANK_LABELS["en"]).get(rank, rank)


def card_label(card: str) -> str:
    """``"QH"`` as ``Q♥`` in English, ``D♥`` in Polish."""
    rank, suit = card[:-1], card[-1]
    return rank_label(rank) + SUIT_SYMBOLS[suit]


def _param_labels() -> dict[str, dict[str, Any]]:
    return current_app.extensions.get("param_labels", {})


def _words(params: dict[str, Any], players: list[str] | None) -> dict[str, Any]:
    """Parameters as players read them: cards ("QH" → "D♥" in Polish), suits, ranks,
    signed points, seats as names and each family's registered words."""
    out = dict(params)
    for name in ("card", "cards", "start"):
        value = out.get(name)
        if isinstance(value, str) and value:
            try:
                out[name] = ", ".join(card_label(c.strip()) for c in value.replace(" ", ",")
                                      .split(",") if c.strip())
            except (KeyError, IndexError):
                pass
    if out.get("suit") in SUIT_SYMBOLS:
        out["suit"] = SUIT_SYMBOLS[out["suit"]]
    if isinstance(out.get("rank"), str) and out["rank"] in RANK_LABELS["en"]:
        out["rank"] = rank_label(out["rank"])
    if isinstance(out.get("points"), int):
        out["points"] = signed(out["points"])
    if players is not None and isinstance(out.get("player"), int) \
            and 0 <= out["player"] < len(players):
        out["player"] = players[out["player"]]
    for name, labels in _param_labels().items():
        if isinstance(out.get(name), str) and out[name] in labels:
            out[name] = str(labels[out[name]])
    return out


def localized(item: Any, players: list[str] | None = None) -> str:
    """A Problem, Text, Reason or score item of the rules in the UI language."""
    return gettext(item.message, **_words(item.params, players))


def localized_item(item: Any) -> str:
    """A trick's score item (``ScoreItem``) with its signed points."""
    return gettext(item.message, **_words({**item.params, "points": item.points}, None))


def field_errors(problems: list[Problem]) -> dict[str, list[str]]:
    """Problems as translated messages per field (``""`` is the input as a whole)."""
    out: dict[str, list[str]] = {}
    for p in problems:
        out.setdefault(p.field, []).append(localized(p))
    return out


def seat_names(players: list[str], seats: list[int | None]) -> str:
    return ", ".join(players[s] for s in seats if s is not None)


def suit_colors(text: Any) -> Markup:
    """Escape ``text`` and colour its red suit symbols (for HTML and the PDF)."""
    escaped = escape(str(text))
    for symbol in "♥♦":
        escaped = Markup(escaped.replace(symbol, Markup(f'<span class="red">{symbol}</span>')))
    return Markup(escaped)


def init_app(app: Flask, families: Iterable[Any] = ()) -> None:
    """Languages for ``app``; each family's words reach its templates by its key and its
    ``param_labels`` turn message parameters into words."""
    Babel(app, locale_selector=select_locale)
    app.jinja_env.filters["card_label"] = card_label
    app.jinja_env.filters["suit_colors"] = suit_colors
    app.jinja_env.filters["rank_label"] = rank_label
    formats.register(app.jinja_env)
    labels: dict[str, dict[str, Any]] = {}
    for family in families:
        app.jinja_env.globals[family.key] = family.words
        for name, words in family.param_labels.items():
            labels.setdefault(name, {}).update(words)
    app.extensions["param_labels"] = labels

    @app.context_processor
    def inject() -> dict[str, Any]:
        return {"lang": lang, "card_label": card_label,
                "suit_symbols": SUIT_SYMBOLS, "g": g, "seat_names": seat_names,
                "localized": localized, "localized_item": localized_item,
                "rank_label": rank_label}
