"""The one list of game families; shared code looks a family up here by key or ruleset."""
from __future__ import annotations

from functools import cache
from typing import Any

from ..rules.errors import UnknownRuleset
from .base import Family


@cache
def families() -> dict[str, Family]:
    """Every family by key, in the order the set-up form lists their rulesets."""
    from .kierki.family import Kierki
    from .tybet.family import Tybet
    return {f.key: f for f in (Kierki(), Tybet())}


def get(key: Any) -> Family | None:
    """The family called ``key``, or None (an unknown key in a file, say)."""
    return families().get(key) if isinstance(key, str) else None


def all_rulesets() -> dict[str, Any]:
    """Every built-in ruleset of every family by id."""
    return {rid: rules for family in families().values()
            for rid, rules in family.rulesets().items()}


def find(ruleset_id: Any) -> tuple[Family, Any]:
    """(family, rules) of a built-in ruleset id; ``UnknownRuleset`` if there is none."""
    for family in families().values():
        rules = family.rulesets().get(ruleset_id) if isinstance(ruleset_id, str) else None
        if rules is not None:
            return family, rules
    raise UnknownRuleset(str(ruleset_id))
