"""Languages (Polish and English): choosing one, and putting the rules' sentences in it.

The rules say what to show as :class:`~.rules.text.Text` and :class:`~.rules.errors.Problem`
values (a message id with parameters); this module translates them and turns parameters
into words (cards as players read them, seats as names, points as :mod:`.formats` writes
them, each family's ``param_labels``). It loads no Flask: until the web layer installs
Flask-Babel's translation (:func:`install`), a message is its id, in English.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import suppress
from types import SimpleNamespace
from typing import Any

from babel import Locale
from babel.support import LazyProxy

from ..rules.errors import Problem
from .formats import signed

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_LABELS = {"en": {"J": "J", "Q": "Q", "K": "K", "A": "A"},
               "pl": {"J": "W", "Q": "D", "K": "K", "A": "A"}}


def _ngettext(singular: str, plural: str, num: int, **params: Any) -> str:
    return (singular if num == 1 else plural) % {"num": num, **params}


#: Whatever translates: the message ids themselves (English) until :func:`install`.
_translator = SimpleNamespace(
    gettext=lambda message, **params: message % params if params else message,
    ngettext=_ngettext, get_locale=lambda: None, param_labels={})


def install(gettext: Callable[..., str], ngettext: Callable[..., str],
            get_locale: Callable[[], Locale | None],
            param_labels: Mapping[str, Mapping[str, Any]]) -> None:
    """The web layer's translation (Flask-Babel's, per request) and the words each family
    registers for message parameters; the same for every app of the process."""
    vars(_translator).update(gettext=gettext, ngettext=ngettext, get_locale=get_locale,
                             param_labels=param_labels)


def gettext(message: str, **params: Any) -> str:
    """``message`` in the request's language (its id, in English, outside the web)."""
    return _translator.gettext(message, **params)


def ngettext(singular: str, plural: str, num: int, **params: Any) -> str:
    return _translator.ngettext(singular, plural, num, **params)


def get_locale() -> Locale | None:
    return _translator.get_locale()


class LazyText(LazyProxy):
    """A message translated each time it is read (``str()``, a template): words defined at
    import, before any request has a language (Flask-Babel's ``lazy_gettext``)."""

    __slots__ = ()

    def __init__(self, message: str, **params: Any):
        super().__init__(gettext, message, enable_cache=False, **params)

    message = property(lambda self: self._args[0])
    __html__ = LazyProxy.__str__  # written into a page as it is, like any message
    __hash__ = lambda self: hash(self.value)  # a dict key, as a str is
    __copy__ = __deepcopy__ = lambda self, *memo: self  # it holds nothing that changes

    def __repr__(self) -> str:
        return f"l'{self.message}'"


lazy_gettext = LazyText


def lang() -> str:
    """The request's language, ``"pl"`` or ``"en"`` (asked many times per page)."""
    return getattr(_translator.get_locale(), "language", "en")


def rank_label(rank: str) -> str:
    return RANK_LABELS.get(lang(), RANK_LABELS["en"]).get(rank, rank)


def card_label(card: str) -> str:
    """``"QH"`` as ``Q♥`` in English, ``D♥`` in Polish."""
    rank, suit = card[:-1], card[-1]
    return rank_label(rank) + SUIT_SYMBOLS[suit]


def _words(params: dict[str, Any], players: list[str] | None) -> dict[str, Any]:
    """Parameters as players read them: cards ("QH" → "D♥" in Polish), suits, ranks,
    signed points, seats as names and each family's registered words."""
    out = dict(params)
    for name in ("card", "cards", "start"):
        if isinstance(value := out.get(name), str) and value:
            with suppress(KeyError, IndexError):
                out[name] = ", ".join(card_label(c.strip()) for c in value.replace(" ", ",")
                                      .split(",") if c.strip())
    if out.get("suit") in SUIT_SYMBOLS:
        out["suit"] = SUIT_SYMBOLS[out["suit"]]
    if isinstance(out.get("rank"), str) and out["rank"] in RANK_LABELS["en"]:
        out["rank"] = rank_label(out["rank"])
    if isinstance(out.get("points"), int):
        out["points"] = signed(out["points"])
    if isinstance(seat := out.get("player"), int) and 0 <= seat < len(players or ()):
        out["player"] = players[seat]
    for name, labels in _translator.param_labels.items():
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
