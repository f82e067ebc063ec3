"""A tournament's writes: made with its first round, its rounds drawn, players arriving
and leaving, closed and reopened; its version moved with any of its games."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from . import connection, tournament_reads
from .connection import HOME_CLUB, StoreError
from .game_writes import _insert_game, _note
from .people_writes import NameTaken, _person_named
from .transaction import writes


def touch_tournament_of(db: Database, gid: str) -> tuple[str, int] | None:
    """Inside a write: the version of game ``gid``'s tournament bumped; the tournament and
    its new version, or None."""
    row = db.conn.execute(
        "update tournaments set version = version + 1, updated_at = ? where id = "
        "(select tournament_id from tournament_tables where game_id = ?) "
        "returning id, version", [connection.now(), gid]).fetchone()
    return (row[0], int(row[1])) if row else None


class TournamentChanged(StoreError):
    """The tournament is not as the write expected (``reason`` says how): the round was
    drawn already (``drawn``), a game of the current round is unfinished
    (``unfinished``), the tournament is closed (``closed``) or open (``open``)."""

    def __init__(self, reason: str, version: int):
        self.reason = reason
        self.version = version
        super().__init__(f"{reason} (tournament at version {version})")


@dataclass(frozen=True)
class NewTable:
    """One table of a round to store: its game's family, ruleset snapshot, settings, and
    the entry numbers and names of its players in seat order."""

    family: str
    ruleset: dict[str, Any]
    settings: dict[str, Any]
    seats: list[int]
    names: list[str]


def _claim(db: Database, tid: str, closed: bool = False) -> str:
    """The tournament's version bumped if it is open (``closed``: if it is closed), else
    :class:`TournamentChanged`; its club."""
    row = db.conn.execute("select version, closed, club_id from tournaments where id = ?",
                          [tid]).fetchone()
    if row is None:
        raise tournament_reads.TournamentNotFound(tid)
    if bool(row[1]) != closed:
        raise TournamentChanged("open" if closed else "closed", row[0])
    db.conn.execute("update tournaments set version = version + 1, updated_at = ? "
                    "where id = ?", [connection.now(), tid])
    return str(row[2])


def _store_round(db: Database, tid: str, club: str, number: int,
                 tables: list[NewTable]) -> list[str]:
    if number > 1 and db.conn.execute(
            "select count(*) from tournament_tables t join games g on g.id = t.game_id "
            "where t.tournament_id = ? and t.round = ? and g.finished = 0",
            [tid, number - 1]).fetchone()[0]:
        raise TournamentChanged("unfinished", tournament_reads.tournament_version(db, tid))
    last = db.conn.execute("select max(round) from tournament_tables where tournament_id = ?",
                           [tid]).fetchone()[0] or 0
    if last != number - 1:
        raise TournamentChanged("drawn", tournament_reads.tournament_version(db, tid))
    games = [_insert_game(db, new.family, new.ruleset, new.names, new.settings, club=club)
             for new in tables]
    db.conn.executemany("insert into tournament_tables (tournament_id, round, number, game_id, "
                        "seats) values (?, ?, ?, ?, ?)",
                        [(tid, number, i, gid, json.dumps(new.seats))
                         for i, (gid, new) in enumerate(zip(games, tables, strict=True), 1)])
    return games


@writes
def create_tournament(db: Database, tid: str, name: str, rounds: int,
                      rulesets: dict[str, str], scoring: str, seed: str,
                      players: list[str], first_round: list[NewTable],
                      club: str = HOME_CLUB) -> list[str]:
    """A tournament of ``club``, its players (entry numbers 1, 2, … in the order given,
    each the person of that name in the club) and its first round's games."""
    now = connection.now()
    db.conn.execute("insert into tournaments (id, name, rounds, rulesets, scoring, seed, "
                    "version, closed, created_at, updated_at, club_id) values (?, ?, ?, ?, ?, "
                    "?, 1, 0, ?, ?, ?)",
                    [tid, name, rounds, json.dumps(rulesets), scoring, seed, now, now, club])
    db.conn.executemany("insert into tournament_players (tournament_id, number, person_id, "
                        "joined) values (?, ?, ?, 1)",
                        [(tid, number, _person_named(db, typed, now, club)[0])
                         for number, typed in enumerate(players, 1)])
    return _store_round(db, tid, club, 1, first_round)


@writes
def add_round(db: Database, tid: str, number: int, tables: list[NewTable]) -> list[str]:
    """Round ``number``'s games, if round ``number - 1`` is the last drawn and all its
    games are finished (under the write lock: two tabs cannot both draw it)."""
    return _store_round(db, tid, _claim(db, tid), number, tables)


@writes
def add_tournament_player(db: Database, tid: str, name: str, joined: int) -> int:
    """A late arrival: the next entry number, drawn from round ``joined`` on."""
    club = _claim(db, tid)
    pid = _person_named(db, name, connection.now(), club)[0]
    if db.conn.execute("select 1 from tournament_players where tournament_id = ? and "
                       "person_id = ?", [tid, pid]).fetchone():
        raise NameTaken(name)
    number = db.conn.execute("select coalesce(max(number), 0) + 1 from tournament_players "
                             "where tournament_id = ?", [tid]).fetchone()[0]
    db.conn.execute("insert into tournament_players (tournament_id, number, person_id, joined) "
                    "values (?, ?, ?, ?)", [tid, number, pid, joined])
    return int(number)


@writes
def withdraw_tournament_player(db: Database, tid: str, number: int, after: int) -> None:
    """A player leaves: not drawn after round ``after``; their games stay and count."""
    _claim(db, tid)
    if db.conn.execute("update tournament_players set left_after = ? where tournament_id = ? "
                       "and number = ? and left_after is null",
                       [after, tid, number]).rowcount != 1:
        raise tournament_reads.TournamentNotFound(f"{tid}/{number}")


@writes
def set_closed(db: Database, tid: str, closed: bool) -> None:
    """The tournament closed (nothing in it changes, its games included) or reopened by
    its director; its games change version, so their pages show whether they can be written."""
    _claim(db, tid, closed=not closed)
    db.conn.execute("update tournaments set closed = ? where id = ?", [int(closed), tid])
    db.conn.execute("update games set version = version + 1, updated_at = ? where id in "
                    "(select game_id from tournament_tables where tournament_id = ?)",
                    [connection.now(), tid])
    _note(db, None, "close" if closed else "reopen", "director", tournament_id=tid)
