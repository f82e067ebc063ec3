"""What every contract kind shares: its inputs, checking and scoring a result.

A contract answers which inputs it needs (:meth:`Contract.fields`), whether a result is
possible (:meth:`Contract.validate`, raising :class:`InvalidDeal`), what each player
scores (:meth:`Contract.score`) and what a deal sums to (:attr:`Contract.expected_sum`).
Only a trump auction needs the deal's ``dealer``; the other kinds ignore it.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.rules import checks
from scorekeeper.rules.errors import N_, InvalidDeal, Problem
from scorekeeper.rules.text import Text

from ..cards import Card
from .reading import Checker, Data, Field, Result, Table

#: Lead rules a contract may list under ``"lead"``, with what each means on the deal screen.
LEAD_RULES = {
    "no_hearts": N_("A heart may not be led while the leader holds any other suit."),
    "no_king_of_hearts": N_("The K♥ may not be led."),
    "discard_king_of_hearts": N_("Whoever holds the K♥ must discard it at the first trick "
                                 "they cannot follow."),
}


class Contract:
    """Base of the contract kinds. ``data`` is the ruleset entry as given."""

    kind = ""
    #: Penalty cards that may be entered card by card (empty if none).
    card_sets: tuple[Card, ...] = ()

    def __init__(self, key: str, data: Mapping[str, Any], table: Table):
        self.key = key
        self.data = dict(data)
        self.table = table

    @classmethod
    def check_data(cls, d: Data, table: Table) -> None:
        """Refuse an entry this kind cannot play at this table (its shape is the
        document's to check)."""
        if len(d.data.get("multipliers") or ()) > table.players:
            raise d.fail(f"'multipliers' takes at most {table.players} numbers")

    def fields(self) -> list[Field]:
        raise NotImplementedError

    @property
    def expected_sum(self) -> int:
        raise NotImplementedError

    def score(self, result: Result, dealer: int | None = None) -> list[int]:
        """Each player's points for a result :meth:`validate` returned."""
        raise NotImplementedError

    def costs(self) -> list[Text]:
        """What costs or earns how much in this deal, one line per item."""
        raise NotImplementedError

    def _per_seat(self, seats: list[int], points: list[int]) -> list[int]:
        """Each player's points when ``points[i]`` goes to ``seats[i]``."""
        return [sum(p for s, p in zip(seats, points) if s == seat)
                for seat in range(self.table.players)]

    def multiplier(self, result: Result) -> int:
        """What the deal's points are multiplied by: ``"multipliers"`` by how many players
        took no trick (its last entry for any more)."""
        table, tricks = self.data.get("multipliers"), result.get("tricks")
        if not table or not isinstance(tricks, list):
            return 1
        return table[min(tricks.count(0), len(table) - 1)]

    def sweeper(self, result: Result) -> int | None:
        """With ``"all_tricks": "others_pay"``, the seat that took every trick, if any."""
        tricks = result.get("tricks")
        if self.data.get("all_tricks") != "others_pay" or not isinstance(tricks, list):
            return None
        return next((s for s, t in enumerate(tricks) if t == self.table.tricks), None)

    def scored(self, result: Result, dealer: int | None = None) -> list[int]:
        """The points a game records: :meth:`score` times :meth:`multiplier`; a sweeper
        scores nothing and each other player the deal's whole points."""
        taker = self.sweeper(result)
        if taker is not None:
            return [0 if seat == taker else self.expected_sum for seat in range(self.table.players)]
        m = self.multiplier(result)
        return [p * m for p in self.score(result, dealer)]

    def sum_for(self, result: Result) -> int:
        """What the recorded points of ``result`` must add up to."""
        if self.sweeper(result) is not None:
            return self.expected_sum * (self.table.players - 1)
        return self.expected_sum * self.multiplier(result)

    def multiplier_costs(self) -> list[Text]:
        """The multipliers and the sweeper's rule in words, one line each."""
        table = self.data.get("multipliers") or []
        lines = []
        for n, m in enumerate(table):
            more = n == len(table) - 1 and n < self.table.players - 1  # counts any more too
            message = N_("×%(times)s when every player takes a trick") if n == 0 else \
                N_("×%(times)s when one player or more takes no trick") if n == 1 and more else \
                N_("×%(times)s when one player takes no trick") if n == 1 else \
                N_("×%(times)s when %(count)s players or more take no trick") if more else \
                N_("×%(times)s when %(count)s players take no trick")
            if m != 1:
                lines.append(Text(message, {"times": m, "count": n}))
        if self.data.get("all_tricks") == "others_pay":
            lines.append(Text(N_("One player takes every trick: that player scores nothing, "
                                 "each other player %(points)s"),
                              {"points": self.expected_sum}))
        return lines

    @property
    def lead_rules(self) -> tuple[str, ...]:
        return tuple(self.data.get("lead", ()))

    @property
    def must_beat(self) -> bool:
        """Every player must beat the cards played when able, and trump when void
        (:func:`.trick.check_follow`)."""
        return bool(self.data.get("must_beat"))

    def validate(self, raw: Result, dealer: int | None = None) -> Result:
        """Check a raw result; return it in canonical form or raise InvalidDeal."""
        check = Checker(self.table, dealer)
        raw = self._expand_cards(raw, check)
        result = self._read(raw, check)
        if not check.problems:
            self._cross_check(result, check)
        if check.problems:
            raise InvalidDeal(check.problems)
        return result

    def blanks(self, raw: Result) -> set[str]:
        """The inputs of ``raw`` not entered yet, as problems name them (``tricks.2``,
        ``king_of_hearts``); a missing count is every one of its players. An empty bid
        is an answer, not a blank.

        >>> from ..cards import deck
        >>> from . import make_contract
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
        """What the values entered so far already break: :meth:`validate`'s problems,
        less those of inputs still blank."""
        try:
            self.validate(raw, dealer)
        except InvalidDeal as e:
            blank = self.blanks(raw)
            return [p for p in e.problems if p.field not in blank]
        return []

    def _read(self, raw: Result, check: Checker) -> Result:
        raise NotImplementedError

    def _cross_check(self, result: Result, check: Checker) -> None:
        pass

    def _expand_cards(self, raw: Result, check: Checker) -> Result:
        """Turn a card-by-card entry (``{"cards": {"QH": 2, ...}}``) into counts."""
        cards = raw.get("cards")
        if cards is None or not self.card_sets:
            return raw
        if not isinstance(cards, Mapping):
            check.add("cards", N_("Choose who took each card."))
            return raw
        owners: dict[str, int] = {}
        for card in self.card_sets:
            seat = check.seat(cards.get(str(card)), f"cards.{card}",
                              N_("Choose who took this card."))
            if seat is not None:
                owners[str(card)] = seat
        unknown = set(map(str, cards)) - {str(c) for c in self.card_sets}
        if unknown:
            check.add("cards", N_("These cards do not score in this deal: %(cards)s"),
                      cards=", ".join(sorted(unknown)))
        if check.problems:
            return raw
        return {**{k: v for k, v in raw.items() if k != "cards"}, "cards": owners,
                **self._counts_from_cards(owners)}

    def _counts_from_cards(self, owners: dict[str, int]) -> Result:
        return {}
