"""Running totals of the figures per person, table, family and part
(``figure_totals``, filled at the app's start: :data:`TOTALS_WANTED`), and each
person's games in all and per table (``people.games``, ``table_seats``)."""
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
    # a person's best and worst game, everywhere and at one table
    db.execute("drop index if exists idx_figures_person_id_family_total")
    by_total = ["person_id", "family", "total", "played", "game_row"]
    db.table("figures").create_index(by_total)
    db.table("figures").create_index(["table_key", *by_total])
    db.execute("insert into settings (key, value) values (?, '1') on conflict (key) do "
               "update set value = '1'", [TOTALS_WANTED])
