"""Club nights: Kierki tournaments of many tables, drawn round by round.

Each round is drawn (:mod:`...rules.draw`) and every table's game created with its players
seated; a table plays its game as any other, and the tournament only reads the games'
figures, so a game corrected after its round still moves the standings. The next round
is drawn when every game of the current one is finished.
"""
from ...storage.tournament_reads import TournamentNotFound, table_of_game
from ...storage.tournament_reads import tournament_changes as changes
from .director import NotNow, Unsigned, add_player, close, create, draw_next, reopen, withdraw
from .entry import (
    MAX_PLAYERS,
    MAX_ROUNDS,
    MIN_PLAYERS,
    NAME_MAX,
    SCORINGS,
    SEED_MAX,
    SIZES,
    UNFAIR,
    per_seat,
)
from .night import Tournament, confirmed, load, signatures
from .projector import LiveStandings, Screen, ScreenLine, live_standings, screen

__all__ = ["MAX_PLAYERS", "MAX_ROUNDS", "MIN_PLAYERS", "NAME_MAX", "SCORINGS", "SEED_MAX",
           "SIZES", "UNFAIR", "LiveStandings", "NotNow", "Screen",
           "ScreenLine", "Tournament", "TournamentNotFound", "Unsigned", "add_player",
           "changes", "close", "confirmed", "create", "draw_next", "live_standings", "load",
           "per_seat", "reopen", "screen", "signatures", "table_of_game", "withdraw"]
