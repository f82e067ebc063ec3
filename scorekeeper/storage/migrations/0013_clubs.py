"""Clubs on one shared host, each its own people, games and tournaments; the home club
holds everything made before; a person's name is unique within their club."""
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
