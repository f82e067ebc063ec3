"""A tournament on paper and in files: the round sheet a director prints (the seat plan and
one card per table with its join code and QR code) and the results (PDF, CSV, JSON).

What goes on each is gathered here, as plain data for the templates and the files; the
web layer renders the templates and :mod:`.pdf` turns them into A4 pages. The round sheet
carries every table's join code (whoever has it plays that table's game), so only the
director gets it; the results carry no code, token or game id (a game's id is its link).
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..common import collation
from ..domain.reads import TournamentTable
from ..domain.tournaments import Tournament, confirmed
from .exchange import csv_text, xlsx_bytes
from .share import qr_address


def points(value: Fraction | int) -> int | float:
    """Standings' points as a number for a file: whole when whole (places give halves).

    >>> points(Fraction(5, 2)), points(Fraction(-40)), type(points(Fraction(3))).__name__
    (2.5, -40, 'int')
    """
    return int(value) if value == int(value) else float(value)


@dataclass(frozen=True)
class Place:
    """One line of the seat plan: where a player sits this round (seat counted from 1)."""

    name: str
    table: int
    seat: int


@dataclass(frozen=True)
class Card:
    """One table's card: its players in seat order, who deals first, how to join."""

    table: int
    players: list[str]
    first_dealer: int
    code: str
    url: str
    qr: str
    """The link as a QR code: an ``<img>`` address that :func:`.pdf.render` draws (a
    :func:`.share.qr_address`: in the worker process, not the server's)."""


def seat_plan(t: Tournament, number: int, language: str) -> list[Place]:
    """Every player of round ``number`` with their table and seat, by name as
    ``language`` sorts names (Polish: Ł after L, Ż last)."""
    places = [Place(t.name_of(p), table.number, seat)
              for table in t.rounds[number - 1]
              for seat, p in enumerate(table.seats, start=1)]
    return collation.by_name(places, language, lambda p: p.name)


def cards(t: Tournament, number: int, join_url: Callable[[str], str]) -> list[Card]:
    """Round ``number``'s table cards; ``join_url`` makes a join code's link (the web
    layer knows the address phones reach this server at)."""
    out = []
    for table in t.rounds[number - 1]:
        url = join_url(table.join_code)
        out.append(Card(table.number, [t.name_of(p) for p in table.seats],
                        table.first_dealer, table.join_code, url, qr_address(url)))
    return out


def _total(t: Tournament, table: TournamentTable, player: int) -> int | None:
    return next((total for rnd, tb, total in t.results(player)
                 if rnd == table.round and tb.number == table.number), None)


def to_json(t: Tournament) -> dict[str, Any]:
    """The results as data: the standings best first, then each round's tables with
    each player's game total (None while the game is being played)."""
    return {
        "name": t.name, "scoring": t.scoring, "closed": t.closed,
        "rounds_planned": t.planned, "rounds_drawn": t.current,
        "standings": [{"rank": s.rank, "player": t.name_of(s.player),
                       "points": points(s.points), "wins": s.wins, "games": s.games,
                       "best": s.best, "provisional": t.provisional(s.player)}
                      for s in t.overall],
        "rounds": [{"number": n, "tables": [
            {"table": table.number, "finished": table.finished, "deals": table.deals,
             "confirmed": confirmed(table),
             "players": [{"seat": seat, "player": t.name_of(p),
                          "total": _total(t, table, p) if table.finished else None}
                         for seat, p in enumerate(table.seats, start=1)]}
            for table in t.rounds[n - 1]]} for n in range(1, t.current + 1)],
    }


def _table(t: Tournament, labels: dict[str, str]) -> tuple[list[str], list[list[Any]]]:
    """The standings as rows: one a player, best first, then their table and game total
    in each round (empty while unfinished or not drawn)."""
    header = [labels[k] for k in ("rank", "player", "points", "wins", "games", "best")]
    for n in range(1, t.current + 1):
        header += [labels["table"] % {"round": n}, labels["total"] % {"round": n}]
    rows = []
    for s in t.overall:
        row: list[Any] = [s.rank, t.name_of(s.player), points(s.points), s.wins, s.games,
                          "" if s.best is None else s.best]
        where = {rnd: (table, total) for rnd, table, total in t.results(s.player)}
        for n in range(1, t.current + 1):
            table, total = where.get(n, (None, None))
            row += ["" if table is None else table.number,
                    "" if total is None or not table.finished else total]
        rows.append(row)
    return header, rows


def to_csv(t: Tournament, labels: dict[str, str], language: str = "en") -> str:
    """The standings as a spreadsheet: one row a player, best first, then their table and
    game total in each round (empty while unfinished or not drawn). ``labels`` are the
    column names in the reader's language (rank, player, points, wins, games, best,
    table, total: the last two with ``%(round)s``). A BOM for spreadsheets, ``language``'s
    dialect (Polish: ``;`` and a decimal comma) and no cell a spreadsheet would run as a
    formula (:func:`.exchange.csv_text`)."""
    return csv_text(*_table(t, labels), language=language)


def to_xlsx(t: Tournament, labels: dict[str, str], title: str) -> bytes:
    """The same standings as :func:`to_csv`, as an Excel workbook of one sheet named
    ``title`` (:func:`.exchange.xlsx_bytes`: numbers as numbers, text never a formula)."""
    return xlsx_bytes(*_table(t, labels), title=title)


def printed_state(results: dict[str, Any]) -> str:
    """What the results PDF shows of ``results`` (:func:`to_json`), as a short hash: the
    same while tables only add deals, new once a table finishes, a finished game is
    corrected, a round is drawn or a player comes or goes.

    >>> a = {"rounds": [{"number": 1, "tables": [{"table": 1, "deals": 3}]}]}
    >>> b = {"rounds": [{"number": 1, "tables": [{"table": 1, "deals": 4}]}]}
    >>> printed_state(a) == printed_state(b), printed_state(a) == printed_state({})
    (True, False)
    """
    shown = {**results, "rounds": [
        {**r, "tables": [{k: v for k, v in tb.items() if k != "deals"} for tb in r["tables"]]}
        for r in results.get("rounds", [])]}
    return hashlib.sha256(json.dumps(shown, sort_keys=True).encode()).hexdigest()[:16]
