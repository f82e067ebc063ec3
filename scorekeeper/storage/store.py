"""Storage: the schema, its migrations and every write. sqlite-utils on SQLite in WAL mode.

Reads are in :mod:`.queries`; only these two modules know SQL. The storage only stores:
it takes and returns rows and plain values, and never replays a game (it imports no
family, nothing of the domain, the outputs or the web). What a write must also do in
its transaction (a finished game's figures, its tournament's version) the domain hands
in as ``then``, called with the connection and the game's id. Games of every
family share these tables: ``games`` (with a ``family`` column and a snapshot of
its ruleset), ``players`` (seats), ``deals`` (one
JSON result per deal) and ``deal_history`` (every replaced or undone result).
Each write runs in one transaction and bumps ``games.version``; a write that
names an older version is refused with :class:`VersionConflict`.

Each write is a function of its own, decorated :func:`writes`, that runs whole in one
transaction, committed by :mod:`.commits` (the one way a write commits: a batch of one
on the caller's connection, or, under the gevent server, in groups by one greenlet).

Writers wait for each other instead of failing: a write transaction starts with
``BEGIN IMMEDIATE`` (:func:`.commits.commit`), so it takes SQLite's one write lock before it
reads anything, and waits up to ``busy_timeout`` for it (then :class:`Busy`). A deferred ``BEGIN`` would
first read, then try to upgrade to a writer, and an upgrade that finds a newer commit
fails at once with ``database is locked`` whatever the timeout. The connection is in
the driver's autocommit mode (``isolation_level=None``): the ``sqlite3`` module never
opens a transaction by itself, so the only transactions are the ones written here (and
the migrations' own, and sqlite-utils' short read savepoints).
"""
from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import secrets
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

import orjson
from sqlite_utils import Database, Migrations

from ..common import collation
from ..rules.checks import person_key
from . import queries
from .commits import Committer, StoreError

migrations = Migrations("scorekeeper")
log = logging.getLogger(__name__)

T = TypeVar("T")

BUSY_TIMEOUT_MS = 10_000
"""How long a write waits for another's lock before it fails (the app's ``BUSY_TIMEOUT_MS``)."""


@migrations(name="0001_initial")
def _initial(db: Database) -> None:
    db.table("games").create({
        "id": str, "game": str, "ruleset_id": str, "ruleset": str, "settings": str,
        "version": int, "finished": int, "created_at": str, "updated_at": str,
    }, pk="id", not_null={"game", "ruleset", "version"}, defaults={"version": 1, "finished": 0})
    db.table("players").create(
        {"game_id": str, "seat": int, "name": str}, pk=("game_id", "seat"),
        foreign_keys=[("game_id", "games", "id")], not_null={"name"})
    db.table("deals").create(
        {"game_id": str, "number": int, "result": str, "recorded_at": str},
        pk=("game_id", "number"), foreign_keys=[("game_id", "games", "id")])
    db.table("deal_history").create(
        {"id": int, "game_id": str, "number": int, "result": str, "action": str,
         "replaced_at": str}, pk="id", foreign_keys=[("game_id", "games", "id")])
    db.table("deal_history").create_index(["game_id", "number"])
    db.table("games").create_index(["updated_at"])


@migrations(name="0002_family")
def _family(db: Database) -> None:
    """One name for the concept: the column that says which game a row is, ``family``."""
    db.table("games").transform(rename={"game": "family"})


@migrations(name="0003_join_code")
def _join_code(db: Database) -> None:
    """A short code per game, to join it from another phone (existing games get one)."""
    db.table("games").add_column("join_code", str)
    for row in list(db.query("select id from games")):
        while db.conn.execute("select 1 from games where join_code = ?",
                              [code := new_join_code()]).fetchone():
            pass  # (no clubs yet: :func:`_free_code` looks there too)
        db.execute("update games set join_code = ? where id = ?", [code, row["id"]])
    db.table("games").create_index(["join_code"], unique=True)


@migrations(name="0004_rulesets")
def _rulesets(db: Database) -> None:
    """House variants: rulesets made at this server, beside the built-in ones."""
    db.table("rulesets").create({
        "id": str, "family": str, "data": str, "made_by": str, "created_at": str,
    }, pk="id", not_null={"family", "data", "created_at"})
    db.table("games").create_index(["ruleset_id"])


@migrations(name="0005_settings")
def _settings(db: Database) -> None:
    """This server's choices, by name (the ruleset new games start with)."""
    db.table("settings").create({"key": str, "value": str}, pk="key", not_null={"value"})


@migrations(name="0006_people")
def _people(db: Database) -> None:
    """People known to this server, each seat of each game linked to one: the same name
    (in any case, spacing or invisible characters) is the same person."""
    db.table("people").create({"id": int, "name": str, "key": str, "created_at": str},
                              pk="id", not_null={"name", "key", "created_at"})
    db.table("people").create_index(["key"], unique=True)
    db.table("players").add_column("person_id", int)
    db.table("players").create_index(["person_id"])
    rows = list(db.query("select p.game_id, p.seat, p.name, g.created_at from players p "
                         "join games g on g.id = p.game_id order by g.created_at, p.seat"))
    for row in rows:
        db.execute("update players set person_id = ? where game_id = ? and seat = ?",
                   [_person_0006(db, row["name"], row["created_at"] or _now()),
                    row["game_id"],
                    row["seat"]])


def _person_0006(db: Database, name: str, now: str) -> int:
    """Migration 0006's person of a name (one per server then: there were no clubs, and
    no collation keys yet)."""
    key = person_key(name)
    row = db.conn.execute("select id from people where key = ?", [key]).fetchone()
    if row:
        return int(row[0])
    return int(db.execute("insert into people (name, key, created_at) values (?, ?, ?)",
                          [name, key, now]).lastrowid)


@migrations(name="0007_figures")
def _figures_tables(db: Database) -> None:
    """What the people's pages read instead of replaying every game (issue 25):

    * ``figures``: one row per seat of each finished game (its person, family, ruleset,
      total, place, win), and ``figure_parts``: what the family counts for that seat
      (points and deals per kind of deal, hearts taken, …). Made by the domain from the
      game's state, written by :func:`put_figures` in the transaction of the write that
      finished, corrected or undid the game; summed by SQL.
    * ``games.table_key`` (the people at the game, their ids sorted) and
      ``games.evening_id`` (the id of the evening the game would open): a table's games
      and an evening are found by index, not by reading every game.
    * ``people.sort_en``/``sort_pl``: each name's collation key (:func:`sort_keys`), so
      the list of people pages in SQL in the order the language sorts names.
    """
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
    # Covering: a person's sums read the index alone.
    db.table("figures").create_index(["person_id", "family", "played", "game_row", "total",
                                      "place", "won", "ruleset_id", "game_id", "seat",
                                      "sides"])
    db.table("figures").create_index(["person_id", "family", "total"])
    db.table("figures").create_index(["table_key", "person_id", "family", "played",
                                      "game_row", "total", "place", "won", "ruleset_id",
                                      "game_id", "seat", "sides"])
    db.table("figure_parts").create({
        "game_id": str, "seat": int, "person_id": int, "family": str, "part": str,
        "key": str, "table_key": str, "played": str, "game_row": int, "position": int, "grp": str,
        "points": int, "deals": int,
    }, pk=("game_id", "seat", "part", "key"), foreign_keys=[("game_id", "games", "id")],
        not_null={"family", "part", "key", "points"})
    db.table("figure_parts").create_index(
        ["person_id", "family", "part", "key", "points", "deals", "played", "game_row",
         "position", "grp", "game_id", "seat"])
    db.table("figure_parts").create_index(
        ["table_key", "person_id", "family", "part", "key", "points", "deals", "played",
         "game_row", "position", "grp", "game_id", "seat"])
    # The figures of the games already finished are the domain's to make (they need the
    # games replayed): it fills every finished game that has none when the app starts
    # (``domain.figures.backfill``, reading :func:`.queries.finished_without_figures`).


