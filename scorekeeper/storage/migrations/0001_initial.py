"""Games, their seats, deals and the history of replaced deals."""
from __future__ import annotations

from sqlite_utils import Database


def migrate(db: Database) -> None:
    db.table("games").create({
        "id": str, "game": str, "ruleset_id": str, "ruleset": str, "settings": str,
        "version": int, "finished": int, "created_at": str, "updated_at": str,
    }, pk="id", not_null={"game", "ruleset", "version"}, defaults={"version": 1, "finished": 0})
    db.table("players").create(
        {"game_id": str, "seat": int, "name": str}, pk=("game_id", "seat"),
        foreign_keys=[("game_id", "games", "id")], not_null={"name"})
    db.table("deals").create(
        {"game_id": str, "number": int, "result": str, "recorded_at": str},
        pk=("game_id", "number"), foreign_keys=[("game_id", "games", "id")])
    db.table("deal_history").create(
        {"id": int, "game_id": str, "number": int, "result": str, "action": str,
         "replaced_at": str}, pk="id", foreign_keys=[("game_id", "games", "id")])
    db.table("deal_history").create_index(["game_id", "number"])
    db.table("games").create_index(["updated_at"])
