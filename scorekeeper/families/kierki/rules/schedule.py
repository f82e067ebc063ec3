"""The deal schedule: who deals, who leads, and which contract each deal plays."""
from __future__ import annotations

from dataclasses import dataclass

from .contracts import Contract
from .rulesets import Ruleset


@dataclass(frozen=True)
class Deal:
    """One deal of the schedule.

    ``number`` counts from 1. Seats count from 0 in clockwise order, so the
    player to the left of seat ``s`` is ``(s + 1) % players``.
    """

    number: int
    contract: Contract
    dealer: int
    leader: int
    #: who names trumps (trump deals only), else None
    trump_caller: int | None = None

    @property
    def key(self) -> str:
        return self.contract.key


def _left(seat: int, players: int) -> int:
    return (seat + 1) % players


def schedule(ruleset: Ruleset, first_dealer: int) -> list[Deal]:
    """Every deal of a game, the deal passing to the left each time.

    >>> from .rulesets import get_ruleset
    >>> deals = schedule(get_ruleset("standard-4"), first_dealer=2)
    >>> [(d.number, d.key, d.dealer, d.leader) for d in deals[:2]]
    [(1, 'no_tricks', 2, 3), (2, 'no_hearts', 3, 0)]
    >>> deals[7].key, deals[7].dealer, deals[7].leader  # pagat: the dealer leads trumps
    ('trumps', 1, 1)
    """
    n = ruleset.players
    if not 0 <= first_dealer < n:
        raise ValueError(f"first dealer must be a seat from 0 to {n - 1}")
    deals = []
    for i, contract in enumerate(ruleset.deals()):
        dealer = (first_dealer + i) % n
        leader = _left(dealer, n)
        caller = None
        if contract.kind == "trumps":
            if contract.data.get("leader") == "dealer":
                leader = dealer
            caller = dealer if contract.data.get("named_by") == "dealer" else leader
        elif contract.kind == "loteryjka" and contract.data.get("begins") == "dealer":
            leader = dealer
        deals.append(Deal(i + 1, contract, dealer, leader, caller))
    return deals
