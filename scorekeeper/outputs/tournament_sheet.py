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
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..common import collation
from ..domain.reads import TournamentTable
from ..domain.tournaments import Tournament, confirmed
from ..rules.places import places
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

    @property
    def surname(self) -> str:
        """The name's last word: what a Polish club looks a person up by (a one-word
        name is its own surname; a double surname with a hyphen is one word).

        >>> Place("Agnieszka Kowalska", 1, 1).surname, Place("Ala", 1, 1).surname
        ('Kowalska', 'Ala')
        """
        return self.name.rsplit(" ", 1)[-1]

    @property
    def given(self) -> str:
        """The words before the surname ("" for a one-word name)."""
        return self.name.rpartition(" ")[0]


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

    @property
    def dealer(self) -> str:
        return self.players[self.first_dealer]


def by_surname(places: list[Place], language: str) -> list[Place]:
    """``places`` by surname (the name's last word) as ``language`` sorts names, then by
    the words before it: Polish puts Ł after L and Ż last. A one-word name sorts by that
    word among the surnames.

    >>> [p.name for p in by_surname([Place("Ola Łoś", 1, 1), Place("Jan Lis", 1, 2),
    ...  Place("Ewa Lis", 2, 1), Place("Zenek", 2, 2)], "pl")]
    ['Ewa Lis', 'Jan Lis', 'Ola Łoś', 'Zenek']
    """
    return sorted(places, key=lambda p: (collation.key(p.surname, language),
                                         collation.key(p.given, language),
                                         collation.key(p.name, language)))


def seat_plan(t: Tournament, number: int, language: str) -> list[Place]:
    """Every player of round ``number`` with their table and seat, by surname as
    ``language`` sorts names (:func:`by_surname`)."""
    places = [Place(t.name_of(p), table.number, seat)
              for table in t.rounds[number - 1]
              for seat, p in enumerate(table.seats, start=1)]
    return by_surname(places, language)


def cards(t: Tournament, number: int, join_url: Callable[[str], str]) -> list[Card]:
    """Round ``number``'s table cards; ``join_url`` makes a join code's link (the web
    layer knows the address phones reach this server at)."""
    out = []
    for table in t.rounds[number - 1]:
        url = join_url(table.join_code)
        out.append(Card(table.number, [t.name_of(p) for p in table.seats],
                        table.first_dealer, table.join_code, url, qr_address(url)))
    return out


# The seat plan on A4 (the round sheet's CSS, static/round_sheet.css, agrees with these):
# two columns of 89 mm a page, 240 mm of height for each under the page's header. Up to
# LARGE players get large type, one page; more get smaller type, as many pages as they
# need. Names wrap (never cut), so a column holds what its lines' heights add up to,
# estimated from the type's size (DejaVu Sans Condensed: a letter about 0.56 em wide
# at most on average) and the widths the CSS gives.
LARGE = 40
_COLUMN_MM = 240.0
_PT_MM = 0.3528


@dataclass(frozen=True)
class Type:
    """One size of the round sheet's lists: font size (pt), a row's padding (mm), the
    width left for a name in the seat plan and in the by-table list (mm)."""

    pt: float
    padding: float
    plan_name: float
    table_name: float

    def lines(self, text: str, width: float) -> int:
        """How many lines ``text`` takes at ``width`` mm (wrapped at spaces, a word longer
        than a line broken anywhere).

        >>> LARGE_TYPE.lines("Ala", 45), LARGE_TYPE.lines("Konstantynopolitańczykowianeczka", 45)
        (1, 2)
        """
        per_line = max(1, int(width / (self.pt * _PT_MM * 0.56)))
        lines, used = 1, 0
        for word in text.split():
            if used and used + 1 + len(word) > per_line:
                lines, used = lines + 1, 0
            while len(word) > per_line - used:
                word = word[per_line - used:]
                lines, used = lines + 1, 0
            used += len(word) + (1 if used else 0)
        return lines

    def height(self, lines: int) -> float:
        return lines * self.pt * _PT_MM * 1.25 + self.padding


LARGE_TYPE = Type(pt=11, padding=2.6, plan_name=45, table_name=82)
SMALL_TYPE = Type(pt=9, padding=1.2, plan_name=53, table_name=82)


def type_for(players: int) -> Type:
    return LARGE_TYPE if players <= LARGE else SMALL_TYPE


