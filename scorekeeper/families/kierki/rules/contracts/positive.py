"""The positive deals: trumps (perhaps auctioned) and the loteryjka race."""
from __future__ import annotations

from typing import Any

from scorekeeper.rules import checks
from scorekeeper.rules.errors import N_
from scorekeeper.rules.text import Text

from ..cards import SUITS
from .base import Contract
from .penalties import TrickCount
from .reading import Checker, Data, Field, Result, Table

#: The highest bid a trump auction takes (more than a whole game's points).
MAX_BID = 10_000


class Trumps(TrickCount):
    """Points per trick with a named trump suit.

    With ``"auction": true`` the players but the dealer bid for the dealer's right to take
    the box and name trumps; the result records each one's highest bid (``bids``, the
    dealer's always ``None``) and whether the dealer sold (``sold``). An accepted bid
    moves from the buyer to the dealer.

    >>> from ..cards import deck
    >>> from . import make_contract
    >>> table = Table(players=4, tricks=13, deck=deck())
    >>> c = make_contract("trumps", {"kind": "trumps", "points": 25, "auction": True}, table)
    >>> r = c.validate({"bids": [None, 100, None, 125], "sold": True, "trump": "H",
    ...                 "tricks": [2, 1, 4, 6]}, dealer=0)
    >>> c.buyer(r), c.score(r, dealer=0)
    (3, [175, 25, 100, 25])
    """

    kind = "trumps"

    @classmethod
    def check_data(cls, d: Data, table: Table) -> None:
        super().check_data(d, table)
        if not 0 <= d.data.get("cards_seen", 0) <= table.tricks:
            raise d.fail(f"'cards_seen' must be from 0 to the {table.tricks} cards of a hand")

    @property
    def auction(self) -> bool:
        return bool(self.data.get("auction"))

    def fields(self) -> list[Field]:
        tricks = Field("tricks", "counts", total=self.table.tricks)
        if self.auction:  # the trump suit last: its buttons record the deal
            return [Field("bids", "bids"), Field("sold", "yesno"), tricks, Field("trump", "suit")]
        return [Field("trump", "suit"), tricks]

    def _read(self, raw: Result, check: Checker) -> Result:
        trump = raw.get("trump")
        if trump not in SUITS + (("NT",) if self.data.get("no_trump") else ()):
            check.add("trump", N_("Choose the trump suit."))
        result: Result = {}
        if self.auction:
            result["bids"] = self._read_bids(raw.get("bids"), check)
            sold = raw.get("sold")
            if not isinstance(sold, bool):
                check.add("sold", N_("Say whether the dealer accepts the highest bid or refuses."))
            result["sold"] = sold
        result["tricks"] = check.counts(raw, "tricks", self.table.tricks)
        result["trump"] = trump
        return result

    def _read_bids(self, values: Any, check: Checker) -> list[int | None]:
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

    def _cross_check(self, result: Result, check: Checker) -> None:
        if not self.auction or not result["sold"]:
            return
        bids = [b for b in result["bids"] if b is not None]
        if not bids:
            check.add("sold", N_("Nobody bid, so there is no bid to accept."))
        elif bids.count(max(bids)) > 1:
            check.add("bids", N_("Two players cannot both hold the highest bid: the auction "
                                 "goes on until one of them bids more."))

    def buyer(self, result: Result) -> int | None:
        """The seat that bought the dealer's right, or None."""
        if not self.auction or not result.get("sold"):
            return None
        bids = result["bids"]
        return max(range(len(bids)), key=lambda s: -1 if bids[s] is None else bids[s])

    def score(self, result: Result, dealer: int | None = None) -> list[int]:
        points = super().score(result)
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
    def check_data(cls, d: Data, table: Table) -> None:
        prizes = d.data["prizes"]
        if len(prizes) > table.players:
            raise d.fail(f"{len(prizes)} prizes for {table.players} players")

    @property
    def prizes(self) -> list[int]:
        return list(self.data["prizes"])

    @property
    def asked(self) -> int:
        """How many places are entered: where every player has a prize, the last place is
        whoever is left."""
        places = len(self.prizes)
        return places - 1 if places == self.table.players else places

    def fields(self) -> list[Field]:
        return [Field("order", "seats", labels=tuple(str(i + 1) for i in range(self.asked)),
                      distinct=True)]

    @property
    def expected_sum(self) -> int:
        return sum(self.prizes)

    def _read(self, raw: Result, check: Checker) -> Result:
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
        return self._per_seat(result["order"], self.prizes)
