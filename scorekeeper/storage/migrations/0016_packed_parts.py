"""A seat's parts kept whole in ``figures.parts`` (``figure_parts`` goes), and a
person's parts' totals inside their ``game`` total's ``parts``; every number unchanged."""
from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from ..connection import _packed


def migrate(db: Database) -> None:
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
