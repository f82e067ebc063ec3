"""Languages on the web: Flask-Babel chooses the request's language (its ``lang`` cookie,
else the browser's best) and translates what :mod:`scorekeeper.common.i18n` asks for; the
template helpers; each family's words reach its templates by the family's key."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import flask_babel
from babel import Locale
from flask import Flask, current_app, request
from jinja2 import pass_context
from markupsafe import Markup, escape

from ..common import formats, i18n


def select_locale() -> Locale:
    """This request's language: its ``lang`` cookie's, else the browser's best
    (``Accept-Language``), else English."""
    languages = current_app.config["LANGUAGES"]
    cookie = request.cookies.get("lang")
    chosen = cookie if cookie in languages else request.accept_languages.best_match(languages)
    return Locale.parse(chosen or "en")


def suit_colors(text: Any) -> Markup:
    """Escape ``text`` and colour its red suit symbols (for HTML and the PDF)."""
    escaped = escape(str(text))
    for symbol in "♥♦":
        escaped = Markup(escaped.replace(symbol, Markup(f'<span class="red">{symbol}</span>')))
    return Markup(escaped)


def init_app(app: Flask, families: Iterable[Any] = ()) -> None:
    """Languages for ``app``; each family's words (its web adapter's) reach its templates
    by its key and its ``param_labels`` turn message parameters into words."""
    flask_babel.Babel(app, locale_selector=select_locale)
    app.jinja_env.filters.update(card_label=i18n.card_label, suit_colors=suit_colors,
                                 rank_label=i18n.rank_label)
    formats.register(app.jinja_env)
    labels: dict[str, dict[str, Any]] = {}
    for family in families:
        app.jinja_env.globals[family.key] = family.words
        for name, words in family.param_labels.items():
            labels.setdefault(name, {}).update(words)
    i18n.install(flask_babel.gettext, flask_babel.ngettext, flask_babel.get_locale, labels)
    app.jinja_env.globals.update(
        lang=i18n.lang, card_label=i18n.card_label, suit_symbols=i18n.SUIT_SYMBOLS,
        seat_names=i18n.seat_names, localized=i18n.localized,
        localized_item=i18n.localized_item, rank_label=i18n.rank_label)
    # the templates' ``_`` and ``ngettext`` read the catalog the render was given, not
    # Flask-Babel's per call (a game page has some fifty)
    app.jinja_env.install_gettext_callables(_gettext, _ngettext, newstyle=True)
    app.context_processor(lambda: {"_catalog": flask_babel.get_translations()})


def _catalog(context: Any) -> Any:
    return context.get("_catalog") or flask_babel.get_translations()


@pass_context
def _gettext(context: Any, message: str) -> str:
    return _catalog(context).ugettext(message)


@pass_context
def _ngettext(context: Any, singular: str, plural: str, num: int) -> str:
    return _catalog(context).ungettext(singular, plural, num)
