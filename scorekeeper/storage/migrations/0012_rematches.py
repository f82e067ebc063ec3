"""``games.rematch_of``: unique, so a game has one rematch at most."""
from __future__ import annotations

from sqlite_utils import Database


def migrate(db: Database) -> None:
    db.table("games").add_column("rematch_of", str)
    db.table("games").create_index(["rematch_of"], unique=True)
