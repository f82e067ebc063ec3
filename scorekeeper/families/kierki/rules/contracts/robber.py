"""The robber (rozbójnik): every penalty of its parts at once, checked against each other."""
from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations_with_replacement, product
from typing import Any

from scorekeeper.rules import checks
from scorekeeper.rules.errors import N_, Problem
from scorekeeper.rules.text import Text

from ..cards import Card
from .base import Contract
from .penalties import CardCount, PenaltyTricks
from .reading import Checker, Data, Field, Result, Table

#: What a robber says when the taker of a one-card penalty has no card of a set that card
#: belongs to (the K♥ is a heart and a gentleman, the Q♠ a queen).
TAKER_MESSAGES = {
    "king_of_hearts": N_("The player who took the king of hearts has at least one here."),
    "queen_of_spades": N_("The player who took the queen of spades has at least one here."),
}

#: Each way a seat's counts can be made of the double cards: how many of each group it
#: takes, and how many cards counting once it needs besides.
Ways = list[tuple[tuple[int, ...], int]]


class Robber(Contract):
    """The sum of its parts' scores; its lead rules are its own ``lead`` list only.

    The parts are checked against each other: a player without tricks holds no penalty
    card or trick, the K♥'s taker also counts a heart and a gentleman, a player's
    penalty cards fit in their tricks, and a card counting under two headings (Q♥, J♥,
    K♥) is in one player's tricks.
    """

    kind = "robber"

    def __init__(self, key: str, data: Mapping[str, Any], table: Table,
                 parts: list[Contract]):
        super().__init__(key, data, table)
        self.parts = parts
        cards = {c for p in self.parts for c in p.card_sets}
        self.card_sets = tuple(c for c in table.deck if c in cards)
        self._cards = [p for p in self.parts if isinstance(p, CardCount)]
        self._positions = [p for p in self.parts if isinstance(p, PenaltyTricks)]
        # the cards counting under two headings or more, grouped by those headings
        groups: dict[frozenset[str], list[Card]] = {}
        for card in self.card_sets:
            names = frozenset(p.set_name for p in self._cards if card in p.card_sets)
            if len(names) > 1:
                groups.setdefault(names, []).append(card)
        self._doubles = [(names, tuple(cards)) for names, cards in groups.items()]
        double = {c for _, cards in self._doubles for c in cards}
        alone = {p.set_name: sum(c not in double for c in p.card_sets) for p in self._cards}
        # each heading: its name, the groups counting under it, its cards counting once
        self._headings = [(name, tuple(i for i, (names, _) in enumerate(self._doubles)
                                       if name in names), count)
                          for name, count in alone.items()]
        # every way a player can take the double cards: how many of each group
        self._ways = list(product(*(range(len(cards) + 1) for _, cards in self._doubles)))

    @classmethod
    def check_data(cls, d: Data, table: Table) -> None:
        parts = d.data["parts"]
        if d.key in parts or len(set(parts)) != len(parts):
            raise d.fail("a robber's parts are other contracts, each once")
        super().check_data(d, table)

    def fields(self) -> list[Field]:
        return [f for part in self.parts for f in part.fields()]

    @property
    def expected_sum(self) -> int:
        return sum(p.expected_sum for p in self.parts)

    def _counts_from_cards(self, owners: dict[str, int]) -> Result:
        return {k: v for part in self.parts if part.card_sets
                for k, v in part._counts_from_cards(owners).items()}

    def _read(self, raw: Result, check: Checker) -> Result:
        result = {k: v for part in self.parts for k, v in part._read(raw, check).items()}
        if isinstance(raw.get("cards"), Mapping):
            result["cards"] = dict(raw["cards"])
        return result

    def entered(self, raw: Result, dealer: int | None = None) -> list[Problem]:
        """:meth:`Contract.entered`, and the cross-checks as soon as the rows entered
        break them. A seat whose counts are not all entered may take any card; each blank
        choice (the K♥, a penalty trick) is given to every player in turn. What fails
        whichever way the blanks are filled is wrong already. Sound, not complete: what it
        says, saving would refuse."""
        problems = super().entered(raw, dealer)
        blank = self.blanks(raw)
        if problems or not blank or raw.get("cards") is not None:
            return problems
        n = self.table.players
        fields = self.fields()
        totals = {f.name: f.total for f in fields if f.type == "counts"}
        counts = {name: checks.fill_last(
            [None if checks.blank(v) else checks.whole_number(v) for v in raw[name]]
            if isinstance(raw.get(name), (list, tuple)) else [None] * n, total)
            for name, total in totals.items()}
        known = [s for s in range(n) if all(row[s] is not None for row in counts.values())]
        if not known:
            return []
        unknown = [s for s in range(n) if s not in known]
        # a seat still being entered may hold anything; its rows are not judged yet
        base: Result = {name: [v if s in known else totals[name] for s, v in enumerate(row)]
                        for name, row in counts.items()}
        unjudged = blank | {f"{name}.{s}" for name in counts for s in unknown}
        blanks: list[tuple[str, list[int] | None]] = []  # a choice's field (and blank places)
        for f in fields:
            if f.type == "seat":
                base[f.name] = checks.seat(raw.get(f.name), n)
                if base[f.name] is None:
                    blanks.append((f.name, None))
            elif f.type == "seats":
                given = raw.get(f.name)
                given = list(given) if isinstance(given, (list, tuple)) else []
                base[f.name] = [checks.seat(v, n)
                                for v in given + [None] * (len(f.labels) - len(given))]
                places = [i for i, v in enumerate(base[f.name]) if v is None]
                if places:
                    blanks.append((f.name, places))
        # Every way of filling the blank choices, first giving them all to a player still
        # being entered (one stands for all); for penalty tricks only how many each takes
        # matters.
        order = unknown[:1] + known
        common: dict[tuple[Any, ...], Problem] | None = None
        first: list[Problem] = []
        for picked in product(*(order if places is None else
                                combinations_with_replacement(order, len(places))
                                for _, places in blanks)):
            result = {k: list(v) if isinstance(v, list) else v for k, v in base.items()}
            for (name, places), seats in zip(blanks, picked):
                if places is None:
                    result[name] = seats
                else:
                    for i, seat in zip(places, seats):
                        result[name][i] = seat
            check = Checker(self.table, dealer, frozenset(unknown))
            self._cross_check(result, check)
            found = {(p.field, p.message, tuple(sorted(p.params.items()))): p
                     for p in check.problems if p.field not in unjudged}
            if not found:
                return []  # a way to fill the blanks passes: nothing is wrong yet
            first = first or list(found.values())
            common = found if common is None else {k: p for k, p in common.items() if k in found}
        # Every way fails: what fails in each, else what the rows entered break by
        # themselves, when some player is still being entered.
        return list((common or {}).values()) or (first if unknown else [])

    def _cross_check(self, result: Result, check: Checker) -> None:
        for part in self.parts:
            part._cross_check(result, check)
        n = self.table.players
        tricks = result.get("tricks")
        held = {p.set_name: p.held(result) for p in self._cards}
        single = {p.set_name for p in self._cards if p.single}  # one card: a seat field
        penalty_tricks = [sum(col) for col in zip(*(p.taken(result) for p in self._positions))]
        rests = [self._rests(seat, held) for seat in range(n)]
        for seat in range(n):
            # a one-card penalty also counts under every set it belongs to
            for one in self._cards:
                if one.single and result.get(one.set_name) == seat:
                    for p in self._cards:
                        if not p.single and one.card_sets[0] in p.card_sets \
                                and held[p.set_name][seat] < 1:
                            check.add(f"{p.set_name}.{seat}", TAKER_MESSAGES[one.set_name])
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
            if penalty_tricks and penalty_tricks[seat] > t:
                check.add(f"tricks.{seat}", N_(
                    "%(count)s penalty tricks need at least %(count)s tricks."),
                    count=penalty_tricks[seat])
            # the fewest distinct cards that explain the counts: a card counting under
            # several headings stands for all of them where it can (counts no cards make
            # up give 0: the taker's check says what is wrong)
            cards = result.get("cards")
            needed = sum(owner == seat for owner in cards.values()) if cards else \
                min((rest + sum(taken) for taken, rest in rests[seat]), default=0)
            if needed > t * self.table.players:  # a trick holds a card of each player
                check.add(f"tricks.{seat}", N_(
                    "%(cards)s different penalty cards do not fit in %(tricks)s tricks."),
                    cards=needed, tricks=t)
        if not check.problems and not result.get("cards"):
            self._check_shared_cards(result, check, rests)

    def _rests(self, seat: int, held: dict[str, list[int]]) -> Ways:
        """Each way of taking the double cards that ``seat``'s counts can be made of, with
        how many cards counting once they need besides."""
        found = []
        for taken in self._ways:
            lefts = [held[name][seat] - sum(taken[g] for g in groups)
                     for name, groups, _ in self._headings]
            if all(0 <= left <= alone for left, (_, _, alone) in zip(lefts, self._headings)):
                found.append((taken, sum(lefts)))
        return found

    def _check_shared_cards(self, result: Result, check: Checker, rests: list[Ways]) -> None:
        """The players' counts must share the double cards out, each to one player at most
        (every way of sharing them is tried)."""
        if not self._doubles:
            return
        players = range(self.table.players)
        sizes = [len(cards) for _, cards in self._doubles]
        # what each seat could take of each group, its own counts alone considered
        tricks = result.get("tricks")
        own = {s: self._ways if s in check.free else
               [a for a, rest in rests[s]
                if tricks is None or rest + sum(a) <= tricks[s] * self.table.players]
               for s in players}

        def share(i: int, left: list[int]) -> bool:  # seats i, i+1, … take what is left
            if i == len(players):
                return not any(left)
            return any(share(i + 1, [x - y for x, y in zip(left, a)]) for a in own[i]
                       if all(y <= x for x, y in zip(left, a)))

        if share(0, sizes):
            return
        # A card claimed twice: the seats whose counts need it carry the message.
        for g, (names, cards) in enumerate(self._doubles):
            need = {s: min((a[g] for a in own[s]), default=0) for s in players}
            if sum(need.values()) > sizes[g]:
                # the first heading (in the robber's order) entered as counts per player
                name = next(p.set_name for p in self._cards if p.set_name in names and not p.single)
                for s in players:
                    if need[s]:
                        check.add(f"{name}.{s}", N_(
                            "Only one player took the %(card)s, yet these counts need it "
                            "for this player and another one too (it counts under more "
                            "than one heading)."), card=", ".join(c.rank + c.symbol for c in cards))
                return
        check.add("tricks", N_("These counts need a card that counts under two headings "
                               "in more than one player's tricks."))

    def costs(self) -> list[Text]:
        return [line for part in self.parts for line in part.costs()]

    def score(self, result: Result, dealer: int | None = None) -> list[int]:
        return [sum(col) for col in zip(*(part.score(result, dealer) for part in self.parts))]
