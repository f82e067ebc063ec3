"""One deal of Tybet: its declarations, card points and special wins, checked and scored.

Four players, partners opposite: pair 0 is seats 0 and 2, pair 1 seats 1 and 3. A raw
result holds ``declarations`` (a list per seat of ``{"kind": "cezar", "suit": "H",
"extra": 2}``, ``{"kind": "four", "rank": "3"}`` or ``{"kind": "trio", "rank": "A"}``),
each pair's ``aces`` (4 in all) and ``honours`` (20) and the pair that took the ``last``
trick (or each pair's ``card_points``, 11 in all), a ``special`` win or None, and
``confirmed``: a tick that a Kondriona whose taker declared no whole-suit cezar is meant.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scorekeeper.rules import checks
from scorekeeper.rules.errors import N_, InvalidDeal, Problem
from scorekeeper.rules.named import Named

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
#: The specials in which the other pair takes nothing.
SWEEPS = ("kalanda", "perla", "kondriona")
#: What a special win also is, counted too when ``specials_stack`` (seed 003 is silent).
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
#: A cezar of the whole suit: 3-2-A and the seven cards after it.
WHOLE_SUIT_EXTRA = len(RANKS) - 3


def pair_of(seat: int) -> int:
    return seat % 2


def declaration_points(decl: dict[str, Any]) -> int:
    """Points of one declaration.

    >>> declaration_points({"kind": "cezar", "suit": "S", "extra": 2})
    5
    """
    if decl["kind"] == "cezar":
        return CEZAR_POINTS + decl["extra"]
    return FOUR_POINTS if decl["kind"] == "four" else TRIO_POINTS[decl["rank"]]


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
        return self.data.get("specials_stack", False) is True

    def special(self, kind: str) -> dict[str, Any]:
        return self.data["specials"][kind]

    def special_reading(self) -> list[Problem]:
        """Which reading of stacked specials applies, as message items for the deal
        screen."""
        known = self.data["specials"]
        return [Problem("", _READINGS[kind, self.specials_stack],
                        {"special": kind, "also": ", ".join(implied)})
                for kind, implied in IMPLIES.items()
                if kind in known and all(k in known for k in implied)]

    def validate(self, raw: dict[str, Any], leader: int | None = None) -> dict[str, Any]:
        """Check a raw deal; return it in canonical form or raise InvalidDeal.
        ``leader`` (left of the dealer) is needed to check a kondriona."""
        problems: list[Problem] = []
        decls = _read_declarations(raw.get("declarations"), problems)
        result: dict[str, Any] = {"declarations": decls}
        quick = _given(raw.get("card_points")) and not any(  # each pair's card points
            _given(raw.get(k)) for k in ("aces", "honours", "last"))
        counts = {"card_points": CARD_POINTS} if quick else {"aces": ACES, "honours": HONOUR_CARDS}
        for name, total in counts.items():
            result[name] = checks.counts(raw.get(name), 2, total, name, problems,
                                         shape_message=N_("Enter a number for each pair.")) \
                or [0, 0]
        if not quick:
            result["last"] = checks.whole_number(raw.get("last"))
            if result["last"] not in (0, 1):
                problems.append(Problem("last", N_("Choose the pair that took the last trick.")))
                result["last"] = None
        result["special"] = _read_special(raw.get("special"), self, problems)
        if not problems:
            _check_declarations(decls, problems)
            _check_special(result, leader, problems)
        special = result["special"]  # a Kondriona without a whole-suit cezar: a second look
        if not problems and special and special["kind"] == "kondriona" and not any(
                d["kind"] == "cezar" and d["extra"] == WHOLE_SUIT_EXTRA
                for d in decls[special["seat"]]):
            confirmed = raw.get("confirmed")  # JSON true, or what a checkbox sends
            if confirmed is True or (isinstance(confirmed, str) and confirmed.strip().lower() in
                                     ("1", "on", "true")):
                result["confirmed"] = True
            else:
                problems.append(Problem("confirm", N_(
                    "The Kondriona's taker declared no cezar of the whole suit. Tick to "
                    "confirm the deal as entered.")))
        if problems:
            raise InvalidDeal(problems)
        return result

    def breakdown(self, result: dict[str, Any]) -> list[dict[str, Any]]:
        """Points per pair by heading (declarations, aces, honours, last trick, each
        special counted), each ``{"key", "points": [p0, p1]}``."""
        decl = [sum(declaration_points(d) for seat in (p, p + 2)
                    for d in result["declarations"][seat]) for p in (0, 1)]
        rows = [{"key": "declarations", "points": decl}]
        if "card_points" in result:
            rows.append({"key": "card_points", "points": list(result["card_points"])})
        else:
            rows += [{"key": "aces", "points": list(result["aces"])},
                     {"key": "honours", "points": [h // 3 for h in result["honours"]]},
                     {"key": "last", "points": [int(result["last"] == p) for p in (0, 1)]}]
        special = result.get("special")
        if special:
            pair = _special_pair(special)
            base = sum(r["points"][pair] for r in rows)
            kinds = [special["kind"]]
            if self.specials_stack:
                kinds += [k for k in IMPLIES.get(special["kind"], ()) if k in self.data["specials"]]
            for kind in kinds:
                rule = self.special(kind)
                # multipliers never stack (the loader refuses it)
                extra = rule["bonus"] if "bonus" in rule else base * (rule["multiply"] - 1)
                rows.append({"key": kind, "points": [extra if p == pair else 0 for p in (0, 1)]})
        return rows

    def score(self, result: dict[str, Any]) -> list[int]:
        """Points per pair for the deal."""
        return [sum(col) for col in zip(*(r["points"] for r in self.breakdown(result)))]


def _given(value: Any) -> bool:
    """Something was entered: not None, not blank, not a list of blanks."""
    if isinstance(value, (list, tuple)):
        return any(_given(v) for v in value)
    return not checks.blank(value)


def _read_declarations(values: Any, problems: list[Problem]) -> list[list[dict[str, Any]]]:
    if not isinstance(values, (list, tuple)) or len(values) != 4:
        if values is not None:
            problems.append(Problem("declarations", N_("Give the declarations of each player.")))
        return [[], [], [], []]
    out: list[list[dict[str, Any]]] = []
    for seat, items in enumerate(values):
        if not isinstance(items, (list, tuple)) or len(items) > 12:
            items = [None]  # one problem, no declaration
        read = [_read_declaration(d) for d in items]
        problems += [Problem(f"declarations.{seat}", N_("This is not a declaration."))
                     for d in read if d is None]
        out.append([d for d in read if d is not None])
    return out


def _read_declaration(d: Any) -> dict[str, Any] | None:
    if not isinstance(d, dict):
        return None
    kind, suit, rank = (v if isinstance(v, str) else None
                        for v in (d.get("kind"), d.get("suit"), d.get("rank")))
    if kind == "cezar":
        extra = checks.whole_number(d.get("extra", 0))
        if suit in SUITS and extra is not None and 0 <= extra <= WHOLE_SUIT_EXTRA:
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
    key, count, message = ("pair", 2, N_("Choose the pair that won it.")) \
        if rules.special(kind)["by"] == "pair" else ("seat", 4, N_("Choose the player who won it."))
    who = checks.whole_number(value.get(key))
    if who is None or not 0 <= who < count:
        problems.append(Problem("special", message))
        return None
    return {"kind": kind, key: who}


def _check_declarations(decls: list[list[dict[str, Any]]], problems: list[Problem]) -> None:
    """Possible together: a player's cards fit in 10, a rank has 4 cards, a card one holder."""
    table_need = dict.fromkeys(RANKS, 0)
    owners: dict[tuple[str, str], int] = {}
    for seat, items in enumerate(decls):
        by_rank: dict[str, int] = {}
        suits_seen: set[str] = set()
        cezar_per_rank = dict.fromkeys(RANKS, 0)
        for d in items:
            if d["kind"] == "cezar":
                if d["suit"] in suits_seen:
                    problems.append(Problem(f"declarations.{seat}",
                                            N_("A cezar of one suit can be declared once.")))
                suits_seen.add(d["suit"])
                for rank in RANKS[:3 + d["extra"]]:
                    card = (rank, d["suit"])
                    cezar_per_rank[rank] += 1
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
    """After a sweep the other pair took nothing; after a Tybet or Sariat its one trick
    holds no ace and at most two honours (it may be the last trick)."""
    special = result["special"]
    if not special:
        return
    other = 1 - _special_pair(special)
    kind = special["kind"]
    if "card_points" in result:  # entered as card points: what the points can tell
        took = result["card_points"][other]
        swept, one_trick = not took, took <= 1
    else:
        aces, honours = result["aces"][other], result["honours"][other]
        swept = not (aces or honours or result["last"] == other)
        one_trick = not aces and honours <= 2
    if kind in SWEEPS and not swept:
        problems.append(Problem("special", N_(
            "After a %(special)s the other pair took nothing: no ace, no honour, "
            "not the last trick."), {"special": kind}))
    elif kind not in SWEEPS and not one_trick:
        problems.append(Problem("special", N_(
            "After a %(special)s the other pair's one trick holds no ace and at most "
            "two honours; it may be the last trick."), {"special": kind}))
    if kind != "kondriona":
        return
    if leader is not None and special["seat"] != leader:
        problems.append(Problem("special", N_(
            "A kondriona is won by the player who leads the first trick.")))
    # its taker holds one whole suit: nobody holds four of a kind, and the taker can
    # declare only that suit's cezar
    for seat, items in enumerate(result["declarations"]):
        if seat == special["seat"]:
            cezars = [d for d in items if d["kind"] == "cezar"]
            if len(cezars) > 1 or len(cezars) != len(items):
                problems.append(Problem(f"declarations.{seat}", N_(
                    "The Kondriona's taker holds all ten cards of one suit: only that suit's "
                    "cezar can be declared, no trio or four.")))
        elif any(d["kind"] == "four" for d in items):
            problems.append(Problem(f"declarations.{seat}", N_(
                "In a Kondriona one player holds a whole suit, one card of every rank, so "
                "nobody can have four of a kind.")))
