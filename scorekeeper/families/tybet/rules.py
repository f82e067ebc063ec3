"""The seed-003 partnership game to 21 ("Tybet", of the Tressette family).

Four players, partners opposite: pair 0 is seats 0 and 2, pair 1 seats 1 and 3.
A deal's raw result has three parts, all plain data:

``declarations``
    one list per seat of ``{"kind": "cezar", "suit": "H", "extra": 2}`` (3-2-A of
    one suit plus ``extra`` further cards in sequence K, D, W, 7, …),
    ``{"kind": "four", "rank": "3"}`` or ``{"kind": "trio", "rank": "A"}``.
``aces``, ``honours``, ``last``
    aces (4 in all) and honours 3, 2, K, D, W (20 in all) won by each pair, and
    the pair that took the last trick.
``special``
    ``None`` or ``{"kind": "kalanda", "pair": 0}`` / ``{"kind": "perla", "seat": 2}``.
``confirmed``
    a tick (``true``, or ``"1"``/``"on"``/``"true"`` from a form) that a Kondriona
    whose taker declared no whole-suit cezar is meant as entered; without it such a
    deal is refused on the field ``"confirm"``. Kept as ``True`` only where needed.

>>> rules = get_rules("tybet-21")
>>> r = rules.validate({"declarations": [[{"kind": "cezar", "suit": "H", "extra": 1}], [], [], []],
...                     "aces": [3, 1], "honours": [11, 9], "last": 0})
>>> rules.score(r)  # 4 (cezar) + 3 aces + 3 (11 honours) + last trick; 1 ace + 3
[11, 4]
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field

from scorekeeper.rules import checks, shapes
from scorekeeper.rules.errors import N_, InvalidDeal, Problem, RulesetError, UnknownRuleset
from scorekeeper.rules.named import Named, family_of
from scorekeeper.rules.shapes import Key, Name, Notes, Short, Strict, Summary, absent

SUITS = ("S", "H", "D", "C")
#: Rank order in play, highest first; the cezar's run follows it.
RANKS = ("3", "2", "A", "K", "Q", "J", "7", "6", "5", "4")
#: The honours counted in threes for card points (aces count one each).
HONOURS = ("3", "2", "K", "Q", "J")
TRIO_POINTS = {"3": 3, "2": 3, "A": 3, "7": 3, "K": 1, "Q": 1, "J": 1}
FOUR_POINTS = 4
CEZAR_POINTS = 3
ACES, HONOUR_CARDS = 4, 20
#: Card points in every deal: 4 aces, 20 honours in threes (6, two left over), the last trick.
CARD_POINTS = ACES + HONOUR_CARDS // 3 + 1
SPECIALS = ("tybet", "sariat", "kalanda", "perla", "kondriona")
#: What a special win also is, where seed 003 is silent on counting both: a Perła
#: (one player takes every trick) is a Kalanda too, a Kondriona a Perła and a Kalanda,
#: a Sariat (one player, all tricks but one) a Tybet. Used when ``specials_stack``.
IMPLIES = {"perla": ("kalanda",), "kondriona": ("perla", "kalanda"), "sariat": ("tybet",)}
#: What the deal screen says about stacking, per special and reading (stacked or not).
_READINGS = {
    ("perla", True): N_("A Perła also counts as a Kalanda: both bonuses are added."),
    ("kondriona", True): N_("A Kondriona also counts as a Perła and a Kalanda: all three "
                            "bonuses are added."),
    ("sariat", True): N_("A Sariat also counts as a Tybet: both bonuses are added."),
    ("perla", False): N_("Only the special win chosen counts: a Perła does not add a "
                         "Kalanda."),
    ("kondriona", False): N_("Only the special win chosen counts: a Kondriona does not add "
                             "a Perła or a Kalanda."),
    ("sariat", False): N_("Only the special win chosen counts: a Sariat does not add a "
                          "Tybet."),
}


def pair_of(seat: int) -> int:
    return seat % 2


def declaration_points(decl: dict[str, Any]) -> int:
    """Points of one declaration.

    >>> declaration_points({"kind": "cezar", "suit": "S", "extra": 2})
    5
    """
    if decl["kind"] == "cezar":
        return CEZAR_POINTS + decl["extra"]
    if decl["kind"] == "four":
        return FOUR_POINTS
    return TRIO_POINTS[decl["rank"]]


def card_points(aces: int, honours: int, last: bool) -> int:
    """1 an ace, 1 for every three honours (the rest dropped), 1 for the last trick."""
    return aces + honours // 3 + int(last)


@dataclass(frozen=True)
class TybetRules(Named):
    """A named reading of the game; ``data`` is its JSON, kept whole."""

    data: dict[str, Any] = field(repr=False)
    players = 4

    @property
    def target(self) -> int:
        return self.data["target"]

    @property
    def targets(self) -> list[int]:
        return list(self.data.get("targets", [self.target]))

    @property
    def both_reach(self) -> str:
        return self.data.get("both_reach", "higher")

    @property
    def specials_stack(self) -> bool:
        """Whether a special win also scores every special it implies (see IMPLIES)."""
        return self.data.get("specials_stack", False) is True

    def special(self, kind: str) -> dict[str, Any]:
        return self.data["specials"][kind]

    def counted_specials(self, kind: str) -> list[str]:
        """The specials a deal won with ``kind`` scores: ``kind`` alone, or with stacking
        ``kind`` then every special it implies that this ruleset knows."""
        if not self.specials_stack:
            return [kind]
        return [kind] + [k for k in IMPLIES.get(kind, ()) if k in self.data["specials"]]

    def special_reading(self) -> list[Problem]:
        """What the deal screen says about two specials in one deal, as message items
        (untranslated id, params): which reading of the source's silence applies."""
        out = []
        for kind, implied in IMPLIES.items():
            known = self.data["specials"]
            if kind in known and all(k in known for k in implied):
                out.append(Problem("", _READINGS[kind, self.specials_stack],
                                   {"special": kind, "also": ", ".join(implied)}))
        return out

    # -- one deal ----------------------------------------------------------
    def validate(self, raw: dict[str, Any], leader: int | None = None) -> dict[str, Any]:
        """Check a raw deal; return it in canonical form or raise InvalidDeal.

        ``leader`` (the seat left of the dealer) is needed to check a kondriona.
        """
        problems: list[Problem] = []
        decls = _read_declarations(raw.get("declarations"), problems)
        result: dict[str, Any] = {"declarations": decls}
        if _card_points_only(raw):  # the quick entry: each pair's card points, 11 in all
            result["card_points"] = _read_pair_counts(raw.get("card_points"), "card_points",
                                                      CARD_POINTS, problems)
        else:
            result["aces"] = _read_pair_counts(raw.get("aces"), "aces", ACES, problems)
            result["honours"] = _read_pair_counts(raw.get("honours"), "honours",
                                                  HONOUR_CARDS, problems)
            last = _int(raw.get("last"))
            if last not in (0, 1):
                problems.append(Problem("last", N_("Choose the pair that took the last "
                                                   "trick.")))
                last = None
            result["last"] = last
        result["special"] = _read_special(raw.get("special"), self, problems)
        if not problems:
            _check_declarations(decls, problems)
            _check_special(result, leader, problems)
            _check_kondriona(result, problems)
        if not problems and _kondriona_unconfirmed(result):
            if _confirmed(raw.get("confirmed")):
                result["confirmed"] = True
            else:
                problems.append(Problem("confirm", N_(
                    "The Kondriona's taker declared no cezar of the whole suit. Tick to "
                    "confirm the deal as entered.")))
        if problems:
            raise InvalidDeal(problems)
        return result

    def breakdown(self, result: dict[str, Any]) -> list[dict[str, Any]]:
        """Points per pair by heading, for display: declarations, aces, honours,
        last trick, special; each ``{"key", "points": [p0, p1]}``."""
        decl = [0, 0]
        for seat, items in enumerate(result["declarations"]):
            decl[pair_of(seat)] += sum(declaration_points(d) for d in items)
        rows = [{"key": "declarations", "points": decl}]
        if "card_points" in result:
            rows.append({"key": "card_points", "points": list(result["card_points"])})
        else:
            rows += [
                {"key": "aces", "points": list(result["aces"])},
                {"key": "honours", "points": [h // 3 for h in result["honours"]]},
                {"key": "last", "points": [int(result["last"] == p) for p in (0, 1)]},
            ]
        special = result.get("special")
        if special:
            pair = _special_pair(special)
            base = sum(r["points"][pair] for r in rows)
            for kind in self.counted_specials(special["kind"]):  # one row each
                extra = [0, 0]
                rule = self.special(kind)
                if "bonus" in rule:
                    extra[pair] = rule["bonus"]
                else:  # multipliers never stack (from_data refuses it)
                    extra[pair] = base * (rule["multiply"] - 1)
                rows.append({"key": kind, "points": extra})
        return rows

    def score(self, result: dict[str, Any]) -> list[int]:
        """Points per pair for the deal."""
        rows = self.breakdown(result)
        return [sum(r["points"][p] for r in rows) for p in (0, 1)]

    def declared(self, result: dict[str, Any]) -> list[list[int]]:
        """Declaration points per seat, in seat order (for who-reached-first)."""
        return [[declaration_points(d) for d in items] for items in result["declarations"]]


# -- reading -------------------------------------------------------------------

def _int(value: Any) -> int | None:
    return checks.whole_number(value)


def _given(value: Any) -> bool:
    """Something was entered: not None, not blank, not a list of blanks."""
    if isinstance(value, (list, tuple)):
        return any(_given(v) for v in value)
    return not checks.blank(value)


def _card_points_only(raw: dict[str, Any]) -> bool:
    """The deal was entered as each pair's card points (aces, honours and the last trick
    not given)."""
    return _given(raw.get("card_points")) and not any(
        _given(raw.get(k)) for k in ("aces", "honours", "last"))


def _read_pair_counts(values: Any, name: str, total: int, problems: list[Problem]):
    read = checks.counts(values, 2, total, name, problems,
                         shape_message=N_("Enter a number for each pair."))
    return read if read is not None else [0, 0]


def _read_declarations(values: Any, problems: list[Problem]) -> list[list[dict[str, Any]]]:
    if values is None:
        return [[], [], [], []]
    if not isinstance(values, (list, tuple)) or len(values) != 4:
        problems.append(Problem("declarations", N_("Give the declarations of each player.")))
        return [[], [], [], []]
    out: list[list[dict[str, Any]]] = []
    for seat, items in enumerate(values):
        read = []
        if not isinstance(items, (list, tuple)) or len(items) > 12:
            problems.append(Problem(f"declarations.{seat}", N_("This is not a declaration.")))
            out.append([])
            continue
        for d in items:
            decl = _read_declaration(d)
            if decl is None:
                problems.append(Problem(f"declarations.{seat}", N_("This is not a declaration.")))
            else:
                read.append(decl)
        out.append(read)
    return out


def _read_declaration(d: Any) -> dict[str, Any] | None:
    if not isinstance(d, dict):
        return None
    kind, suit, rank = (v if isinstance(v, str) else None
                        for v in (d.get("kind"), d.get("suit"), d.get("rank")))
    if kind == "cezar":
        extra = _int(d.get("extra", 0))
        if suit in SUITS and extra is not None and 0 <= extra <= len(RANKS) - 3:
            return {"kind": "cezar", "suit": suit, "extra": extra}
    elif kind == "four" and rank in RANKS:
        return {"kind": "four", "rank": rank}
    elif kind == "trio" and rank in TRIO_POINTS:
        return {"kind": "trio", "rank": rank}
    return None


def _read_special(value: Any, rules: TybetRules, problems: list[Problem]):
    if value in (None, "", {}):
        return None
    if not isinstance(value, dict) or value.get("kind") not in SPECIALS \
            or value["kind"] not in rules.data.get("specials", {}):
        problems.append(Problem("special", N_("Choose a special win from the list.")))
        return None
    kind = value["kind"]
    if rules.special(kind)["by"] == "pair":
        pair = _int(value.get("pair"))
        if pair not in (0, 1):
            problems.append(Problem("special", N_("Choose the pair that won it.")))
            return None
        return {"kind": kind, "pair": pair}
    seat = _int(value.get("seat"))
    if seat is None or not 0 <= seat < 4:
        problems.append(Problem("special", N_("Choose the player who won it.")))
        return None
    return {"kind": kind, "seat": seat}


# -- cross-checks ----------------------------------------------------------------

def _cezar_cards(decl: dict[str, Any]) -> list[tuple[str, str]]:
    return [(r, decl["suit"]) for r in RANKS[:3 + decl["extra"]]]


def _check_declarations(decls: list[list[dict[str, Any]]], problems: list[Problem]) -> None:
    """Possible together: a player's cards fit in 10, a rank has 4 cards, a card one holder."""
    table_need = {r: 0 for r in RANKS}
    owners: dict[tuple[str, str], int] = {}
    for seat, items in enumerate(decls):
        by_rank: dict[str, int] = {}
        suits_seen: set[str] = set()
        cezar_per_rank = {r: 0 for r in RANKS}
        for d in items:
            if d["kind"] == "cezar":
                if d["suit"] in suits_seen:
                    problems.append(Problem(f"declarations.{seat}",
                                            N_("A cezar of one suit can be declared once.")))
                suits_seen.add(d["suit"])
                for card in _cezar_cards(d):
                    cezar_per_rank[card[0]] += 1
                    if owners.get(card, seat) != seat:
                        problems.append(Problem(f"declarations.{seat}", N_(
                            "Another player has already declared a card of this cezar.")))
                    owners[card] = seat
            else:
                if d["rank"] in by_rank:
                    problems.append(Problem(f"declarations.{seat}", N_(
                        "A rank can be declared once per player (a trio or a four).")))
                by_rank[d["rank"]] = 4 if d["kind"] == "four" else 3
        need = {r: max(by_rank.get(r, 0), cezar_per_rank[r]) for r in RANKS}
        if sum(need.values()) > 10:
            problems.append(Problem(f"declarations.{seat}", N_(
                "These declarations need %(cards)s cards; a hand has 10."),
                {"cards": sum(need.values())}))
        for r in RANKS:
            table_need[r] += need[r]
    for r, n in table_need.items():
        if n > 4:
            problems.append(Problem("declarations", N_(
                "The declarations need %(count)s cards of rank %(rank)s; there are 4."),
                {"count": n, "rank": r}))


def _special_pair(special: dict[str, Any]) -> int:
    return special["pair"] if "pair" in special else pair_of(special["seat"])


def _check_special(result: dict[str, Any], leader: int | None, problems: list[Problem]) -> None:
    special = result["special"]
    if not special:
        return
    pair = _special_pair(special)
    other = 1 - pair
    kind = special["kind"]
    if "card_points" in result:  # entered as card points: what the points can tell
        took = result["card_points"][other]
        if kind in ("kalanda", "perla", "kondriona") and took:
            problems.append(Problem("special", N_(
                "After a %(special)s the other pair took nothing: no ace, no honour, "
                "not the last trick."), {"special": kind}))
        elif kind in ("tybet", "sariat") and took > 1:
            problems.append(Problem("special", N_(
                "After a %(special)s the other pair's one trick holds no ace and at most "
                "two honours; it may be the last trick."), {"special": kind}))
    elif kind in ("kalanda", "perla", "kondriona"):
        if result["aces"][other] or result["honours"][other] or result["last"] == other:
            problems.append(Problem("special", N_(
                "After a %(special)s the other pair took nothing: no ace, no honour, "
                "not the last trick."), {"special": kind}))
    else:  # tybet, sariat: the others' one trick holds no ace and at most two honours;
        # it may be the last trick (seed 003 asks only what the trick holds)
        if result["aces"][other] or result["honours"][other] > 2:
            problems.append(Problem("special", N_(
                "After a %(special)s the other pair's one trick holds no ace and at most "
                "two honours; it may be the last trick."), {"special": kind}))
    if kind == "kondriona" and leader is not None and special["seat"] != leader:
        problems.append(Problem("special", N_(
            "A kondriona is won by the player who leads the first trick.")))


#: A cezar of the whole suit: 3-2-A and the seven cards after it (K-Q-J-7-6-5-4).
WHOLE_SUIT_EXTRA = len(RANKS) - 3


def _check_kondriona(result: dict[str, Any], problems: list[Problem]) -> None:
    """A Kondriona's taker holds one whole suit: one card of every rank.

    So nobody holds four of a kind, and the taker can declare only that suit's cezar
    (no trio, no four, no second cezar).
    """
    special = result["special"]
    if not special or special["kind"] != "kondriona":
        return
    taker = special["seat"]
    for seat, items in enumerate(result["declarations"]):
        if seat == taker:
            cezars = [d for d in items if d["kind"] == "cezar"]
            if len(cezars) > 1 or len(cezars) != len(items):
                problems.append(Problem(f"declarations.{seat}", N_(
                    "The Kondriona's taker holds all ten cards of one suit: only that suit's "
                    "cezar can be declared, no trio or four.")))
        elif any(d["kind"] == "four" for d in items):
            problems.append(Problem(f"declarations.{seat}", N_(
                "In a Kondriona one player holds a whole suit, one card of every rank, so "
                "nobody can have four of a kind.")))


def _kondriona_unconfirmed(result: dict[str, Any]) -> bool:
    """A Kondriona whose taker declared no whole-suit cezar: worth a second look."""
    special = result["special"]
    if not special or special["kind"] != "kondriona":
        return False
    return not any(d["kind"] == "cezar" and d["extra"] == WHOLE_SUIT_EXTRA
                   for d in result["declarations"][special["seat"]])


def _confirmed(value: Any) -> bool:
    """A tick: JSON true, or what a checkbox sends ("1", "on", "true")."""
    return value is True or (isinstance(value, str) and value.strip().lower() in
                             ("1", "on", "true"))


# -- the game ------------------------------------------------------------------

@dataclass(frozen=True)
class TybetDeal:
    number: int
    dealer: int
    leader: int


@dataclass(frozen=True)
class TybetScore:
    deal: TybetDeal
    result: dict[str, Any]
    points: list[int]
    totals: list[int]
    rows: list[dict[str, Any]]


@dataclass(frozen=True)
class TybetState:
    """The fold of the recorded deals: totals per pair, the winner once decided."""

    ruleset: TybetRules
    first_dealer: int
    target: int
    scored: list[TybetScore]
    winner: int | None
    #: a game played to a target has no fixed number of deals
    deals_total = None

    @property
    def totals(self) -> list[int]:
        return self.scored[-1].totals if self.scored else [0, 0]

    @property
    def winners(self) -> list[int]:
        """The winning pair, once decided (a list, as for every family)."""
        return [] if self.winner is None else [self.winner]

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def current(self) -> TybetDeal | None:
        return None if self.finished else deal_at(self.first_dealer, len(self.scored) + 1)

    @property
    def to_go(self) -> list[int]:
        """Chips still missing to the target, per pair."""
        return [max(0, self.target - t) for t in self.totals]


def deal_at(first_dealer: int, number: int) -> TybetDeal:
    dealer = (first_dealer + number - 1) % 4
    return TybetDeal(number, dealer, (dealer + 1) % 4)


def _decide(rules: TybetRules, before: list[int], result: dict[str, Any], deal: TybetDeal,
            after: list[int], target: int) -> int | None:
    reached = [p for p in (0, 1) if after[p] >= target]
    if len(reached) == 1:
        return reached[0]
    if not reached:
        return None
    if rules.both_reach == "declared_first":
        running = list(before)
        declared = rules.declared(result)
        for i in range(4):  # declarations are announced in turn from the leader
            seat = (deal.leader + i) % 4
            running[pair_of(seat)] += sum(declared[seat])
            if running[pair_of(seat)] >= target:
                return pair_of(seat)
    if after[0] != after[1]:
        return 0 if after[0] > after[1] else 1
    return None  # level on the same total: play on


def start(rules: TybetRules, first_dealer: int, target: int | None = None) -> TybetState:
    """A game before its first deal."""
    return TybetState(rules, first_dealer, target or rules.target, [], None)


def _scored(rules: TybetRules, deal: TybetDeal, raw: dict[str, Any], before: list[int],
            target: int) -> tuple[TybetScore, int | None]:
    """One deal checked and scored, and the winner it decides (if any)."""
    result = rules.validate(raw, leader=deal.leader)
    rows = rules.breakdown(result)
    points = [sum(r["points"][p] for r in rows) for p in (0, 1)]
    totals = [t + p for t, p in zip(before, points)]
    return (TybetScore(deal, result, points, totals, rows),
            _decide(rules, before, result, deal, totals, target))


def advance(state: TybetState, raw: dict[str, Any]) -> TybetState:
    """The state after the next deal; a deal after the game is won is refused."""
    if state.winner is not None:
        raise InvalidDeal([Problem("", N_("The game is already won."))])
    deal = deal_at(state.first_dealer, len(state.scored) + 1)
    scored, winner = _scored(state.ruleset, deal, raw, state.totals, state.target)
    return replace(state, scored=[*state.scored, scored], winner=winner)


def replay(rules: TybetRules, first_dealer: int, results: list[dict[str, Any]],
           target: int | None = None) -> TybetState:
    """Score the recorded deals in order (in time linear in their number); a deal after
    the game is won is refused."""
    target = target or rules.target
    scored: list[TybetScore] = []
    winner = None
    for number, raw in enumerate(results, start=1):
        if winner is not None:
            raise InvalidDeal([Problem("", N_("The game is already won."))])
        score, winner = _scored(rules, deal_at(first_dealer, number), raw,
                                scored[-1].totals if scored else [0, 0], target)
        scored.append(score)
    return TybetState(rules, first_dealer, target, scored, winner)


#: Who wins each special: the partners together, or one player alone.
SPECIAL_BY = {"tybet": "pair", "kalanda": "pair", "sariat": "player", "perla": "player",
              "kondriona": "player"}


Bonus = Annotated[int, Field(ge=0, le=1000)]
Times = Annotated[int, Field(ge=1, le=100)]
Target = Annotated[int, Field(ge=1, le=1000)]


class Special(Strict):
    """What a special win is worth: points added (``bonus``) or the pair's points of the
    deal multiplied (``multiply``), one of the two; ``by`` says who wins it."""

    by: Literal["pair", "player"]
    bonus: Bonus = absent()
    multiply: Times = absent()


class TybetRuleset(Strict):
    """A reading of the partnership game (seed 003) as the app keeps it."""

    model_config = ConfigDict(title="Tybet ruleset")

    id: Key
    family: Literal["tybet"] = absent()
    game: Literal["tybet"] = absent("The family, in snapshots stored before it was "
                                    "called so")
    source: Short = absent()
    players: Literal[4] = 4
    name: Name
    summary: Summary = absent()
    notes: Notes = absent()
    target: Target
    targets: Annotated[list[Target], Field(min_length=1, max_length=10)] = absent()
    both_reach: Literal["higher", "declared_first"] = "higher"
    specials_stack: bool = False
    specials: dict[Literal[SPECIALS], Special]  # type: ignore[valid-type]
    imported: bool = Field(False, description="Rules that came with an imported game")


def _check_data(data: Any) -> None:
    """Refuse data this module cannot play, naming the fault and where
    (:class:`RulesetError`)."""
    if not isinstance(data, dict):
        raise RulesetError("a Tybet ruleset is an object")
    if family_of(data) != "tybet":
        raise RulesetError(f"not a Tybet ruleset (family {family_of(data)!r})")
    shapes.read(TybetRuleset, data, f"Tybet ruleset {data.get('id')!r}")
    rid = data["id"]

    def fail(what: str) -> RulesetError:
        return RulesetError(f"ruleset {rid!r}: {what}")

    if data["target"] not in data.get("targets", [data["target"]]):
        raise fail(f"'targets' must list the target, not {data['targets']!r}")
    specials = data["specials"]
    for kind, spec in specials.items():
        if spec["by"] != SPECIAL_BY[kind]:
            raise fail(f"special {kind!r}: 'by' must be {SPECIAL_BY[kind]!r}, "
                       f"not {spec['by']!r}")
        if len([k for k in ("bonus", "multiply") if k in spec]) != 1:
            raise fail(f"special {kind!r}: give either 'bonus' or 'multiply'")
    if data.get("specials_stack") and any("multiply" in spec for spec in specials.values()):
        raise fail("multiplied specials do not stack: set 'specials_stack' to false")


def from_data(data: dict[str, Any]) -> TybetRules:
    """Rules from data (a stored snapshot, an import), checked for shape.

    Anything it cannot play raises :class:`RulesetError` (a ``ValueError``)
    naming what is wrong.
    """
    _check_data(data)
    return TybetRules(copy.deepcopy(data))


@cache
def registry() -> dict[str, TybetRules]:
    folder = resources.files(__package__) / "rulesets"
    found = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            rules = from_data(json.loads(entry.read_text(encoding="utf-8")))
            found[rules.id] = rules
    return found


def get_rules(rules_id: str) -> TybetRules:
    try:
        return registry()[rules_id]
    except KeyError:
        raise UnknownRuleset(rules_id) from None
