"""Kierki's words: deal names, input labels and the few-word accounts of a result.

Words only: every number comes from the rules (``Contract.costs``, ``Deal.notes``).
Templates under ``templates/kierki/`` reach this module as ``kierki``.
"""
from __future__ import annotations

from typing import Any

from babel.lists import format_list

from ...common.i18n import (
    SUIT_SYMBOLS,
    card_label,
    get_locale,
    gettext,
    lang,
    localized,
    ngettext,
    rank_label,
    seat_names,
    signed,
)
from ...common.i18n import lazy_gettext as _l
from ...rules.checks import blank, digits
from ...rules.errors import N_
from .rules import Contract, Deal
from .rules.contracts import LEAD_RULES
from .rules.outlook import outlook, swing

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
    "no_trump": _l("No trumps, tricks count"),
}


FIELD_LABELS = {
    "tricks": _l("Tricks"),
    "hearts": _l("Hearts ♥"),
    "queens": _l("Queens"),
    "gentlemen": _l("Kings and jacks"),
    "jacks": _l("Jacks"),
    "king_of_hearts": _l("Who took the K♥?"),
    "queen_of_spades": _l("Who took the Q♠?"),
    "positions": _l("Who took the penalty tricks?"),
    "trump": _l("Trump suit"),
    "bids": _l("Highest bids for the box"),
    "sold": _l("The dealer's answer"),
    "order": _l("Who ran out of cards first?"),
    "cards": _l("Card by card"),
}

#: The yes/no answers of a deal form, as posted.
YES_NO = {"yes": True, "no": False}
YES_NO_LABELS = {
    "sold": (_l("Dealer accepts the highest bid"), _l("Dealer refuses, or nobody bid")),
}

#: Where a ruleset's rules come from (its ``source``), as a player reads it on the rules page.
SOURCES = {
    "000": _l("kurnik.pl, the online card room"),
    "001": _l("a Polish Kierki rules page"),
    "002": _l("“Polish Hearts (Kierki)”, a description translated into English"),
    "004": _l("pagat.com, the card games site"),
    "house": _l("a house variant, in no printed rules"),
}

#: The ``unit`` of a card-set cost line.
SET_UNITS = {
    "hearts": _l("each heart"),
    "queens": _l("each queen"),
    "gentlemen": _l("each king and each jack"),
    "jacks": _l("each jack"),
    "king_of_hearts": _l("the K♥"),
    "queen_of_spades": _l("the Q♠"),
}


#: What a player's page counts over their games.
STAT_LABELS = {
    "hearts": _l("Hearts taken"),
    "king_of_hearts": _l("Caught with the K♥"),
    "loteryjka": _l("Loteryjka won"),
}

#: A trump deal played without trumps, where the ruleset allows it (``no_trump``).
NO_TRUMP = _l("No trumps")

#: The house-variant editor's quick changes (:data:`.variant_form.QUICK`).
QUICK_CHANGES = {
    "no_robber": _l("Without the robber"),
    "no_robber_loteryjka": _l("Without the robber and the loteryjka"),
    "loteryjka_many": _l("Loteryjka once per player (smaller prizes)"),
    "no_trump_deal": _l("Four trump deals and one without trumps, 20 a trick"),
    "left_names_trumps": _l("The player left of the dealer names trumps and leads"),
    "discard_king_of_hearts": _l("K♥ discarded at the first chance"),
    "queen_of_spades": _l("Q♠ instead of K♥"),
    "trump_auction": _l("Trump deals with an auction for the box"),
    "must_beat": _l("Must trump and beat (Warsaw, 1981)"),
}

#: Deal 6's choices in the editor (:data:`.variant_form.DEAL6`).
DEAL6_NAMES = {
    "seventh_last": _l("the 7th and the last"),
    "last": _l("the last only"),
    "last_two": _l("the last two"),
    "third_seventh": _l("the 3rd and the 7th"),
    "third_eighth": _l("the 3rd and the 8th"),
    "first_fourth_last": _l("the 1st, the 4th and the last"),
}

#: Who names trumps and leads, as the editor offers it (:data:`.variant_form.TRUMP_CALLERS`).
TRUMP_CALLER_NAMES = {
    "dealer_dealer": _l("the dealer, who also leads"),
    "dealer_left": _l("the dealer; the player on the left leads"),
    "left_left": _l("the player left of the dealer, who leads"),
}

