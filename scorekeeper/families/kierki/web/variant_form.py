"""The house-variant editor of Kierki: a ruleset document (the one ``POST /api/rulesets``
takes), the editor's form fields read onto it, the quick changes players ask for by name,
and the sums each choice gives. The page carries the document whole in a hidden field and
every post reads the visible fields onto it, so a quick change and a typed number survive
each other; saving checks it as the API does.

>>> from ..rules import get_ruleset
>>> doc = start(get_ruleset("standard-4"))
>>> doc = quick(doc, "no_robber_loteryjka")
>>> rules, problems = load(doc)
>>> len(rules.schedule), rules.expected_sum, problems
(10, 0, [])
"""
from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from pydantic import ValidationError

from ....common import safejson
from ....rules.errors import N_, InvalidInput, Problem, RulesetError
from ....rules.shapes import where
from ..rules import Ruleset, document, from_data
from ..rules.cards import CARD_SETS, RANKS
from ..rules.contracts import LEAD_RULES

#: The deal-6 choices of seed 004: which tricks cost, and what each costs with four
#: players and with three (the three-player game scales −150 to −140). Five players
#: use the four-player points.
DEAL6 = {
    "seventh_last": ([7, -1], {4: -75, 3: -70}),
    "last": ([-1], {4: -150, 3: -140}),
    "last_two": ([-2, -1], {4: -75, 3: -70}),
    "third_seventh": ([3, 7], {4: -75, 3: -70}),
    "third_eighth": ([3, 8], {4: -75, 3: -70}),
    "first_fourth_last": ([1, 4, -1], {4: -50, 3: [-45, -45, -50]}),
}

#: Who names trumps and who leads the first trick, as one choice.
TRUMP_CALLERS = {
    "dealer_dealer": ("dealer", "dealer"),
    "dealer_left": ("dealer", "left"),
    "left_left": ("leader", "left"),
}

#: Quick changes, by name; each is a pure function of the document (:func:`quick`).
QUICK = ("no_robber", "no_robber_loteryjka", "loteryjka_many", "no_trump_deal",
         "left_names_trumps", "trump_auction", "discard_king_of_hearts", "queen_of_spades",
         "must_beat")

#: What the "Q♠ instead of K♥" change writes in the variant's notes, in each language: the
#: deal's lead rule is the app's reading, not seed 004's (variation 3 names none).
QUEEN_OF_SPADES_NOTE = {
    "en": "The Q♠ deal has no lead rule: that is this app's reading. Seed 004 (pagat.com, "
          "variation 3) only moves the penalty from the K♥ to the Q♠ and says nothing about "
          "which cards may be led.",
    "pl": "W rozdaniu z D♠ nie ma zasady wyjścia: to odczytanie tej aplikacji. Źródło 004 "
          "(pagat.com, wariant 3) tylko przenosi karę z K♥ na D♠ i nie mówi, jakimi kartami "
          "wolno wychodzić.",
}

MAX_DEALS = 30
NAME_LENGTH = 60
#: Empty schedule slots offered under the last deal, to add deals without JavaScript.
SPARE_SLOTS = 3


def start(rules: Ruleset) -> dict[str, Any]:
    """A new variant's document: ``rules`` as they are, to be named and changed."""
    doc = copy.deepcopy(rules.data)
    for gone in ("id", "expected_sum", "summary", "notes", "made_by", "created_at", "unbalanced"):
        doc.pop(gone, None)
    doc["based_on"] = rules.id
    doc["source"] = "house"
    doc["name"] = {}
    return doc


#: The name a document has while its maker has not named it yet (the editor asks for
#: one when saving): the shape needs one to check the rest.
UNNAMED = {"en": "variant", "pl": "wariant"}


def _named(doc: Mapping[str, Any]) -> dict[str, Any]:
    return {**doc, "name": doc.get("name") or UNNAMED}


