"""The column that says which game a row is: ``family``."""
from __future__ import annotations

from sqlite_utils import Database


def migrate(db: Database) -> None:
    db.table("games").transform(rename={"game": "family"})
