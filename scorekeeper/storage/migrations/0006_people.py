"""People, each seat of each game linked to one: the same name (in any case, spacing
or invisible characters) is the same person."""
from __future__ import annotations

from sqlite_utils import Database

from ...rules.checks import person_key
from .. import connection


def migrate(db: Database) -> None:
    db.table("people").create({"id": int, "name": str, "key": str, "created_at": str},
                              pk="id", not_null={"name", "key", "created_at"})
    db.table("people").create_index(["key"], unique=True)
    db.table("players").add_column("person_id", int)
    db.table("players").create_index(["person_id"])
    rows = list(db.query("select p.game_id, p.seat, p.name, g.created_at from players p "
                         "join games g on g.id = p.game_id order by g.created_at, p.seat"))
    for row in rows:
        db.execute("update players set person_id = ? where game_id = ? and seat = ?",
                   [_person(db, row["name"], row["created_at"] or connection.now()),
                    row["game_id"], row["seat"]])


def _person(db: Database, name: str, now: str) -> int:
    """The person of a name (one per server then: no clubs, no collation keys yet)."""
    key = person_key(name)
    row = db.conn.execute("select id from people where key = ?", [key]).fetchone()
    if row:
        return int(row[0])
    return int(db.execute("insert into people (name, key, created_at) values (?, ?, ?)",
                          [name, key, now]).lastrowid)
