"""The figure parts' two covering indexes go: the running totals do the sums."""
from __future__ import annotations

from sqlite_utils import Database


def migrate(db: Database) -> None:
    for index in (("idx_figure_parts_person_id_family_part_key_points_deals_played_game_row_"
                   "position_grp_game_id_seat"),
                  ("idx_figure_parts_table_key_person_id_family_part_key_points_deals_played_"
                   "game_row_position_grp_game_id_seat")):
        db.execute(f"drop index if exists {index}")
