"""The seed-003 partnership game to 21 ("Tybet", of the Tressette family), pure Python.

>>> rules = get_rules("tybet-21")
>>> r = rules.validate({"declarations": [[{"kind": "cezar", "suit": "H", "extra": 1}], [], [], []],
...                     "aces": [3, 1], "honours": [11, 9], "last": 0})
>>> rules.score(r)  # 4 (cezar) + 3 aces + 3 (11 honours) + last trick; 1 ace + 3
[11, 4]
"""
from .deal import (
    ACES,
    CARD_POINTS,
    CEZAR_POINTS,
    FOUR_POINTS,
    HONOUR_CARDS,
    HONOURS,
    RANKS,
    SUITS,
    SWEEPS,
    TRIO_POINTS,
    TybetRules,
    card_points,
)
from .document import TybetRuleset, from_data, get_rules, registry
from .game import TybetDeal, TybetScore, TybetState, advance, deal_at, replay

__all__ = ["ACES", "CARD_POINTS", "CEZAR_POINTS", "FOUR_POINTS", "HONOURS", "HONOUR_CARDS",
           "RANKS", "SUITS", "SWEEPS", "TRIO_POINTS", "TybetDeal", "TybetRules", "TybetRuleset",
           "TybetScore", "TybetState", "advance", "card_points", "deal_at", "from_data",
           "get_rules", "registry", "replay"]