#: The loteryjka's start ranks as the editor offers them.
START_RANKS = ("7", "8", "6", "9", "5", "10", "4", "J", "3", "Q", "2", "K", "A", "any")

#: The lead rules, as the editor lists them.
LEAD_RULE_TEXTS = {rule: _l(text) for rule, text in LEAD_RULES.items()}


def start_label(rank: str) -> str:
    """A loteryjka start rank as the editor says it: ``its 7``, or any rank."""
    if rank == "any":
        return gettext("any rank: the first card played sets it")
    return gettext("its %(rank)s", rank=rank_label(rank))


#: A one-card set as the sheet shows its taker: ``K♥ Ala``, ``D♠ Ala``.
SHORT_SETS = {"king_of_hearts": "KH", "queen_of_spades": "QS"}
#: The card set each penalty deal of the built-in rulesets scores.
KEY_SETS = {"no_hearts": "hearts", "no_queens": "queens", "no_gentlemen": "gentlemen",
            "no_jacks": "jacks", "no_king_of_hearts": "king_of_hearts"}
#: A penalty deal named by the cards it scores, where a variant changed its card set.
SET_CONTRACT_NAMES = {s: CONTRACT_NAMES[k] for k, s in KEY_SETS.items()} | {
    "queen_of_spades": _l("No queen of spades")}


def contract_name(contract: Contract) -> str:
    if contract.kind == "positions" and contract.key == "no_seventh_last" \
            and contract.trick_numbers != [7, contract.table.tricks]:
        return gettext("Penalty tricks %(numbers)s",
                       numbers=", ".join(str(n) for n in contract.trick_numbers))
    if contract.kind == "cards" and contract.key in KEY_SETS \
            and KEY_SETS[contract.key] != contract.set_name:
        return str(SET_CONTRACT_NAMES.get(contract.set_name, contract.set_name))
    if contract.key == "trumps" and getattr(contract, "auction", False):
        return gettext("Trumps, auctioned")
    if contract.key in CONTRACT_NAMES:
        return str(CONTRACT_NAMES[contract.key])
    names = contract.data.get("name", {})
    return names.get(lang()) or names.get("en") or contract.key


def field_label(name: str) -> str:
    return str(FIELD_LABELS.get(name, name))


def yes_no_labels(name: str) -> list[tuple[str, str]]:
    """The radio buttons of a yes/no input: ``[("yes", words), ("no", words)]``."""
    return [(value, str(label)) for value, label in zip(YES_NO, YES_NO_LABELS[name])]


def error_summary(errors: dict[str, list[str]], contract: Contract,
                  players: list[str], values: dict[str, Any] | None = None
                  ) -> list[tuple[str, str, str]]:
    """The messages that belong to an input, as ``(anchor, where, message)`` (``Ala ·
    Hearts ♥``); a count's blank cells are one line naming their players (``values``:
    what was posted)."""
    fields = {f.name: f for f in contract.fields()}
    out = []
    posted, values = values is not None, values or {}
    for field in contract.fields():
        if posted and field.type == "counts" and errors:
            missing = missing_count(field.name, field.total, players, values)
            if missing:
                first = next(seat for seat in range(len(players))
                             if blank(values.get(f"{field.name}-{seat}")))
                out.append((f"rc-{field.name}-{first}", missing, ""))
    for key, messages in errors.items():
        name, _, index = key.partition(".")
        field = fields.get(name)
        if field is None:
            continue  # shown above the form by itself (loose_errors)
        where, anchor = field_label(name).rstrip("?"), f"f-{name}"
        if index.isdigit():
            i = int(index)
            if posted and field.type == "counts" and blank(values.get(f"{name}-{i}")):
                continue  # said by the count's line above
            if field.type in ("counts", "bids") and i < len(players):
                where = f"{players[i]} · {field_label(name)}"
                anchor = f"rc-{name}-{i}" if field.type == "counts" else f"{name}-{i}"
            elif field.type == "seats" and i < len(field.labels):
                where = row_label(contract, name, field.labels[i])
        out += [(anchor, where, str(m)) for m in messages]
    return out


