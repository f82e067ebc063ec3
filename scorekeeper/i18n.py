"""Languages (Polish and English) and every game word shown to players.

Contract keys, field names and lead rules from the rules core are turned into
translated text here, so the rules stay free of Flask.
"""
from __future__ import annotations

from typing import Any

from flask import Flask, current_app, g, request
from flask_babel import Babel, get_locale, gettext
from flask_babel import lazy_gettext as _l
from markupsafe import Markup, escape

from .families.kierki.rules import Contract, Deal, Problem
from .families.kierki.rules.cards import SUIT_SYMBOLS

CONTRACT_NAMES = {
    "no_tricks": _l("No tricks"),
    "no_hearts": _l("No hearts"),
    "no_queens": _l("No queens"),
    "no_gentlemen": _l("No kings and jacks"),
    "no_jacks": _l("No jacks"),
    "no_king_of_hearts": _l("No king of hearts"),
    "no_seventh_last": _l("No 7th and last trick"),
    "no_last_two": _l("No last two tricks"),
    "robber": _l("Robber"),
    "trumps": _l("Trumps"),
    "loteryjka": _l("Loteryjka"),
}

FIELD_LABELS = {
    "tricks": _l("Tricks"),
    "hearts": _l("Hearts ♥"),
    "queens": _l("Queens"),
    "gentlemen": _l("Kings and jacks"),
    "jacks": _l("Jacks"),
    "king_of_hearts": _l("Who took the K♥?"),
    "positions": _l("Who took the penalty tricks?"),
    "trump": _l("Trump suit"),
    "order": _l("Who ran out of cards first?"),
    "cards": _l("Card by card"),
}

SET_UNITS = {
    "hearts": _l("each heart"),
    "queens": _l("each queen"),
    "gentlemen": _l("each king and each jack"),
    "jacks": _l("each jack"),
    "king_of_hearts": _l("the K♥"),
}

LEAD_RULES = {
    "no_hearts": _l("A heart may not be led while the leader holds any other suit."),
    "no_king_of_hearts": _l("The K♥ may not be led."),
    "discard_king_of_hearts": _l("Whoever holds the K♥ must discard it at the first trick "
                                 "they cannot follow."),
}

TYBET_LABELS = {
    "declarations": _l("declarations"),
    "aces": _l("aces"),
    "honours": _l("honours"),
    "last": _l("last trick"),
    "tybet": _l("Tybet"),
    "sariat": _l("Sariat"),
    "kalanda": _l("Kalanda"),
    "perla": _l("Perła"),
    "kondriona": _l("Kondriona"),
}

RANK_LABELS = {"en": {"J": "J", "Q": "Q", "K": "K", "A": "A"},
               "pl": {"J": "W", "Q": "D", "K": "K", "A": "A"}}


def lang() -> str:
    return str(get_locale() or "en")[:2]


def select_locale() -> str:
    chosen = request.cookies.get("lang")
    if chosen in current_app.config["LANGUAGES"]:
        return chosen
    return request.accept_languages.best_match(current_app.config["LANGUAGES"]) or "en"


def contract_name(contract: Contract) -> str:
    if contract.key in CONTRACT_NAMES:
        return str(CONTRACT_NAMES[contract.key])
    names = contract.data.get("name", {})
    return names.get(lang()) or names.get("en") or contract.key


def card_label(card: str) -> str:
    """``"QH"`` as ``Q♥`` in English, ``D♥`` in Polish."""
    rank, suit = card[:-1], card[-1]
    return RANK_LABELS.get(lang(), RANK_LABELS["en"]).get(rank, rank) + SUIT_SYMBOLS[suit]


def signed(points: int) -> str:
    return f"+{points}" if points > 0 else str(points).replace("-", "−")


def _ordinal_trick(number: int) -> str:
    return gettext("trick %(number)s", number=number)


def costs(contract: Contract) -> list[str]:
    """What costs or earns how much in this deal, one line per item."""
    kind = contract.kind
    d = contract.data
    if kind == "robber":
        return [line for part in contract.parts for line in costs(part)]  # type: ignore[attr-defined]
    if kind in ("tricks", "trumps"):
        return [gettext("%(points)s for each trick", points=signed(d["points"]))]
    if kind == "cards":
        return [gettext("%(points)s for %(unit)s", points=signed(d["points"]),
                        unit=SET_UNITS.get(d["set"], d["set"]))]
    if kind == "positions":
        return [gettext("%(points)s for %(trick)s", points=signed(p), trick=_ordinal_trick(t))
                for t, p in zip(contract.trick_numbers, contract.points)]  # type: ignore[attr-defined]
    if kind == "loteryjka":
        return [gettext("%(points)s for place %(place)s", points=signed(p), place=i + 1)
                for i, p in enumerate(d["prizes"])]
    return []


def special_rules(deal: Deal, players: list[str]) -> list[str]:
    """The rules of this deal that players forget: lead limits, trumps, loteryjka."""
    c = deal.contract
    d = c.data
    lines = [str(LEAD_RULES[r]) for r in c.lead_rules if r in LEAD_RULES]
    if c.kind == "trumps":
        caller = players[deal.trump_caller] if deal.trump_caller is not None else ""
        if d.get("named_by") == "dealer":
            lines.append(gettext("%(player)s names trumps after seeing the first %(cards)s cards; "
                                 "then the deal is completed.", player=caller,
                                 cards=d.get("cards_seen", 5)))
        else:
            lines.append(gettext("%(player)s names trumps before leading to the first trick.",
                                 player=caller))
        lines.append(gettext("Follow suit; you need not trump or beat."))
    elif c.kind == "loteryjka":
        if d.get("start") == "any":
            lines.append(gettext("%(player)s starts with any card; every other suit starts at "
                                 "that rank.", player=players[deal.leader]))
        else:
            lines.append(gettext("%(player)s starts; each suit starts with its %(rank)s.",
                                 player=players[deal.leader], rank=d.get("start", "7")))
        lines.append(gettext("Ace low (below the 2).") if d.get("ace") == "low"
                     else gettext("Ace high (above the king)."))
        lines.append(gettext("Play a card if you can; pass only when you cannot."))
    elif c.kind != "robber":
        lines.append(gettext("No trumps. Follow suit; you need not beat."))
    return lines


