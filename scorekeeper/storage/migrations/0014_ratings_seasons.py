"""A club's ratings and seasons:

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