def _columns(heights: list[float], balance: bool) -> list[list[int]]:
    """Items of ``heights`` into columns of at most :data:`_COLUMN_MM` each, in order;
    ``balance``: the first two as even as their heights allow (a one-page plan)."""
    if balance and sum(heights) <= 2 * _COLUMN_MM:
        best = None
        for split in range(len(heights) + 1):
            left, right = sum(heights[:split]), sum(heights[split:])
            if left <= _COLUMN_MM and right <= _COLUMN_MM and (
                    best is None or max(left, right) < best[0]):
                best = (max(left, right), split)
        if best is not None:
            split = best[1]
            return [list(range(split)), list(range(split, len(heights)))]
    columns: list[list[int]] = [[]]
    used = 0.0
    for i, h in enumerate(heights):
        if columns[-1] and used + h > _COLUMN_MM:
            columns.append([])
            used = 0.0
        columns[-1].append(i)
        used += h
    return columns


def _pages(columns: list[list[Any]]) -> list[list[list[Any]]]:
    return [columns[i:i + 2] for i in range(0, len(columns), 2)] or [[[]]]


def plan_pages(plan: list[Place]) -> list[list[list[Place]]]:
    """The seat plan's pages, each of two columns of its lines (:data:`LARGE` players or
    fewer on one page, the columns balanced).

    >>> pages = plan_pages([Place("Agnieszka Kowalska", 1, i) for i in range(40)])
    >>> len(pages), [len(c) for c in pages[0]]
    (1, [20, 20])
    >>> [[len(c) for c in page] for page in plan_pages([Place("A B", 1, 1)] * 600)][:2]
    [[45, 45], [45, 45]]
    """
    kind = type_for(len(plan))
    heights = [kind.height(kind.lines(p.name, kind.plan_name)) for p in plan]
    if kind is SMALL_TYPE:  # a row to read across: never more than 45 a column
        heights = [max(h, (_COLUMN_MM - 0.1) / 45) for h in heights]
    columns = _columns(heights, balance=len(plan) <= LARGE)
    return _pages([[plan[i] for i in column] for column in columns])


def table_pages(cards: list[Card]) -> list[list[list[Card]]]:
    """The by-table list's pages: each table a block (its number, then its players in
    seat order), blocks in two columns a page.

    >>> c = Card(1, ["Ala Kowalska", "Bolek Nowak", "Cezary Lis", "Dorota Wąs"], 0, "", "", "")
    >>> [[len(col) for col in page] for page in table_pages([c] * 10)]
    [[5, 5]]
    """
    kind = type_for(sum(len(c.players) for c in cards))
    # the first dealer's line ends with "· rozdaje na początek" in smaller type
    heights = [kind.height(1) + 1.5 + 4 + sum(
        kind.height(kind.lines(n + (" ·" + "x" * 16 if seat == c.first_dealer else ""),
                               kind.table_name))
        for seat, n in enumerate(c.players)) for c in cards]
    columns = _columns(heights, balance=len(cards) <= LARGE // 3 + 1)
    return _pages([[cards[i] for i in column] for column in columns])


def _total(t: Tournament, table: TournamentTable, player: int) -> int | None:
    return next((total for rnd, tb, total in t.results(player)
                 if rnd == table.round and tb.number == table.number), None)


def _signed(t: Tournament, table: TournamentTable,
            signed: Mapping[int, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A table's signatures in seat order, the director's last: who, by which right
    (``table``: a phone of the table; ``director``), when."""
    return [{"seat": seat + 1 if seat >= 0 else None,
             "player": t.name_of(table.seats[seat]) if seat >= 0 else None,
             "by": s["by"], "at": s["at"]}
            for seat, s in sorted(signed.items(), key=lambda kv: (kv[0] < 0, kv[0]))]


def _seats(t: Tournament, table: TournamentTable) -> list[dict[str, Any]]:
    totals = [_total(t, table, p) if table.finished else None for p in table.seats]
    placed = places(totals) if table.finished and None not in totals else [None] * len(totals)
    return [{"seat": seat, "player": t.name_of(p), "total": total, "place": place}
            for seat, (p, total, place) in enumerate(zip(table.seats, totals, placed,
                                                         strict=True), start=1)]


def to_json(t: Tournament, signatures: Mapping[str, Mapping[int, Mapping[str, Any]]]
            | None = None) -> dict[str, Any]:
    """The results as data: the standings best first, then each round's tables with
    each player's seat (counted from 1), game total and place at the table (None while
    the game is being played) and, from ``signatures`` (by game and seat:
    :func:`..domain.tournaments.signatures`), who signed it, when and by which right."""
    signatures = signatures or {}
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
             "players": _seats(t, table),
             "signatures": _signed(t, table, signatures.get(table.game_id, {}))}
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
