"""Exports (CSV, JSON) and the JSON import that recreates a game exactly.

An import trusts nothing in the file: its shape, sizes and types are checked,
the ruleset snapshot must build, the players must pass the set-up checks and
every deal is replayed through the rules. Only then is the game written, in one
transaction, under a new id.
"""
from __future__ import annotations

import csv
import io
import json
from typing import Any

from sqlite_utils import Database

from . import games, service, store
from .families.kierki.rules import InvalidDeal, Problem
from .rules.errors import N_

FORMAT = "kierki-scorekeeper/game"
FORMAT_VERSION = 1
MAX_BYTES = 1024 * 1024
MAX_HISTORY = 2000


def to_json(db: Database, game: service.Game) -> dict[str, Any]:
    """The whole game: ruleset snapshot, players, raw results, correction history."""
    stored = game.stored
    return {
        "format": FORMAT, "format_version": FORMAT_VERSION,
        "game": stored.game, "id": stored.id,
        "created_at": stored.created_at, "updated_at": stored.updated_at,
        "ruleset": stored.ruleset, "settings": stored.settings,
        "players": stored.players,
        "deals": [{"number": i, "result": r} for i, r in enumerate(stored.results, start=1)],
        "history": [{"number": h["number"], "action": h["action"], "result": h["result"],
                     "replaced_at": h["replaced_at"]}
                    for h in store.deal_history(db, stored.id)],
    }


def tybet_csv(game: service.Game, label) -> str:
    """The partnership game: one row per deal, a column per pair, running totals."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out)
    p = game.players
    pairs = [f"{p[0]} & {p[2]}", f"{p[1]} & {p[3]}"]
    writer.writerow(["#", "dealer", *pairs, *[f"{n} (total)" for n in pairs], "detail"])
    for s in game.state.scored:
        detail = "; ".join(f"{label(r['key'])} {r['points'][0]}:{r['points'][1]}"
                           for r in s.rows if any(r["points"]))
        writer.writerow([s.deal.number, p[s.deal.dealer], *s.points, *s.totals, detail])
    writer.writerow(["", "total", *game.state.totals, *game.state.totals, ""])
    return out.getvalue()


def to_csv(game: service.Game, deal_name, detail) -> str:
    """One row per deal, a column per player (points) and per player (running total).

    ``deal_name(contract)`` and ``detail(contract, result, players)`` give the
    words in the UI language. Starts with a BOM so spreadsheets read UTF-8.
    """
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out)
    players = game.players
    writer.writerow(["#", "deal", "dealer", *players, *[f"{p} (total)" for p in players],
                     "sum", "expected sum", "detail"])
    for s in game.state.scored:
        writer.writerow([s.deal.number, deal_name(s.deal.contract), players[s.deal.dealer],
                         *s.points, *s.totals, s.sum, s.expected_sum,
                         detail(s.deal.contract, s.result, players)])
    writer.writerow(["", "total", "", *game.state.totals, *game.state.totals,
                     game.state.total_sum, game.state.expected_sum_so_far, ""])
    return out.getvalue()


def _refuse(message: str, **params: Any) -> service.InvalidInput:
    return service.InvalidInput([Problem("file", message, params)])


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


def _check_rules(kind: str, snapshot: Any):
    try:
        rules = games.family(kind).from_data(snapshot)
        if kind == "kierki":
            sums = [rules.expected_sum] + [c.expected_sum for c in rules.deals()]
            if not all(isinstance(x, int) and not isinstance(x, bool) for x in sums):
                raise TypeError("sums must be whole numbers")
        return rules
    except (TypeError, KeyError, ValueError, AttributeError, IndexError):
        raise _refuse(N_("The rules in the file are damaged.")) from None


def _settings(kind: str, data: dict[str, Any], rules: Any) -> dict[str, Any]:
    settings = data.get("settings")
    first = settings.get("first_dealer") if isinstance(settings, dict) else None
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < rules.players:
        raise _refuse(N_("The first dealer in the file is not one of the players."))
    out: dict[str, Any] = {"first_dealer": first}
    if kind == "tybet":
        target = settings.get("target", rules.target)
        if target not in rules.targets:
            raise _refuse(N_("Choose the score to play to."))
        out["target"] = target
    return out


def parse(raw: bytes) -> dict[str, Any]:
    """Bytes of an uploaded file to the checked pieces of a game."""
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
    kind = data.get("game")
    if kind not in games.FAMILIES:
        raise _refuse(N_("This app cannot import games of this kind yet."))
    rules = _check_rules(kind, data.get("ruleset"))
    settings = _settings(kind, data, rules)
    players = data.get("players")
    if not isinstance(players, list):
        raise _refuse(N_("The file has no list of players."))
    players = service.check_players(players, rules.players)
    results = _results(data)
    if kind == "kierki" and len(results) > len(rules.schedule):
        raise _refuse(N_("The file has more deals than its rules."))
    try:
        state = games.family(kind).fold(rules, settings, results)
        if not all(isinstance(t, int) for t in state.totals):
            raise TypeError("totals must be whole numbers")
    except InvalidDeal as e:
        raise service.InvalidInput(e.problems) from None
    except (TypeError, ValueError, KeyError, IndexError, AttributeError):
        raise _refuse(N_("The rules in the file are damaged.")) from None
    return {"game": kind, "ruleset": rules.snapshot(), "settings": settings,
            "players": players, "results": [s.result for s in state.scored],
            "finished": state.finished, "history": _history(data, len(results)),
            "created_at": data.get("created_at") if isinstance(data.get("created_at"), str)
            and len(data["created_at"]) <= 40 else None}


def import_game(db: Database, raw: bytes) -> str:
    """Recreate an exported game under a new id; nothing is written if anything fails."""
    piece = parse(raw)
    return store.import_game(db, piece["game"], piece["ruleset"], piece["players"],
                             piece["settings"], piece["results"], piece["history"],
                             piece["finished"], piece["created_at"])
