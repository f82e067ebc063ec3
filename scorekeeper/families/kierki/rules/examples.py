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
    """A result for every deal in order (seat 0 has a bad evening)."""
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
        if contract.kind == "trumps":
            raw["tricks"] = [tricks - 2 * (n - 1)] + [2] * (n - 1)
        out.append(raw)
    return out
