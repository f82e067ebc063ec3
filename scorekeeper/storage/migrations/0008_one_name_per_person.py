"""Every seat under the name its person goes by."""
from __future__ import annotations

from sqlite_utils import Database


def migrate(db: Database) -> None:
    db.execute("update players set name = (select name from people where people.id = "
               "players.person_id) where person_id is not null and name != (select name "
               "from people where people.id = players.person_id)")
