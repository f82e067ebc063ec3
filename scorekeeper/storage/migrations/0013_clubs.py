"""Clubs on one shared host: each club its own people, games and
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
from __future__ import annotations

from sqlite_utils import Database

from .. import connection
from ..connection import HOME_CLUB, _free_code


def migrate(db: Database) -> None:
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
    now = connection.now()
    db.execute("insert into clubs (id, name, public, casual_rated, invite_code, created_at, "
               "updated_at) values (?, '', 1, 0, ?, ?, ?)",
               [HOME_CLUB, _free_code(db), now, now])
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
