"""Exports (CSV, xlsx, JSON) and the JSON import that recreates a game exactly.

An import trusts nothing in the file: its shape, sizes and types are checked here, then
:func:`service.import_game` checks the rules, players and deals through the family and
writes the game, in one transaction, under a new id."""
from __future__ import annotations

import csv
import io
from typing import Any

from pydantic import ValidationError
from sqlite_utils import Database

from ..common import safejson
from ..domain import reads, service
from ..rules.errors import N_, InvalidInput, Problem
from . import schema

MAX_BYTES = 1024 * 1024


def to_json(db: Database, game: service.Game) -> dict[str, Any]:
    """The whole game: ruleset snapshot, players, raw results, correction history; not its
    id, which is its link (an import gives the game a new one)."""
    stored = game.stored
    return {
        "format": schema.FORMAT, "format_version": schema.FORMAT_VERSION,
        "family": stored.family,
        "created_at": stored.created_at, "updated_at": stored.updated_at,
        "ruleset": stored.ruleset, "settings": stored.settings,
        "players": stored.players,
        "deals": [{"number": i, "result": r} for i, r in enumerate(stored.results, start=1)],
        "history": reads.deal_history(db, stored.id),
    }


#: How a cell a spreadsheet would run as a formula begins (OWASP's list).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(cell: Any) -> Any:
    """A CSV cell a spreadsheet shows as it is, never runs: a leading ``'`` on text that
    would be a formula; a negative whole number stays a number.

    >>> [spreadsheet_safe(c) for c in ["=1+1", "-260", "-Ola", 7, "Ala"]]
    ["'=1+1", '-260', "'-Ola", 7, 'Ala']
    """
    if isinstance(cell, str) and cell.startswith(FORMULA_START) \
            and not (cell[1:].isascii() and cell[1:].isdigit() and cell[0] == "-"):
        return "'" + cell
    return cell


def csv_text(header: list[Any], rows: list[list[Any]], language: str = "en") -> str:
    r"""A CSV file as every export writes one: UTF-8 with a BOM (so a spreadsheet reads Polish
    letters right), each cell :func:`spreadsheet_safe`, in ``language``'s dialect (Polish:
    ``;`` between cells and a decimal comma; otherwise ``,`` and a decimal point).

    >>> csv_text(["Gracz", "Punkty"], [["=Ala", 2.5], ["Ola", -40]], "pl")
    "\ufeffGracz;Punkty\r\n'=Ala;2,5\r\nOla;-40\r\n"
    >>> csv_text(["Player", "Points"], [["Ala", 2.5]], "en")
    '\ufeffPlayer,Points\r\nAla,2.5\r\n'
    """
    polish = language == "pl"

    def cell(value: Any) -> Any:
        value = spreadsheet_safe(value)
        return repr(value).replace(".", ",") if polish and isinstance(value, float) else value

    out = io.StringIO()
    out.write("\ufeff")
    # a spreadsheet set to Polish reads ";" between cells: the comma is its decimal mark
    writer = csv.writer(out, delimiter=";" if polish else ",")
    writer.writerows([cell(c) for c in row] for row in [header, *rows])
    return out.getvalue()


