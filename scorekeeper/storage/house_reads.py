"""The house variants (rulesets) and this server's settings.
"""
from __future__ import annotations

import json
from typing import Any

from sqlite_utils import Database


class RulesetNotFound(LookupError):
    """No house variant has this id."""


def rulesets(db: Database, club: str = "home") -> list[dict[str, Any]]:
    """The house variants a club offers, oldest first: the home club's (every club's
    games may be played by them) and ``club``'s own; id, family, made_by, created_at and
    its data."""
    return [{**r, "data": json.loads(r["data"])} for r in db.query(
        "select id, family, data, made_by, created_at from rulesets "
        "where club_id in ('home', ?) order by created_at, id", [club])]


def count_rulesets(db: Database) -> int:
    """How many house variants this server keeps."""
    return int(db.execute("select count(*) from rulesets").fetchone()[0])


def ruleset(db: Database, rid: str) -> dict[str, Any]:
    rows = list(db.query("select id, family, data, made_by, created_at from rulesets "
                         "where id = ?", [rid]))
    if not rows:
        raise RulesetNotFound(rid)
    return {**rows[0], "data": json.loads(rows[0]["data"])}


def setting(db: Database, key: str) -> str | None:
    """One of this server's choices, or None when it was never made."""
    rows = list(db.query("select value from settings where key = ?", [key]))
    return rows[0]["value"] if rows else None


def ruleset_in_use(db: Database, rid: str) -> bool:
    return bool(list(db.query("select 1 from games where ruleset_id = ? limit 1", [rid])))
