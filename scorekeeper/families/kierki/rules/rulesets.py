"""Rulesets: plain data (JSON files beside this module) made into contracts.

>>> rs = get_ruleset("standard-4")
>>> len(rs.schedule), rs.expected_sum, sum(c.expected_sum for c in rs.deals())
(12, 0, 0)
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib import resources
from typing import Any

from scorekeeper.rules.errors import RulesetError, UnknownRuleset
from scorekeeper.rules.named import Named, family_of

from .cards import deck
from .contracts import Contract, Table, make_contract

#: How many may play Kierki: three (without a 2), four, or five (without two 2s).
PLAYERS = (3, 4, 5)


@dataclass(frozen=True)
class Ruleset(Named):
    """A named set of rules; ``data`` is the JSON it came from, kept whole."""

    data: dict[str, Any] = field(repr=False)

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

    @cached_property
    def table(self) -> Table:
        cards = deck(self.data.get("removed", ()))
        return Table(players=self.players, tricks=len(cards) // self.players, deck=cards)

    def contract(self, key: str) -> Contract:
        """The contract named ``key``, made once per ruleset object (a ruleset never
        changes; a robber's contract asks its ruleset for the others)."""
        made = self.__dict__.get("_contracts")
        if made is None:
            made = {}
            object.__setattr__(self, "_contracts", made)
        found = made.get(key)
        if found is None:
            found = made[key] = make_contract(key, self.data["contracts"][key], self.table,
                                              self.contract)
        return found

    def deals(self) -> list[Contract]:
        """The contract of every deal, in order."""
        return [self.contract(k) for k in self.schedule]

    def __hash__(self) -> int:
        known = self.__dict__.get("_hash")
        if known is None:  # worked out once: the data of a ruleset never changes
            known = hash(json.dumps(self.data, sort_keys=True))
            object.__setattr__(self, "_hash", known)
        return known

    def __eq__(self, other: object) -> bool:
        return other is self or (isinstance(other, Ruleset) and self.data == other.data)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_shape(data: Any) -> None:
    """The ruleset's own fields; each contract is checked by :func:`make_contract`."""
    if not isinstance(data, dict):
        raise RulesetError("a ruleset is an object")
    for name in ("id", "players", "contracts", "schedule", "expected_sum"):
        if name not in data:
            raise RulesetError(f"ruleset: missing field {name!r}")
    if not isinstance(data["id"], str) or not data["id"]:
        raise RulesetError(f"ruleset: 'id' must be a name, not {data['id']!r}")
    if family_of(data) not in (None, "kierki"):
        raise RulesetError(f"ruleset {data['id']!r}: not a Kierki ruleset")
    if not _is_int(data["players"]) or data["players"] not in PLAYERS:
        raise RulesetError(f"ruleset {data['id']!r}: 'players' must be 3, 4 or 5, "
                           f"not {data['players']!r}")
    if not _is_int(data["expected_sum"]):
        raise RulesetError(f"ruleset {data['id']!r}: 'expected_sum' must be a whole number")
    for name in ("name", "notes"):
        value = data.get(name, {})
        if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
            raise RulesetError(f"ruleset {data['id']!r}: {name!r} must map languages to text")
    removed = data.get("removed", [])
    if not isinstance(removed, list) or not all(isinstance(c, str) for c in removed):
        raise RulesetError(f"ruleset {data['id']!r}: 'removed' must be a list of cards")
    try:
        deck(removed)
    except ValueError:
        raise RulesetError(f"ruleset {data['id']!r}: 'removed' holds something that is not "
                           f"a card: {removed!r}") from None
    contracts, schedule = data["contracts"], data["schedule"]
    if not isinstance(contracts, dict):
        raise RulesetError(f"ruleset {data['id']!r}: 'contracts' must map keys to contracts")
    if not isinstance(schedule, list) or not schedule:
        raise RulesetError(f"ruleset {data['id']!r}: 'schedule' must be a list of contract keys")
    for key in schedule:
        if not isinstance(key, str) or key not in contracts:
            raise RulesetError(f"ruleset {data['id']!r}: schedule: unknown contract {key!r}")
    for key, entry in contracts.items():  # a robber's parts: known, and not robbers
        if isinstance(entry, dict) and entry.get("kind") == "robber" \
                and isinstance(entry.get("parts"), list):
            for part in entry["parts"]:
                if not isinstance(part, str) or part not in contracts:
                    raise RulesetError(f"contract {key!r}: unknown part {part!r}")
                if isinstance(contracts[part], dict) and contracts[part].get("kind") == "robber":
                    raise RulesetError(f"contract {key!r}: part {part!r} is a robber")


def from_data(data: dict[str, Any]) -> Ruleset:
    """A ruleset from data (a stored snapshot, an import), checked for shape.

    Anything it cannot play raises :class:`RulesetError` (a ``ValueError``)
    naming what is wrong, never a bare ``KeyError``.
    """
    _check_shape(data)
    rs = Ruleset(copy.deepcopy(data))
    if rs.table.tricks * rs.players != len(rs.table.deck):
        raise RulesetError(f"ruleset {rs.id!r}: {len(rs.table.deck)} cards do not divide "
                           f"among {rs.players} players")
    for key in dict.fromkeys([*rs.schedule, *rs.data["contracts"]]):
        rs.contract(key)  # RulesetError on bad data
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
