"""Each game's running totals after its last deal (a JSON list of whole numbers), written
by every deal's write; NULL for a game no deal write has touched since."""
from __future__ import annotations

from sqlite_utils import Database


def migrate(db: Database) -> None:
    db.execute("alter table games add column totals text")
