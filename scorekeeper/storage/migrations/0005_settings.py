"""This server's choices, by name (the ruleset new games start with)."""
from __future__ import annotations

from sqlite_utils import Database


def migrate(db: Database) -> None:
    db.table("settings").create({"key": str, "value": str}, pk="key", not_null={"value"})
