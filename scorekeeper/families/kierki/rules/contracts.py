"""Contract kinds: what a deal's result looks like, how it is checked and scored.

A contract is built from plain data (one entry of a ruleset's ``contracts``)
and a :class:`Table` (players, tricks, deck). Every kind answers the same four
questions: which inputs it needs (:meth:`Contract.fields`), whether a result
is possible (:meth:`Contract.validate`, which raises :class:`InvalidDeal`),
what each player scores (:meth:`Contract.score`) and what a deal must sum to
(:attr:`Contract.expected_sum`). Both ``validate`` and ``score`` take the deal's
``dealer`` (a seat) besides the result: only a trump auction needs it (the dealer
cannot bid, and a sold auction pays the dealer), the other kinds ignore it.

>>> table = Table(players=4, tricks=13, deck=deck())
>>> c = make_contract("no_tricks", {"kind": "tricks", "points": -20}, table)
>>> c.score(c.validate({"tricks": [3, 0, 6, None]}))
[-60, 0, -120, -80]
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations_with_replacement, product
from typing import Any

from scorekeeper.rules import checks
from scorekeeper.rules.errors import N_, InvalidDeal, Problem, RulesetError
from scorekeeper.rules.text import Text

from .cards import CARD_SETS, SUITS, Card, card_set, deck

Result = dict[str, Any]

#: Lead rules a contract may list under ``"lead"`` (see :func:`.trick.check_lead`), with
#: what each means on the deal screen.
LEAD_RULES = {
    "no_hearts": N_("A heart may not be led while the leader holds any other suit."),
    "no_king_of_hearts": N_("The K♥ may not be led."),
    "discard_king_of_hearts": N_("Whoever holds the K♥ must discard it at the first trick "
                                 "they cannot follow."),
}


#: What a robber says when the taker of a one-card penalty has no card of a set that card
#: belongs to (the K♥ is a heart and a gentleman, the Q♠ a queen).
TAKER_MESSAGES = {
    "king_of_hearts": N_("The player who took the king of hearts has at least one here."),
    "queen_of_spades": N_("The player who took the queen of spades has at least one here."),
}


@dataclass(frozen=True)
class Table:
    """What the rules need to know about the table: players and the deck."""

    players: int
    tricks: int
    deck: tuple[Card, ...]

    @property
    def cards_per_trick(self) -> int:
        return self.players


@dataclass(frozen=True)
class Field:
    """One input of a contract, for forms and the API.

    ``type`` is ``"counts"`` (a whole number per player adding up to ``total``),
    ``"seat"`` (one player), ``"seats"`` (one player per label, e.g. per penalty
    trick; ``distinct`` when a player may appear once), ``"suit"``,
    ``"cards"`` (a player per card, the card-by-card entry), ``"bids"`` (a whole
    number of points or nothing per player, the dealer's always nothing) or
    ``"yesno"`` (true or false).
    """

    name: str
    type: str
    total: int = 0
    labels: tuple[str, ...] = ()
    distinct: bool = False


# -- checking ruleset data (not results) ------------------------------------------

class _Data:
    """One contract's ruleset entry, already of its shape (:mod:`.document`), for the
    checks only the table can make; every fault is a :class:`RulesetError`."""

    def __init__(self, key: str, data: Mapping[str, Any]):
        self.key = key
        self.data = data

    def fail(self, what: str) -> RulesetError:
        return RulesetError(f"contract {self.key!r}: {what}")


class _Checker:
    """Collects problems while reading a raw result, through the shared checks.

    ``dealer`` is the seat of the deal's dealer (None where the caller does not say).
    """

    def __init__(self, table: Table, dealer: int | None = None,
                 free: frozenset[int] = frozenset()):
        self.table = table
        self.dealer = dealer
        self.problems: list[Problem] = []
        #: Seats still being entered (a half-entered robber): they may take any card.
        self.free = free

    def add(self, field: str, message: str, **params: Any) -> None:
        self.problems.append(Problem(field, message, params))

    def counts(self, raw: Result, name: str, total: int) -> list[int] | None:
        return checks.counts(raw.get(name), self.table.players, total, name, self.problems)

    def seat(self, value: Any, field: str, message: str, **params: Any) -> int | None:
        seat = checks.seat(value, self.table.players)
        if seat is None:
            self.add(field, message, **params)
        return seat


class Contract:
    """Base of the contract kinds. ``data`` is the ruleset entry as given."""

    kind = ""

    def __init__(self, key: str, data: Mapping[str, Any], table: Table):
        self.key = key
        self.data = dict(data)
        self.table = table

    @classmethod
    def check_data(cls, d: _Data, table: Table) -> None:
        """Refuse a ruleset entry this kind cannot play at this table (raises
        :class:`RulesetError`); its shape is the document's to check."""
        cls.check_multipliers(d, table)

    @classmethod
    def check_multipliers(cls, d: _Data, table: Table) -> None:
        """The multipliers' values are the document's to check; only the table knows how
        many players may take no trick."""
        values = d.data.get("multipliers") or ()
        if len(values) > table.players:
            raise d.fail(f"'multipliers' takes at most {table.players} numbers")

    # -- the interface ---------------------------------------------------
    def fields(self) -> list[Field]:
        raise NotImplementedError

    @property
    def expected_sum(self) -> int:
        raise NotImplementedError

    def score(self, result: Result, dealer: int | None = None) -> list[int]:
        """Each player's points for a result :meth:`validate` returned (same dealer)."""
        raise NotImplementedError

    # -- a house variant's multipliers (seed 004, variation 1) ---------------
    def multiplier(self, result: Result) -> int:
        """What this deal's points are multiplied by: a ``"multipliers"`` list gives it by
        how many players took no trick (its last entry for any more)."""
        table = self.data.get("multipliers")
        tricks = result.get("tricks")
        if not table or not isinstance(tricks, list):
            return 1
        return table[min(sum(1 for t in tricks if t == 0), len(table) - 1)]

    # -- one player takes every trick (seed 004, variation 1's bandit) ---------
    def sweeper(self, result: Result) -> int | None:
        """With ``"all_tricks": "others_pay"``, the seat that took every trick of the deal
        (None otherwise, and always without the option)."""
        tricks = result.get("tricks")
        if self.data.get("all_tricks") != "others_pay" or not isinstance(tricks, list):
            return None
        return next((s for s, t in enumerate(tricks) if t == self.table.tricks), None)

    def scored(self, result: Result, dealer: int | None = None) -> list[int]:
        """The points a game records: :meth:`score` times :meth:`multiplier`; or, when one
        player took every trick under ``"all_tricks": "others_pay"``, nothing for that
        player and the deal's whole points (:attr:`expected_sum`) for each other player,
        with no multiplier (a rule of its own)."""
        taker = self.sweeper(result)
        if taker is not None:
            return [0 if seat == taker else self.expected_sum
                    for seat in range(self.table.players)]
        points = self.score(result, dealer)
        m = self.multiplier(result)
        return points if m == 1 else [p * m for p in points]

    def sum_for(self, result: Result) -> int:
        """What the recorded points of ``result`` must add up to."""
        if self.sweeper(result) is not None:
            return self.expected_sum * (self.table.players - 1)
        return self.expected_sum * self.multiplier(result)

    def multiplier_costs(self) -> list[Text]:
        """The multipliers in words, one line each, and what a player who takes every
        trick scores where the ruleset says (none without them)."""
        lines = self._multiplier_lines()
        if self.data.get("all_tricks") == "others_pay":
            lines.append(Text(N_("One player takes every trick: that player scores nothing, "
                                 "each other player %(points)s"),
                              {"points": self.expected_sum}))
        return lines

    def _multiplier_lines(self) -> list[Text]:
        table = self.data.get("multipliers") or []
        lines = []
        for n, m in enumerate(table):
            more = n == len(table) - 1 and n < self.table.players - 1  # counts any more too
            if m == 1:
                continue
            if n == 0:
                message = N_("×%(times)s when every player takes a trick")
            elif n == 1:
                message = (N_("×%(times)s when one player or more takes no trick") if more
                           else N_("×%(times)s when one player takes no trick"))
            else:
                message = (N_("×%(times)s when %(count)s players or more take no trick")
                           if more else N_("×%(times)s when %(count)s players take no trick"))
            lines.append(Text(message, {"times": m, "count": n}))
        return lines

    def costs(self) -> list[Text]:
        """What costs or earns how much in this deal, one line per item."""
        raise NotImplementedError

    @property
    def card_sets(self) -> tuple[Card, ...]:
        """Penalty cards that may be entered card by card (empty if none)."""
        return ()

    @property
    def lead_rules(self) -> tuple[str, ...]:
        return tuple(self.data.get("lead", ()))

    @property
    def must_beat(self) -> bool:
        """Seed 004's variation 1 (``"must_beat": true``): every player must beat the
        cards already played to the trick when able, and in a trump deal must trump when
        unable to follow suit (:func:`.trick.check_follow`). A robber's is its own, as
        its lead rules are."""
        return bool(self.data.get("must_beat"))

    def validate(self, raw: Result, dealer: int | None = None) -> Result:
        """Check a raw result; return it in canonical form or raise InvalidDeal."""
        check = _Checker(self.table, dealer)
        raw = self._expand_cards(raw, check)
        result = self._read(raw, check)
        if not check.problems:
            self._cross_check(result, check)
        if check.problems:
            raise InvalidDeal(check.problems)
        return result

    # -- a result still being entered ----------------------------------------
    def blanks(self, raw: Result) -> set[str]:
        """The inputs of ``raw`` not entered yet, as problems name them (``tricks.2``,
        ``king_of_hearts``, ``positions.1``; a missing count is every one of its players).
        A bid left empty is an answer (no bid), not a blank.

        >>> table = Table(players=4, tricks=13, deck=deck())
        >>> c = make_contract("no_tricks", {"kind": "tricks", "points": -20}, table)
        >>> sorted(c.blanks({"tricks": [3, "", None, 4]})), len(c.blanks({}))
        (['tricks.1', 'tricks.2'], 5)
        """
        found: set[str] = set()
        for f in self.fields():
            value = raw.get(f.name)
            if f.type in ("counts", "seats"):
                size = self.table.players if f.type == "counts" else len(f.labels)
                if value is None:
                    found |= {f.name, *(f"{f.name}.{i}" for i in range(size))}
                elif isinstance(value, (list, tuple)):
                    found |= {f"{f.name}.{i}" for i, v in enumerate(value) if checks.blank(v)}
            elif f.type in ("seat", "suit", "yesno") and checks.blank(value):
                found.add(f.name)
        return found

    def entered(self, raw: Result, dealer: int | None = None) -> list[Problem]:
        """What the values entered so far already break (a deal being entered, checked
        as it is filled in). With nothing left blank it is exactly what :meth:`validate`
        refuses; with blanks, a blank is no problem yet and only the problems of what was
        entered are given (counts over their total, a number out of range)."""
        try:
            self.validate(raw, dealer)
        except InvalidDeal as e:
            problems = e.problems
        else:
            return []
        blank = self.blanks(raw)
        return [p for p in problems if p.field not in blank]

    # -- for subclasses ----------------------------------------------------
    def _read(self, raw: Result, check: _Checker) -> Result:
        raise NotImplementedError

    def _cross_check(self, result: Result, check: _Checker) -> None:
        pass

    def _expand_cards(self, raw: Result, check: _Checker) -> Result:
        """Turn a card-by-card entry (``{"cards": {"QH": 2, ...}}``) into counts."""
        cards = raw.get("cards")
        if cards is None or not self.card_sets:
            return raw
        if not isinstance(cards, Mapping):
            check.add("cards", N_("Choose who took each card."))
            return raw
        owners: dict[str, int] = {}
        for card in self.card_sets:
            seat = check.seat(cards.get(str(card)), f"cards.{card}", N_("Choose who took this card."))
            if seat is not None:
                owners[str(card)] = seat
        unknown = set(map(str, cards)) - {str(c) for c in self.card_sets}
        if unknown:
            check.add("cards", N_("These cards do not score in this deal: %(cards)s"),
                      cards=", ".join(sorted(unknown)))
        if check.problems:
            return raw
        expanded = {k: v for k, v in raw.items() if k != "cards"}
        expanded["cards"] = owners
        expanded.update(self._counts_from_cards(owners))
        return expanded

    def _counts_from_cards(self, owners: dict[str, int]) -> Result:
        return {}


class TrickCount(Contract):
    """Points for every trick taken (deal 1, and the robber's trick part)."""

    kind = "tricks"

    def fields(self) -> list[Field]:
        return [Field("tricks", "counts", total=self.table.tricks)]

    @property
    def expected_sum(self) -> int:
        return self.data["points"] * self.table.tricks

    def _read(self, raw: Result, check: _Checker) -> Result:
        return {"tricks": check.counts(raw, "tricks", self.table.tricks)}

    def costs(self) -> list[Text]:
        return [Text(N_("%(points)s for each trick"), {"points": self.data["points"]})]

    def score(self, result: Result, dealer: int | None = None) -> list[int]:
        return [self.data["points"] * t for t in result["tricks"]]


class CardCount(Contract):
    """Points for every card of a set taken: hearts, queens, gentlemen, K♥."""

    kind = "cards"

    @classmethod
    def check_data(cls, d: _Data, table: Table) -> None:
        name = d.data["set"]
        if name not in CARD_SETS:
            raise d.fail(f"unknown card set {name!r}")
        if not card_set(name, table.deck):
            raise d.fail(f"card set {name!r} has no card in this deck")

    @property
    def set_name(self) -> str:
        return self.data["set"]

    @cached_property
    def card_sets(self) -> tuple[Card, ...]:
        """The set's cards in this deck (worked out once per contract)."""
        return card_set(self.set_name, self.table.deck)

    @property
    def single(self) -> bool:
        """A one-card set (the K♥) is entered as the player who took it."""
        return len(self.card_sets) == 1

    def fields(self) -> list[Field]:
        if self.single:
            return [Field(self.set_name, "seat")]
        return [Field(self.set_name, "counts", total=len(self.card_sets))]

    @property
    def expected_sum(self) -> int:
        return self.data["points"] * len(self.card_sets)

    def _counts_from_cards(self, owners: dict[str, int]) -> Result:
        if self.single:
            return {self.set_name: owners[str(self.card_sets[0])]}
        counts = [0] * self.table.players
        for card in self.card_sets:
            counts[owners[str(card)]] += 1
        return {self.set_name: counts}

    def _read(self, raw: Result, check: _Checker) -> Result:
        name = self.set_name
        if self.single:
            value = check.seat(raw.get(name), name, N_("Choose the player who took the card."))
        else:
            value = check.counts(raw, name, len(self.card_sets))
        result: Result = {name: value}
        if "cards" in raw and isinstance(raw["cards"], Mapping):
            result["cards"] = {str(c): raw["cards"][str(c)] for c in self.card_sets
                               if str(c) in raw["cards"]}
        return result

    def held(self, result: Result) -> list[int]:
        """How many cards of the set each player took."""
        value = result[self.set_name]
        if self.single:
            return [1 if seat == value else 0 for seat in range(self.table.players)]
        return list(value)

    def costs(self) -> list[Text]:
        return [Text(N_("%(points)s for %(unit)s"),
                     {"points": self.data["points"], "unit": self.set_name})]

    def score(self, result: Result, dealer: int | None = None) -> list[int]:
        return [self.data["points"] * n for n in self.held(result)]


class PenaltyTricks(Contract):
    """Points for taking tricks at given positions (7th and last, last two, …).

    Positions count from 1; a negative position counts from the end, so
    ``-1`` is the last trick whether a deal has 13 tricks or 17.
    """

    kind = "positions"

    @classmethod
    def check_data(cls, d: _Data, table: Table) -> None:
        positions = d.data["positions"]
        n = table.tricks
        for p in positions:
            if p == 0 or not -n <= p <= n:
                raise d.fail(f"no trick {p} in a deal of {n} tricks")
        numbers = [p if p > 0 else n + 1 + p for p in positions]
        if len(set(numbers)) != len(numbers):
            raise d.fail(f"a trick is named twice in {positions!r}")
        points = d.data["points"]
        if isinstance(points, list) and len(points) != len(positions):
            raise d.fail("'points' needs one value per position")

    @property
    def trick_numbers(self) -> list[int]:
        n = self.table.tricks
        return [p if p > 0 else n + 1 + p for p in self.data["positions"]]

    @property
    def points(self) -> list[int]:
        pts = self.data["points"]
        return list(pts) if isinstance(pts, list) else [pts] * len(self.data["positions"])

    def fields(self) -> list[Field]:
        return [Field("positions", "seats", labels=tuple(map(str, self.trick_numbers)))]

    @property
    def expected_sum(self) -> int:
        return sum(self.points)

    def _read(self, raw: Result, check: _Checker) -> Result:
        values = raw.get("positions")
        count = len(self.trick_numbers)
        if not isinstance(values, (list, tuple)) or len(values) != count:
            values = [None] * count
        seats = [check.seat(v, f"positions.{i}", N_("Choose who took trick %(trick)s."), trick=t)
                 for i, (v, t) in enumerate(zip(values, self.trick_numbers))]
        return {"positions": seats}

    def taken(self, result: Result) -> list[int]:
        """How many penalty tricks each player took."""
        counts = [0] * self.table.players
        for seat in result["positions"]:
            counts[seat] += 1
        return counts

    def costs(self) -> list[Text]:
        return [Text(N_("%(points)s for trick %(number)s"), {"points": p, "number": t})
                for t, p in zip(self.trick_numbers, self.points)]

    def score(self, result: Result, dealer: int | None = None) -> list[int]:
        points = [0] * self.table.players
        for seat, value in zip(result["positions"], self.points):
            points[seat] += value
        return points


class Robber(Contract):
    """Every part at once (rozbójnik): the sum of the other contracts' scores.

    Its lead rules are exactly its own ``lead`` list, not its parts' rules.

    Besides each part's own checks, the parts are checked against each other:
    a player without tricks holds no penalty card or trick, the K♥ taker also
    counts a heart and a gentleman, a player's distinct penalty cards fit
    in their tricks, and a card counting under two headings (Q♥, J♥, K♥) is
    used as double by one player at most.
    """

    kind = "robber"

    def __init__(self, key: str, data: Mapping[str, Any], table: Table,
                 parts: list[Contract] | None = None):
        super().__init__(key, data, table)
        self.parts = parts or []

    @classmethod
    def check_data(cls, d: _Data, table: Table) -> None:
        parts = d.data["parts"]
        if d.key in parts or len(set(parts)) != len(parts):
            raise d.fail("a robber's parts are other contracts, each once")
        cls.check_multipliers(d, table)

    def fields(self) -> list[Field]:
        return [f for part in self.parts for f in part.fields()]

    @property
    def expected_sum(self) -> int:
        return sum(p.expected_sum for p in self.parts)

    @property
    def card_sets(self) -> tuple[Card, ...]:
        cards = {c for p in self.parts for c in p.card_sets}
        return tuple(c for c in self.table.deck if c in cards)

    # The robber's lead rules are its own ``lead`` list only (the base class's
    # property): a part's rule, such as seed 001's forced K♥ discard in deal 5,
    # does not carry over. Each ruleset's robber lists its rules explicitly.

    def _counts_from_cards(self, owners: dict[str, int]) -> Result:
        result: Result = {}
        for part in self.parts:
            if part.card_sets:
                result.update(part._counts_from_cards(owners))
        return result

    def _read(self, raw: Result, check: _Checker) -> Result:
        result: Result = {}
        for part in self.parts:
            result.update(part._read(raw, check))
        if isinstance(raw.get("cards"), Mapping):
            result["cards"] = dict(raw["cards"])
        return result

    def _part(self, kind: type) -> list[Contract]:
        return [p for p in self.parts if isinstance(p, kind)]

    def entered(self, raw: Result, dealer: int | None = None) -> list[Problem]:
        """:meth:`Contract.entered`, and the cross-checks as soon as the rows entered
        already break them: the checks of :meth:`_cross_check` are run with the players
        whose row of counts is complete as entered, every other player given the most of
        everything whatever their row holds so far (so that nothing is ever their fault:
        they can take any card), and each blank choice (the K♥, a penalty trick) given to
        every player in turn. What fails whichever way the blanks are filled is wrong
        already; the rest waits (a choice failing for each player in a different way waits
        for the choice, unless a row is still blank: then the rows entered are wrong as
        they stand, and their own problems are given). Sound, not complete: what it says,
        saving would refuse; what it misses, saving still refuses."""
        problems = super().entered(raw, dealer)
        blank = self.blanks(raw)
        if problems or not blank or raw.get("cards") is not None:
            return problems
        players = range(self.table.players)
        fields = self.fields()
        counts: dict[str, list[int | None]] = {}
        for f in fields:
            if f.type == "counts":
                entered = raw.get(f.name)
                row = [None if checks.blank(v) else checks.whole_number(v)
                       for v in entered] if isinstance(entered, (list, tuple)) \
                    else [None] * self.table.players
                counts[f.name] = checks.fill_last(row, f.total)
        known = [s for s in players if all(row[s] is not None for row in counts.values())]
        if not known:
            return []
        totals = {f.name: f.total for f in fields if f.type == "counts"}
        base: Result = {name: [v if s in known else totals[name] for s, v in enumerate(row)]
                        for name, row in counts.items()}
        # (a row not complete is not judged yet, what was entered in it either)
        unjudged = blank | {f"{name}.{s}" for name in counts for s in players if s not in known}
        blanks: list[tuple[str, list[int] | None]] = []  # a choice's field (and blank places)
        for f in fields:
            if f.type == "seat":
                seat = checks.seat(raw.get(f.name), self.table.players)
                base[f.name] = seat
                if seat is None:
                    blanks.append((f.name, None))
            elif f.type == "seats":
                given = raw.get(f.name)
                given = list(given) if isinstance(given, (list, tuple)) else []
                given += [None] * (len(f.labels) - len(given))
                base[f.name] = [checks.seat(v, self.table.players) for v in given]
                places = [i for i, v in enumerate(base[f.name]) if v is None]
                if places:
                    blanks.append((f.name, places))
        # Every way of filling the blank choices, first the one giving them all to a player
        # still being entered (who can take anything): its problems are those of the rows
        # entered alone. Such players are alike (one stands for all), and which blank
        # penalty trick goes to whom does not matter, only how many each takes.
        unknown = [s for s in players if s not in known]
        order = unknown[:1] + known
        ways = [order if places is None else
                list(combinations_with_replacement(order, len(places)))
                for _, places in blanks]
        common: dict[tuple[Any, ...], Problem] | None = None
        first: list[Problem] = []
        for picked in product(*ways):
            result = {k: list(v) if isinstance(v, list) else v for k, v in base.items()}
            for (name, places), seats in zip(blanks, picked):
                if places is None:
                    result[name] = seats
                else:
                    for i, seat in zip(places, seats):
                        result[name][i] = seat
            check = _Checker(self.table, dealer, frozenset(unknown))
            self._cross_check(result, check)
            found = {(p.field, p.message, tuple(sorted(p.params.items()))): p
                     for p in check.problems if p.field not in unjudged}
            if not found:
                return []  # a way to fill the blanks that passes: nothing is wrong yet
            if common is None:
                first = list(found.values())
            common = found if common is None else \
                {k: p for k, p in common.items() if k in found}
        # Every way fails: what fails in each, else (a choice failing in turn) what the
        # rows entered break by themselves, when some player is still being entered.
        return list((common or {}).values()) or (first if unknown else [])

    def _cross_check(self, result: Result, check: _Checker) -> None:
        for part in self.parts:
            part._cross_check(result, check)
        tricks = result.get("tricks")
        card_parts: list[CardCount] = self._part(CardCount)  # type: ignore[assignment]
        held = {p.set_name: p.held(result) for p in card_parts}
        single = {p.set_name for p in card_parts if p.single}  # one card: a seat field
        positions: list[PenaltyTricks] = self._part(PenaltyTricks)  # type: ignore[assignment]
        penalty_tricks = [sum(col) for col in zip(*(p.taken(result) for p in positions))] \
            if positions else [0] * self.table.players
        # a one-card penalty (the K♥, the Q♠) also counts under every set it belongs to:
        # its taker has at least one there (the K♥ a heart and a gentleman, the Q♠ a queen)
        takers = [(p.set_name, result.get(p.set_name), p.card_sets[0])
                  for p in card_parts if p.single]
        rests = _Rests(self, held)  # each seat's, asked by both checks below, made once
        for seat in range(self.table.players):
            for one, taker, card in takers:
                if taker != seat:
                    continue
                for p in card_parts:
                    if not p.single and card in p.card_sets and held[p.set_name][seat] < 1:
                        check.add(f"{p.set_name}.{seat}", TAKER_MESSAGES[one])
            if tricks is None:
                continue
            t = tricks[seat]
            if t == 0:
                for name, counts in held.items():
                    if counts[seat]:
                        field = name if name in single else f"{name}.{seat}"
                        check.add(field, N_("This player took no trick, so no penalty card."))
                for i, s in enumerate(result.get("positions", ())):
                    if s == seat:
                        check.add(f"positions.{i}", N_("This player took no trick."))
                continue
            if penalty_tricks[seat] > t:
                check.add(f"tricks.{seat}", N_(
                    "%(count)s penalty tricks need at least %(count)s tricks."),
                    count=penalty_tricks[seat])
            needed = self._least_cards(seat, result, held, rests)
            room = t * self.table.cards_per_trick
            if needed > room:
                check.add(f"tricks.{seat}", N_(
                    "%(cards)s different penalty cards do not fit in %(tricks)s tricks."),
                    cards=needed, tricks=t)
        if not check.problems and not result.get("cards"):
            self._check_shared_cards(result, held, check, rests)

    @cached_property
    def _doubles(self) -> list[tuple[frozenset[str], tuple[Card, ...]]]:
        """The cards that count under two headings or more of this robber (Q♥ a heart
        and a queen, J♥ and K♥ a heart and a gentleman, the K♥ also the K♥ penalty),
        grouped by the headings they count under (cards of one group are alike).
        Worked out once per loaded ruleset: every robber deal checked asked for it up to
        six times, comparing every card of the deck with every heading's cards."""
        parts: list[CardCount] = self._part(CardCount)  # type: ignore[assignment]
        groups: dict[frozenset[str], list[Card]] = {}
        for card in self.card_sets:
            names = frozenset(p.set_name for p in parts if card in p.card_sets)
            if len(names) > 1:
                groups.setdefault(names, []).append(card)
        return [(names, tuple(cards)) for names, cards in groups.items()]

    @cached_property
    def _alone(self) -> dict[str, int]:
        """How many cards of each heading count under that heading only (13 hearts less
        the Q♥, J♥ and K♥ in the standard robber: 10; the K♥ penalty: none)."""
        double = {c for _, cards in self._doubles for c in cards}
        return {p.set_name: sum(1 for c in p.card_sets if c not in double)
                for p in self._part(CardCount)}  # type: ignore[attr-defined]

    @cached_property
    def _headings(self) -> list[tuple[str, tuple[int, ...], int]]:
        """Each heading counted in cards: its name, the groups of :attr:`_doubles` that
        count under it (by their places) and :attr:`_alone`'s number of it."""
        groups = self._doubles
        return [(name, tuple(i for i, (names, _) in enumerate(groups) if name in names),
                 alone) for name, alone in self._alone.items()]

    @cached_property
    def _ways(self) -> list[tuple[int, ...]]:
        """Every way a player can take the double cards: how many of each group."""
        return list(product(*(range(len(cards) + 1) for _, cards in self._doubles)))

    def _rests(self, seat: int, held: dict[str, list[int]]) -> list[tuple[tuple[int, ...], int]]:
        """Each way of :attr:`_ways` that ``seat``'s counts can be made of, with how many
        cards that count once they need besides those double cards (none of a heading
        fewer than none, nor more than it has: :attr:`_alone`)."""
        counts = [(held[name][seat], groups, alone) for name, groups, alone in self._headings]
        found = []
        for taken in self._ways:
            rest = 0
            for count, groups, alone in counts:
                left = count
                for g in groups:
                    left -= taken[g]
                if not 0 <= left <= alone:
                    break
                rest += left
            else:
                found.append((taken, rest))
        return found

    def _check_shared_cards(self, result: Result, held: dict[str, list[int]],
                            check: _Checker, rests: _Rests) -> None:
        """A card counting twice is in one player's tricks only: the players' counts must
        share the double cards out, each to one player at most. Exact: every way of
        sharing them out is tried (a handful of cards, alike ones grouped)."""
        groups = self._doubles
        if not groups:
            return
        players = range(self.table.players)
        sizes = [len(cards) for _, cards in groups]

        # what each seat could take of each group, its own counts alone considered: the
        # ways its counts can be made of, the cards they need all in its tricks
        every = self._ways
        tricks = result.get("tricks")
        per_trick = self.table.cards_per_trick
        own = {s: every if s in check.free else
               [a for a, rest in rests[s]
                if tricks is None or rest + sum(a) <= tricks[s] * per_trick]
               for s in players}

        def share(i: int, left: list[int]) -> bool:  # seats i, i+1, … take what is left
            if i == len(players):
                return not any(left)
            return any(share(i + 1, [x - y for x, y in zip(left, a)]) for a in own[i]
                       if all(y <= x for x, y in zip(left, a)))

        if share(0, sizes):
            return
        # A card claimed twice: seats whose counts need it, more of them than there are
        # such cards. The fields of those seats carry the message.
        for g, (names, cards) in enumerate(groups):
            need = {s: min((a[g] for a in own[s]), default=0) for s in players}
            if sum(need.values()) > sizes[g]:
                # the first heading (in the robber's order) entered as counts per player
                name = next(n for n in held if n in names and len(held[n]) and
                            len(card_set(n, self.table.deck)) > 1)
                for s in players:
                    if need[s]:
                        check.add(f"{name}.{s}", N_(
                            "Only one player took the %(card)s, yet these counts need it "
                            "for this player and another one too (it counts under more "
                            "than one heading)."), card=", ".join(c.rank + c.symbol for c in cards))
                return
        check.add("tricks", N_("These counts need a card that counts under two headings "
                               "in more than one player's tricks."))

    def _least_cards(self, seat: int, result: Result, held: dict[str, list[int]],
                     rests: _Rests) -> int:
        """The fewest distinct cards that explain a player's penalty counts.

        With card-by-card entry this is exact; from counts alone, a card that counts
        under several headings (the Q♥, J♥ and K♥; the Q♠ where it is a penalty of its
        own) stands once for all of them, as many of them as the counts allow. Counts no
        cards can make up (the K♥'s taker without a heart) give 0: the taker's check
        says what is wrong.
        """
        cards = result.get("cards")
        if cards:
            return sum(1 for owner in cards.values() if owner == seat)
        return min((rest + sum(taken) for taken, rest in rests[seat]), default=0)

    def costs(self) -> list[Text]:
        return [line for part in self.parts for line in part.costs()]

    def score(self, result: Result, dealer: int | None = None) -> list[int]:
        totals = [0] * self.table.players
        for part in self.parts:
            for seat, pts in enumerate(part.score(result, dealer)):
                totals[seat] += pts
        return totals


class _Rests(dict):  # type: ignore[type-arg]
    """One check's :meth:`Robber._rests` by seat, each made when first asked: the shared
    cards' check and the fewest cards' check ask the same (measured: they were half of a
    robber deal's 95 us, each working out every seat's ways again)."""

    def __init__(self, robber: Robber, held: dict[str, list[int]]):
        super().__init__()
        self.robber = robber
        self.held = held

    def __missing__(self, seat: int) -> list[tuple[tuple[int, ...], int]]:
        found = self[seat] = self.robber._rests(seat, self.held)
        return found


#: The highest bid a trump auction takes (more than a whole game's points).
MAX_BID = 10_000


class Trumps(Contract):
    """A positive deal with a named trump suit and points per trick.

    With ``"auction": true`` the players other than the dealer, from the dealer's left,
    bid points for the dealer's right to take the box (the last cards, dealt face up)
    and name trumps; the dealer accepts the highest bid or refuses. The result then
    records each player's highest bid (``bids``, ``None`` for none; the dealer's is
    always ``None``) and whether the dealer sold (``sold``). The tricks score as usual
    and an accepted bid moves from the buyer to the dealer, so the deal's sum does not
    change.

    >>> table = Table(players=4, tricks=13, deck=deck())
    >>> c = make_contract("trumps", {"kind": "trumps", "points": 25, "auction": True}, table)
    >>> r = c.validate({"bids": [None, 100, None, 125], "sold": True, "trump": "H",
    ...                 "tricks": [2, 1, 4, 6]}, dealer=0)
    >>> c.buyer(r), c.score(r, dealer=0)
    (3, [175, 25, 100, 25])
    """

    kind = "trumps"

    @classmethod
    def check_data(cls, d: _Data, table: Table) -> None:
        super().check_data(d, table)
        if not 0 <= d.data.get("cards_seen", 0) <= table.tricks:
            raise d.fail(f"'cards_seen' must be from 0 to the {table.tricks} cards of a hand")

    @property
    def auction(self) -> bool:
        """Whether the other players bid for the dealer's right to name trumps."""
        return bool(self.data.get("auction"))

    def fields(self) -> list[Field]:
        tricks = Field("tricks", "counts", total=self.table.tricks)
        if self.auction:  # the trump suit last: its buttons record the deal
            return [Field("bids", "bids"), Field("sold", "yesno"), tricks, Field("trump", "suit")]
        return [Field("trump", "suit"), tricks]

    @property
    def expected_sum(self) -> int:
        return self.data["points"] * self.table.tricks  # a bid only moves points

    def _read(self, raw: Result, check: _Checker) -> Result:
        trump = raw.get("trump")
        allowed = SUITS + (("NT",) if self.data.get("no_trump") else ())
        if trump not in allowed:
            check.add("trump", N_("Choose the trump suit."))
        result: Result = {}
        if self.auction:
            result["bids"] = self._read_bids(raw.get("bids"), check)
            sold = raw.get("sold")
            if not isinstance(sold, bool):
                check.add("sold", N_("Say whether the dealer accepts the highest bid or "
                                     "refuses."))
            result["sold"] = sold
        result["tricks"] = check.counts(raw, "tricks", self.table.tricks)
        result["trump"] = trump
        return result

    def _read_bids(self, values: Any, check: _Checker) -> list[int | None]:
        dealer = check.dealer
        if dealer is None:
            raise ValueError("an auction deal is checked with its dealer")
        players = self.table.players
        if values is None:  # nobody bid
            values = [None] * players
        if not isinstance(values, (list, tuple)) or len(values) != players:
            check.add("bids", N_("Enter a bid or nothing for each of the %(players)s "
                                 "players."), players=players)
            return [None] * players
        bids: list[int | None] = []
        for seat, value in enumerate(values):
            bid = None if checks.blank(value) else checks.whole_number(value)
            if seat == dealer and not checks.blank(value):
                check.add(f"bids.{seat}", N_("The dealer does not bid."))
            elif not checks.blank(value) and (bid is None or not 1 <= bid <= MAX_BID):
                check.add(f"bids.{seat}", N_("A bid is a whole number of points from 1 to "
                                             "%(max)s."), max=MAX_BID)
            bids.append(bid if seat != dealer else None)
        return bids

    def _cross_check(self, result: Result, check: _Checker) -> None:
        if not self.auction or not result["sold"]:
            return
        bids = [b for b in result["bids"] if b is not None]
        if not bids:
            check.add("sold", N_("Nobody bid, so there is no bid to accept."))
        elif bids.count(max(bids)) > 1:
            check.add("bids", N_("Two players cannot both hold the highest bid: the auction "
                                 "goes on until one of them bids more."))

    def buyer(self, result: Result) -> int | None:
        """The seat that bought the dealer's right, or None (refused, no bids, no auction)."""
        if not self.auction or not result.get("sold"):
            return None
        bids = result["bids"]
        return max(range(len(bids)), key=lambda s: -1 if bids[s] is None else bids[s])

    def costs(self) -> list[Text]:
        return [Text(N_("%(points)s for each trick"), {"points": self.data["points"]})]

    def score(self, result: Result, dealer: int | None = None) -> list[int]:
        points = [self.data["points"] * t for t in result["tricks"]]
        buyer = self.buyer(result)
        if buyer is not None:
            if dealer is None:
                raise ValueError("an auction deal is scored with its dealer")
            points[dealer] += result["bids"][buyer]
            points[buyer] -= result["bids"][buyer]
        return points


class Loteryjka(Contract):
    """The race to run out of cards: prizes for the first finishers."""

    kind = "loteryjka"

    @classmethod
    def check_data(cls, d: _Data, table: Table) -> None:
        prizes = d.data["prizes"]
        if len(prizes) > table.players:
            raise d.fail(f"{len(prizes)} prizes for {table.players} players")

    @property
    def prizes(self) -> list[int]:
        return list(self.data["prizes"])

    @property
    def asked(self) -> int:
        """How many places are entered: every prized place, but where every player has a
        place (seed 004's race for five: 400/300/200/100/0) the last one is whoever is
        left, so the rules fill it themselves."""
        places = len(self.prizes)
        return places - 1 if places == self.table.players else places

    def fields(self) -> list[Field]:
        return [Field("order", "seats", labels=tuple(str(i + 1) for i in range(self.asked)),
                      distinct=True)]

    @property
    def expected_sum(self) -> int:
        return sum(self.prizes)

    def _read(self, raw: Result, check: _Checker) -> Result:
        values = raw.get("order")
        places = len(self.prizes)
        implied = isinstance(values, (list, tuple)) and self.asked < places \
            and self.asked <= len(values) <= places \
            and all(checks.blank(v) for v in values[self.asked:])
        if implied:  # the last place left out (or blank): the rules fill it below
            values = list(values)[:self.asked]
        elif not isinstance(values, (list, tuple)) or \
                not places <= len(values) <= self.table.players:
            values = list(values)[:places] if isinstance(values, (list, tuple)) else []
            values += [None] * (places - len(values))
        order = [check.seat(v, f"order.{i}", N_("Choose who finished in place %(place)s."),
                            place=i + 1) for i, v in enumerate(values)]
        seen: set[int] = set()
        for i, seat in enumerate(order):
            if seat is not None and seat in seen:
                check.add(f"order.{i}", N_("A player can finish only once."))
            seen.add(seat)  # type: ignore[arg-type]
        if implied and not check.problems:  # the one player not placed is last
            order += sorted(set(range(self.table.players)) - seen)
        return {"order": order}

    def costs(self) -> list[Text]:
        return [Text(N_("%(points)s for place %(place)s"), {"points": p, "place": i + 1})
                for i, p in enumerate(self.prizes)]

    def score(self, result: Result, dealer: int | None = None) -> list[int]:
        points = [0] * self.table.players
        for seat, prize in zip(result["order"], self.prizes):
            points[seat] += prize
        return points


KINDS: dict[str, type[Contract]] = {
    cls.kind: cls for cls in (TrickCount, CardCount, PenaltyTricks, Robber, Trumps, Loteryjka)
}


def make_contract(key: str, data: Mapping[str, Any], table: Table,
                  lookup: Callable[[str], Contract] | None = None) -> Contract:
    """Build a contract from ruleset data; a robber finds its parts by key.

    ``data`` has the shape of :data:`.document.Contract` (the ruleset's loader reads it
    first); what this table cannot play (a card set with no card in its deck, a trick
    it does not have, a robber's parts) raises :class:`RulesetError` naming the contract
    and the fault.
    """
    d = _Data(key, data)
    kind = data["kind"]
    KINDS[kind].check_data(d, table)
    if kind == "robber":
        if lookup is None:
            raise d.fail("a robber needs the other contracts")
        parts = []
        for k in data["parts"]:
            try:
                part = lookup(k)
            except KeyError:
                raise d.fail(f"unknown part {k!r}") from None
            if part.kind in ("robber", "trumps", "loteryjka"):
                raise d.fail(f"part {k!r} is a {part.kind} deal, not a penalty")
            parts.append(part)
        if data.get("all_tricks") and not any(p.kind == "tricks" for p in parts):
            raise d.fail("'all_tricks' needs a part that counts tricks")
        return Robber(key, data, table, parts)
    return KINDS[kind](key, data, table)


__all__ = ["LEAD_RULES", "Contract", "Field", "Table", "deck", "make_contract"]
