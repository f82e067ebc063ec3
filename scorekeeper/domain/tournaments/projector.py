"""The projector's view of a tournament: its standings mid-round and its round's tables,
a page of each."""
from __future__ import annotations

from dataclasses import dataclass

from sqlite_utils import Database

from ...rules.standings import Standing
from ...storage.tournament_reads import TournamentTable
from .. import service
from .night import Tournament, load


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
    running: dict[str, list[int]] = {}
    for table in t.stored.tables:
        if not table.finished and table.deals:
            game = service.load(db, table.game_id)
            if game.recorded and not game.state.finished:
                running[table.game_id] = [int(x) for x in game.state.totals]
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