@migrations(name="0008_one_name_per_person")
def _one_name(db: Database) -> None:
    """Every seat under the name its person goes by (seats written before a person kept
    one name kept the case they were typed in)."""
    db.execute("update players set name = (select name from people where people.id = "
               "players.person_id) where person_id is not null and name != (select name "
               "from people where people.id = players.person_id)")


@migrations(name="0009_tournaments")
def _tournaments(db: Database) -> None:
    """Club night (issue 27): a tournament of many tables, drawn round by round.

    * ``tournaments``: its name, the rounds it is to have, the ruleset id per table size
      (JSON, ``{"4": "standard-4"}``), how it is ranked (``points`` or ``places``), the
      seed its draws are made from, a ``version`` bumped by every change to it *and to
      any of its games* (:func:`touch_tournament_of`, called by the domain's handler in
      the game's write), so one number tells a projector to look again.
    * ``tournament_players``: an entry number per player (1, 2, …, in the order entered;
      late arrivals after), their person, the round they joined at and, once withdrawn,
      the last round they were drawn for (``left_after``).
    * ``tournament_tables``: per round and table, its game and the entry numbers in seat
      order. A game belongs to one tournament table at most.
    """
    db.table("tournaments").create({
        "id": str, "name": str, "rounds": int, "rulesets": str, "scoring": str, "seed": str,
        "version": int, "closed": int, "created_at": str, "updated_at": str,
    }, pk="id", not_null={"name", "rounds", "rulesets", "scoring", "seed", "version",
                          "closed", "created_at"},
        defaults={"version": 1, "closed": 0})
    db.table("tournament_players").create({
        "tournament_id": str, "number": int, "person_id": int, "joined": int,
        "left_after": int,
    }, pk=("tournament_id", "number"),
        foreign_keys=[("tournament_id", "tournaments", "id"), ("person_id", "people", "id")],
        not_null={"person_id", "joined"})
    db.table("tournament_players").create_index(["tournament_id", "person_id"], unique=True)
    db.table("tournament_players").create_index(["person_id"])
    db.table("tournament_tables").create({
        "tournament_id": str, "round": int, "number": int, "game_id": str, "seats": str,
    }, pk=("tournament_id", "round", "number"),
        foreign_keys=[("tournament_id", "tournaments", "id"), ("game_id", "games", "id")],
        not_null={"game_id", "seats"})
    db.table("tournament_tables").create_index(["game_id"], unique=True)


@migrations(name="0010_rights")
def _rights(db: Database) -> None:
    """A room of strangers (issue 32): what was changed by which right, and signatures.

    * ``changes``: every correction and undo of a game, every set of signatures a
      correction cleared, a tournament closed or reopened; when, by which right
      (``table``, ``director``, ``host``), whether the game was finished then, and the
      game's tournament (so a director's page reads its own by index).
    * ``signatures``: a finished game's signatures, a seat each, or the director's
      (seat ``-1``); a correction or undo of the game deletes them.
    * ``renames``: every rename of a person (the old name and the new, when, by which
      right), so the host can take one back.
    """
    db.table("changes").create({
        "id": int, "at": str, "tournament_id": str, "game_id": str, "action": str,
        "number": int, "by": str, "finished": int,
    }, pk="id", not_null={"at", "action", "by"})
    db.table("changes").create_index(["tournament_id", "id"])
    db.table("changes").create_index(["game_id", "id"])
    db.table("signatures").create({"game_id": str, "seat": int, "by": str, "signed_at": str},
                                  pk=("game_id", "seat"),
                                  foreign_keys=[("game_id", "games", "id")],
                                  not_null={"by", "signed_at"})
    db.table("renames").create({
        "id": int, "person_id": int, "old_name": str, "new_name": str, "at": str, "by": str,
        "undone_at": str,
    }, pk="id", foreign_keys=[("person_id", "people", "id")],
        not_null={"person_id", "old_name", "new_name", "at", "by"})


@migrations(name="0011_figure_totals")
def _figure_totals(db: Database) -> None:
    """Stats at constant cost (issue 34): what the people's pages read instead of summing
    every finished game.

    * ``figure_totals``: running sums per person, per table (``table_key``; ``''``: every
      game of theirs), per family and per ``part``: ``game`` (key ``''``: games, wins,
      places, points, and the wins in a row now and at most), ``ruleset`` (per ruleset
      id), ``kind`` and ``count`` (the figure parts' keys; since 0016 inside the ``game``
      row, :func:`_packed_parts`). Each row also names where it
      was first played (``first_*``: the order a page lists them in, and the game whose
      family names them). Kept by the domain's handler in the write that finishes,
      corrects, undoes or deletes a game (:func:`add_totals`); filled for the games
      finished before it by the domain when the app starts (the setting
      :data:`TOTALS_WANTED` says it must, :func:`replace_totals`).
    * ``table_seats``: how many games (finished or not) each person played at each table,
      and ``people.games``: how many games each person sat at; both kept by the write
      that makes or deletes a game (:func:`_count_seats`).
    """
    db.execute("""create table figure_totals (
        person_id integer not null, table_key text not null, family text not null,
        part text not null, key text not null,
        games integer not null default 0, wins integer not null default 0,
        places integer not null default 0, points integer not null default 0,
        deals integer not null default 0, grp text,
        first_played text, first_row integer, first_position integer, first_game text,
        first_seat integer,
        streak integer not null default 0, longest integer not null default 0,
        last_played text, last_row integer,
        primary key (person_id, table_key, family, part, key))""")
    db.execute("""create table table_seats (
        person_id integer not null, table_key text not null, games integer not null,
        primary key (person_id, table_key))""")
    db.execute("create index table_seats_by_games on table_seats (person_id, games desc, "
               "table_key)")
    db.execute("insert into table_seats (person_id, table_key, games) "
               "select p.person_id, g.table_key, count(*) from players p join games g "
               "on g.id = p.game_id where p.person_id is not null and g.table_key is not null "
               "group by p.person_id, g.table_key")
    db.execute("alter table people add column games integer not null default 0")
    db.execute("update people set games = (select count(*) from players p "
               "where p.person_id = people.id)")
    # a person's best and worst game (of equal totals the earliest), everywhere and at
    # one table, by index: no sort of all their games
    db.execute("drop index if exists idx_figures_person_id_family_total")
    db.table("figures").create_index(["person_id", "family", "total", "played", "game_row"])
    db.table("figures").create_index(["table_key", "person_id", "family", "total", "played",
                                      "game_row"])
    db.execute("insert into settings (key, value) values (?, '1') on conflict (key) do "
               "update set value = '1'", [TOTALS_WANTED])


#: The setting that says the figures' running totals must be made from every figure kept
#: (set by migration 0011; the domain's backfill at the app's start clears it).
TOTALS_WANTED = "figure_totals_wanted"


@migrations(name="0012_rematches")
def _rematches(db: Database) -> None:
    """One rematch per table (issue 35): ``games.rematch_of``, the game a game is the
    rematch of. Unique, so a game has one rematch at most whichever phones asked for it
    at once (:func:`start_rematch` finds the one there is before it makes one)."""
    db.table("games").add_column("rematch_of", str)
    db.table("games").create_index(["rematch_of"], unique=True)


#: The club every server has (issue 36): the home club, into which migration 0013 puts
#: every person, game and tournament made before there were clubs, and where everything
#: made without naming a club goes. Its name is empty (the pages call it this server's).
HOME_CLUB = "home"


