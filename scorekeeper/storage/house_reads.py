"""The house variants (rulesets) and this server's settings."""
from __future__ import annotations

import json
from typing import Any

from sqlite_utils import Database


class RulesetNotFound(LookupError):
    """No house variant has this id."""


def _rulesets(db: Database, where: str, params: list[Any]) -> list[dict[str, Any]]:
    return [{**r, "data": json.loads(r["data"])} for r in db.query(
        f"select id, family, data, made_by, created_at from rulesets {where}", params)]


def rulesets(db: Database, club: str = "home") -> list[dict[str, Any]]:
    """The house variants a club offers, oldest first: the home club's (every club's
    games may be played by them) and ``club``'s own."""
    return _rulesets(db, "where club_id in ('home', ?) order by created_at, id", [club])


def count_rulesets(db: Database) -> int:
    return int(db.conn.execute("select count(*) from rulesets").fetchone()[0])


def ruleset(db: Database, rid: str) -> dict[str, Any]:
    rows = _rulesets(db, "where id = ?", [rid])
    if not rows:
        raise RulesetNotFound(rid)
    return rows[0]


def setting(db: Database, key: str) -> str | None:
    """One of this server's choices, or None when it was never made."""
    row = db.conn.execute("select value from settings where key = ?", [key]).fetchone()
    return row[0] if row else None


def ruleset_in_use(db: Database, rid: str) -> bool:
    return db.conn.execute("select 1 from games where ruleset_id = ? limit 1",
                           [rid]).fetchone() is not None
