"""A game's writes: made (at a table, as a rematch, imported, in a tournament's round),
its deals recorded, corrected and undone, signed, deleted. Every write of a game claims
its version (:func:`_bump`, compare and set) and refuses a closed tournament's game."""
from __future__ import annotations

import hashlib
import json
from typing import Any

from sqlite_utils import Database

from . import connection, game_reads
from .connection import HOME_CLUB, StoreError, Then, _free_code, check_right, new_id
from .people_writes import Frozen, _count_seats, _person_named
from .transaction import writes


def evening_id(gid: str) -> str:
    """The id of the evening that game ``gid`` opens (it shows nothing of the game's id,
    which lets whoever has it play)."""
    return hashlib.sha256(f"evening:{gid}".encode()).hexdigest()[:12]


class VersionConflict(StoreError):
    """Someone else changed the game since this write's version was read."""

    def __init__(self, current_version: int):
        self.current_version = current_version
        super().__init__(f"game is at version {current_version}")


def _then(then: Then, db: Database, gid: str) -> None:
    if then is not None:
        then(db, gid)


def _text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


@writes
def create_game(db: Database, family: str, ruleset: dict[str, Any], players: list[str],
                settings: dict[str, Any], then: Then = None, club: str = HOME_CLUB) -> str:
    gid = _insert_game(db, family, ruleset, players, settings, club=club)
    _then(then, db, gid)
    return gid


def _insert_game(db: Database, family: str, ruleset: dict[str, Any], players: list[str],
                 settings: dict[str, Any], results: list[dict[str, Any]] | None = None,
                 rematch_of: str | None = None, club: str = HOME_CLUB, finished: bool = False,
                 created_at: str | None = None) -> str:
    """A new game's rows (the one place that makes them), inside the caller's write; its
    people are ``club``'s, each seated under the name they go by there."""
    gid = new_id()
    now = connection.now()
    seats = [(gid, seat, name, pid) for seat, typed in enumerate(players)
             for pid, name in [_person_named(db, typed, now, club)]]
    people = [s[3] for s in seats]
    db.conn.execute(
        "insert into games (id, family, ruleset_id, club_id, join_code, ruleset, settings, "
        "version, finished, created_at, updated_at, table_key, evening_id, rematch_of) "
        "values (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?)",
        [gid, family, ruleset.get("id"), club, _free_code(db), _text(ruleset),
         json.dumps(settings), int(finished), created_at or now, now,
         "-".join(str(p) for p in sorted(people)), evening_id(gid), rematch_of])
    db.conn.executemany("insert into players (game_id, seat, name, person_id) "
                        "values (?, ?, ?, ?)", seats)
    _count_seats(db, people, 1)
    db.conn.executemany("insert into deals (game_id, number, result, recorded_at) values "
                        "(?, ?, ?, ?)", [(gid, number, _text(result), now)
                                         for number, result in enumerate(results or [], 1)])
    return gid


@writes
def start_rematch(db: Database, old: str, family: str, ruleset: dict[str, Any],
                  players: list[str], settings: dict[str, Any],
                  then: Then = None) -> tuple[str, bool]:
    """The rematch of game ``old``: the one it has, else a new game made now as its
    rematch, and ``old``'s version bumped (every phone on it learns of the rematch).
    Returns (the rematch's id, whether this write made it)."""
    if (there := game_reads.rematch_of(db, old)) is not None:
        return there, False
    club = db.conn.execute("update games set version = version + 1, updated_at = ? where "
                           "id = ? returning club_id", [connection.now(), old]).fetchone()
    if club is None:
        raise game_reads.GameNotFound(old)
    gid = _insert_game(db, family, ruleset, players, settings, rematch_of=old, club=club[0])
    _then(then, db, gid)
    return gid, True


@writes
def import_game(db: Database, family: str, ruleset: dict[str, Any], players: list[str],
                settings: dict[str, Any], results: list[dict[str, Any]],
                history: list[dict[str, Any]], finished: bool,
                created_at: str | None = None, keep_variant: bool = False,
                then: Then = None, club: str = HOME_CLUB) -> str:
    """A checked, imported game with its history; with ``keep_variant`` its ruleset too,
    as a house variant of this server (unless one already has its id)."""
    if keep_variant:
        db.conn.execute(
            "insert or ignore into rulesets (id, family, data, made_by, created_at) "
            "values (?, ?, ?, ?, ?)", [ruleset["id"], family, _text(ruleset),
                                       ruleset.get("made_by"),
                                       ruleset.get("created_at") or connection.now()])
    gid = _insert_game(db, family, ruleset, players, settings, results, club=club,
                       finished=finished, created_at=created_at)
    db.conn.executemany(
        "insert into deal_history (game_id, number, action, result, replaced_at) "
        "values (?, ?, ?, ?, ?)", [(gid, h["number"], h["action"], _text(h["result"]),
                                    h["replaced_at"]) for h in history])
    _then(then, db, gid)
    return gid


