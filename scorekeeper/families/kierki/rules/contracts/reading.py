"""What a contract reads a result with: the table, one input's description, a contract's
ruleset entry and the checker that collects a result's problems."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scorekeeper.rules import checks
from scorekeeper.rules.errors import Problem, RulesetError

from ..cards import Card

Result = dict[str, Any]


@dataclass(frozen=True)
class Table:
    """What the rules need to know about the table: players and the deck."""

    players: int
    tricks: int
    deck: tuple[Card, ...]


@dataclass(frozen=True)
class Field:
    """One input of a contract, for forms and the API.

    ``type`` is ``"counts"`` (a number per player adding up to ``total``), ``"seat"``,
    ``"seats"`` (a player per label; ``distinct`` when each appears once), ``"suit"``,
    ``"bids"`` (points or nothing per player) or ``"yesno"``.
    """

    name: str
    type: str
    total: int = 0
    labels: tuple[str, ...] = ()
    distinct: bool = False


@dataclass(frozen=True)
class Data:
    """One contract's ruleset entry, for the checks only the table can make."""

    key: str
    data: Mapping[str, Any]

    def fail(self, what: str) -> RulesetError:
        return RulesetError(f"contract {self.key!r}: {what}")


class Checker:
    """Collects problems while reading a raw result; ``free``, the seats of a half-entered
    robber that may take any card."""

    def __init__(self, table: Table, dealer: int | None = None, free: frozenset[int] = frozenset()):
        self.table = table
        self.dealer = dealer
        self.problems: list[Problem] = []
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