#: A count some players have no number in: who lacks one, and what is left of its total.
MISSING = {
    "tricks": N_("Missing tricks: %(names)s — %(left)s"),
    "hearts": N_("Missing hearts: %(names)s — %(left)s"),
    "queens": N_("Missing queens: %(names)s — %(left)s"),
    "gentlemen": N_("Missing kings and jacks: %(names)s — %(left)s"),
    "jacks": N_("Missing jacks: %(names)s — %(left)s"),
}
MISSING_CARDS = N_("Missing cards: %(names)s — %(left)s")
#: "5 tricks left", by the count (the same words as the form's counter shows).
LEFT = {
    "tricks": ("%(num)s trick left", "%(num)s tricks left"),
    "hearts": ("%(num)s heart left", "%(num)s hearts left"),
    "queens": ("%(num)s queen left", "%(num)s queens left"),
    "gentlemen": ("%(num)s king or jack left", "%(num)s kings and jacks left"),
    "jacks": ("%(num)s jack left", "%(num)s jacks left"),
}
LEFT_CARDS = ("%(num)s card left", "%(num)s cards left")


def missing_template(name: str) -> str:
    """The missing-count sentence with ``{names}`` and ``{left}`` for static/entry.js."""
    return gettext(MISSING.get(name, MISSING_CARDS), names="{names}", left="{left}")


def missing_count(name: str, total: int, players: list[str], values: dict[str, Any]) -> str:
    """``Missing tricks: Celina, Darek — 5 tricks left``; "" when each player has a number."""
    inputs = [values.get(f"{name}-{seat}") for seat in range(len(players))]
    empty = [seat for seat, v in enumerate(inputs) if blank(v)]
    if not empty:
        return ""
    texts = [str(v).strip() for v in inputs]  # a stranger's digits are no number
    given = sum(int(t) for t in texts if digits(t) and len(t) < 5)
    return gettext(MISSING.get(name, MISSING_CARDS), names=seat_names(players, empty),
                   left=ngettext(*LEFT.get(name, LEFT_CARDS), max(total - given, 0)))


def refusal(errors: dict[str, list[str]], contract: Contract, players: list[str],
            values: dict[str, Any]) -> str:
    """What a refused deal lacks first, for the line beside the Save button."""
    missing = next(filter(None, (missing_count(f.name, f.total, players, values)
                                 for f in contract.fields() if f.type == "counts")), "")
    if missing:
        return missing
    for anchor, where, message in error_summary(errors, contract, players, values):
        return f"{where}: {message}" if message else where
    return next((m for msgs in errors.values() for m in msgs), "")


def row_label(contract: Contract, name: str, label: str) -> str:
    """A row of seat buttons: a finishing place, or a penalty trick by its number."""
    if name == "order":
        return gettext("Place %(n)s", n=label)
    if label == str(contract.table.tricks):
        return gettext("Last trick (%(n)s)", n=label)
    return gettext("Trick %(n)s", n=label)


def deal_points(game: Any, number: int) -> str:
    """What one recorded deal gave each player: ``Ala −60, Bolek 0, …``."""
    points = game.state.scored[number - 1].points
    return ", ".join(f"{name} {signed(p)}" for name, p in zip(game.players, points))


#: The kinds of deal still to play, as "… in <these>" says them.
IN_PLAY_GROUPS = {
    "negative": _l("the negative deals"),
    "robber": _l("the robber"),
    "trumps": _l("the trump deals"),
    "loteryjka": _l("the loteryjka"),
    "no_trump": _l("the deals without trumps"),
}


def in_play(game: Any) -> list[str]:
    """What the deals left still share out and which places are decided, a sentence each."""
    state = game.state
    swings = game.rules_parts.get("swings")
    if swings is None:  # they follow from the rules alone
        swings = game.rules_parts["swings"] = [swing(d.contract) for d in state.deals]
    view = outlook(state, swings)
    if not view.left:
        return []
    clauses = []
    kinds = [group_of(d.contract) for d in state.deals[len(state.scored):]]
    for negative in (True, False):
        named = [k for k, (_, points) in zip(kinds, view.left) if (points < 0) == negative
                 and points]
        if not named:
            continue
        groups = list(dict.fromkeys(str(IN_PLAY_GROUPS[k]) for k in named))
        points = sum(p for _, p in view.left if (p < 0) == negative)
        clauses.append(gettext("%(points)s in %(deals)s", points=signed(points),
                               deals=format_list(groups, locale=get_locale())))
    lines = [gettext("Still to share out: %(clauses)s.", clauses="; ".join(clauses))]
    if view.clinched:
        lines.append(gettext("First place is decided: nobody can catch %(name)s any more.",
                             name=game.players[view.clinched[0]]))
    elif view.out:
        names = format_list([game.players[s] for s in view.out], locale=get_locale())
        lines.append(ngettext("%(names)s can no longer win.", "%(names)s can no longer win.",
                              len(view.out), names=names))
    if view.reach and not view.clinched:
        lines.append(gettext("One player can still gain up to %(reach)s on another.",
                             reach=view.reach))
    return lines