@migrations(name="0013_clubs")
def _clubs(db: Database) -> None:
    """Clubs on one shared host (issue 36): each club its own people, games and
    tournaments.

    * ``clubs``: its name, whether its pages are ``public`` (else for its members only),
      whether its casual games count for ratings (``casual_rated``; a tournament's games
      always do), its default ruleset (``default_ruleset``, None: the server's), the code
      that invites a member (``invite_code``, unique, the join code's alphabet and
      length) and a ``version`` bumped by every change to it. One row is made here: the
      home club (:data:`HOME_CLUB`), whose default ruleset stays the server's setting.
    * ``club_directors``: the directors a club's manager named (a name each; the right
      itself is an HMAC of the club and the row's id, the web's to give and check).
    * ``club_id`` on ``people``, ``games``, ``tournaments`` and ``rulesets`` (a house
      variant's club), ``'home'`` for every row there is. A person's name is unique
      within their club: two clubs each with an "Ania" have two people
      (``(club_id, key)`` unique instead of ``key``); the lists a club's pages read are
      by index (a club's people in name order, its games and tournaments newest first).
    """
    db.execute("""create table clubs (
        id text primary key, name text not null, public integer not null default 1,
        casual_rated integer not null default 0, default_ruleset text,
        invite_code text not null, version integer not null default 1,
        created_at text not null, updated_at text)""")
    db.execute("create unique index clubs_by_invite_code on clubs (invite_code)")
    db.execute("""create table club_directors (
        id integer primary key, club_id text not null references clubs(id),
        name text not null, created_at text not null)""")
    db.execute("create index club_directors_by_club on club_directors (club_id, id)")
    now = _now()
    db.execute("insert into clubs (id, name, public, casual_rated, invite_code, created_at, "
               "updated_at) values (?, '', 1, 0, ?, ?, ?)",
               [HOME_CLUB, _free_club_code(db), now, now])
    for table in ("people", "games", "tournaments", "rulesets"):
        db.execute(f"alter table {table} add column club_id text not null "
                   f"default '{HOME_CLUB}'")
    db.execute("drop index if exists idx_people_key")
    db.execute("create unique index people_by_club_key on people (club_id, key)")
    db.execute("create index people_by_club_en on people (club_id, sort_en, name, id)")
    db.execute("create index people_by_club_pl on people (club_id, sort_pl, name, id)")
    db.execute("create index games_by_club on games (club_id, created_at)")
    db.execute("create index tournaments_by_club on tournaments (club_id, created_at)")
    db.execute("create index rulesets_by_club on rulesets (club_id)")


def _free_club_code(db: Database) -> str:
    """An invitation code no club has (a code never names both a game and a club: a
    typed code is looked up as either)."""
    while True:
        code = new_join_code()
        if not db.conn.execute("select 1 from clubs where invite_code = ? union all "
                               "select 1 from games where join_code = ?",
                               [code, code]).fetchone():
            return code


#: Who made a change: the table (a phone that created or joined the game, or its API
#: token), the tournament's director, or the host.
RIGHTS = ("table", "director", "host")


def evening_id(gid: str) -> str:
    """The id of the evening that game ``gid`` opens (an evening is named by its first
    game; the id shows nothing of the game's, which lets whoever has it play)."""
    return hashlib.sha256(f"evening:{gid}".encode()).hexdigest()[:12]


def sort_keys(name: str) -> tuple[bytes, bytes]:
    """A name's collation key in English and in Polish (:func:`.collation.key`), each as
    bytes whose order is the key's order: SQLite compares blobs byte by byte, so
    ``order by sort_pl, name, id`` is exactly :func:`.collation.by_name`'s order (the
    name, NFC as every name is kept, breaks ties as it does there)."""
    return tuple(b"".join(w.to_bytes(3, "big") for w in collation.key(name, lang)[0])
                 for lang in ("en", "pl"))  # type: ignore[return-value]


def _table_key(db: Database, gid: str) -> str | None:
    """The people at a game, their ids sorted and joined (``3-5-7-9``); None if a seat
    has nobody (no table)."""
    ids = [r[0] for r in db.conn.execute(
        "select person_id from players where game_id = ? order by seat", [gid])]
    if not ids or None in ids:
        return None
    return "-".join(str(p) for p in sorted(ids))


#: A finished game's figures as the domain makes them, plain rows: per seat ``(seat, side,
#: sides, total, place, won)``, and per seat and kind ``(seat, part, key, position, grp,
#: points, deals)``; the store adds what it knows (person, family, ruleset, table, when).
Figures = tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]


def put_figures(db: Database, gid: str, figures: Figures | None
                ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Inside a write: the game's figures replaced by ``figures`` (none: an unfinished,
    corrected-to-unfinished or undone game has none); what is kept now, as
    :func:`.queries.game_figures` reads it (the rows just written, not read back)."""
    db.conn.execute("delete from figures where game_id = ?", [gid])
    if not figures or not figures[0]:
        return [], []
    row = db.conn.execute("select family, rowid, created_at, table_key, ruleset_id "
                          "from games where id = ?", [gid]).fetchone()
    if row is None:
        return [], []
    family, game_row, played, table, ruleset_id = row
    people = [r[0] for r in db.conn.execute(
        "select person_id from players where game_id = ? order by seat", [gid])]
    rows, parts = figures
    by_seat: dict[int, list[list[Any]]] = {}
    for seat, part, key, position, grp, points, deals in sorted(
            parts, key=lambda p: (p[0], p[1], p[3])):
        by_seat.setdefault(seat, []).append([part, key, position, grp, points, deals])
    db.conn.executemany(
        "insert into figures (game_id, seat, person_id, family, ruleset_id, table_key, played, "
        "game_row, side, sides, total, place, won, parts) "
        "values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(gid, seat, people[seat], family, ruleset_id, table, played, game_row, side, sides,
          total, place, won, _packed(by_seat.get(seat)))
         for seat, side, sides, total, place, won in rows])
    return ([{"seat": seat, "person_id": people[seat], "family": family,
              "ruleset_id": ruleset_id, "table_key": table, "played": played,
              "game_row": game_row, "total": total, "place": place, "won": won}
             for seat, side, sides, total, place, won in sorted(rows)],
            [{"seat": seat, "person_id": people[seat], "family": family, "table_key": table,
              "played": played, "game_row": game_row, "part": part, "key": key,
              "position": position, "grp": grp, "points": points, "deals": deals}
             for seat, part, key, position, grp, points, deals in sorted(
                 parts, key=lambda p: (p[0], p[1], p[3]))])


def touch_tournament_of(db: Database, gid: str) -> tuple[str, int] | None:
    """Inside a write: the version of game ``gid``'s tournament bumped (its standings or
    its tables' progress moved); the tournament and its new version, or None."""
    row = db.conn.execute(
        "update tournaments set version = version + 1, updated_at = ? where id = "
        "(select tournament_id from tournament_tables where game_id = ?) "
        "returning id, version", [_now(), gid]).fetchone()
    return (row[0], int(row[1])) if row else None


def touch_tournaments_of_person(db: Database, pid: int) -> list[tuple[str, int]]:
    """Inside a write: the versions of every tournament person ``pid`` plays in bumped."""
    return [(r[0], int(r[1])) for r in db.conn.execute(
        "update tournaments set version = version + 1, updated_at = ? where id in "
        "(select tournament_id from tournament_players where person_id = ?) "
        "returning id, version", [_now(), pid]).fetchall()]


def _person(db: Database, name: str, now: str, club: str) -> int:
    """The person of this name in ``club``, made the first time it is seen there (within
    a write), with the keys their name sorts by."""
    return _person_named(db, name, now, club)[0]


def _person_named(db: Database, name: str, now: str, club: str) -> tuple[int, str]:
    """The person of this name in ``club`` and the name they go by: the one first written
    (or last given by a rename), whatever case or spacing ``name`` is typed in. **The one
    place a typed name becomes a person**: a name is matched within its club only (two
    clubs' "Ania" are two people)."""
    key = person_key(name)
    row = db.conn.execute("select id, name from people where club_id = ? and key = ?",
                          [club, key]).fetchone()
    if row:
        return int(row[0]), str(row[1])
    return int(db.execute("insert into people (name, key, created_at, sort_en, sort_pl, "
                          "club_id) values (?, ?, ?, ?, ?, ?)",
                          [name, key, now, *sort_keys(name), club]).lastrowid), name


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


