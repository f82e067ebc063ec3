"""The read side: what the pages, the API and the outputs ask of the stored games,
tournaments, people and settings, each named for the question. The web and the outputs
read here, never the storage (``tests/test_architecture.py``); each answer is one of
:mod:`..storage.queries`' reads (a few SQL statements at most, by index), so a page pays
nothing for asking through the domain. Whole games and tournaments are loaded by
:func:`.service.load` and :func:`.tournaments.load`, people's figures and evenings by
:mod:`.people`; the writes are the service's, the tournaments', and :mod:`.house`'s."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sqlite_utils import Database

from ..storage import club_reads, game_reads, house_reads, people_reads, tournament_reads
from ..storage.connection import CODE_ALPHABET, CODE_LENGTHS, HOME_CLUB
from ..storage.tournament_reads import MovedPlayer, TableOfGame, TournamentTable

__all__ = ["CODE_ALPHABET", "CODE_LENGTHS", "HOME_CLUB", "MovedPlayer", "TableOfGame",
           "TournamentTable"]

# ---- games ---------------------------------------------------------------------------


def game_version(db: Database, gid: str) -> int:
    """A game's version alone (one indexed row): has anything changed? ``GameNotFound``
    if there is no such game."""
    return game_reads.game_version(db, gid)


def game_versions(db: Database, ids: list[str]) -> list[tuple[str, int]]:
    """(id, version) of each of ``ids`` that exists, by id: has any of them changed?"""
    return game_reads.game_versions(db, ids)


def game_header(db: Database, gid: str) -> dict[str, Any]:
    """What a download's name needs (family, players, date, version), without the deals."""
    return game_reads.game_header(db, gid)


def game_by_code(db: Database, code: str) -> str:
    """The id of the game a join code opens (``GameNotFound`` if none: a game finished
    more than a day ago has no code any more)."""
    return game_reads.game_by_code(db, code)


def games_listed(db: Database, ids: list[str] | None = None) -> list[dict[str, Any]]:
    """The games of ``ids`` (this browser's), or every game (the host's list), the latest
    played first, with players, deals entered and the ruleset snapshot."""
    return game_reads.list_games(db, ids)


def count_games(db: Database) -> int:
    """How many games are kept."""
    return game_reads.count_games(db)


def deal_history(db: Database, gid: str, number: int | None = None) -> list[dict[str, Any]]:
    """Every replaced or undone result of a game (or of one deal), oldest first."""
    return game_reads.deal_history(db, gid, number)


# ---- people --------------------------------------------------------------------------


def known_people(db: Database, club: str = HOME_CLUB) -> list[dict[str, Any]]:
    """Everyone of ``club`` who has played, by name, with how many games each: the names a
    new game's form suggests."""
    return people_reads.people(db, club)


def players_page(db: Database, language: str, page: int, size: int, club: str = HOME_CLUB
                 ) -> tuple[list[dict[str, Any]], bool]:
    """One page (from 1) of a club's players page: everyone of ``club`` who played, in the
    order ``language`` sorts names, with their games; and whether another page follows."""
    return people_reads.people_page(db, language, page, size, club)


def count_people(db: Database, club: str = HOME_CLUB) -> int:
    return people_reads.count_people(db, club)


def person(db: Database, pid: Any) -> dict[str, Any]:
    """A person by id; ``PersonNotFound`` for any other id (one that is no int too)."""
    return people_reads.person(db, pid)


def names(db: Database, ids: Any) -> dict[int, str]:
    """The names of the people of ``ids``."""
    return people_reads.names(db, ids)


def in_name_order(db: Database, ids: Any, names: dict[int, str], language: str
                  ) -> list[int]:
    """The people of ``ids`` in the order ``language`` sorts their names, by the keys kept
    with each name (no collation worked out per page)."""
    keys = people_reads.sort_keys(db, ids, language)
    return sorted(ids, key=lambda pid: (keys.get(pid, b""), names.get(pid, ""), pid))


def person_tables(db: Database, pid: int, limit: int = -1) -> list[tuple[str, int]]:
    """The tables a person sat at and how many games at each, the most games first (at
    most ``limit`` of them; -1: all), by index."""
    return people_reads.person_tables(db, pid, limit)


def table_count(db: Database, key: str) -> int:
    """How many games one table played (0: no such table), by index."""
    return people_reads.table_count(db, key)


def person_games(db: Database, pid: int) -> Iterator[str]:
    """Every game a person played in (renaming them needs the right to all of them), read
    as it is asked for."""
    return people_reads.person_games(db, pid)


def renames(db: Database, limit: int = 100) -> list[dict[str, Any]]:
    """The latest renames of people, newest first, with each person's name now (the
    host's list, where one is taken back)."""
    return people_reads.renames(db, limit)


# ---- tournaments ---------------------------------------------------------------------


def tournament_version(db: Database, tid: str) -> int:
    """A tournament's version alone: it moves with any of its games'
    (``TournamentNotFound`` if there is none)."""
    return tournament_reads.tournament_version(db, tid)


def table_of_game(db: Database, gid: str) -> TableOfGame | None:
    """The tournament, round and table a game was drawn for (and whether that tournament
    is closed), in one row; None for a game of no tournament."""
    return tournament_reads.table_of_game(db, gid)


def round_moves(db: Database, tid: str, old_round: int,
                new_round: int) -> dict[str, list[MovedPlayer]]:
    """Every table of round ``old_round`` of a tournament, by its game id: its players in
    seat order and where each sits in round ``new_round`` (the finished round's game
    pages show it once the director draws the next round). The whole round in a few
    indexed statements: its fragments are made once per round, not per table."""
    return tournament_reads.round_moves(db, tid, old_round, new_round)


def round_tables(db: Database, tid: str, round_number: int) -> int:
    """How many tables a tournament's round has (0: no such round)."""
    return tournament_reads.round_tables(db, tid, round_number)


def last_rename(db: Database) -> int:
    """The latest rename of anyone (its id; 0: none): a stamp that moves when a name does
    (a rename taken back does not move it)."""
    return people_reads.last_rename(db)


# ---- settings ------------------------------------------------------------------------


def setting(db: Database, key: str) -> str | None:
    """One of this server's choices, or None when it was never made."""
    return house_reads.setting(db, key)


def default_ruleset(db: Database) -> str | None:
    """The ruleset a new game starts with, if the host chose one."""
    return house_reads.setting(db, "default_ruleset")


def versions(db: Database, ids: list[str]) -> dict[str, int]:
    """The versions of the games (or tournaments) watched by the live table, by id: what
    its fallback poll reads for writes made by another process."""
    return game_reads.versions(db, ids)


# ---- clubs -----------------------------------------------------------------------------


def club_of_game(db: Database, gid: str) -> str:
    """The club a game is of (``GameNotFound`` if there is no such game)."""
    return club_reads.club_of_game(db, gid)


def club_of_tournament(db: Database, tid: str) -> str:
    """The club a tournament is of (``TournamentNotFound`` if there is none)."""
    return club_reads.club_of_tournament(db, tid)


def club_of_person(db: Database, pid: Any) -> str:
    """The club a person is of (``PersonNotFound`` if there is none)."""
    return club_reads.club_of_person(db, pid)


def club_directors(db: Database, cid: str) -> list[dict[str, Any]]:
    """The directors a club's manager named (id, name, when), in the order named."""
    return club_reads.club_directors(db, cid)


def club_tournaments(db: Database, cid: str, limit: int = 50) -> list[dict[str, Any]]:
    """A club's tournaments (its nights), the latest first."""
    return club_reads.club_tournaments(db, cid, limit)
