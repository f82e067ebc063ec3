"""House variants: rulesets made at this server, listed beside the built-in ones. A
variant is a whole ruleset document of its family, checked for its shape, whether it can
be played and whether its totals add up; it is deleted only while no game plays it.
"""
from __future__ import annotations

import contextlib
import re
import secrets
import unicodedata
from typing import Any

from sqlite_utils import Database

from ..families import registry
from ..families.base import Family
from ..rules.errors import N_, InvalidInput, Problem, RulesetError, UnknownRuleset
from ..storage import connection, house_reads, house_writes


def schema() -> dict[str, Any]:
    """The JSON Schema of a variant document (of the first family that offers variants)."""
    return _offering().documents.json_schema()


def _offering() -> Family:
    """The family a document without ``family`` is for: the first that offers variants."""
    return next(f for f in registry.families().values() if f.documents is not None)


def find(db: Database, ruleset_id: Any) -> tuple[Family, Any]:
    """(family, rules) of a built-in ruleset or a stored variant; ``UnknownRuleset``."""
    try:
        return registry.find(ruleset_id)
    except UnknownRuleset:
        if not isinstance(ruleset_id, str):
            raise
    try:
        row = house_reads.ruleset(db, ruleset_id)
    except house_reads.RulesetNotFound:
        raise UnknownRuleset(ruleset_id) from None
    family = registry.get(row["family"])
    if family is None:
        raise UnknownRuleset(ruleset_id)
    return family, registry.loaded(family, row["data"])[0]


def listing(db: Database, club: str = connection.HOME_CLUB
            ) -> list[tuple[Family, Any, dict[str, Any] | None]]:
    """Every ruleset ``club`` offers: (family, rules, None) for the built-in ones, then
    (family, rules, its row) for each house variant of the home club and of ``club``,
    oldest first."""
    found: list[tuple[Family, Any, dict[str, Any] | None]] = [
        (family, rules, None) for family in registry.families().values()
        for rules in family.rulesets().values()]
    for row in house_reads.rulesets(db, club):
        family = registry.get(row["family"])
        if family is None:
            continue
        try:
            found.append((family, registry.loaded(family, row["data"])[0], row))
        except RulesetError:
            continue  # stored by a newer version of the app: not offered here
    return found


def _new_id(data: dict[str, Any]) -> str:
    names = data.get("name") or {}
    text = names.get("en") or names.get("pl") or "variant"
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:24].strip("-") or "variant"
    return f"house-{slug}-{secrets.token_hex(3)}"


def create(db: Database, document: Any, max_variants: int | None = None,
           club: str = connection.HOME_CLUB) -> str:
    """Check a variant document and store it as ``club``'s; its new id."""
    if max_variants is not None and house_reads.count_rulesets(db) >= max_variants:
        raise InvalidInput([Problem("", N_(
            "This server already keeps %(max)s house variants, as many as it may. Delete "
            "one nobody plays (or ask the host to) before making another."),
            {"max": max_variants})])
    if not isinstance(document, dict):
        raise InvalidInput([Problem("", N_("Send the ruleset as a JSON object."))])
    family = registry.get(document["family"]) if "family" in document else _offering()
    if family is None or family.documents is None:
        raise InvalidInput([Problem("family", N_(
            "House variants of this game are not offered yet."))])
    data = _checked(family, document, _new_id)
    house_writes.create_ruleset(db, data["id"], family.key, data, data.get("made_by"), club)
    return data["id"]


def _checked(family: Family, document: Any, new_id: Any) -> dict[str, Any]:
    """A variant document as it is kept, once it passed every check; ``new_id(data)``
    gives its id."""
    documents = family.documents
    data, problems = documents.read(document)
    if problems or data is None:
        raise InvalidInput(problems)
    declared = data.get("expected_sum")
    data = {**data, "id": new_id(data), "expected_sum": declared or 0}
    try:
        rules = family.load_rules(data)
    except RulesetError as e:
        raise InvalidInput([Problem("", N_("These rules cannot be played: %(why)s"),
                                    {"why": str(e)})]) from None
    problems = documents.balance(rules, declared, bool(data.get("unbalanced")))
    if problems:
        raise InvalidInput(problems)
    data["expected_sum"] = documents.game_sum(rules)  # equal to any declared sum
    return data


def from_file(db: Database, family: Family, rules: Any,
              max_variants: int | None = None) -> str | None:
    """What an imported game's house-variant rules are here: ``"stored"`` when this
    server keeps the same variant under the same id, ``"new"`` when it keeps none under
    that id and could store it with the game, else None (kept as the game's own)."""
    rid = getattr(rules, "id", None)
    if family.documents is None or not isinstance(rid, str) or not rid.startswith("house-"):
        return None
    try:
        row = house_reads.ruleset(db, rid)
    except house_reads.RulesetNotFound:
        try:
            _checked(family, rules.data, lambda data: rid)
        except InvalidInput:
            return None
        if max_variants is not None and house_reads.count_rulesets(db) >= max_variants:
            return None
        return "new"
    return "stored" if row["family"] == family.key and row["data"] == rules.data else None


def delete(db: Database, ruleset_id: str) -> None:
    """Delete a variant (``RulesetInUse`` while a game is played with it)."""
    with contextlib.suppress(UnknownRuleset):
        registry.find(ruleset_id)
        raise InvalidInput([Problem("", N_("A built-in ruleset cannot be deleted."))])
    try:
        house_writes.delete_ruleset(db, ruleset_id)
    except house_reads.RulesetNotFound:
        raise UnknownRuleset(ruleset_id) from None
