"""A club's members (a token hash each, so one is removed alone) and its log."""
from __future__ import annotations

from sqlite_utils import Database


def migrate(db: Database) -> None:
    db.execute("""create table club_members (
        id integer primary key, club_id text not null references clubs(id),
        token_hash text not null, joined_at text not null)""")
    db.execute("create unique index club_members_by_hash on club_members (token_hash)")
    db.execute("create index club_members_by_club on club_members (club_id, id)")
    db.execute("""create table club_log (
        id integer primary key, club_id text not null references clubs(id),
        at text not null, action text not null, member_id integer, by text not null)""")
    db.execute("create index club_log_by_club on club_log (club_id, id)")