def _card_params(params: dict[str, Any]) -> dict[str, Any]:
    """Card codes in messages ("QH", "7S, 8S") as players read them ("D♥" in Polish)."""
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
    if out.get("special") in TYBET_LABELS:
        out["special"] = str(TYBET_LABELS[out["special"]])
    if isinstance(out.get("rank"), str) and out["rank"] in RANK_LABELS["en"]:
        out["rank"] = rank_label(out["rank"])
    return out


def localized(problem: Any) -> str:
    """A Problem, Reason or score item of the rules core in the UI language."""
    return gettext(problem.message, **_card_params(problem.params))


def localized_item(item: Any) -> str:
    """A trick's score item (``ScoreItem``) with signed points."""
    return gettext(item.message, **{**_card_params(item.params), "points": signed(item.points)})


def rank_label(rank: str) -> str:
    return RANK_LABELS.get(lang(), RANK_LABELS["en"]).get(rank, rank)


def problem_text(problem: Problem) -> str:
    return localized(problem)


def field_errors(problems: list[Problem]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for p in problems:
        out.setdefault(p.field, []).append(problem_text(p))
    return out


def loose_errors(errors: dict[str, list[str]], contract: Contract, by_card: bool) -> list[str]:
    """Messages that belong to no input shown on the form, to show above it."""
    shown = {f.name for f in contract.fields()}
    if by_card:
        shown.add("cards")
    return [m for key, msgs in errors.items() if key.split(".")[0] not in shown for m in msgs]


def pair_names(players: list[str]) -> list[str]:
    """Partners sit opposite: seats 1 and 3 against 2 and 4."""
    return [f"{players[0]} & {players[2]}", f"{players[1]} & {players[3]}"]


def tybet_label(key: str) -> str:
    return str(TYBET_LABELS.get(key, key))


def seat_names(players: list[str], seats: list[int | None]) -> str:
    return ", ".join(players[s] for s in seats if s is not None)


def describe(contract: Contract, result: dict[str, Any], players: list[str]) -> str:
    """A recorded result in a few words: who took what (for history and sheets)."""
    parts = []
    for field in contract.fields():
        value = result.get(field.name)
        label = str(FIELD_LABELS.get(field.name, field.name)).rstrip("?")
        if field.type == "counts" and isinstance(value, list):
            shown = ", ".join(f"{players[s]} {v}" for s, v in enumerate(value) if v)
            parts.append(f"{label}: {shown or '0'}")
        elif field.type == "seat" and isinstance(value, int):
            parts.append(f"{label}: {players[value]}")
        elif field.type == "seats" and isinstance(value, list):
            if field.name == "order":
                parts.append(gettext("Order: %(names)s", names=seat_names(players, value)))
            else:
                parts.append(", ".join(gettext("trick %(number)s", number=t) + f": {players[s]}"
                                       for t, s in zip(field.labels, value) if s is not None))
        elif field.type == "suit" and value in SUIT_SYMBOLS:
            parts.append(f"{label}: {SUIT_SYMBOLS[value]}")
    return "; ".join(parts)


def sheet_detail(contract: Contract, result: dict[str, Any], players: list[str]) -> str:
    """What a score sheet shows beside a deal's points: K♥ taker, penalty tricks,
    trump suit, finishing order. Counts are left out: the points already say them."""
    parts = []
    for field in contract.fields():
        value = result.get(field.name)
        if field.type == "seat" and isinstance(value, int):
            parts.append(f"K♥ {players[value]}" if field.name == "king_of_hearts"
                         else f"{FIELD_LABELS.get(field.name, field.name)} {players[value]}")
        elif field.type == "seats" and isinstance(value, list):
            if field.name == "order":
                parts.append(", ".join(f"{i + 1}. {players[s]}" for i, s in enumerate(value)
                                       if s is not None))
            else:
                parts.append(", ".join(f"{t}: {players[s]}" for t, s in zip(field.labels, value)
                                       if s is not None))
        elif field.type == "suit" and value in SUIT_SYMBOLS:
            parts.append(SUIT_SYMBOLS[value])
    return "; ".join(parts)


def suit_colors(text: Any) -> Markup:
    """Escape ``text`` and colour its red suit symbols (for HTML and the PDF)."""
    escaped = escape(str(text))
    for symbol in "♥♦":
        escaped = Markup(escaped.replace(symbol, Markup(f'<span class="red">{symbol}</span>')))
    return Markup(escaped)


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=select_locale)
    app.jinja_env.filters["card_label"] = card_label
    app.jinja_env.filters["suit_colors"] = suit_colors
    app.jinja_env.filters["rank_label"] = rank_label

    @app.context_processor
    def inject() -> dict[str, Any]:
        return {"lang": lang, "contract_name": contract_name, "card_label": card_label,
                "signed": signed, "field_label": lambda name: FIELD_LABELS.get(name, name),
                "suit_symbols": SUIT_SYMBOLS, "g": g, "loose_errors": loose_errors,
                "seat_names": seat_names, "describe": describe, "localized": localized,
                "localized_item": localized_item, "rank_label": rank_label,
                "sheet_detail": sheet_detail, "costs": costs, "pair_names": pair_names,
                "tybet_label": tybet_label, "special_name": tybet_label}
