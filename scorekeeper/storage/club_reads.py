"""A club's reads: the club, its directors, the club of a game, tournament or person."""
from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from .connection import one_value
from .game_reads import GameNotFound
from .people_reads import ROW_IDS, PersonNotFound
from .tournament_reads import TournamentNotFound


class ClubNotFound(LookupError):
    """No club has this id (or this invitation code)."""


def club(db: Database, cid: Any) -> dict[str, Any]:
    """A club's row, by primary key."""
    rows = list(db.query("select id, name, public, casual_rated, default_ruleset, invite_code, "
                         "version, created_at from clubs where id = ?", [cid])) \
        if isinstance(cid, str) else []
    if not rows:
        raise ClubNotFound(cid)
    return rows[0]


def club_by_code(db: Database, code: str) -> str:
    """The id of the club whose invitation code this is."""
    return str(one_value(db, "select id from clubs where invite_code = ?", code, ClubNotFound))


def club_directors(db: Database, cid: str) -> list[dict[str, Any]]:
    """The directors a club's manager named, in the order named."""
    return list(db.query("select id, name, created_at from club_directors where club_id = ? "
                         "order by id", [cid]))


def club_of_game(db: Database, gid: str) -> str:
    return str(one_value(db, "select club_id from games where id = ?", gid, GameNotFound))


def club_of_tournament(db: Database, tid: str) -> str:
    return str(one_value(db, "select club_id from tournaments where id = ?", tid,
                        TournamentNotFound))


def club_of_person(db: Database, pid: Any) -> str:
    if not (isinstance(pid, int) and pid in ROW_IDS):
        raise PersonNotFound(pid)
    return str(one_value(db, "select club_id from people where id = ?", pid, PersonNotFound))


def club_tournaments(db: Database, cid: str, limit: int) -> list[dict[str, Any]]:
    """A club's tournaments (its nights), the latest first."""
    return list(db.query("select id, name, rounds, closed, created_at from tournaments where "
                         "club_id = ? order by created_at desc, rowid desc limit ?", [cid, limit]))
