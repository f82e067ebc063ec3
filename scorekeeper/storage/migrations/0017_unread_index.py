"""The index of ``games.updated_at`` goes: no read uses it."""
from __future__ import annotations

from sqlite_utils import Database


def migrate(db: Database) -> None:
    db.execute("drop index if exists idx_games_updated_at")
