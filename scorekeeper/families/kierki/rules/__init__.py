"""Kierki rules, pure Python: cards, contracts, rulesets as data, schedule, scoring.

Results go in as plain dicts; problems come out as :class:`InvalidDeal` carrying
field-level :class:`Problem` values.
"""
from scorekeeper.rules.errors import InvalidDeal, InvalidPlay, Problem, RulesetError

from .cards import Card, deck
from .contracts import Contract, Field, Table
from .game import advance, replay, start, summary
from .loteryjka import is_legal, legal_cards, new_board, pass_turn, play, play_moves, undo
from .loteryjka import result as loteryjka_result
from .rulesets import Ruleset, from_data, get_ruleset, registry
from .schedule import Deal, schedule
from .trick import check_follow, check_lead, check_trick, parse_card

__all__ = [
    "Card", "Contract", "Deal", "Field", "InvalidDeal", "InvalidPlay", "Problem", "Ruleset",
    "RulesetError", "Table", "advance", "check_follow", "check_lead", "check_trick", "deck",
    "from_data", "get_ruleset", "is_legal", "legal_cards", "loteryjka_result", "new_board",
    "parse_card", "pass_turn", "play", "play_moves", "registry", "replay", "schedule",
    "start", "summary", "undo",
]
