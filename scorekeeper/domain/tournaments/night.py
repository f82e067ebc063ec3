"""A stored tournament and what follows from it: its rounds, standings and signatures."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from sqlite_utils import Database

from ...rules import draw
from ...rules.standings import Seat, Standing, standings
from ...storage import game_reads, tournament_reads
from ...storage.tournament_reads import TournamentTable


def confirmed(table: TournamentTable) -> bool:
    """A table's result counts for good once two of its players or the director signed."""
    return table.director_signed or table.signed_seats >= 2


@dataclass
class Tournament:
    stored: tournament_reads.StoredTournament

    @property
    def id(self) -> str:
        return self.stored.id

    @property
    def name(self) -> str:
        return self.stored.name

    @property
    def version(self) -> int:
        return self.stored.version

    @property
    def closed(self) -> bool:
        return self.stored.closed

    @property
    def scoring(self) -> str:
        return self.stored.scoring

    @property
    def planned(self) -> int:
        """How many rounds the director planned."""
        return self.stored.rounds

    @property
    def rulesets(self) -> dict[str, str]:
        return self.stored.rulesets

    @cached_property
    def players(self) -> dict[int, tournament_reads.TournamentPlayer]:
        """Every player ever entered (withdrawn ones too), by entry number."""
        return {p.number: p for p in self.stored.players}

    def name_of(self, number: int) -> str:
        return self.players[number].name

    @property
    def active(self) -> list[int]:
        """Who is drawn for the next round: everyone not withdrawn."""
        return [p.number for p in self.stored.players if p.left_after is None]

    @cached_property
    def rounds(self) -> list[list[TournamentTable]]:
        """The drawn rounds' tables, round 1 first."""
        out: list[list[TournamentTable]] = []
        for table in self.stored.tables:
            while len(out) < table.round:
                out.append([])
            out[table.round - 1].append(table)
        return out

    @property
    def current(self) -> int:
        """The last round drawn (0 before any)."""
        return len(self.rounds)

    def round_finished(self, number: int) -> bool:
        return 1 <= number <= self.current and all(t.finished for t in self.rounds[number - 1])

    @property
    def finished(self) -> bool:
        return self.current >= self.planned and self.round_finished(self.current)

    @property
    def can_draw(self) -> bool:
        return (not self.closed and self.current < self.planned
                and self.round_finished(self.current))

    def table(self, gid: str) -> TournamentTable | None:
        return next((t for t in self.stored.tables if t.game_id == gid), None)

    def seat_of(self, number: int, round_number: int) -> tuple[TournamentTable, int] | None:
        """Where a player sits in a round: (table, seat), or None."""
        for table in self.rounds[round_number - 1] if 1 <= round_number <= self.current else []:
            if number in table.seats:
                return table, table.seats.index(number)
        return None

    @cached_property
    def _seats_by_game(self) -> dict[str, list[Seat]]:
        by_person = {p.person_id: p.number for p in self.stored.players}
        games: dict[str, list[Seat]] = {}
        for f in self.stored.figures:
            games.setdefault(f.game_id, []).append(Seat(by_person[f.person_id], f.total))
        return games

    def _ranked(self, tables: Iterable[TournamentTable],
                running: Mapping[str, list[int]] | None = None) -> list[Standing]:
        tables = list(tables)
        games = [self._seats_by_game[t.game_id] for t in tables
                 if t.game_id in self._seats_by_game]
        games += [[Seat(p, total) for p, total in zip(t.seats, running[t.game_id], strict=True)]
                  for t in tables if running and not t.finished and t.game_id in running]
        return standings(games, list(self.players), self.scoring)

    def standings(self, round_number: int | None = None) -> list[Standing]:
        """Overall (every finished game so far), or one round's games alone."""
        return self._ranked(self.stored.tables if round_number is None
                            else self.rounds[round_number - 1])

    def standings_now(self, running: Mapping[str, list[int]]) -> list[Standing]:
        """Overall standings as if each table still playing, its running totals by seat
        in ``running``, ended now."""
        return self._ranked(self.stored.tables, running)

    @cached_property
    def overall(self) -> list[Standing]:
        return self.standings()

    def rank_of(self, number: int) -> Standing | None:
        return next((s for s in self.overall if s.player == number), None)

    def results(self, number: int) -> list[tuple[int, TournamentTable, int | None]]:
        """A player's games: (round, table, their total or None while unfinished)."""
        out = []
        for table in self.stored.tables:
            if number in table.seats:
                seats = self._seats_by_game.get(table.game_id, [])
                out.append((table.round, table,
                            next((s.total for s in seats if s.player == number), None)))
        return out

    @cached_property
    def unconfirmed(self) -> list[TournamentTable]:
        """The finished tables whose result is still provisional."""
        return [t for t in self.stored.tables if t.finished and not confirmed(t)]

    @cached_property
    def unsigned(self) -> list[TournamentTable]:
        """Every table whose result is not confirmed, still playing or not."""
        return [t for t in self.stored.tables if not (t.finished and confirmed(t))]

    @property
    def final(self) -> bool:
        """Closed with every table signed."""
        return self.closed and not self.unsigned

    @cached_property
    def _provisional(self) -> frozenset[int]:
        return frozenset(p for t in self.unconfirmed for p in t.seats)

    def provisional(self, number: int) -> bool:
        """Whether a player's standing rests on a table not yet confirmed."""
        return number in self._provisional

    def met(self) -> dict[frozenset[int], int]:
        return draw.meetings([[t.seats for t in r] for r in self.rounds])


def load(db: Database, tid: str) -> Tournament:
    """A stored tournament (``TournamentNotFound``)."""
    return Tournament(tournament_reads.load_tournament(db, tid))


def signatures(db: Database, t: Tournament) -> dict[str, dict[int, dict[str, Any]]]:
    """Who signed each finished table's game, by game and seat (the director under -1)."""
    return {table.game_id: game_reads.signatures(db, table.game_id) for table in t.stored.tables
            if table.finished and (table.signed_seats or table.director_signed)}