def _bump(db: Database, gid: str, version: int, finished: bool | None,
          totals: list[int] | None = None) -> int:
    """Claim the write: bump the version if it is still ``version`` (and set
    ``finished`` and the running ``totals`` unless None)."""
    closed = db.conn.execute(
        "select t.tournament_id from tournament_tables t join tournaments n on "
        "n.id = t.tournament_id where t.game_id = ? and n.closed", [gid]).fetchone()
    if closed:
        raise Frozen(closed[0])
    if db.conn.execute("update games set version = version + 1, updated_at = ?, "
                       "finished = coalesce(?, finished), totals = coalesce(?, totals) "
                       "where id = ? and version = ?",
                       [connection.now(), finished, None if totals is None else
                        json.dumps(totals), gid, version]).rowcount != 1:
        raise VersionConflict(game_reads.game_version(db, gid))  # GameNotFound if it is gone
    return version + 1


def _note(db: Database, gid: str | None, action: str, by: str, number: int | None = None,
          finished: bool | None = None, tournament_id: str | None = None) -> None:
    """Keep one change in ``changes`` (its game's tournament found here)."""
    check_right(by)
    db.conn.execute("insert into changes (at, tournament_id, game_id, action, number, by, "
                    "finished) values (?, coalesce(?, (select tournament_id from "
                    "tournament_tables where game_id = ?)), ?, ?, ?, ?, ?)",
                    [connection.now(), tournament_id, gid, gid, action, number, by,
                     None if finished is None else int(finished)])


@writes
def record_deal(db: Database, gid: str, number: int, result: dict[str, Any], version: int,
                finished: bool, totals: list[int] | None = None, then: Then = None) -> int:
    """Store the result of the next deal and the totals after it; the new version."""
    new_version = _bump(db, gid, version, finished, totals)
    db.conn.execute("insert into deals (game_id, number, result, recorded_at) values "
                    "(?, ?, ?, ?)", [gid, number, _text(result), connection.now()])
    _then(then, db, gid)
    return new_version


def _replace(db: Database, gid: str, version: int, finished: bool, action: str,
             by: str, number: int | None, totals: list[int] | None) -> tuple[int, int | None]:
    """A deal corrected (``edit``) or undone (``undo``; ``number`` None: the last): the
    version claimed, the change and the old result kept, the signatures taken off. The
    new version and the deal's number (None: no such deal)."""
    was = db.conn.execute("select finished from games where id = ?", [gid]).fetchone()
    new_version = _bump(db, gid, version, finished, totals)
    row = db.conn.execute("select number, result from deals where game_id = ? and "
                          "number = coalesce(?, (select max(number) from deals where "
                          "game_id = ?))", [gid, number, gid]).fetchone()
    if row is None:
        return new_version, None
    number = row[0]
    _note(db, gid, "correct" if action == "edit" else action, by, number, bool(was and was[0]))
    if db.conn.execute("delete from signatures where game_id = ?", [gid]).rowcount:
        _note(db, gid, "unsigned", by, number)
    db.conn.execute("insert into deal_history (game_id, number, result, action, replaced_at) "
                    "values (?, ?, ?, ?, ?)", [gid, number, row[1], action, connection.now()])
    return new_version, number


@writes
def replace_deal(db: Database, gid: str, number: int, result: dict[str, Any],
                 version: int, finished: bool, by: str, totals: list[int], then: Then) -> int:
    """Correct a recorded deal (the old result kept in its history, the correction in
    ``changes``); the game's signatures go."""
    new_version, found = _replace(db, gid, version, finished, "edit", by, number, totals)
    if found is None:
        raise game_reads.GameNotFound(f"{gid} deal {number}")
    db.conn.execute("update deals set result = ?, recorded_at = ? where game_id = ? and "
                    "number = ?", [_text(result), connection.now(), gid, number])
    _then(then, db, gid)
    return new_version


@writes
def remove_last_deal(db: Database, gid: str, version: int, by: str = "table",
                     totals: list[int] | None = None, then: Then = None) -> int:
    """Undo: the last deal taken off (kept in its history, the undo in ``changes``); the
    game's signatures go."""
    new_version, number = _replace(db, gid, version, False, "undo", by, None, totals)
    db.conn.execute("delete from deals where game_id = ? and number = ?", [gid, number])
    _then(then, db, gid)
    return new_version


@writes
def delete_game(db: Database, gid: str, version: int, then: Then = None) -> None:
    """Delete a game and everything of it, if it is still at ``version``; the game it was
    the rematch of changes version (its page stops offering to join it)."""
    _bump(db, gid, version, None)
    db.conn.execute("update games set version = version + 1, updated_at = ? where id = "
                    "(select rematch_of from games where id = ?)", [connection.now(), gid])
    _then(then, db, gid)
    _count_seats(db, [p for (p,) in db.conn.execute(
        "select person_id from players where game_id = ?", [gid])], -1)
    for table in ("figures", "deal_history", "deals", "players", "signatures", "changes"):
        db.conn.execute(f"delete from {table} where game_id = ?", [gid])
    db.conn.execute("delete from games where id = ?", [gid])


@writes
def sign_game(db: Database, gid: str, seat: int, version: int, by: str,
              then: Then = None) -> int:
    """A finished game signed by the player of ``seat`` (the director: -1) by ``by``'s
    right; the new version. A seat's first signature stays."""
    check_right(by)
    new_version = _bump(db, gid, version, None)
    db.conn.execute("insert or ignore into signatures (game_id, seat, by, signed_at) "
                    "values (?, ?, ?, ?)", [gid, seat, by, connection.now()])
    _then(then, db, gid)
    return new_version
