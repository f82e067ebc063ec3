"""House variants: rulesets made at this server, beside the built-in ones."""
from __future__ import annotations

from sqlite_utils import Database


def migrate(db: Database) -> None:
    db.table("rulesets").create({
        "id": str, "family": str, "data": str, "made_by": str, "created_at": str,
    }, pk="id", not_null={"family", "data", "created_at"})
    db.table("games").create_index(["ruleset_id"])
