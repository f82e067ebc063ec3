"""A room of strangers: what was changed by which right, and signatures.

* ``changes``: every correction and undo of a game, every set of signatures a
  correction cleared, a tournament closed or reopened; when, by which right
  (``table``, ``director``, ``host``), whether the game was finished then, and the
  game's tournament (so a director's page reads its own by index).
* ``signatures``: a finished game's signatures, a seat each, or the director's
  (seat ``-1``); a correction or undo of the game deletes them.
* ``renames``: every rename of a person (the old name and the new, when, by which
  right), so the host can take one back.
"""
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
