"""A Tybet ruleset as the app keeps it: its shape, its checks and the built-in files."""
from __future__ import annotations

import copy
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field

from scorekeeper.rules import shapes
from scorekeeper.rules.errors import RulesetError
from scorekeeper.rules.named import bundled, by_id, family_of
from scorekeeper.rules.shapes import Key, Name, Notes, Short, Strict, Summary, absent

from .deal import SPECIALS, TybetRules

#: Who wins each special: the partners together, or one player alone.
SPECIAL_BY = {"tybet": "pair", "kalanda": "pair", "sariat": "player", "perla": "player",
              "kondriona": "player"}

Bonus = Annotated[int, Field(ge=0, le=1000)]
Times = Annotated[int, Field(ge=1, le=100)]
Target = Annotated[int, Field(ge=1, le=1000)]


class Special(Strict):
    """What a special win is worth: points added (``bonus``) or the pair's points of the
    deal multiplied (``multiply``), one of the two; ``by`` says who wins it."""

    by: Literal["pair", "player"]
    bonus: Bonus = absent()
    multiply: Times = absent()


class TybetRuleset(Strict):
    """A reading of the partnership game (seed 003) as the app keeps it."""

    model_config = ConfigDict(title="Tybet ruleset")

    id: Key
    family: Literal["tybet"] = absent()
    game: Literal["tybet"] = absent("The family, in snapshots stored before it was called so")
    source: Short = absent()
    players: Literal[4] = 4
    name: Name
    summary: Summary = absent()
    notes: Notes = absent()
    target: Target
    targets: Annotated[list[Target], Field(min_length=1, max_length=10)] = absent()
    both_reach: Literal["higher", "declared_first"] = "higher"
    specials_stack: bool = False
    specials: dict[Literal[SPECIALS], Special]  # type: ignore[valid-type]
    imported: bool = Field(False, description="Rules that came with an imported game")


def from_data(data: dict[str, Any]) -> TybetRules:
    """Rules from data (a stored snapshot, an import); what it cannot play raises
    :class:`RulesetError` naming the fault."""
    if not isinstance(data, dict):
        raise RulesetError("a Tybet ruleset is an object")
    if family_of(data) != "tybet":
        raise RulesetError(f"not a Tybet ruleset (family {family_of(data)!r})")
    shapes.read(TybetRuleset, data, f"Tybet ruleset {data.get('id')!r}")
    where = f"ruleset {data['id']!r}"
    if data["target"] not in data.get("targets", [data["target"]]):
        raise RulesetError(f"{where}: 'targets' must list the target, not {data['targets']!r}")
    specials = data["specials"]
    for kind, spec in specials.items():
        if spec["by"] != SPECIAL_BY[kind]:
            raise RulesetError(f"{where}: special {kind!r}: 'by' must be "
                               f"{SPECIAL_BY[kind]!r}, not {spec['by']!r}")
        if ("bonus" in spec) == ("multiply" in spec):
            raise RulesetError(f"{where}: special {kind!r}: give either 'bonus' or 'multiply'")
    if data.get("specials_stack") and any("multiply" in spec for spec in specials.values()):
        raise RulesetError(f"{where}: multiplied specials do not stack: set 'specials_stack' "
                           "to false")
    return TybetRules(copy.deepcopy(data))


@cache
def registry() -> dict[str, TybetRules]:
    return bundled("scorekeeper.families.tybet", from_data)


def get_rules(rules_id: str) -> TybetRules:
    return by_id(registry(), rules_id)