def carried(text: str | None, fallback: Ruleset) -> dict[str, Any]:
    """The document a page carried in its hidden field, read and shaped as the API reads
    a body, else ``InvalidInput`` (a forged or truncated form); ``fallback``'s when none."""
    if not text:
        return start(fallback)
    try:
        doc = safejson.loads(text)
    except (ValueError, RecursionError):
        raise InvalidInput([Problem("", N_(
            "The rules sent with the page could not be read, so the editor starts again "
            "from these rules."))]) from None
    try:
        document.RulesetDocument.model_validate(_named(doc) if isinstance(doc, dict) else doc)
    except ValidationError as e:
        raise InvalidInput([Problem("", N_(
            "The rules sent with the page are damaged (at %(field)s), so the editor starts "
            "again from these rules."), {"field": where(e.errors()[0]["loc"]) or "doc"})]) \
            from None
    return doc


def dump(doc: Mapping[str, Any]) -> str:
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


# -- reading the form ---------------------------------------------------------------

def _int(form: Mapping[str, Any], name: str, problems: list[Problem], low: int = -10_000,
         high: int = 10_000) -> int | None:
    values = _ints(form, name, problems, low, high, many=False)
    return values[0] if values else None


def _ints(form: Mapping[str, Any], name: str, problems: list[Problem], low: int = -10_000,
          high: int = 10_000, many: bool = True) -> list[int] | None:
    """The whole numbers typed in ``name`` (``many``: separated by commas), else None and
    a problem under its name."""
    text = str(form.get(name, "")).replace("−", "-").replace("+", "")
    try:
        values = [int(p) for p in re.split("[,;/]", text) if p.strip()] if many else [int(text)]
    except ValueError:
        values = []
    if values and all(low <= v <= high for v in values):
        return values
    problems.append(Problem(name, N_("Write whole numbers separated by commas.")) if many
                    else Problem(name, N_("Write a number from %(low)s to %(high)s."),
                                 {"low": low, "high": high}) if values
                    else Problem(name, N_("Write a whole number.")))
    return None


def _choice(form: Mapping[str, Any], name: str, allowed: Any, current: Any) -> Any:
    value = form.get(name)
    return value if value in allowed else current


def apply(doc: dict[str, Any], form: Mapping[str, Any],
          checked: Callable[[str], list[str]]) -> tuple[dict[str, Any], list[Problem]]:
    """The editor's fields read onto a copy of ``doc``; ``checked(name)`` lists a group of
    checkboxes' values. A field that cannot be read is a problem under its own name, and
    its old value is kept."""
    doc = copy.deepcopy(doc)
    problems: list[Problem] = []
    name = " ".join(str(form.get("name", "")).split())
    if not name:
        problems.append(Problem("name", N_("Give the variant a name.")))
    elif len(name) > NAME_LENGTH:
        problems.append(Problem("name", N_("A name of at most %(n)s characters, please."),
                                {"n": NAME_LENGTH}))
    else:
        doc["name"] = {"en": name, "pl": name}
    made_by = " ".join(str(form.get("made_by", "")).split())
    if len(made_by) > 40:
        problems.append(Problem("made_by", N_("A name of at most %(n)s characters, please."),
                                {"n": 40}))
    elif made_by:
        doc["made_by"] = made_by
    else:
        doc.pop("made_by", None)
    doc["unbalanced"] = form.get("unbalanced") in ("1", "on", "yes")
    players = doc.get("players") if doc.get("players") in (3, 4, 5) else 4
    for key, contract in doc["contracts"].items():
        if isinstance(contract, dict):
            _apply_contract(key, contract, form, checked, players, problems)
    chosen = [k for i in range(MAX_DEALS) if (k := form.get(f"deal.{i}")) in doc["contracts"]]
    if any(f"deal.{i}" in form for i in range(MAX_DEALS)):
        if not chosen:
            problems.append(Problem("schedule", N_("Keep at least one deal.")))
        else:
            doc["schedule"] = chosen
    return doc, problems