def _count_seats(db: Database, seats: list[dict[str, Any]], step: int) -> None:
    """A game made (``step`` 1) or deleted (-1): its people's counts of games, in all and
    at its table (``people.games``, ``table_seats``), moved in the same write."""
    ids = [r["person_id"] for r in seats]
    if not ids or None in ids:
        return
    db.conn.executemany("update people set games = games + ? where id = ?",
                        [(step, pid) for pid in ids])
    key = "-".join(str(p) for p in sorted(ids))
    db.conn.executemany("insert into table_seats (person_id, table_key, games) "
                        "values (?, ?, ?) on conflict (person_id, table_key) do update "
                        "set games = games + excluded.games",
                        [(pid, key, step) for pid in sorted(set(ids))])
    if step < 0:
        db.conn.execute("delete from table_seats where table_key = ? and games <= 0", [key])


def _free_code(db: Database) -> str:
    """A join code no game and no club has (a typed code is looked up as either)."""
    while True:
        code = new_join_code()
        if not db.conn.execute("select 1 from games where join_code = ? union all "
                               "select 1 from clubs where invite_code = ?",
                               [code, code]).fetchone():
            return code


class Frozen(StoreError):
    """The game is a table of a closed tournament: nothing of it changes until the
    director reopens the tournament."""

    def __init__(self, tournament_id: str):
        self.tournament_id = tournament_id
        super().__init__(f"game of the closed tournament {tournament_id}")


class VersionConflict(StoreError):
    """Someone else changed the game since this write's version was read."""

    def __init__(self, current_version: int):
        self.current_version = current_version
        super().__init__(f"game is at version {current_version}")


def _now() -> str:
    """The time now, to the second, as ISO text (written once per second: a busy table's
    writes ask for it a few times each)."""
    second = int(time.time())
    if second != _clock[0]:
        _clock[:] = [second, datetime.fromtimestamp(second, UTC).isoformat()]
    return _clock[1]


_clock: list[Any] = [None, ""]


#: How SQLite makes a commit durable: ``FULL`` (the default) waits until the commit is on
#: the disk (an fsync per write: an answered write survives a power cut); ``NORMAL``
#: leaves that to the system (the last writes before a power cut, not a crash of the
#: server, may be lost; the database stays intact either way).
SYNCHRONOUS = ("FULL", "NORMAL")


def owner_only(path: str | os.PathLike[str]) -> None:
    """The database and its WAL files readable by this server's user alone: they hold
    every name, score and join code (a database made by an older version was 0644)."""
    for suffix in ("", "-wal", "-shm"):
        try:
            os.chmod(f"{os.fspath(path)}{suffix}", 0o600)
        except FileNotFoundError:
            pass


def connect(path: str, busy_timeout_ms: int = BUSY_TIMEOUT_MS,
            shared: bool = False, synchronous: str = "FULL") -> Database:
    """Open the database with WAL, foreign keys and a wait for busy writers.

    The wait is set when the connection opens, before its first statement, and the
    connection never opens a transaction by itself (``isolation_level=None``).
    ``shared``: the connection may be used by other threads than its opener's, one at a
    time (the app's pool lends it to one request after another).
    """
    conn = sqlite3.connect(str(path), timeout=busy_timeout_ms / 1000, isolation_level=None,
                           check_same_thread=not shared)
    db = Database(conn)
    if str(path) != ":memory:":
        owner_only(path)
        db.enable_wal()  # SQLite gives the -wal and -shm files the database's mode
    db.execute("PRAGMA foreign_keys = ON")
    db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
    mode = str(synchronous).upper()
    if mode not in SYNCHRONOUS:
        raise ValueError(f"synchronous must be one of {', '.join(SYNCHRONOUS)}, not {mode!r}")
    db.execute(f"PRAGMA synchronous = {mode}")  # FULL: a write answered is a write on disk
    return db


def writes(fn: Callable[..., T]) -> Callable[..., T]:
    """Make ``fn(db, ...)`` a write: committed by the connection's committer (the pool's,
    ``db.committer``; a batch of one on ``db`` for a connection of its own), whole or not
    at all, before the call returns (see :mod:`.commits`)."""
    @functools.wraps(fn)
    def write(db: Database, *args: Any, **kwargs: Any) -> T:
        return (getattr(db, "committer", None) or _ALONE).run(db, fn, *args, **kwargs)
    return write


#: The committer of a connection that is no pool's (the command line, the tests' own).
_ALONE = Committer()


def migrate(db: Database) -> None:
    migrations.apply(db)


#: What the domain does inside a game's write, in its transaction, after the store's own
#: rows (its handlers: the figures, the tournament's version): called with the connection
#: and the game's id.
Then = Callable[[Database, str], Any] | None


@writes
def write_figures(db: Database, gid: str, then: Then) -> None:
    """A write of its own for a game's figures (the domain's backfill of older databases):
    only the domain's ``then`` (its handlers) in the transaction."""
    if then is not None:
        then(db, gid)


#: A running total as the domain hands it to :func:`add_totals`: ``(person_id,
#: table_key, family, part, key, games, wins, places, points, deals, grp, first_played,
#: first_row, first_position, first_game, first_seat)``; the counts are what to add
#: (a game taken out adds -1 game and minus its numbers).
Total = tuple[Any, ...]

_TOTAL_COLUMNS = ("person_id, table_key, family, part, key, games, wins, places, points, "
                  "deals, grp, first_played, first_row, first_position, first_game, "
                  "first_seat")


def _packed(value: Any) -> str | None:
    """The parts of a figure or of a total, kept whole in one column (migration 0016), as
    compact JSON; none (NULL) when there are none."""
    return orjson.dumps(value).decode() if value else None


def add_totals(db: Database, totals: list[Total]) -> None:
    """Inside a write: each running total moved by the numbers given (made if new); where
    the one added was played before the total's first game, it is the first now. A
    total left with no game goes. The totals of parts (kinds of deal, counts) are moved
    inside their family's ``game`` total (:func:`_move_parts`), which comes with them."""
    whole = [t for t in totals if t[3] in WHOLE_PARTS]
    if whole:
        db.conn.executemany(
            f"insert into figure_totals ({_TOTAL_COLUMNS}) values "
            "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "on conflict (person_id, table_key, family, part, key) do update set "
            "games = games + excluded.games, wins = wins + excluded.wins, "
            "places = places + excluded.places, points = points + excluded.points, "
            "deals = deals + excluded.deals, grp = coalesce(excluded.grp, grp), "
            + ", ".join(f"{c} = case when excluded.games > 0 and first_played is null or "
                        "(excluded.games > 0 and (excluded.first_played, excluded.first_row, "
                        "excluded.first_position) < (first_played, first_row, "
                        f"first_position)) then excluded.{c} else {c} end"
                        for c in ("first_played", "first_row", "first_position",
                                  "first_game", "first_seat")), whole)
    if len(whole) < len(totals):
        _move_parts(db, [t for t in totals if t[3] not in WHOLE_PARTS])
    taken = sorted({tuple(t[:5]) for t in whole if t[5] < 0})
    if taken:  # only where a game was taken off, by primary key
        db.conn.executemany("delete from figure_totals where person_id = ? and table_key = ? "
                            "and family = ? and part = ? and key = ? and games <= 0", taken)


#: The totals kept as rows of their own; every other part's ride in the ``game`` row.
WHOLE_PARTS = ("game", "ruleset")


