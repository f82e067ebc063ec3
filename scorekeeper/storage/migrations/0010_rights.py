"""What was changed by which right (``changes``), a finished game's signatures, and
every rename of a person (so the host can take one back)."""
from __future__ import annotations

from sqlite_utils import Database


def migrate(db: Database) -> None:
    db.table("changes").create({
        "id": int, "at": str, "tournament_id": str, "game_id": str, "action": str,
        "number": int, "by": str, "finished": int,
    }, pk="id", not_null={"at", "action", "by"})
    db.table("changes").create_index(["tournament_id", "id"])
    db.table("changes").create_index(["game_id", "id"])
    db.table("signatures").create({"game_id": str, "seat": int, "by": str, "signed_at": str},
                                  pk=("game_id", "seat"),
                                  foreign_keys=[("game_id", "games", "id")],
                                  not_null={"by", "signed_at"})
    db.table("renames").create({
        "id": int, "person_id": int, "old_name": str, "new_name": str, "at": str, "by": str,
        "undone_at": str,
    }, pk="id", foreign_keys=[("person_id", "people", "id")],
        not_null={"person_id", "old_name", "new_name", "at", "by"})