#: What an ``.xlsx`` file is, for its download.
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def xlsx_bytes(header: list[Any], rows: list[list[Any]], title: str = "Sheet") -> bytes:
    """An Excel workbook of one sheet named ``title``: the header in bold and kept in view,
    numbers as numbers, columns wide enough for their text. Every text cell is text, never
    a formula, and one that would be a formula is marked "quote prefix" (shown as typed)."""
    from openpyxl import Workbook  # only a download of a workbook pays for loading it
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    book = Workbook()
    sheet = book.active
    sheet.title = _sheet_title(title)
    longest: dict[int, int] = {}
    bold = Font(bold=True)
    for r, values in enumerate([header, *rows], start=1):
        for c, value in enumerate(values, start=1):
            if value is None or value == "":
                continue
            text = isinstance(value, bool) or not isinstance(value, (int, float))
            cell = sheet.cell(row=r, column=c, value=str(value) if text else value)
            if text:
                cell.data_type = "s"  # never "f": a name is text, never a formula
                if cell.value.startswith(FORMULA_START):
                    cell.quotePrefix = True
            if r == 1:
                cell.font = bold
            longest[c] = max(longest.get(c, 0), len(str(value)))
    for c, length in longest.items():
        sheet.column_dimensions[get_column_letter(c)].width = min(max(length, 4) + 2, 60)
    sheet.freeze_panes = "A2"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _sheet_title(title: str) -> str:
    r"""A worksheet's name as Excel takes one: at most 31 characters, none of ``[]:*?/\``.

    >>> _sheet_title("Wyniki: runda 1/2"), len(_sheet_title("x" * 40))
    ('Wyniki runda 12', 31)
    """
    kept = "".join(c for c in title if c not in "[]:*?/\\").strip("' ")
    return kept[:31] or "Sheet"


def _refuse(message: str, **params: Any) -> InvalidInput:
    return InvalidInput([Problem("file", message, params)])


#: Where a problem in the file is, as the player is told about it.
_WHERE = {
    "format": N_("This is not a JSON file exported by this app."),
    "format_version": N_("This file was written by another version of the app."),
    "players": N_("The file has no list of players."),
    "history": N_("The correction history in the file is not readable."),
}


def _refusal(error: ValidationError) -> InvalidInput:
    loc = error.errors()[0]["loc"]
    where = str(loc[0]) if loc else ""
    if where == "deals" and len(loc) > 1 and isinstance(loc[1], int):
        return _refuse(N_("Deal %(number)s in the file is not a numbered result."),
                       number=loc[1] + 1)
    if where == "deals":
        return _refuse(N_("The file has more deals than a game can have (%(max)s)."),
                       max=schema.MAX_DEALS)
    if where in _WHERE:
        return _refuse(_WHERE[where])
    return _refuse(N_("The file's %(field)s is not valid."),
                   field=".".join(str(part) for part in loc))


def read(raw: bytes, max_bytes: int = MAX_BYTES) -> schema.GameFile:
    """Bytes of an uploaded file to a checked game file of this app's format."""
    if len(raw) > max_bytes:
        raise _refuse(N_("The file is larger than %(size)s kB."), size=max_bytes // 1024)
    try:
        data = safejson.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        data = None
    if not isinstance(data, dict) or data.get("format") != schema.FORMAT:
        raise _refuse(N_("This is not a JSON file exported by this app."))
    try:
        game = schema.GameFile.model_validate(data)
    except ValidationError as e:
        raise _refusal(e) from None
    for i, deal in enumerate(game.deals, start=1):
        if deal.number != i:
            raise _refuse(N_("Deal %(number)s in the file is not a numbered result."), number=i)
    return game


def _history(game: schema.GameFile, deals: int) -> list[dict[str, Any]]:
    if any(h.number > deals + 1 for h in game.history):
        raise _refuse(N_("The correction history in the file is not readable."))
    return [h.model_dump() for h in game.history]


def import_game(db: Database, raw: bytes, max_bytes: int = MAX_BYTES,
                max_games: int | None = None, max_variants: int | None = None) -> str:
    """An exported game recreated under a new id; nothing is written if anything fails."""
    game = read(raw, max_bytes)
    try:
        return service.import_game(
            db, game.family_key, game.ruleset, game.players, game.settings,
            [d.result for d in game.deals], lambda deals: _history(game, deals),
            game.created_at, max_games=max_games, max_variants=max_variants)
    except InvalidInput:
        raise
    except (TypeError, ValueError, KeyError, IndexError, AttributeError):
        raise _refuse(N_("The rules in the file are damaged.")) from None
