"""Kierki rules, pure Python: cards, contracts, rulesets as data, schedule, scoring.

Nothing here knows Flask or SQL. Results go in as plain dicts; problems come
out as :class:`InvalidDeal` carrying field-level :class:`Problem` values.
"""
from scorekeeper.rules.errors import (
    InvalidDeal,
    InvalidPlay,
    Problem,
    RulesError,
    RulesetError,
    UnknownRuleset,
)

from .cards import Card, deck
from .contracts import Contract, Field, Table
from .game import DealScore, GameState, Standing, advance, replay, start, summary
from .loteryjka import (
    Board,
    Move,
    Options,
    is_legal,
    legal_cards,
    new_board,
    pass_turn,
    play,
    play_moves,
    undo,
)
from .loteryjka import result as loteryjka_result
from .rulesets import Ruleset, from_data, get_ruleset, registry
from .schedule import Deal, schedule
from .trick import (
    Reason,
    Ruling,
    ScoreItem,
    TrickResult,
    check_follow,
    check_lead,
    check_trick,
    parse_card,
    winner,
)

__all__ = [
    "Board",
    "Card",
    "Contract",
    "Deal",
    "DealScore",
    "Field",
    "GameState",
    "InvalidDeal",
    "InvalidPlay",
    "Move",
    "Options",
    "Problem",
    "Reason",
    "RulesError",
    "Ruleset",
    "RulesetError",
    "Ruling",
    "ScoreItem",
    "Standing",
    "Table",
    "TrickResult",
    "UnknownRuleset",
    "advance",
    "check_follow",
    "check_lead",
    "check_trick",
    "deck",
    "from_data",
    "get_ruleset",
    "is_legal",
    "legal_cards",
    "loteryjka_result",
    "new_board",
    "parse_card",
    "pass_turn",
    "play",
    "play_moves",
    "registry",
    "replay",
    "schedule",
    "start",
    "summary",
    "undo",
    "winner",
]
