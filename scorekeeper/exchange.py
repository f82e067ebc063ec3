"""Exports (CSV, JSON) and the JSON import that recreates a game exactly.

An import trusts nothing in the file: its shape, sizes and types are checked here,
then :func:`service.import_game` builds the ruleset snapshot through its family,
checks the players and the set-up and replays every deal through the rules. Only
then is the game written, in one transaction, under a new id.
"""
from __future__ import annotations

import csv
import io
import json
from typing import Any

from sqlite_utils import Database

from . import queries, service
from .rules.errors import N_, InvalidInput, Problem

FORMAT = "kierki-scorekeeper/game"
FORMAT_VERSION = 1
MAX_BYTES = 1024 * 1024
MAX_HISTORY = 2000


def to_json(db: Database, game: service.Game) -> dict[str, Any]:
    """The whole game: ruleset snapshot, players, raw results, correction history."""
    stored = game.stored
    return {
        "format": FORMAT, "format_version": FORMAT_VERSION,
        "family": stored.family, "id": stored.id,
        "created_at": stored.created_at, "updated_at": stored.updated_at,
        "ruleset": stored.ruleset, "settings": stored.settings,
        "players": stored.players,
        "deals": [{"number": i, "result": r} for i, r in enumerate(stored.results, start=1)],
        "history": [{"number": h["number"], "action": h["action"], "result": h["result"],
                     "replaced_at": h["replaced_at"]}
                    for h in queries.deal_history(db, stored.id)],
    }


def to_csv(game: service.Game) -> str:
    """The family's rows (one per deal, then the total), with a BOM so spreadsheets
    read UTF-8.

    Safe to open in a spreadsheet: a text cell that begins with ``=``, ``+``, ``-``,
    ``@``, a tab or a carriage return (a player named ``=HYPERLINK(...)``, say) gets a
    leading ``'``, as OWASP recommends, so it is shown as text and never run as a
    formula. Numbers stay numbers: the points the families write are ints, and a text
    cell that is a plain integer (``-260``) is a number to a spreadsheet, not a formula.
    """
    def safe(cell: Any) -> Any:
        if isinstance(cell, str) and cell.startswith(("=", "+", "-", "@", "\t", "\r")) \
                and not (cell[1:].isascii() and cell[1:].isdigit() and cell[0] == "-"):
            return "'" + cell
        return cell

    header, rows = game.family.csv(game)
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out)
    writer.writerow([safe(c) for c in header])
    writer.writerows([safe(c) for c in row] for row in rows)
    return out.getvalue()


def _refuse(message: str, **params: Any) -> InvalidInput:
    return InvalidInput([Problem("file", message, params)])


def _results(data: dict[str, Any]) -> list[dict[str, Any]]:
    deals = data.get("deals")
    if not isinstance(deals, list):
        raise _refuse(N_("The file has no list of deals."))
    results = []
    for i, deal in enumerate(deals, start=1):
        if not isinstance(deal, dict) or deal.get("number") != i \
                or not isinstance(deal.get("result"), dict):
            raise _refuse(N_("Deal %(number)s in the file is not a numbered result."), number=i)
        results.append(deal["result"])
    return results


def _history(data: dict[str, Any], deals: int) -> list[dict[str, Any]]:
    history = data.get("history", [])
    if not isinstance(history, list) or len(history) > MAX_HISTORY:
        raise _refuse(N_("The correction history in the file is not readable."))
    out = []
    for h in history:
        if not (isinstance(h, dict) and isinstance(h.get("number"), int)
                and not isinstance(h.get("number"), bool)
                and 1 <= h["number"] <= max(deals, 1) + 1
                and h.get("action") in ("edit", "undo") and isinstance(h.get("result"), dict)
                and isinstance(h.get("replaced_at"), str) and len(h["replaced_at"]) <= 40):
            raise _refuse(N_("The correction history in the file is not readable."))
        out.append({k: h[k] for k in ("number", "action", "result", "replaced_at")})
    return out


def read(raw: bytes) -> dict[str, Any]:
    """Bytes of an uploaded file to a checked JSON object of this app's format."""
    if len(raw) > MAX_BYTES:
        raise _refuse(N_("The file is larger than %(size)s kB."), size=MAX_BYTES // 1024)
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise _refuse(N_("This is not a JSON file exported by this app.")) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _refuse(N_("This is not a JSON file exported by this app."))
    if data.get("format_version") != FORMAT_VERSION:
        raise _refuse(N_("This file was written by another version of the app."))
    if not isinstance(data.get("players"), list):
        raise _refuse(N_("The file has no list of players."))
    return data


def import_game(db: Database, raw: bytes) -> str:
    """Recreate an exported game under a new id; nothing is written if anything fails.

    Files written before the family was called ``family`` name it ``game``; both read.
    """
    data = read(raw)
    results = _results(data)
    created = data.get("created_at")
    try:
        return service.import_game(
            db, data.get("family", data.get("game")), data.get("ruleset"), data["players"],
            data.get("settings"), results, lambda deals: _history(data, deals),
            created if isinstance(created, str) and len(created) <= 40 else None)
    except InvalidInput:
        raise
    except (TypeError, ValueError, KeyError, IndexError, AttributeError):
        raise _refuse(N_("The rules in the file are damaged.")) from None
