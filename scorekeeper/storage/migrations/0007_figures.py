"""What the people's pages read instead of replaying every game: ``figures`` (a row per
seat of each finished game) and ``figure_parts`` (what the family counts for that seat);
each game's ``table_key`` and ``evening_id``; each name's collation keys."""
from __future__ import annotations

from sqlite_utils import Database

from ..connection import sort_keys
from ..game_writes import evening_id


def migrate(db: Database) -> None:
    db.table("games").add_column("table_key", str)
    db.table("games").add_column("evening_id", str)
    for row in list(db.query("select id from games")):
        db.execute("update games set table_key = ?, evening_id = ? where id = ?",
                   [_table_key(db, row["id"]), evening_id(row["id"]), row["id"]])
    db.table("games").create_index(["table_key", "created_at"])
    db.table("games").create_index(["evening_id"])
    db.table("games").create_index(["finished"])
    db.table("games").create_index(["created_at"])
    db.table("people").add_column("sort_en", bytes)
    db.table("people").add_column("sort_pl", bytes)
    for row in list(db.query("select id, name from people")):
        db.execute("update people set sort_en = ?, sort_pl = ? where id = ?",
                   [*sort_keys(row["name"]), row["id"]])
    db.table("people").create_index(["sort_en", "name", "id"])
    db.table("people").create_index(["sort_pl", "name", "id"])
    db.table("figures").create({
        "game_id": str, "seat": int, "person_id": int, "family": str, "ruleset_id": str,
        "table_key": str, "played": str, "game_row": int, "side": int, "sides": int,
        "total": int, "place": int, "won": int,
    }, pk=("game_id", "seat"), foreign_keys=[("game_id", "games", "id")],
        not_null={"family", "total", "place", "won", "sides"})
    # covering: a person's sums read the index alone
    covering = ["person_id", "family", "played", "game_row", "total", "place", "won",
                "ruleset_id", "game_id", "seat", "sides"]
    db.table("figures").create_index(covering)
    db.table("figures").create_index(["person_id", "family", "total"])
    db.table("figures").create_index(["table_key", *covering])
    db.table("figure_parts").create({
        "game_id": str, "seat": int, "person_id": int, "family": str, "part": str,
        "key": str, "table_key": str, "played": str, "game_row": int, "position": int, "grp": str,
        "points": int, "deals": int,
    }, pk=("game_id", "seat", "part", "key"), foreign_keys=[("game_id", "games", "id")],
        not_null={"family", "part", "key", "points"})
    covering = ["person_id", "family", "part", "key", "points", "deals", "played", "game_row",
                "position", "grp", "game_id", "seat"]
    db.table("figure_parts").create_index(covering)
    db.table("figure_parts").create_index(["table_key", *covering])


def _table_key(db: Database, gid: str) -> str | None:
    """The people at a game, their ids sorted and joined (``3-5-7-9``); None if a seat
    has nobody."""
    ids = [r[0] for r in db.conn.execute(
        "select person_id from players where game_id = ? order by seat", [gid])]
    return "-".join(str(p) for p in sorted(ids)) if ids and None not in ids else None
