"""Stats at constant cost: what the people's pages read instead of summing
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
from __future__ import annotations

from sqlite_utils import Database

from ..figure_writes import TOTALS_WANTED


def migrate(db: Database) -> None:
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
