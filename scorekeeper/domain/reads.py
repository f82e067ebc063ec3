"""The read side the pages, the API and the outputs ask (never the storage itself): each
answer one of the store's reads, named for the question. Whole games and tournaments are
loaded by :func:`.service.load` and :func:`.tournaments.load`, people's figures and
evenings by :mod:`.people`."""
from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from ..storage import people_reads
from ..storage.club_reads import (
    club_directors,
    club_of_game,
    club_of_person,
    club_of_tournament,
    club_tournaments,
)
from ..storage.connection import CODE_ALPHABET, CODE_LENGTHS, HOME_CLUB
from ..storage.game_reads import (
    count_games,
    deal_history,
    game_by_code,
    game_header,
    game_version,
    game_versions,
    versions,
)
from ..storage.game_reads import list_games as games_listed
from ..storage.house_reads import setting
from ..storage.people_reads import (
    count_people,
    names,
    person,
    person_games,
    person_tables,
    renames,
    table_count,
)
from ..storage.people_reads import people as known_people
from ..storage.people_reads import people_page as players_page
from ..storage.tournament_reads import (
    TableOfGame,
    TournamentTable,
    round_moves,
    round_sizes,
    table_of_game,
    tournament_version,
)

__all__ = ["CODE_ALPHABET", "CODE_LENGTHS", "HOME_CLUB", "TableOfGame", "TournamentTable",
           "club_directors", "club_of_game", "club_of_person", "club_of_tournament",
           "club_tournaments", "count_games", "count_people", "deal_history", "game_by_code",
           "game_header", "game_version", "game_versions", "games_listed", "known_people",
           "names", "person", "person_games", "person_tables", "players_page", "renames",
           "round_moves", "round_sizes", "table_count", "table_of_game", "tournament_version",
           "versions"]


def in_name_order(db: Database, ids: Any, names: dict[int, str], language: str
                  ) -> list[int]:
    """The people of ``ids`` in the order ``language`` sorts their names, by the keys kept
    with each name."""
    keys = people_reads.sort_keys(db, ids, language)
    return sorted(ids, key=lambda pid: (keys.get(pid, b""), names.get(pid, ""), pid))


def default_ruleset(db: Database) -> str | None:
    """The ruleset a new game starts with, if the host chose one."""
    return setting(db, "default_ruleset")