def _move_parts(db: Database, totals: list[Total]) -> None:
    """The parts' totals moved inside their ``game`` totals, as :func:`add_totals` moves
    a row: numbers added, the group kept unless given, the first game replaced by an
    earlier one added, an entry left with no game gone. One read and one write per
    person, table and family (a finished game: 8), not one per part (a Kierki game: 96)."""
    owners = sorted({tuple(t[:3]) for t in totals})
    kept = {(pid, scope, family): queries.unpack(text) for pid, scope, family, text in
            db.conn.execute(  # each by primary key (a row value "in (values …)" scans)
                "select t.person_id, t.table_key, t.family, t.parts from (values "
                + ", ".join(["(?, ?, ?)"] * len(owners)) + ") as v join figure_totals t "
                "on t.person_id = v.column1 and t.table_key = v.column2 and "
                "t.family = v.column3 and t.part = 'game' and t.key = ''",
                [x for owner in owners for x in owner])}
    for (pid, scope, family, part, key, games, _wins, _places, points, deals, grp,
         *first) in totals:
        keyed = kept.setdefault((pid, scope, family), {}).setdefault(part, {})
        entry = keyed.get(key)
        if entry is None:
            keyed[key] = [games, points, deals, grp, *first]
            continue
        entry[0] += games
        entry[1] += points
        entry[2] += deals
        entry[3] = grp if grp is not None else entry[3]
        if games > 0 and (entry[4] is None or tuple(first[:3]) < tuple(entry[4:7])):
            entry[4:9] = first
    db.conn.executemany(
        "update figure_totals set parts = ? where person_id = ? and table_key = ? and "
        "family = ? and part = 'game' and key = ''",
        [(_packed({p: left for p, keyed in parts.items()
                   if (left := {k: e for k, e in keyed.items() if e[0] > 0})}), *owner)
         for owner, parts in kept.items()])


def set_first(db: Database, person_id: int, table_key: str, family: str, part: str,
              key: str, first: tuple[Any, ...]) -> None:
    """Inside a write: where a total was first played (``(played, row, position, game,
    seat)``), once the game that was its first counts no more."""
    if part in WHOLE_PARTS:
        db.conn.execute("update figure_totals set first_played = ?, first_row = ?, "
                        "first_position = ?, first_game = ?, first_seat = ? where "
                        "person_id = ? and table_key = ? and family = ? and part = ? and "
                        "key = ?", [*first, person_id, table_key, family, part, key])
        return
    where = [person_id, table_key, family]
    row = db.conn.execute("select parts from figure_totals where person_id = ? and "
                          "table_key = ? and family = ? and part = 'game' and key = ''",
                          where).fetchone()
    parts = queries.unpack(row[0] if row else None)
    if key in parts.get(part, {}):
        parts[part][key][4:9] = first
        db.conn.execute("update figure_totals set parts = ? where person_id = ? and "
                        "table_key = ? and family = ? and part = 'game' and key = ''",
                        [_packed(parts), *where])


def set_runs(db: Database, person_id: int, table_key: str, family: str, streak: int,
             longest: int, last: tuple[Any, Any] | None) -> None:
    """Inside a write: a person's wins in a row (now and at most) in one family (at one
    table, or ``''``: everywhere), and the last game they count to (played, row)."""
    last_played, last_row = last or (None, None)
    db.conn.execute("update figure_totals set streak = ?, longest = ?, last_played = ?, "
                    "last_row = ? where person_id = ? and table_key = ? and family = ? "
                    "and part = 'game' and key = ''",
                    [streak, longest, last_played, last_row, person_id, table_key, family])


def carry_runs(db: Database, games: list[tuple[int, str, str, int, str, int]]
               ) -> set[tuple[int, str, str]]:
    """Inside a write: each person's wins in a row (in one family, everywhere or at one
    table) carried on by one more game ``(person, table, family, won, played, row)``,
    where that game comes after the last they count (one statement for all of them);
    the totals it moved, as ``(person, table, family)``. A game played before a total's
    last moves nothing here: its runs are counted again (:func:`set_runs`)."""
    if not games:
        return set()
    given = " union all ".join(
        ["select ? as pid, ? as scope, ? as family, ? as won, ? as played, ? as game_row",
         *["select ?, ?, ?, ?, ?, ?"] * (len(games) - 1)])
    run = "case when g.won then t.streak + 1 else 0 end"
    return {(int(pid), scope, family) for pid, scope, family in db.conn.execute(
        f"update figure_totals as t set streak = {run}, longest = max(t.longest, {run}), "
        f"last_played = g.played, last_row = g.game_row from ({given}) as g "
        "where t.person_id = g.pid and t.table_key = g.scope and t.family = g.family and "
        "t.part = 'game' and t.key = '' and (t.last_played is null or "
        "(t.last_played, t.last_row) < (g.played, g.game_row)) "
        "returning person_id, table_key, family",
        [x for game in games for x in game]).fetchall()}


@writes
def replace_totals(db: Database, totals: list[tuple[Any, ...]]) -> None:
    """Every running total replaced by ``totals`` (the domain's, made from every figure
    kept: ``Total`` then streak, longest, last_played, last_row; the parts' totals as
    rows of their own, kept here inside their ``game`` total), and the setting that
    asked for it cleared."""
    parts: dict[tuple[Any, ...], dict[str, dict[str, list[Any]]]] = {}
    for pid, scope, family, part, key, games, _w, _p, points, deals, grp, *first in totals:
        if part not in WHOLE_PARTS:
            parts.setdefault((pid, scope, family), {}).setdefault(part, {})[key] = [
                games, points, deals, grp, *first[:5]]
    db.conn.execute("delete from figure_totals")
    db.conn.executemany(
        f"insert into figure_totals ({_TOTAL_COLUMNS}, streak, longest, last_played, "
        "last_row, parts) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
        "?, ?)", [(*t, _packed(parts.get(tuple(t[:3]))) if t[3] == "game" else None)
                  for t in totals if t[3] in WHOLE_PARTS])
    db.conn.execute("delete from settings where key = ?", [TOTALS_WANTED])


#: Letters and digits that cannot be mistaken for each other when read aloud or typed.
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
#: A new game's code: 32⁸ ≈ 1.1 × 10¹² of them, so that a guesser at the limit one
#: address may reach (``web/limits.py``) needs centuries to find one of a thousand live
#: games. Shown as two groups of four (``K7QM 2XRT``).
CODE_LENGTH = 8
#: The lengths a typed code may have: the games made before issue 32 have six.
CODE_LENGTHS = (6, 8)


