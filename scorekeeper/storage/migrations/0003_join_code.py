"""A short code per game, to join it from another phone (existing games get one)."""
from __future__ import annotations

from sqlite_utils import Database

from ..connection import new_join_code


def migrate(db: Database) -> None:
    db.table("games").add_column("join_code", str)
    for row in list(db.query("select id from games")):
        while db.conn.execute("select 1 from games where join_code = ?",
                              [code := new_join_code()]).fetchone():
            pass
        db.execute("update games set join_code = ? where id = ?", [code, row["id"]])
    db.table("games").create_index(["join_code"], unique=True)
