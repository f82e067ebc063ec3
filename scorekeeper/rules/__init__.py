"""Kierki rules, pure Python: cards, contracts, rulesets as data, schedule, scoring.

Nothing here knows Flask or SQL. Results go in as plain dicts; problems come
out as :class:`InvalidDeal` carrying field-level :class:`Problem` values.
"""
from .cards import Card, deck
from .contracts import Contract, Field, Table, fill_last
from .errors import InvalidDeal, Problem, RulesError, UnknownRuleset
from .game import DealScore, GameState, Standing, replay, summary, validate_deal
from .rulesets import Ruleset, from_data, get_ruleset, registry
from .schedule import Deal, schedule

__all__ = [
    "Card",
    "Contract",
    "Deal",
    "DealScore",
    "Field",
    "GameState",
    "InvalidDeal",
    "Problem",
    "RulesError",
    "Ruleset",
    "Standing",
    "Table",
    "UnknownRuleset",
    "deck",
    "fill_last",
    "from_data",
    "get_ruleset",
    "registry",
    "replay",
    "schedule",
    "summary",
    "validate_deal",
]
