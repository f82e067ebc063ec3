"""A club's ratings (the games in their finishing order, each seat's rating before
and after, each person's now; made at the app's start: :data:`RATINGS_WANTED`) and its
seasons."""
from __future__ import annotations

from sqlite_utils import Database

from ..rating_writes import RATINGS_WANTED


def migrate(db: Database) -> None:
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
