"""The one list of game families; shared code looks a family up here by key or ruleset."""
from __future__ import annotations

import json
from functools import cache
from typing import Any

from ..common.lru import LRU
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


#: Loaded rules by their stored snapshot, with the parts made of them: an evening's games
#: share a few rulesets, and loading one checks it and builds its contracts.
_loaded = LRU(64)


def loaded(family: Family, snapshot: Any, text: str = "") -> tuple[Any, dict[Any, Any]]:
    """``family.load_rules(snapshot)`` and its parts, once per distinct snapshot; ``text``
    is the snapshot as stored, when at hand (it serves as the key)."""
    key = (family.key, text or json.dumps(snapshot, sort_keys=True, ensure_ascii=False))
    found = _loaded.get(key)
    if found is None:
        found = (family.load_rules(snapshot), {})
        _loaded.put(key, found)
    return found