def _apply_contract(key: str, c: dict[str, Any], form: Mapping[str, Any], checked: Any,
                    players: int, problems: list[Problem]) -> None:
    field = f"c.{key}."
    kind = c.get("kind")
    if field + "points" in form and kind in ("tricks", "cards", "trumps"):
        points = _int(form, field + "points", problems)
        if points is not None:
            c["points"] = points
    if field + "multipliers" in form and kind in ("tricks", "robber", "trumps"):
        if str(form[field + "multipliers"]).strip():
            times = _ints(form, field + "multipliers", problems)
            if times is not None and (len(times) > players or not all(0 <= t <= 10 for t in times)):
                problems.append(Problem(field + "multipliers", N_(
                    "At most %(n)s numbers from 0 to 10."), {"n": players}))
            elif times is not None:
                c["multipliers"] = times
        else:
            c.pop("multipliers", None)
    if kind == "cards" and form.get(field + "set") in CARD_SETS:
        c["set"] = form[field + "set"]
    if kind == "positions":
        chosen = form.get(field + "tricks")
        if chosen in DEAL6 and DEAL6[chosen][0] != c.get("positions"):
            c["positions"] = list(DEAL6[chosen][0])  # a new choice brings its own points
            c["points"] = DEAL6[chosen][1][3 if players == 3 else 4]
        elif field + "points" in form:
            points = _ints(form, field + "points", problems)
            count = len(c.get("positions", []))
            if points is not None and len(points) not in (1, count):
                problems.append(Problem(field + "points", N_(
                    "Write one number, or one for each of the %(count)s tricks."),
                    {"count": count}))
            elif points is not None:
                c["points"] = points[0] if len(points) == 1 else points
    if kind == "trumps":
        caller = _choice(form, field + "caller", TRUMP_CALLERS, None)
        if caller:
            c["named_by"], c["leader"] = TRUMP_CALLERS[caller]
        if field + "points" in form:  # the trump deal's fields were on the page
            c["auction"] = form.get(field + "auction") in ("1", "on")
            c["no_trump"] = form.get(field + "no_trump") in ("1", "on")
        if form.get(field + "cards_seen", "").strip():
            seen = _int(form, field + "cards_seen", problems, 0, 13)
            if seen is not None:
                c["cards_seen"] = seen
    if kind == "loteryjka":
        if field + "prizes" in form:
            prizes = _ints(form, field + "prizes", problems)
            if prizes is not None and len(prizes) > players:
                problems.append(Problem(field + "prizes", N_(
                    "At most %(n)s prizes: one for each player."), {"n": players}))
            elif prizes is not None:
                c["prizes"] = prizes
        c["start"] = _choice(form, field + "start", (*RANKS, "any"), c.get("start", "7"))
        c["ace"] = _choice(form, field + "ace", ("low", "high"), c.get("ace", "low"))
        c["begins"] = _choice(form, field + "begins", ("dealer", "left"), c.get("begins", "left"))
    elif field + "shown" in form:  # the lead rules' checkboxes were on the page
        c["lead"] = [r for r in LEAD_RULES if r in checked(field + "lead")]
        if not c["lead"]:
            c.pop("lead")


# -- quick changes ------------------------------------------------------------------

def _keys(doc: Mapping[str, Any], kind: str) -> list[str]:
    return [k for k, c in doc["contracts"].items() if isinstance(c, dict) and c.get("kind") == kind]