def new_join_code() -> str:
    """A short code to join a game from another phone, such as ``K7QM2XRT``."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_id() -> str:
    """An unguessable game id for URLs (96 random bits) that never starts with "-", so
    that ``kierki games delete ID`` cannot mistake it for an option."""
    while (gid := secrets.token_urlsafe(12)).startswith("-"):
        pass
    return gid


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
    now = _now()
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
                           "id = ? returning club_id", [_now(), old]).fetchone()
    if club is None:
        raise queries.GameNotFound(old)
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
    now = _now()
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
    params: list[Any] = [_now()]
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
        raise VersionConflict(queries.game_version(db, gid))  # GameNotFound if it is gone
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
                    [_now(), tournament_id, gid, action, number, by,
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
    _insert_deal(db, gid, number, result, _now())
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
        raise queries.GameNotFound(f"{gid} deal {number}")
    db.table("deal_history").insert({"game_id": gid, "number": number,
                                     "result": old[0]["result"], "action": "edit",
                                     "replaced_at": _now()})
    db.execute("update deals set result = ?, recorded_at = ? where game_id = ? and number = ?",
               [_RESULT_TEXT(result), _now(), gid, number])
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
                                         "replaced_at": _now()})
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
                    "(select rematch_of from games where id = ?)", [_now(), gid])
    if then is not None:
        then(db, gid)
    _count_seats(db, [{"person_id": p} for (p,) in db.conn.execute(
        "select person_id from players where game_id = ?", [gid])], -1)
    for table in ("figures", "deal_history", "deals", "players", "signatures", "changes"):
        db.execute(f"delete from {table} where game_id = ?", [gid])
    db.execute("delete from games where id = ?", [gid])


@writes
def create_club(db: Database, cid: str, name: str, public: bool = True) -> str:
    """A new club (its id the caller's, from :func:`new_id`); its invitation code."""
    now = _now()
    code = _free_club_code(db)
    db.conn.execute("insert into clubs (id, name, public, casual_rated, invite_code, version, "
                    "created_at, updated_at) values (?, ?, ?, 0, ?, 1, ?, ?)",
                    [cid, name, int(public), code, now, now])
    return code


#: What a club's manager may change, each a column of ``clubs``.
CLUB_SETTINGS = ("name", "public", "casual_rated", "default_ruleset")


@writes
def change_club(db: Database, cid: str, changes: dict[str, Any], then: Then = None) -> int:
    """A club's settings changed (``changes``: columns of :data:`CLUB_SETTINGS`); its new
    version. The domain's ``then`` runs in the same write (the club's ratings replayed
    when its casual games start or stop counting)."""
    if not set(changes) <= set(CLUB_SETTINGS):
        raise ValueError(f"not a club's setting: {sorted(set(changes) - set(CLUB_SETTINGS))}")
    sets = "".join(f"{column} = ?, " for column in changes)
    row = db.conn.execute(f"update clubs set {sets}version = version + 1, updated_at = ? "
                          "where id = ? returning version",
                          [*changes.values(), _now(), cid]).fetchone()
    if row is None:
        raise queries.ClubNotFound(cid)
    if then is not None:
        then(db, cid)
    return int(row[0])


@writes
def renew_club_code(db: Database, cid: str) -> str:
    """A club's new invitation code (the old one invites nobody any more)."""
    code = _free_club_code(db)
    if db.conn.execute("update clubs set invite_code = ?, version = version + 1, "
                       "updated_at = ? where id = ?", [code, _now(), cid]).rowcount != 1:
        raise queries.ClubNotFound(cid)
    return code


@writes
def add_club_director(db: Database, cid: str, name: str) -> int:
    """A director named by the club's manager; the director's row id."""
    if not db.conn.execute("select 1 from clubs where id = ?", [cid]).fetchone():
        raise queries.ClubNotFound(cid)
    return int(db.conn.execute("insert into club_directors (club_id, name, created_at) "
                               "values (?, ?, ?)", [cid, name, _now()]).lastrowid)


@writes
def remove_club_director(db: Database, cid: str, did: int) -> bool:
    """A director no more (their link and token stop working); whether there was one."""
    return db.conn.execute("delete from club_directors where club_id = ? and id = ?",
                           [cid, did]).rowcount == 1


class RulesetInUse(StoreError):
    """A game is played with this ruleset, so it stays."""


@writes
def create_ruleset(db: Database, rid: str, family: str, data: dict[str, Any],
                   made_by: str | None, club: str = HOME_CLUB) -> str:
    """Store a house variant (checked by its family) of ``club`` under a new id; its
    creation time."""
    now = _now()
    db.execute("insert into rulesets (id, family, data, made_by, created_at, club_id) "
               "values (?, ?, ?, ?, ?, ?)",
               [rid, family, json.dumps({**data, "created_at": now}, ensure_ascii=False),
                made_by, now, club])
    return now


@writes
def delete_ruleset(db: Database, rid: str) -> None:
    """Delete a house variant; :class:`RulesetInUse` if any game is played with it."""
    if queries.ruleset_in_use(db, rid):
        raise RulesetInUse(rid)
    if db.execute("delete from rulesets where id = ?", [rid]).rowcount != 1:
        raise queries.RulesetNotFound(rid)
    db.execute("delete from settings where key = 'default_ruleset' and value = ?", [rid])


class NameTaken(StoreError):
    """Another person already has this name (in another case or spelling)."""


@writes
def rename_person(db: Database, pid: int, name: str, by: str = "host") -> list[str]:
    return _rename(db, pid, name, by, keep=True)


def _rename(db: Database, pid: int, name: str, by: str, keep: bool) -> list[str]:
    """Give a person a new name everywhere: the person and every seat they played. The
    games they played change version, so every page and cache shows the new name. The
    rename is kept in ``renames`` (the old name, when, by which right)."""
    key = person_key(name)
    now = _now()
    old = db.conn.execute("select name, club_id from people where id = ?", [pid]).fetchone()
    if old is None:
        raise queries.PersonNotFound(pid)
    if db.conn.execute("select 1 from people where club_id = ? and key = ? and id != ?",
                       [old[1], key, pid]).fetchone():
        raise NameTaken(name)  # another of the person's club has it
    if by not in RIGHTS:
        raise ValueError(f"no such right: {by!r}")
    if keep and old[0] != name:
        db.conn.execute("insert into renames (person_id, old_name, new_name, at, by) "
                        "values (?, ?, ?, ?, ?)", [pid, old[0], name, now, by])
    if db.execute("update people set name = ?, key = ?, sort_en = ?, sort_pl = ? where id = ?",
                  [name, key, *sort_keys(name), pid]).rowcount != 1:
        raise queries.PersonNotFound(pid)
    games = [r["game_id"] for r in db.query(
        "select distinct game_id from players where person_id = ?", [pid])]
    closed = db.conn.execute(
        "select t.tournament_id from tournament_tables t join tournaments n on n.id = "
        "t.tournament_id where n.closed and t.game_id in (select value from json_each(?)) "
        "limit 1", [json.dumps(games)]).fetchone()
    if closed:  # a closed night's names are final, as its results
        raise Frozen(closed[0])
    db.execute("update players set name = ? where person_id = ?", [name, pid])
    db.execute("update games set version = version + 1, updated_at = ? where id in "
               "(select value from json_each(?))", [now, json.dumps(games)])
    touch_tournaments_of_person(db, pid)
    return games


class RenameChanged(StoreError):
    """The rename cannot be taken back: it was already, or the person has been renamed
    again since."""


@writes
def undo_rename(db: Database, rename_id: int) -> int:
    """Take a rename back (the host's): the person gets the old name again, and the undo
    is kept (the rename marked undone). Returns the person's id."""
    row = db.conn.execute("select r.person_id, r.old_name, r.new_name, r.undone_at, p.name "
                          "from renames r join people p on p.id = r.person_id where r.id = ?",
                          [rename_id]).fetchone()
    if row is None:
        raise queries.PersonNotFound(rename_id)
    pid, old_name, new_name, undone, current = row
    if undone or current != new_name:
        raise RenameChanged(rename_id)
    _rename(db, pid, old_name, "host", keep=False)
    db.conn.execute("update renames set undone_at = ? where id = ?", [_now(), rename_id])
    return int(pid)


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
                    "values (?, ?, ?, ?)", [gid, seat, by, _now()])
    if then is not None:
        then(db, gid)
    return new_version


@writes
def set_setting(db: Database, key: str, value: str) -> None:
    """Keep one of this server's choices (:func:`queries.setting` reads it)."""
    db.execute("insert into settings (key, value) values (?, ?) "
               "on conflict (key) do update set value = excluded.value", [key, value])


@writes
def take_setting(db: Database, key: str, expected: str) -> bool:
    """Empty a setting if it still holds ``expected``, in one write: whether it did (a
    value usable once, such as the host link's hash, is taken by one request only)."""
    taken = db.execute("update settings set value = '' where key = ? and value = ?",
                       [key, expected])
    return taken.rowcount == 1


class TournamentChanged(StoreError):
    """The tournament is not as the write expected (``reason`` says how): the round was
    drawn already (``drawn``: another tab of the director's), a game of the current round
    is unfinished (``unfinished``), or the tournament is closed (``closed``)."""

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


def _claim_tournament(db: Database, tid: str) -> int:
    """Bump the tournament's version, unless it is closed (:class:`TournamentChanged`)."""
    row = db.conn.execute("select version, closed from tournaments where id = ?",
                          [tid]).fetchone()
    if row is None:
        raise queries.TournamentNotFound(tid)
    if row[1]:
        raise TournamentChanged("closed", row[0])
    db.conn.execute("update tournaments set version = version + 1, updated_at = ? "
                    "where id = ?", [_now(), tid])
    return row[0] + 1