def costs(contract: Contract) -> list[str]:
    """What costs or earns how much in this deal, one line per item."""
    return [localized(line) for line in contract.costs() + contract.multiplier_costs()]


def deal_notes(deal: Deal, players: list[str]) -> list[str]:
    """The rules of this deal that players forget, with the players' names."""
    return [localized(line, players) for line in deal.notes()]


def loose_errors(errors: dict[str, list[str]], contract: Contract, by_card: bool) -> list[str]:
    """Messages that belong to no input shown on the form, to show above it."""
    shown = {f.name for f in contract.fields()}
    if by_card:
        shown.add("cards")
    return [m for key, msgs in errors.items() if key.split(".")[0] not in shown for m in msgs]


def _auction(contract: Contract, result: dict[str, Any], players: list[str], short: bool) -> str:
    """How a trump auction ended (``short`` for the score sheet)."""
    bids = [b for b in result.get("bids") or () if b is not None]
    buyer = contract.buyer(result)  # type: ignore[attr-defined]
    if buyer is not None:
        who, bid = players[buyer], result["bids"][buyer]
        return gettext("%(player)s buys for %(points)s", player=who, points=bid) if short \
            else gettext("Bought by %(player)s for %(points)s", player=who, points=bid)
    if not bids:
        return "" if short else gettext("No bids")
    return gettext("not sold") if short else \
        gettext("Refused (highest bid %(points)s)", points=max(bids))


def _parts(contract: Contract, result: dict[str, Any], players: list[str],
           short: bool) -> list[str]:
    """A recorded result's inputs in words; ``short`` for the score sheet, which shows no
    counts (the points say them)."""
    parts = []
    for field in contract.fields():
        value, name = result.get(field.name), field.name
        label = field_label(name).rstrip("?")
        if field.type == "bids":
            parts.append(_auction(contract, result, players, short))
        elif field.type == "counts" and isinstance(value, list) and not short:
            shown = ", ".join(f"{players[s]} {v}" for s, v in enumerate(value) if v)
            parts.append(f"{label}: {shown or '0'}")
        elif field.type == "seat" and isinstance(value, int):
            parts.append(f"{label}: {players[value]}" if not short else
                         f"{card_label(SHORT_SETS[name])} {players[value]}" if name in SHORT_SETS
                         else f"{field_label(name)} {players[value]}")
        elif field.type == "seats" and isinstance(value, list) and name == "order":
            parts.append(", ".join(f"{i + 1}. {players[s]}" for i, s in enumerate(value)
                                   if s is not None) if short
                         else gettext("Order: %(names)s", names=seat_names(players, value)))
        elif field.type == "seats" and isinstance(value, list):
            parts.append(", ".join((t if short else gettext("trick %(number)s", number=t))
                                   + f": {players[s]}" for t, s in zip(field.labels, value)
                                   if s is not None))
        elif field.type == "suit" and (value in SUIT_SYMBOLS or value == "NT"):
            symbol = SUIT_SYMBOLS.get(value) or str(NO_TRUMP)
            parts.append(symbol if short else f"{label}: {symbol}")
    return parts


def describe(contract: Contract, result: dict[str, Any], players: list[str]) -> str:
    """A recorded result in a few words: who took what (for history and sheets)."""
    return "; ".join(_parts(contract, result, players, short=False))


def sheet_detail(contract: Contract, result: dict[str, Any], players: list[str]) -> str:
    """What a score sheet shows beside a deal's points (no counts: the points say them)."""
    return "; ".join(p for p in _parts(contract, result, players, short=True) if p)


#: The kinds of deal the bars group by: every penalty deal together, then each other kind.
PENALTY_KINDS = ("tricks", "cards", "positions")
GROUP_NAMES = {"negative": _l("Negative deals"), "robber": CONTRACT_NAMES["robber"],
               "trumps": CONTRACT_NAMES["trumps"], "loteryjka": CONTRACT_NAMES["loteryjka"],
               "no_trump": _l("Deals without trumps")}


def group_of(contract: Any) -> str:
    """The bar group of a deal's contract: ``"negative"`` for a penalty deal, ``"no_trump"``
    for one of those kinds that gives points out."""
    if contract.kind in PENALTY_KINDS:
        return "no_trump" if contract.expected_sum > 0 else "negative"
    return contract.kind
