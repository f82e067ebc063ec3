"""Exports (CSV, JSON) and the JSON import that recreates a game exactly.

An import trusts nothing in the file: its shape, sizes and types are checked here,
then :func:`service.import_game` builds the ruleset snapshot through its family,
checks the players and the set-up and replays every deal through the rules. Only
then is the game written, in one transaction, under a new id.
"""
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
    """The whole game: ruleset snapshot, players, raw results, correction history.

    Not its id: the id is the game's link (whoever has it can change the game), and an
    import gives the game a new id anyway. Files written before still carry one; it is
    read and ignored."""
    stored = game.stored
    return {
        "format": schema.FORMAT, "format_version": schema.FORMAT_VERSION,
        "family": stored.family,
        "created_at": stored.created_at, "updated_at": stored.updated_at,
        "ruleset": stored.ruleset, "settings": stored.settings,
        "players": stored.players,
        "deals": [{"number": i, "result": r} for i, r in enumerate(stored.results, start=1)],
        "history": [{"number": h["number"], "action": h["action"], "result": h["result"],
                     "replaced_at": h["replaced_at"]}
                    for h in reads.deal_history(db, stored.id)],
    }


def spreadsheet_safe(cell: Any) -> Any:
    """A CSV cell a spreadsheet shows as it is, never runs (see :func:`to_csv`).

    >>> [spreadsheet_safe(c) for c in ["=1+1", "-260", "-Ola", 7, "Ala"]]
    ["'=1+1", '-260', "'-Ola", 7, 'Ala']
    """
    if isinstance(cell, str) and cell.startswith(("=", "+", "-", "@", "\t", "\r")) \
            and not (cell[1:].isascii() and cell[1:].isdigit() and cell[0] == "-"):
        return "'" + cell
    return cell


def to_csv(game: service.Game) -> str:
    """The family's rows (one per deal, then the total), with a BOM so spreadsheets
    read UTF-8.

    Safe to open in a spreadsheet: a text cell that begins with ``=``, ``+``, ``-``,
    ``@``, a tab or a carriage return (a player named ``=HYPERLINK(...)``, say) gets a
    leading ``'``, as OWASP recommends, so it is shown as text and never run as a
    formula. Numbers stay numbers: the points the families write are ints, and a text
    cell that is a plain integer (``-260``) is a number to a spreadsheet, not a formula.
    """
    return csv_text(*game.family.csv(game))


def csv_text(header: list[Any], rows: list[list[Any]]) -> str:
    """A CSV file as every export of this app writes one: UTF-8 with a BOM (a spreadsheet
    then reads Polish letters right), each cell :func:`spreadsheet_safe`."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out)
    writer.writerow([spreadsheet_safe(c) for c in header])
    writer.writerows([spreadsheet_safe(c) for c in row] for row in rows)
    return out.getvalue()


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
        raise _refuse(N_("This is not a JSON file exported by this app.")) from None
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
    """Recreate an exported game under a new id; nothing is written if anything fails.

    Files written before the family was called ``family`` name it ``game``; both read.
    """
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
