"""This server's house variants (rulesets) and settings."""
from __future__ import annotations

import json
from typing import Any

from sqlite_utils import Database

from . import connection, house_reads
from .connection import HOME_CLUB, StoreError
from .transaction import writes


class RulesetInUse(StoreError):
    """A game is played with this ruleset, so it stays."""


@writes
def create_ruleset(db: Database, rid: str, family: str, data: dict[str, Any],
                   made_by: str | None, club: str = HOME_CLUB) -> str:
    """A house variant (checked by its family) of ``club`` under a new id; its creation
    time."""
    now = connection.now()
    db.execute("insert into rulesets (id, family, data, made_by, created_at, club_id) "
               "values (?, ?, ?, ?, ?, ?)",
               [rid, family, json.dumps({**data, "created_at": now}, ensure_ascii=False),
                made_by, now, club])
    return now


@writes
def delete_ruleset(db: Database, rid: str) -> None:
    """Delete a house variant; :class:`RulesetInUse` if any game is played with it."""
    if house_reads.ruleset_in_use(db, rid):
        raise RulesetInUse(rid)
    if db.execute("delete from rulesets where id = ?", [rid]).rowcount != 1:
        raise house_reads.RulesetNotFound(rid)
    db.execute("delete from settings where key = 'default_ruleset' and value = ?", [rid])


@writes
def set_setting(db: Database, key: str, value: str) -> None:
    """Keep one of this server's choices."""
    db.execute("insert into settings (key, value) values (?, ?) "
               "on conflict (key) do update set value = excluded.value", [key, value])


@writes
def take_setting(db: Database, key: str, expected: str) -> bool:
    """Empty a setting if it still holds ``expected``, in one write: whether it did (a
    value usable once, such as the host link's hash, is taken by one request only)."""
    return db.execute("update settings set value = '' where key = ? and value = ?",
                      [key, expected]).rowcount == 1
