"""One rematch per table: ``games.rematch_of``, the game a game is the
rematch of. Unique, so a game has one rematch at most whichever phones asked for it
at once (:func:`start_rematch` finds the one there is before it makes one).
"""
from __future__ import annotations

from sqlite_utils import Database


def migrate(db: Database) -> None:
    db.table("games").add_column("rematch_of", str)
    db.table("games").create_index(["rematch_of"], unique=True)
