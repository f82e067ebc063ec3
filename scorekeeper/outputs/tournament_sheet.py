"""A tournament on paper and in files: the director's round sheet (the seat plan and a card
per table with its join code and QR code) and the results (PDF, CSV, JSON), as plain data
for the templates and the files. Only the round sheet carries join codes (the director's)."""
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
from .share import qr_address


def points(value: Fraction | int) -> int | float:
    """Standings' points as a number for a file: whole when whole (places give halves).

    >>> points(Fraction(5, 2)), points(Fraction(-40)), type(points(Fraction(3))).__name__
    (2.5, -40, 'int')
    """
    return int(value) if value == int(value) else float(value)


def digest(data: dict[str, Any]) -> str:
    """A short hash of ``data``, the key a PDF made of it is kept by."""
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def printed_state(results: dict[str, Any]) -> str:
    """What the results PDF shows of ``results`` (:func:`to_json`), as a short hash: the
    same while tables only add deals, new once a table finishes or anything else moves."""
    return digest({**results, "rounds": [
        {**r, "tables": [{k: v for k, v in tb.items() if k != "deals"} for tb in r["tables"]]}
        for r in results.get("rounds", [])]})


@dataclass(frozen=True)
class Place:
    """One line of the seat plan: where a player sits this round (seat counted from 1)."""

    name: str
    table: int
    seat: int

    @property
    def surname(self) -> str:
        """The name's last word, what a Polish club looks a person up by."""
        return self.name.rsplit(" ", 1)[-1]

    @property
    def given(self) -> str:
        return self.name.rpartition(" ")[0]


@dataclass(frozen=True)
class Card:
    """One table's card: its players in seat order, who deals first, how to join (``qr``:
    a :func:`.share.qr_address` that the rendering process draws)."""

    table: int
    players: list[str]
    first_dealer: int
    code: str
    url: str
    qr: str

    @property
    def dealer(self) -> str:
        return self.players[self.first_dealer]


def seat_plan(t: Tournament, number: int, language: str) -> list[Place]:
    """Every player of round ``number`` with their table and seat, by surname, then the
    words before it, as ``language`` sorts names (Polish puts Ł after L and Ż last)."""
    plan = [Place(t.name_of(p), table.number, seat)
            for table in t.rounds[number - 1]
            for seat, p in enumerate(table.seats, start=1)]
    return sorted(plan, key=lambda p: [collation.key(x, language)
                                       for x in (p.surname, p.given, p.name)])


def cards(t: Tournament, number: int, join_url: Callable[[str], str]) -> list[Card]:
    """Round ``number``'s table cards; ``join_url`` makes a join code's link."""
    return [Card(table.number, [t.name_of(p) for p in table.seats], table.first_dealer,
                 table.join_code, url, qr_address(url))
            for table in t.rounds[number - 1] for url in [join_url(table.join_code)]]


# The seat plan on A4 (static/round_sheet.css agrees): two columns of 240 mm a page. Up to
# LARGE players get large type on one page, more get smaller type on as many as they need.
# Names wrap, never cut: a column holds what its lines' heights add up to, estimated from
# the type (DejaVu Sans Condensed: a letter about 0.56 em wide) and the CSS's widths.
LARGE = 40
_COLUMN_MM = 240.0
_PT_MM = 0.3528


@dataclass(frozen=True)
class Type:
    """One size of type: font size (pt), a row's padding (mm), the width for a name in the
    seat plan and in the by-table list (mm)."""

    pt: float
    padding: float
    plan_name: float
    table_name: float

    def lines(self, text: str, width: float) -> int:
        """How many lines ``text`` takes at ``width`` mm (a word longer than a line broken).

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
    ``balance``: two columns as even as their heights allow (a one-page plan)."""
    if balance and sum(heights) <= 2 * _COLUMN_MM:
        fits = [(max(left, right), k) for k in range(len(heights) + 1)
                for left, right in [(sum(heights[:k]), sum(heights[k:]))]
                if left <= _COLUMN_MM and right <= _COLUMN_MM]
        if fits:
            split = min(fits)[1]
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
    """The seat plan's pages of two columns (up to :data:`LARGE` players: one, balanced).

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
    """The by-table list's pages: each table a block, blocks in two columns a page.

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
    """A table's signatures in seat order, the director's last."""
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
            ) -> dict[str, Any]:
    """The results: the standings best first, then each round's tables with each player's
    seat, game total and place (None while it is played) and who signed it (from
    ``signatures``, by game and seat), when and by which right."""
    return {
        "name": t.name, "scoring": t.scoring, "closed": t.closed,
        "rounds_planned": t.planned, "rounds_drawn": t.current,
        "standings": [{"rank": s.rank, "player": t.name_of(s.player),
                       "points": points(s.points), "wins": s.wins, "games": s.games,
                       "best": s.best, "provisional": t.provisional(s.player)}
                      for s in t.overall],
        "rounds": [{"number": n, "tables": [
            {"table": table.number, "finished": table.finished, "deals": table.deals,
             "confirmed": confirmed(table), "players": _seats(t, table),
             "signatures": _signed(t, table, signatures.get(table.game_id, {}))}
            for table in t.rounds[n - 1]]} for n in range(1, t.current + 1)],
    }


def standings(t: Tournament, labels: dict[str, str]) -> tuple[list[str], list[list[Any]]]:
    """The results files' header (``labels`` are the column names) and rows: the standings,
    best first, then each player's table and game total in each round (empty while
    unfinished or not drawn)."""
    header = [labels[k] for k in ("rank", "player", "points", "wins", "games", "best")]
    header += [labels[k] % {"round": n}
               for n in range(1, t.current + 1) for k in ("table", "total")]
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
