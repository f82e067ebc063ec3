"""The index of ``games.updated_at`` goes: no read has used it since the
list of games orders by when a game was played (its last deal, migration 0007), and
every deal, correction and rename moved an entry of it.
"""
from __future__ import annotations

from sqlite_utils import Database


def migrate(db: Database) -> None:
    db.execute("drop index if exists idx_games_updated_at")