def _store_round(db: Database, tid: str, number: int, tables: list[NewTable]) -> list[str]:
    club = db.conn.execute("select club_id from tournaments where id = ?", [tid]).fetchone()
    if club is None:
        raise queries.TournamentNotFound(tid)
    if number > 1:
        left = db.conn.execute(
            "select count(*) from tournament_tables t join games g on g.id = t.game_id "
            "where t.tournament_id = ? and t.round = ? and g.finished = 0",
            [tid, number - 1]).fetchone()[0]
        if left:
            raise TournamentChanged("unfinished", queries.tournament_version(db, tid))
    last = db.conn.execute("select max(round) from tournament_tables where tournament_id = ?",
                           [tid]).fetchone()[0] or 0
    if last != number - 1:
        raise TournamentChanged("drawn", queries.tournament_version(db, tid))
    games = []
    for table, new in enumerate(tables, start=1):
        gid = _insert_game(db, new.family, new.ruleset, new.names, new.settings,
                           club=club[0])
        db.conn.execute("insert into tournament_tables (tournament_id, round, number, game_id, "
                        "seats) values (?, ?, ?, ?, ?)",
                        [tid, number, table, gid, json.dumps(new.seats)])
        games.append(gid)
    return games


@writes
def create_tournament(db: Database, tid: str, name: str, rounds: int,
                      rulesets: dict[str, str], scoring: str, seed: str,
                      players: list[str], first_round: list[NewTable],
                      club: str = HOME_CLUB) -> list[str]:
    """A tournament of ``club``, its players (entry numbers 1, 2, … in the order given,
    each the person of that name in the club) and its first round's games, in one
    transaction."""
    now = _now()
    db.conn.execute("insert into tournaments (id, name, rounds, rulesets, scoring, seed, "
                    "version, closed, created_at, updated_at, club_id) values (?, ?, ?, ?, ?, "
                    "?, 1, 0, ?, ?, ?)",
                    [tid, name, rounds, json.dumps(rulesets), scoring, seed, now, now, club])
    for number, typed in enumerate(players, start=1):
        db.conn.execute("insert into tournament_players (tournament_id, number, person_id, "
                        "joined) values (?, ?, ?, 1)",
                        [tid, number, _person(db, typed, now, club)])
    return _store_round(db, tid, 1, first_round)


@writes
def add_round(db: Database, tid: str, number: int, tables: list[NewTable]) -> list[str]:
    """Round ``number``'s games, if round ``number - 1`` is the last drawn and every game of
    it is finished (checked here, under the write lock: two directors' tabs cannot both
    draw it); :class:`TournamentChanged` otherwise."""
    _claim_tournament(db, tid)
    return _store_round(db, tid, number, tables)


@writes
def add_tournament_player(db: Database, tid: str, name: str, joined: int) -> int:
    """A late arrival: the next entry number, drawn from round ``joined`` on."""
    _claim_tournament(db, tid)
    now = _now()
    club = db.conn.execute("select club_id from tournaments where id = ?", [tid]).fetchone()
    pid = _person(db, name, now, club[0])  # claimed: the tournament is there
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
    _claim_tournament(db, tid)
    if db.conn.execute("update tournament_players set left_after = ? where tournament_id = ? "
                       "and number = ? and left_after is null",
                       [after, tid, number]).rowcount != 1:
        raise queries.TournamentNotFound(f"{tid}/{number}")


def _bump_games_of(db: Database, tid: str) -> None:
    """Every game of the tournament changes version: its pages (and every phone on them)
    show at once whether the game can be written."""
    db.conn.execute("update games set version = version + 1, updated_at = ? where id in "
                    "(select game_id from tournament_tables where tournament_id = ?)",
                    [_now(), tid])


@writes
def close_tournament(db: Database, tid: str, by: str = "director") -> None:
    """The tournament is over: nothing more is drawn or changed in it, its games included
    (:func:`_bump` refuses them, :class:`Frozen`), until the director reopens it."""
    _claim_tournament(db, tid)
    db.conn.execute("update tournaments set closed = 1 where id = ?", [tid])
    _bump_games_of(db, tid)
    _note(db, None, "close", by, tournament_id=tid)


@writes
def reopen_tournament(db: Database, tid: str, by: str = "director") -> None:
    """A closed tournament opened again (kept in ``changes``): its games can be corrected,
    and rounds drawn, as before it was closed."""
    row = db.conn.execute("select closed from tournaments where id = ?", [tid]).fetchone()
    if row is None:
        raise queries.TournamentNotFound(tid)
    if not row[0]:
        raise TournamentChanged("open", queries.tournament_version(db, tid))
    db.conn.execute("update tournaments set closed = 0, version = version + 1, updated_at = ? "
                    "where id = ?", [_now(), tid])
    _bump_games_of(db, tid)
    _note(db, None, "reopen", by, tournament_id=tid)


# -- ratings and seasons (issue 36) ---------------------------------------------------

@migrations(name="0014_ratings_seasons")
def _ratings_seasons(db: Database) -> None:
    """A club's ratings and seasons (issue 36):

    * ``rated_games``: every finished one-player-a-side game, in the order it finished
      (``seq``, given when it finishes; an undo or a deletion takes the row off, a game
      finished again goes to the end), its club, whether it is a casual game (no
      tournament's) and whether it counts for ratings now (``counted``: tournament games
      always, casual ones when the club says so).
    * ``rating_seats``: per counted game and seat, its person, place, and the person's
      rating (``mu``, ``sigma``) before and after it, and their rated games after it:
      a correction replays the club's games from that game on, starting from there.
    * ``ratings``: each person's rating now (their last game's), and its conservative
      number (``mu − 3·sigma``, what a table ranks by).
    * ``seasons``: a club's seasons, each a name and a date range (the nights whose
      tournament began within it), how it adds up (``points`` or ``places``) and how many
      of a player's best nights count (``best``, none: all).

    The ratings of the games finished before it are the domain's to make (they need the
    order games finished in): :data:`RATINGS_WANTED` asks for them when the app starts.
    """
    db.execute("""create table rated_games (
        game_id text primary key references games(id), club_id text not null,
        seq integer not null unique, casual integer not null, counted integer not null)""")
    db.execute("create index rated_games_by_club on rated_games (club_id, counted, seq)")
    db.execute("""create table rating_seats (
        game_id text not null references games(id), seat integer not null,
        person_id integer not null, club_id text not null, seq integer not null,
        place integer not null, games integer not null,
        mu_before real not null, sigma_before real not null,
        mu real not null, sigma real not null, primary key (game_id, seat))""")
    db.execute("create index rating_seats_by_club on rating_seats (club_id, seq)")
    db.execute("create index rating_seats_by_person on rating_seats (person_id, seq, mu, "
               "sigma, games)")
    db.execute("""create table ratings (
        person_id integer primary key references people(id), club_id text not null,
        mu real not null, sigma real not null, conservative real not null,
        games integer not null)""")
    db.execute("create index ratings_by_club on ratings (club_id, conservative desc)")
    db.execute("""create table seasons (
        id text primary key, club_id text not null, name text not null,
        starts text not null, ends text not null, scoring text not null, best integer,
        created_at text not null)""")
    db.execute("create index seasons_by_club on seasons (club_id, starts, ends)")
    db.execute("insert into settings (key, value) values (?, '1') on conflict (key) do "
               "update set value = '1'", [RATINGS_WANTED])


#: The setting that says every rating must be made from the games finished so far (set by
#: migration 0014; the domain's backfill at the app's start clears it).
RATINGS_WANTED = "ratings_wanted"

#: A seat's rating row as the domain hands it to :func:`put_rating_seats`: ``(game_id,
#: seat, person_id, club_id, seq, place, games, mu_before, sigma_before, mu, sigma)``.
RatingSeat = tuple[Any, ...]
#: A person's rating now: ``(person_id, club_id, mu, sigma, conservative, games)``.
PersonRating = tuple[Any, ...]


def add_rated_game(db: Database, gid: str, club: str, casual: bool, counted: bool) -> int:
    """Inside a write: game ``gid`` finished, last in its finishing order; its ``seq``."""
    return int(db.conn.execute(
        "insert into rated_games (game_id, club_id, seq, casual, counted) values "
        "(?, ?, (select coalesce(max(seq), 0) + 1 from rated_games), ?, ?) returning seq",
        [gid, club, int(casual), int(counted)]).fetchone()[0])


