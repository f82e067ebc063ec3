"""Rulesets: plain data (JSON files beside this module) made into contracts.

>>> rs = get_ruleset("standard-4")
>>> len(rs.schedule), rs.expected_sum, sum(c.expected_sum for c in rs.deals())
(12, 0, 0)
"""
from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

from scorekeeper.rules import shapes
from scorekeeper.rules.errors import RulesetError
from scorekeeper.rules.named import Named, bundled, by_id

from .cards import deck
from .contracts import Contract, Table, make_contract
from .document import KierkiRuleset

#: How many may play Kierki: three (without a 2), four, or five (without two 2s).
PLAYERS = (3, 4, 5)


class Ruleset(Named):
    """A named set of rules; ``data`` is the JSON it came from, kept whole and never
    changed. Its table and every contract are made with it."""

    def __init__(self, data: dict[str, Any]):
        self.data = data
        cards = deck(data.get("removed", ()))
        self.table = Table(players=data["players"], tricks=len(cards) // data["players"],
                           deck=cards)
        self.contracts: dict[str, Contract] = {}
        for key in dict.fromkeys([*data["schedule"], *data["contracts"]]):
            self._make(key)

    def _make(self, key: str) -> Contract:
        """The contract named ``key`` (a robber's parts are made first)."""
        if key not in self.contracts:
            self.contracts[key] = make_contract(key, self.data["contracts"][key], self.table,
                                                self._make)
        return self.contracts[key]

    def __repr__(self) -> str:
        return f"Ruleset({self.id!r})"

    @property
    def players(self) -> int:
        return self.data["players"]

    @property
    def schedule(self) -> list[str]:
        """Contract keys in deal order."""
        return list(self.data["schedule"])

    @property
    def expected_sum(self) -> int:
        """What the players' final scores add up to (zero for the standard game)."""
        return self.data["expected_sum"]

    def contract(self, key: str) -> Contract:
        """The contract named ``key`` (``KeyError`` if there is none)."""
        return self.contracts[key]

    def deals(self) -> list[Contract]:
        """The contract of every deal, in order."""
        return [self.contracts[k] for k in self.data["schedule"]]

    def __hash__(self) -> int:
        return hash(json.dumps(self.data, sort_keys=True))

    def __eq__(self, other: object) -> bool:
        return other is self or (isinstance(other, Ruleset) and self.data == other.data)


def _check(data: Any) -> None:
    """What the shape cannot say: the schedule names contracts, no robber is a robber's
    part, the cards divide among the players (each contract is :func:`make_contract`'s)."""
    what = f"ruleset {data.get('id')!r}" if isinstance(data, dict) else "ruleset"
    shapes.read(KierkiRuleset, data, what)
    rid, contracts = data["id"], data["contracts"]
    for key in data["schedule"]:
        if key not in contracts:
            raise RulesetError(f"ruleset {rid!r}: schedule: unknown contract {key!r}")
    for key, entry in contracts.items():  # a robber's parts are no robbers
        for part in entry.get("parts", ()) if entry["kind"] == "robber" else ():
            if contracts.get(part, {}).get("kind") == "robber":
                raise RulesetError(f"contract {key!r}: part {part!r} is a robber")
    try:
        cards = deck(data.get("removed", []))
    except ValueError:
        raise RulesetError(f"ruleset {rid!r}: 'removed' holds something that is not "
                           f"a card: {data.get('removed')!r}") from None
    if len(cards) % data["players"]:
        raise RulesetError(f"ruleset {rid!r}: {len(cards)} cards do not divide "
                           f"among {data['players']} players")


def from_data(data: dict[str, Any]) -> Ruleset:
    """A ruleset from data (a built-in file, a stored snapshot, an import), checked:
    what it cannot play raises :class:`RulesetError` naming what is wrong and where."""
    _check(data)
    return Ruleset(copy.deepcopy(data))


@cache
def registry() -> dict[str, Ruleset]:
    """Every built-in ruleset by id, in a stable order."""
    found = bundled(__package__, from_data)
    order = ["standard-4", "standard-3"]
    return {k: found[k] for k in order + sorted(set(found) - set(order))}


def get_ruleset(ruleset_id: str) -> Ruleset:
    return by_id(registry(), ruleset_id)
