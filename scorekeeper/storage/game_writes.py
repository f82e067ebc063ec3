"""A game's writes: made (at a table, as a rematch, imported, in a tournament's round),
its deals recorded, corrected and undone, signed, deleted. Every write of a game claims
its version (:func:`_bump`, compare and set) and refuses a closed tournament's game.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

from sqlite_utils import Database

from . import connection, game_reads
from .connection import HOME_CLUB, RIGHTS, StoreError, Then, _free_code, new_id, writes
from .people_writes import Frozen, _count_seats, _person_named


def evening_id(gid: str) -> str:
    """The id of the evening that game ``gid`` opens (an evening is named by its first
    game; the id shows nothing of the game's, which lets whoever has it play)."""
    return hashlib.sha256(f"evening:{gid}".encode()).hexdigest()[:12]




def _seat_rows(db: Database, gid: str, players: list[str], now: str,
               club: str) -> list[dict[str, Any]]:
    """Each seat's row: a person known in the club sits under the name they go by
    ("ania" typed at a new game is "Ania" there, as in every other game of the club)."""
    rows = []
    for seat, typed in enumerate(players):
        pid, name = _person_named(db, typed, now, club)
        rows.append({"game_id": gid, "seat": seat, "name": name, "person_id": pid})
    return rows


def _where(gid: str, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """A new game's table and the evening it would open (see migration 0007)."""
    return {"table_key": "-".join(str(p) for p in sorted(r["person_id"] for r in seats)),
            "evening_id": evening_id(gid)}


class VersionConflict(StoreError):
    """Someone else changed the game since this write's version was read."""

    def __init__(self, current_version: int):
        self.current_version = current_version
        super().__init__(f"game is at version {current_version}")


@writes
def create_game(db: Database, family: str, ruleset: dict[str, Any], players: list[str],
                settings: dict[str, Any], results: list[dict[str, Any]] | None = None,
                game_id: str | None = None, then: Then = None,
                club: str = HOME_CLUB) -> str:
    gid = _insert_game(db, family, ruleset, players, settings, results, game_id, club=club)
    if then is not None:
        then(db, gid)
    return gid


def _insert_game(db: Database, family: str, ruleset: dict[str, Any], players: list[str],
                 settings: dict[str, Any], results: list[dict[str, Any]] | None = None,
                 game_id: str | None = None, rematch_of: str | None = None,
                 club: str = HOME_CLUB) -> str:
    """A new game's rows (the one place that makes them): a game started at a table, the
    rematch of one (:func:`start_rematch`), or one of a tournament round's
    (:func:`add_round`), inside the caller's write; in ``club``, its people that
    club's."""
    gid = game_id or new_id()
    now = connection.now()
    seats = _seat_rows(db, gid, players, now, club)
    db.table("games").insert({
        "id": gid, "family": family, "ruleset_id": ruleset.get("id"), "club_id": club,
        "join_code": _free_code(db),
        "ruleset": json.dumps(ruleset, ensure_ascii=False),
        "settings": json.dumps(settings), "version": 1, "finished": 0,
        "created_at": now, "updated_at": now, **_where(gid, seats),
        **({"rematch_of": rematch_of} if rematch_of is not None else {})})
    db.table("players").insert_all(seats)
    _count_seats(db, seats, 1)
    for number, result in enumerate(results or [], start=1):
        _insert_deal(db, gid, number, result, now)
    return gid


@writes
def start_rematch(db: Database, old: str, family: str, ruleset: dict[str, Any],
                  players: list[str], settings: dict[str, Any],
                  then: Then = None) -> tuple[str, bool]:
    """The rematch of game ``old``: the one it has, else a new game made now as its
    rematch, and ``old``'s version bumped (every phone on it learns of the rematch).
    Returns (the rematch's id, whether this write made it). Under the write lock, so two
    phones asking at once get one game (the unique index on ``rematch_of`` holds it too)."""
    row = db.conn.execute("select id from games where rematch_of = ?", [old]).fetchone()
    if row is not None:
        return row[0], False
    club = db.conn.execute("update games set version = version + 1, updated_at = ? where "
                           "id = ? returning club_id", [connection.now(), old]).fetchone()
    if club is None:
        raise game_reads.GameNotFound(old)
    gid = _insert_game(db, family, ruleset, players, settings, rematch_of=old,
                       club=club[0])  # the old game's club: its table's people
    if then is not None:
        then(db, gid)
    return gid, True


@writes
def import_game(db: Database, family: str, ruleset: dict[str, Any], players: list[str],
                settings: dict[str, Any], results: list[dict[str, Any]],
                history: list[dict[str, Any]], finished: bool,
                created_at: str | None = None, keep_variant: bool = False,
                then: Then = None, club: str = HOME_CLUB) -> str:
    """Write a checked, imported game with its history in one transaction; with
    ``keep_variant`` its ruleset too, as a house variant of this server (unless one
    already has its id); in ``club``, its names that club's people."""
    gid = new_id()
    now = connection.now()
    if keep_variant:
        db.execute("insert or ignore into rulesets (id, family, data, made_by, created_at) "
                   "values (?, ?, ?, ?, ?)",
                   [ruleset["id"], family, json.dumps(ruleset, ensure_ascii=False),
                    ruleset.get("made_by"), ruleset.get("created_at") or now])
    seats = _seat_rows(db, gid, players, now, club)
    db.table("games").insert({
        "id": gid, "family": family, "ruleset_id": ruleset.get("id"), "club_id": club,
        "join_code": _free_code(db),
        "ruleset": json.dumps(ruleset, ensure_ascii=False),
        "settings": json.dumps(settings), "version": 1, "finished": int(finished),
        "created_at": created_at or now, "updated_at": now, **_where(gid, seats)})
    db.table("players").insert_all(seats)
    _count_seats(db, seats, 1)
    for number, result in enumerate(results, start=1):
        _insert_deal(db, gid, number, result, now)
    db.table("deal_history").insert_all(
        {"game_id": gid, "number": h["number"], "action": h["action"],
         "result": json.dumps(h["result"], ensure_ascii=False),
         "replaced_at": h["replaced_at"]} for h in history)
    if then is not None:
        then(db, gid)  # the domain's handlers: a finished game's figures
    return gid


#: ``json.dumps(result, ensure_ascii=False)``, the text results are stored as, with one
#: encoder made once (``dumps`` with an option makes a new one per call).
_RESULT_TEXT = json.JSONEncoder(ensure_ascii=False).encode


def _insert_deal(db: Database, gid: str, number: int, result: dict[str, Any], now: str) -> None:
    db.conn.execute("insert into deals (game_id, number, result, recorded_at) "
                    "values (?, ?, ?, ?)", [gid, number, _RESULT_TEXT(result), now])


def _bump(db: Database, gid: str, version: int, finished: bool | None) -> int:
    """Claim the write: bump the version if it is still ``version``."""
    sets = "version = version + 1, updated_at = ?"
    params: list[Any] = [connection.now()]
    if finished is not None:
        sets += ", finished = ?"
        params.append(int(finished))
    cur = db.conn.execute(f"update games set {sets} where id = ? and version = ? and not "
                          "exists (select 1 from tournament_tables t join tournaments n on "
                          "n.id = t.tournament_id where t.game_id = games.id and n.closed)",
                          params + [gid, version])
    if cur.rowcount != 1:
        closed = db.conn.execute(
            "select t.tournament_id from tournament_tables t join tournaments n on "
            "n.id = t.tournament_id where t.game_id = ? and n.closed", [gid]).fetchone()
        if closed:  # checked here, under the write lock: no path writes a frozen game
            raise Frozen(closed[0])
        raise VersionConflict(game_reads.game_version(db, gid))  # GameNotFound if it is gone
    return version + 1


def _note(db: Database, gid: str | None, action: str, by: str, number: int | None = None,
          finished: bool | None = None, tournament_id: str | None = None) -> None:
    """Keep one change in ``changes`` (its game's tournament found here)."""
    if by not in RIGHTS:
        raise ValueError(f"no such right: {by!r}")
    if tournament_id is None and gid is not None:
        row = db.conn.execute("select tournament_id from tournament_tables where game_id = ?",
                              [gid]).fetchone()
        tournament_id = row[0] if row else None
    db.conn.execute("insert into changes (at, tournament_id, game_id, action, number, by, "
                    "finished) values (?, ?, ?, ?, ?, ?, ?)",
                    [connection.now(), tournament_id, gid, action, number, by,
                     None if finished is None else int(finished)])


def _unsign(db: Database, gid: str, number: int | None, by: str) -> None:
    """A change to a signed game takes its signatures off, and says so."""
    if db.conn.execute("delete from signatures where game_id = ?", [gid]).rowcount:
        _note(db, gid, "unsigned", by, number)


@writes
def record_deal(db: Database, gid: str, number: int, result: dict[str, Any], version: int,
                finished: bool, then: Then = None) -> int:
    """Store the result of the next deal; returns the new version."""
    new_version = _bump(db, gid, version, finished)
    _insert_deal(db, gid, number, result, connection.now())
    if then is not None:
        then(db, gid)
    return new_version


@writes
def replace_deal(db: Database, gid: str, number: int, result: dict[str, Any],
                 version: int, finished: bool | None = None, by: str = "table",
                 then: Then = None) -> int:
    """Correct a recorded deal, keeping the replaced result in its history and the
    correction in ``changes`` (by which right, and whether the game was finished); the
    game's signatures go."""
    was_finished = db.conn.execute("select finished from games where id = ?",
                                   [gid]).fetchone()
    new_version = _bump(db, gid, version, finished)
    _note(db, gid, "correct", by, number, bool(was_finished and was_finished[0]))
    _unsign(db, gid, number, by)
    old = list(db.query("select result from deals where game_id = ? and number = ?",
                        [gid, number]))
    if not old:
        raise game_reads.GameNotFound(f"{gid} deal {number}")
    db.table("deal_history").insert({"game_id": gid, "number": number,
                                     "result": old[0]["result"], "action": "edit",
                                     "replaced_at": connection.now()})
    db.execute("update deals set result = ?, recorded_at = ? where game_id = ? and number = ?",
               [_RESULT_TEXT(result), connection.now(), gid, number])
    if then is not None:
        then(db, gid)  # the domain's handlers: a finished game's figures follow
    return new_version


@writes
def remove_last_deal(db: Database, gid: str, version: int, by: str = "table",
                     then: Then = None) -> int:
    """Undo: take the last deal off, keeping it in the history and the undo in
    ``changes``; the game's signatures go."""
    was_finished = db.conn.execute("select finished from games where id = ?",
                                   [gid]).fetchone()
    new_version = _bump(db, gid, version, False)
    last = list(db.query("select number, result from deals where game_id = ? "
                         "order by number desc limit 1", [gid]))
    if last:
        _note(db, gid, "undo", by, last[0]["number"], bool(was_finished and was_finished[0]))
        _unsign(db, gid, last[0]["number"], by)
        db.table("deal_history").insert({"game_id": gid, "number": last[0]["number"],
                                         "result": last[0]["result"], "action": "undo",
                                         "replaced_at": connection.now()})
        db.execute("delete from deals where game_id = ? and number = ?",
                   [gid, last[0]["number"]])
    if then is not None:
        then(db, gid)  # the domain's handlers: unfinished again, its figures go
    return new_version


@writes
def delete_game(db: Database, gid: str, version: int, then: Then = None) -> None:
    """Delete a game and everything of it, if it is still at ``version``; the game it was
    the rematch of changes version (its page no longer offers to join it)."""
    _bump(db, gid, version, None)
    db.conn.execute("update games set version = version + 1, updated_at = ? where id = "
                    "(select rematch_of from games where id = ?)", [connection.now(), gid])
    if then is not None:
        then(db, gid)
    _count_seats(db, [{"person_id": p} for (p,) in db.conn.execute(
        "select person_id from players where game_id = ?", [gid])], -1)
    for table in ("figures", "deal_history", "deals", "players", "signatures", "changes"):
        db.execute(f"delete from {table} where game_id = ?", [gid])
    db.execute("delete from games where id = ?", [gid])


@writes
def sign_game(db: Database, gid: str, seat: int, version: int, by: str,
              then: Then = None) -> int:
    """A finished game signed by the player of ``seat`` (or the director: seat -1) on a
    phone holding ``by``'s right; returns the new version (every phone of the table sees
    it). Signing twice for one seat keeps the first signature."""
    if by not in RIGHTS:
        raise ValueError(f"no such right: {by!r}")
    new_version = _bump(db, gid, version, None)
    db.conn.execute("insert or ignore into signatures (game_id, seat, by, signed_at) "
                    "values (?, ?, ?, ?)", [gid, seat, by, connection.now()])
    if then is not None:
        then(db, gid)
    return new_version
