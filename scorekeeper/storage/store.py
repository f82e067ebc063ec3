"""The whole storage layer in one import: every aggregate's reads and writes, the
connection, the write helper, the migrations and the backups. Nothing in the app imports
it; a tool or a check that wants all of the storage (and nothing above it) does."""
from __future__ import annotations

from . import (  # noqa: F401
    backups,
    club_reads,
    club_writes,
    connection,
    figure_reads,
    figure_writes,
    game_reads,
    game_writes,
    house_reads,
    house_writes,
    instance_lock,
    members,
    migrations,
    people_reads,
    people_writes,
    rate_counts,
    rating_reads,
    rating_writes,
    tournament_reads,
    tournament_writes,
    transaction,
)
