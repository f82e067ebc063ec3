"""The figure parts lose their two covering indexes. Made for summing parts, they were read by nothing
once the running totals (0011) did the sums; where a kind of deal was first played
is found through the figures' index instead (:func:`.queries.first_figure`).
"""
from __future__ import annotations

from sqlite_utils import Database


def migrate(db: Database) -> None:
    for index in (("idx_figure_parts_person_id_family_part_key_points_deals_played_game_row_"
                   "position_grp_game_id_seat"),
                  ("idx_figure_parts_table_key_person_id_family_part_key_points_deals_played_"
                   "game_row_position_grp_game_id_seat")):
        db.execute(f"drop index if exists {index}")
