"""The game families the app hosts, behind one small interface.

Players, seats, the game list, storage, undo and corrections are shared; each
family says how its rules are found and built from a stored snapshot, how a
deal is checked and how the recorded deals fold into a state. Kierki has a
fixed schedule; Tybet (seed 003) plays on until a pair reaches its target.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .families.kierki.rules import from_data as kierki_from_data
from .families.kierki.rules import get_ruleset
from .families.kierki.rules import replay as kierki_replay
from .families.kierki.rules import rulesets as kierki_rulesets
from .families.tybet import rules as tybet
from .rules.errors import UnknownRuleset


@dataclass(frozen=True)
class Family:
    key: str
    rulesets: Callable[[], dict[str, Any]]
    from_data: Callable[[dict[str, Any]], Any]
    fold: Callable[[Any, dict[str, Any], list[dict[str, Any]]], Any]
    #: check one raw deal (rules, state, number, raw) -> canonical result
    validate: Callable[[Any, Any, int, dict[str, Any]], dict[str, Any]]


def _kierki_validate(rules, state, number, raw):
    return state.deals[number - 1].contract.validate(raw)


def _tybet_validate(rules, state, number, raw):
    return rules.validate(raw, leader=tybet.deal_at(state.first_dealer, number).leader)


FAMILIES = {
    "kierki": Family("kierki", lambda: kierki_rulesets.registry(), kierki_from_data,
                     lambda rules, settings, results: kierki_replay(
                         rules, settings["first_dealer"], results),
                     _kierki_validate),
    "tybet": Family("tybet", tybet.registry, tybet.from_data,
                    lambda rules, settings, results: tybet.replay(
                        rules, settings["first_dealer"], results, settings.get("target")),
                    _tybet_validate),
}


def all_rulesets() -> dict[str, Any]:
    """Every built-in ruleset of every family by id, Kierki first."""
    return {rid: rules for family in FAMILIES.values() for rid, rules in family.rulesets().items()}


def find(ruleset_id: str):
    """(family, rules) of a built-in ruleset id."""
    for family in FAMILIES.values():
        if ruleset_id in family.rulesets():
            return family, family.rulesets()[ruleset_id]
    raise UnknownRuleset(ruleset_id)


def family(key: str) -> Family:
    return FAMILIES[key]


__all__ = ["FAMILIES", "Family", "all_rulesets", "family", "find", "get_ruleset"]
