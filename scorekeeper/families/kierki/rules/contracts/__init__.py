"""Contract kinds, made from a ruleset's plain data and a :class:`Table`.

>>> table = Table(players=4, tricks=13, deck=deck())
>>> c = make_contract("no_tricks", {"kind": "tricks", "points": -20}, table)
>>> c.score(c.validate({"tricks": [3, 0, 6, None]}))
[-60, 0, -120, -80]
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..cards import deck
from .base import LEAD_RULES, Contract
from .penalties import CardCount, PenaltyTricks, TrickCount
from .positive import MAX_BID, Loteryjka, Trumps
from .reading import Data, Field, Result, Table
from .robber import Robber

KINDS: dict[str, type[Contract]] = {
    cls.kind: cls for cls in (TrickCount, CardCount, PenaltyTricks, Robber, Trumps, Loteryjka)
}


def make_contract(key: str, data: Mapping[str, Any], table: Table,
                  lookup: Callable[[str], Contract] | None = None) -> Contract:
    """Build a contract from ruleset data of its document's shape; a robber finds its
    parts by key. What this table cannot play raises :class:`RulesetError`."""
    d = Data(key, data)
    kind = data["kind"]
    KINDS[kind].check_data(d, table)
    if kind != "robber":
        return KINDS[kind](key, data, table)
    if lookup is None:
        raise d.fail("a robber needs the other contracts")
    parts = []
    for k in data["parts"]:
        try:
            part = lookup(k)
        except KeyError:
            raise d.fail(f"unknown part {k!r}") from None
        if part.kind in ("robber", "trumps", "loteryjka"):
            raise d.fail(f"part {k!r} is a {part.kind} deal, not a penalty")
        parts.append(part)
    if data.get("all_tricks") and not any(p.kind == "tricks" for p in parts):
        raise d.fail("'all_tricks' needs a part that counts tricks")
    return Robber(key, data, table, parts)


__all__ = ["KINDS", "LEAD_RULES", "MAX_BID", "CardCount", "Contract", "Field", "Loteryjka",
           "PenaltyTricks", "Result", "Robber", "Table", "TrickCount", "Trumps", "deck",
           "make_contract"]
