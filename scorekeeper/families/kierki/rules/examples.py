"""Example results: a plausible, valid result for every deal of a ruleset.

For demonstrations, benchmarks and tests that need a whole game quickly.

>>> from .rulesets import get_ruleset
>>> from .game import replay
>>> rs = get_ruleset("standard-4")
>>> state = replay(rs, 0, plausible_results(rs))
>>> state.finished, state.total_sum
(True, 0)
"""
from __future__ import annotations

from typing import Any

from .rulesets import Ruleset


def plausible_results(rs: Ruleset) -> list[dict[str, Any]]:
    """A result for every deal in order (seat 0 has a bad evening; nobody bids in a
    trump auction, so the results fit any first dealer)."""
    n, tricks = rs.players, rs.table.tricks
    out = []
    for contract in rs.deals():
        raw: dict[str, Any] = {}
        for field in contract.fields():
            if field.type == "counts":
                raw[field.name] = [field.total] + [0] * (n - 1)
            elif field.type == "seat":
                raw[field.name] = 0
            elif field.type == "seats":
                raw[field.name] = list(range(len(field.labels))) if field.distinct \
                    else [0] * len(field.labels)
            elif field.type == "suit":
                raw[field.name] = "S"
            elif field.type == "bids":  # nobody bids: right whoever deals
                raw[field.name] = [None] * n
            elif field.type == "yesno":
                raw[field.name] = False
        if contract.kind == "trumps":
            raw["tricks"] = [tricks - 2 * (n - 1)] + [2] * (n - 1)
        out.append(raw)
    return out


#: A whole standard-4 game as a table might play it (first dealer seat 0): the deals a
#: browser test and ``bench/taps.py`` enter tap by tap.
SAMPLE_GAME_4: list[dict[str, Any]] = [
    {"tricks": [4, 3, 2, 4]},
    {"hearts": [5, 3, 4, 1]},
    {"queens": [1, 2, 0, 1]},
    {"gentlemen": [3, 2, 2, 1]},
    {"king_of_hearts": 2},
    {"positions": [1, 3]},
    {"tricks": [4, 3, 5, 1], "hearts": [3, 2, 6, 2], "queens": [1, 1, 2, 0],
     "gentlemen": [2, 1, 4, 1], "king_of_hearts": 2, "positions": [2, 0]},
    {"trump": "S", "tricks": [5, 3, 3, 2]},
    {"trump": "H", "tricks": [2, 6, 3, 2]},
    {"trump": "D", "tricks": [4, 4, 1, 4]},
    {"trump": "C", "tricks": [3, 3, 3, 4]},
    {"order": [2, 0]},
]
