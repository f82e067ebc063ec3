"""A stored tournament and what follows from it: its rounds, standings, signatures, and
the projector's page of it mid-round."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from operator import attrgetter
from typing import Any

from sqlite_utils import Database

from ..rules.standings import Seat, Standing, standings
from ..storage import game_reads, tournament_reads
from ..storage.tournament_reads import TournamentTable
from . import service


def confirmed(table: TournamentTable) -> bool:
    """A table's result counts for good once two of its players or the director signed."""
    return table.director_signed or table.signed_seats >= 2


@dataclass
class Tournament:
    stored: tournament_reads.StoredTournament
    id = property(attrgetter("stored.id"))
    name = property(attrgetter("stored.name"))
    version = property(attrgetter("stored.version"))
    closed = property(attrgetter("stored.closed"))
    scoring = property(attrgetter("stored.scoring"))
    rulesets = property(attrgetter("stored.rulesets"))
    #: How many rounds the director planned.
    planned = property(attrgetter("stored.rounds"))

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
        out: list[list[TournamentTable]] = [
            [] for _ in range(max((t.round for t in self.stored.tables), default=0))]
        for table in self.stored.tables:
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
        return not self.closed and self.current < self.planned and self.round_finished(self.current)

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

    def standings_now(self, running: Mapping[str, list[int]]) -> list[Standing]:
        """Every finished game so far, and each table still playing as if its game ended
        now with ``running``, its running totals by seat there."""
        tables = self.stored.tables
        games = [self._seats_by_game[t.game_id] for t in tables
                 if t.game_id in self._seats_by_game]
        games += [[Seat(p, total) for p, total in zip(t.seats, running[t.game_id], strict=True)]
                  for t in tables if not t.finished and t.game_id in running]
        return standings(games, list(self.players), self.scoring)

    @cached_property
    def overall(self) -> list[Standing]:
        """Every finished game so far."""
        return self.standings_now({})

    def rank_of(self, number: int) -> Standing | None:
        return next((s for s in self.overall if s.player == number), None)

    def results(self, number: int) -> list[tuple[int, TournamentTable, int | None]]:
        """A player's games: (round, table, their total or None while unfinished)."""
        return [(table.round, table, next((s.total for s in self._seats_by_game.get(
            table.game_id, []) if s.player == number), None))
            for table in self.stored.tables if number in table.seats]

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


def load(db: Database, tid: str) -> Tournament:
    """A stored tournament (``TournamentNotFound``)."""
    return Tournament(tournament_reads.load_tournament(db, tid))


def signatures(db: Database, t: Tournament) -> dict[str, dict[int, dict[str, Any]]]:
    """Who signed each finished table's game, by game and seat (the director under -1)."""
    return {table.game_id: game_reads.signatures(db, table.game_id) for table in t.stored.tables
            if table.finished and (table.signed_seats or table.director_signed)}


@dataclass(frozen=True)
class LiveStandings:
    """``rows`` count every table still playing as if its game ended now; ``in_play``
    are the players of those tables, ``tables`` how many tables they are."""

    rows: list[Standing]
    in_play: frozenset[int]
    tables: int


def live_standings(db: Database, t: Tournament) -> LiveStandings:
    """The standings from the deals entered so far: each unfinished table with a deal
    recorded counts with its game's running totals."""
    playing = [table.game_id for table in t.stored.tables if not table.finished and table.deals]
    running = game_reads.running_totals(db, playing)
    for gid in set(playing) - running.keys():  # no deal write has kept its totals yet
        game = service.load(db, gid)
        if not game.state.finished:
            running[gid] = [int(x) for x in game.state.totals]
    in_play = frozenset(p for table in t.stored.tables if table.game_id in running
                        for p in table.seats)
    return LiveStandings(t.standings_now(running), in_play, len(running))


@dataclass(frozen=True)
class ScreenLine:
    standing: Standing
    name: str
    playing: bool
    provisional: bool


@dataclass(frozen=True)
class Screen:
    """One page of the standings and one of the current round's tables, each from a
    0-based ``start``, with what the page counters need."""

    id: str
    name: str
    version: int
    closed: bool
    scoring: str
    current: int
    planned: int
    lines: list[ScreenLine]
    players: int         # lines in all
    start: int
    per_page: int
    page: int
    pages: int
    in_play: int         # tables in play
    tables: list[TournamentTable]
    table_count: int     # of the current round
    done: int            # of them finished
    unconfirmed: int     # finished tables not signed (every round)
    table_start: int
    per_table_page: int
    table_page: int
    table_pages: int


def _paged(count: int, per: int, start: int) -> tuple[int, int, int]:
    """(the first item shown, the page's number, how many pages); a ``start`` past the
    last item turns round to the first."""
    start = start if 0 <= start < count else 0
    page = -(-start // per) + 1
    return start, page, page + max(0, -(-(count - start - per) // per))


def screen(db: Database, tid: str, start: int = 0, per_page: int = 40,
           table_start: int = 0, per_table_page: int = 45) -> Screen:
    """The projector's page of tournament ``tid`` now (``TournamentNotFound``)."""
    per_page, per_table_page = max(1, per_page), max(1, per_table_page)
    t = load(db, tid)
    live = live_standings(db, t)
    start, page, pages = _paged(len(live.rows), per_page, start)
    rows = live.rows[start:start + per_page]
    current = t.rounds[-1] if t.rounds else []
    table_start, table_page, table_pages = _paged(len(current), per_table_page, table_start)
    return Screen(
        t.id, t.name, t.version, t.closed, t.scoring, t.current, t.planned,
        [ScreenLine(r, t.name_of(r.player), r.player in live.in_play,
                    t.provisional(r.player)) for r in rows],
        len(live.rows), start, per_page, page, pages, live.tables,
        current[table_start:table_start + per_table_page], len(current),
        sum(1 for table in current if table.finished), len(t.unconfirmed), table_start,
        per_table_page, table_page, table_pages)