def drop_rated_game(db: Database, gid: str) -> None:
    """Inside a write: game ``gid`` no longer finished (undone, corrected, deleted)."""
    db.conn.execute("delete from rating_seats where game_id = ?", [gid])
    db.conn.execute("delete from rated_games where game_id = ?", [gid])


def count_casual(db: Database, club: str, counted: bool) -> int | None:
    """Inside a write: the club's casual games count for ratings (or no more); the first
    ``seq`` that changed, or None."""
    row = db.conn.execute("update rated_games set counted = ? where club_id = ? and casual "
                          "and counted != ? returning seq",
                          [int(counted), club, int(counted)]).fetchall()
    return min((r[0] for r in row), default=None)


def put_rating_seats(db: Database, club: str, seq: int, rows: list[RatingSeat]) -> None:
    """Inside a write: the club's seats' ratings from game ``seq`` on replaced by
    ``rows``."""
    db.conn.execute("delete from rating_seats where club_id = ? and seq >= ?", [club, seq])
    db.conn.executemany(
        "insert into rating_seats (game_id, seat, person_id, club_id, seq, place, games, "
        "mu_before, sigma_before, mu, sigma) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)


def put_ratings(db: Database, rows: list[PersonRating], gone: tuple[int, ...] = ()) -> None:
    """Inside a write: people's ratings now (``gone``: people left with no rated game)."""
    db.conn.executemany(
        "insert into ratings (person_id, club_id, mu, sigma, conservative, games) values "
        "(?, ?, ?, ?, ?, ?) on conflict (person_id) do update set club_id = excluded.club_id, "
        "mu = excluded.mu, sigma = excluded.sigma, conservative = excluded.conservative, "
        "games = excluded.games", rows)
    db.conn.executemany("delete from ratings where person_id = ?", [(p,) for p in gone])


@writes
def replace_ratings(db: Database, games: list[tuple[str, str, bool, bool]],
                    seats: list[RatingSeat], ratings: list[PersonRating]) -> None:
    """Every rating made afresh (the backfill of a database older than them): the rated
    games in their finishing order ``(game_id, club_id, casual, counted)``, their seats'
    ratings and each person's now."""
    for table in ("rating_seats", "rated_games", "ratings"):
        db.conn.execute(f"delete from {table}")
    db.conn.executemany("insert into rated_games (game_id, club_id, seq, casual, counted) "
                        "values (?, ?, ?, ?, ?)",
                        [(g, c, i, int(casual), int(counted))
                         for i, (g, c, casual, counted) in enumerate(games, start=1)])
    db.conn.executemany(
        "insert into rating_seats (game_id, seat, person_id, club_id, seq, place, games, "
        "mu_before, sigma_before, mu, sigma) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", seats)
    put_ratings(db, ratings)
    db.conn.execute("delete from settings where key = ?", [RATINGS_WANTED])


class SeasonNotFound(StoreError):
    """No season of this club has this id."""


@writes
def put_season(db: Database, sid: str, club: str, name: str, starts: str, ends: str,
               scoring: str, best: int | None) -> None:
    """A club's season made, or changed (its name, range, scoring, best N)."""
    db.conn.execute(
        "insert into seasons (id, club_id, name, starts, ends, scoring, best, created_at) "
        "values (?, ?, ?, ?, ?, ?, ?, ?) on conflict (id) do update set name = excluded.name, "
        "starts = excluded.starts, ends = excluded.ends, scoring = excluded.scoring, "
        "best = excluded.best where seasons.club_id = excluded.club_id",
        [sid, club, name, starts, ends, scoring, best, _now()])


@writes
def delete_season(db: Database, sid: str, club: str) -> None:
    if db.conn.execute("delete from seasons where id = ? and club_id = ?",
                       [sid, club]).rowcount != 1:
        raise SeasonNotFound(sid)


@migrations(name="0015_lean_figure_parts")
def _lean_figure_parts(db: Database) -> None:
    """The figure parts lose their two covering indexes (issue 33: the deal that ends a
    game wrote some 60 parts into each, and that write was a third of all a table's
    deals cost the server). Made for summing parts (issue 25), they were read by nothing
    once the running totals (0011) did the sums; where a kind of deal was first played
    is found through the figures' index instead (:func:`.queries.first_figure`)."""
    for index in (("idx_figure_parts_person_id_family_part_key_points_deals_played_game_row_"
                   "position_grp_game_id_seat"),
                  ("idx_figure_parts_table_key_person_id_family_part_key_points_deals_played_"
                   "game_row_position_grp_game_id_seat")):
        db.execute(f"drop index if exists {index}")


@migrations(name="0016_packed_parts")
def _packed_parts(db: Database) -> None:
    """A game's and a person's parts kept whole, in one column of the row they belong to
    (issue 33: the deal that ends a game wrote 48 figure parts and moved 96 running
    totals of parts, one row each, and that was a tenth of every deal's processor time
    in ``bench/server.py``):

    * ``figures.parts``: a seat's parts (``[part, key, position, grp, points, deals]``,
      by part and position) instead of ``figure_parts``, which goes;
    * ``figure_totals.parts``: on a person's ``game`` total (everywhere, or at one
      table), the totals of their parts ``{part: {key: [games, points, deals, grp,
      first_played, first_row, first_position, first_game, first_seat]}}`` instead of a
      row each.

    Readers get the same rows as before (:func:`.queries.totals`, :func:`.queries.
    game_figures`); every number moves over unchanged."""
    db.execute("alter table figures add column parts text")
    seats: dict[tuple[str, int], list[list[Any]]] = {}
    for gid, seat, *part in db.conn.execute(
            "select game_id, seat, part, key, position, grp, points, deals from figure_parts "
            "order by game_id, seat, part, position"):
        seats.setdefault((gid, seat), []).append(part)
    db.conn.executemany("update figures set parts = ? where game_id = ? and seat = ?",
                        [(_packed(parts), *key) for key, parts in seats.items()])
    db.execute("drop table figure_parts")
    db.execute("alter table figure_totals add column parts text")
    totals: dict[tuple[Any, ...], dict[str, dict[str, list[Any]]]] = {}
    for pid, scope, family, part, key, *entry in db.conn.execute(
            "select person_id, table_key, family, part, key, games, points, deals, grp, "
            "first_played, first_row, first_position, first_game, first_seat from "
            "figure_totals where part not in ('game', 'ruleset') "
            "order by person_id, table_key, family, part, key"):
        totals.setdefault((pid, scope, family), {}).setdefault(part, {})[key] = entry
    db.conn.executemany("update figure_totals set parts = ? where person_id = ? and "
                        "table_key = ? and family = ? and part = 'game' and key = ''",
                        [(_packed(parts), *owner) for owner, parts in totals.items()])
    db.execute("delete from figure_totals where part not in ('game', 'ruleset')")


@migrations(name="0017_unread_index")
def _unread_index(db: Database) -> None:
    """The index of ``games.updated_at`` goes (issue 33): no read has used it since the
    list of games orders by when a game was played (its last deal, migration 0007), and
    every deal, correction and rename moved an entry of it."""
    db.execute("drop index if exists idx_games_updated_at")


@migrations(name="0018_club_members")
def _club_members(db: Database) -> None:
    """Members of their own, and the club's log.

    * ``club_members``: one row a member, made when a browser or an API client joins by
      the invitation; the member's token is random and kept only as its hash
      (``token_hash``, unique), so removing the row ends that member's right alone.
    * ``club_log``: what happened to a club's membership (a member joined, removed,
      every member renewed), when and by which right, newest last.
    """
    db.execute("""create table club_members (
        id integer primary key, club_id text not null references clubs(id),
        token_hash text not null, joined_at text not null)""")
    db.execute("create unique index club_members_by_hash on club_members (token_hash)")
    db.execute("create index club_members_by_club on club_members (club_id, id)")
    db.execute("""create table club_log (
        id integer primary key, club_id text not null references clubs(id),
        at text not null, action text not null, member_id integer, by text not null)""")
    db.execute("create index club_log_by_club on club_log (club_id, id)")
