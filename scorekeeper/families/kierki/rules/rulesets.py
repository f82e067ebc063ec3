"""Rulesets: plain data (JSON files beside this module) made into contracts.

>>> rs = get_ruleset("standard-4")
>>> len(rs.schedule), rs.expected_sum, sum(c.expected_sum for c in rs.deals())
(12, 0, 0)
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from scorekeeper.rules.errors import UnknownRuleset
from scorekeeper.rules.named import Named

from .cards import deck
from .contracts import Contract, Table, make_contract


@dataclass(frozen=True)
class Ruleset(Named):
    """A named set of rules; ``data`` is the JSON it came from, kept whole."""

    data: dict[str, Any] = field(repr=False)

    @property
    def game(self) -> str:
        return self.data.get("game", "kierki")

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

    @property
    def table(self) -> Table:
        cards = deck(self.data.get("removed", ()))
        return Table(players=self.players, tricks=len(cards) // self.players, deck=cards)

    def contract(self, key: str) -> Contract:
        return _contract(self, key)

    def deals(self) -> list[Contract]:
        """The contract of every deal, in order."""
        return [self.contract(k) for k in self.schedule]

    def __hash__(self) -> int:
        return hash(json.dumps(self.data, sort_keys=True))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ruleset) and self.data == other.data


@cache
def _contract(ruleset: Ruleset, key: str) -> Contract:
    data = ruleset.data["contracts"][key]
    return make_contract(key, data, ruleset.table, ruleset.contract)


def from_data(data: dict[str, Any]) -> Ruleset:
    """A ruleset from data (a stored snapshot, an import), checked for shape."""
    rs = Ruleset(copy.deepcopy(data))
    if rs.players not in (3, 4) or rs.table.tricks * rs.players != len(rs.table.deck):
        raise ValueError("a Kierki ruleset needs 3 or 4 players and a deck that divides evenly")
    for key in rs.schedule:
        rs.contract(key)  # KeyError or ValueError on bad data
    return rs


@cache
def registry() -> dict[str, Ruleset]:
    """Every built-in ruleset by id, in a stable order."""
    found = {}
    folder = resources.files(__package__) / "rulesets"
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            rs = from_data(json.loads(entry.read_text(encoding="utf-8")))
            found[rs.id] = rs
    order = ["standard-4", "standard-3"]
    return {k: found[k] for k in order + sorted(set(found) - set(order))}


def get_ruleset(ruleset_id: str) -> Ruleset:
    try:
        return registry()[ruleset_id]
    except KeyError:
        raise UnknownRuleset(ruleset_id) from None
