"""Club night: tournaments of many tables, drawn round by round; their players (an
entry number each) and tables (a game each, the entry numbers in seat order)."""
from __future__ import annotations

from sqlite_utils import Database


def migrate(db: Database) -> None:
    db.table("tournaments").create({
        "id": str, "name": str, "rounds": int, "rulesets": str, "scoring": str, "seed": str,
        "version": int, "closed": int, "created_at": str, "updated_at": str,
    }, pk="id", not_null={"name", "rounds", "rulesets", "scoring", "seed", "version",
                          "closed", "created_at"},
        defaults={"version": 1, "closed": 0})
    db.table("tournament_players").create({
        "tournament_id": str, "number": int, "person_id": int, "joined": int,
        "left_after": int,
    }, pk=("tournament_id", "number"),
        foreign_keys=[("tournament_id", "tournaments", "id"), ("person_id", "people", "id")],
        not_null={"person_id", "joined"})
    db.table("tournament_players").create_index(["tournament_id", "person_id"], unique=True)
    db.table("tournament_players").create_index(["person_id"])
    db.table("tournament_tables").create({
        "tournament_id": str, "round": int, "number": int, "game_id": str, "seats": str,
    }, pk=("tournament_id", "round", "number"),
        foreign_keys=[("tournament_id", "tournaments", "id"), ("game_id", "games", "id")],
        not_null={"game_id", "seats"})
    db.table("tournament_tables").create_index(["game_id"], unique=True)
