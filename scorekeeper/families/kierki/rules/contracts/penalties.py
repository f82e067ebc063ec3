"""The single penalties: points per trick, per card of a set, per penalty trick."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.rules.errors import N_
from scorekeeper.rules.text import Text

from ..cards import CARD_SETS, card_set
from .base import Contract
from .reading import Checker, Data, Field, Result, Table


def _numbers(positions: list[int], tricks: int) -> list[int]:
    """Trick positions as numbers from 1: ``-1`` is the last trick."""
    return [p if p > 0 else tricks + 1 + p for p in positions]


class TrickCount(Contract):
    """Points for every trick taken (deal 1, the robber's trick part; trump deals too)."""

    kind = "tricks"

    def fields(self) -> list[Field]:
        return [Field("tricks", "counts", total=self.table.tricks)]

    @property
    def expected_sum(self) -> int:
        return self.data["points"] * self.table.tricks

    def _read(self, raw: Result, check: Checker) -> Result:
        return {"tricks": check.counts(raw, "tricks", self.table.tricks)}

    def costs(self) -> list[Text]:
        return [Text(N_("%(points)s for each trick"), {"points": self.data["points"]})]

    def score(self, result: Result, dealer: int | None = None) -> list[int]:
        return [self.data["points"] * t for t in result["tricks"]]


class CardCount(Contract):
    """Points for every card of a set taken: hearts, queens, gentlemen, K♥."""

    kind = "cards"

    def __init__(self, key: str, data: Mapping[str, Any], table: Table):
        super().__init__(key, data, table)
        self.card_sets = card_set(self.set_name, table.deck)

    @classmethod
    def check_data(cls, d: Data, table: Table) -> None:
        name = d.data["set"]
        if name not in CARD_SETS:
            raise d.fail(f"unknown card set {name!r}")
        if not card_set(name, table.deck):
            raise d.fail(f"card set {name!r} has no card in this deck")

    @property
    def set_name(self) -> str:
        return self.data["set"]

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
        seats = [owners[str(card)] for card in self.card_sets]
        return {self.set_name: seats[0] if self.single else self._per_seat(seats, [1] * len(seats))}

    def _read(self, raw: Result, check: Checker) -> Result:
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
    """Points for taking tricks at given positions; ``-1`` is the last trick."""

    kind = "positions"

    @classmethod
    def check_data(cls, d: Data, table: Table) -> None:
        positions, n = d.data["positions"], table.tricks
        for p in positions:
            if p == 0 or not -n <= p <= n:
                raise d.fail(f"no trick {p} in a deal of {n} tricks")
        numbers = _numbers(positions, n)
        if len(set(numbers)) != len(numbers):
            raise d.fail(f"a trick is named twice in {positions!r}")
        points = d.data["points"]
        if isinstance(points, list) and len(points) != len(positions):
            raise d.fail("'points' needs one value per position")

    @property
    def trick_numbers(self) -> list[int]:
        return _numbers(self.data["positions"], self.table.tricks)

    @property
    def points(self) -> list[int]:
        pts = self.data["points"]
        return list(pts) if isinstance(pts, list) else [pts] * len(self.data["positions"])

    def fields(self) -> list[Field]:
        return [Field("positions", "seats", labels=tuple(map(str, self.trick_numbers)))]

    @property
    def expected_sum(self) -> int:
        return sum(self.points)

    def _read(self, raw: Result, check: Checker) -> Result:
        values, numbers = raw.get("positions"), self.trick_numbers
        if not isinstance(values, (list, tuple)) or len(values) != len(numbers):
            values = [None] * len(numbers)
        message = N_("Choose who took trick %(trick)s.")
        return {"positions": [check.seat(v, f"positions.{i}", message, trick=t)
                              for i, (v, t) in enumerate(zip(values, numbers))]}

    def taken(self, result: Result) -> list[int]:
        """How many penalty tricks each player took."""
        return [result["positions"].count(seat) for seat in range(self.table.players)]

    def costs(self) -> list[Text]:
        return [Text(N_("%(points)s for trick %(number)s"), {"points": p, "number": t})
                for t, p in zip(self.trick_numbers, self.points)]

    def score(self, result: Result, dealer: int | None = None) -> list[int]:
        return self._per_seat(result["positions"], self.points)