def quick(doc: dict[str, Any], change: str) -> dict[str, Any]:
    """One of the named changes of seed 004's variations (:data:`QUICK`), on a copy."""
    doc = copy.deepcopy(doc)
    players = doc.get("players", 4)
    contracts, schedule = doc["contracts"], doc["schedule"]
    if change in ("no_robber", "no_robber_loteryjka"):
        drop = _keys(doc, "robber") + (_keys(doc, "loteryjka") if change != "no_robber" else [])
        doc["schedule"] = [k for k in schedule if k not in drop] or schedule
    elif change == "loteryjka_many":
        # four loteryjka deals at 200/125 with four players; three at 250/175 with three
        count, prizes = (3, [250, 175]) if players == 3 else (4, [200, 125])
        for key in _keys(doc, "loteryjka"):
            contracts[key]["prizes"] = prizes
            if key in schedule:
                at = schedule.index(key)
                rest = [k for k in schedule[at:] if k != key]
                doc["schedule"] = schedule[:at] + [key] * count + rest
                break
    elif change == "no_trump_deal":
        # four trump deals and one without trumps, 20 a trick: +1300 with four players
        for key in _keys(doc, "trumps"):
            contracts[key]["points"] = 20
        if "no_trump" not in contracts:  # a positive deal scored by tricks, no trump named
            contracts["no_trump"] = {"kind": "tricks", "points": 20}
        trumps = [i for i, k in enumerate(doc["schedule"]) if contracts[k].get("kind") == "trumps"]
        if trumps and "no_trump" not in doc["schedule"]:
            doc["schedule"].insert(trumps[-1] + 1, "no_trump")
    elif change == "left_names_trumps":
        for key in _keys(doc, "trumps"):
            contracts[key].update(named_by="leader", leader="left")
            contracts[key].pop("cards_seen", None)
    elif change == "trump_auction":
        for key in _keys(doc, "trumps"):
            contracts[key]["auction"] = True
    elif change == "discard_king_of_hearts":
        for key in _keys(doc, "cards"):
            if contracts[key].get("set") == "king_of_hearts":
                lead = contracts[key].setdefault("lead", [])
                if "discard_king_of_hearts" not in lead:
                    lead.append("discard_king_of_hearts")
    elif change == "must_beat":  # seed 004's variation 1, in every deal of tricks
        for key, contract in contracts.items():
            if contract.get("kind") != "loteryjka":
                contract["must_beat"] = True
    elif change == "queen_of_spades":
        # seed 004's variation 3 names no lead rule: the deal keeps none, and the notes say
        # that is the app's reading
        for key in _keys(doc, "cards"):
            if contracts[key].get("set") == "king_of_hearts":
                contracts[key]["set"] = "queen_of_spades"
                contracts[key].pop("lead", None)
        notes = dict(doc.get("notes") or {})
        for lang, line in QUEEN_OF_SPADES_NOTE.items():
            if line not in notes.get(lang, ""):
                notes[lang] = f"{notes[lang]} {line}" if notes.get(lang) else line
        doc["notes"] = notes
    return doc


# -- what the choices add up to -----------------------------------------------------

def load(doc: Mapping[str, Any]) -> tuple[Ruleset | None, list[Problem]]:
    """The rules ``doc`` makes (to show their sums), or the problems that stop them."""
    data, problems = document.read(_named(doc))
    if problems or data is None:
        return None, problems
    try:
        rules = from_data({**data, "id": data.get("id") or "variant", "expected_sum": 0})
    except RulesetError as e:
        return None, [Problem("", N_("These rules cannot be played: %(why)s"), {"why": str(e)})]
    return Ruleset({**rules.data, "expected_sum": document.game_sum(rules)}), []


def saved(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The document to store: the editor's own keys removed, the sum left to the server."""
    return {k: v for k, v in doc.items() if k not in ("id", "expected_sum")}


def deal6_choice(contract: Mapping[str, Any]) -> str | None:
    """Which of :data:`DEAL6` a positions contract is (None for another set of tricks)."""
    return next((k for k, (pos, _) in DEAL6.items() if pos == contract.get("positions")), None)


def points_text(points: Any) -> str:
    return ", ".join(map(str, points)) if isinstance(points, list) else str(points)


def trump_caller(contract: Mapping[str, Any]) -> str:
    pair = (contract.get("named_by", "leader"), contract.get("leader", "left"))
    return next((k for k, v in TRUMP_CALLERS.items() if v == pair), "left_left")

