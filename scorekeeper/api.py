"""The JSON API over the same service, with an OpenAPI document at /api/openapi.json."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, abort, jsonify, request, url_for
from flask_babel import gettext

from . import service, store
from .db import get_db
from .families.kierki.rules import Problem, registry
from .families.kierki.rules.game import summary
from .families.tybet import rules as tybet
from .i18n import contract_name, field_errors, lang
from .rules.errors import N_

bp = Blueprint("api", __name__, url_prefix="/api")


def _fields(contract) -> list[dict[str, Any]]:
    return [{"name": f.name, "type": f.type, "total": f.total, "labels": list(f.labels),
             "distinct": f.distinct} for f in contract.fields()]


def _tybet_json(game: service.Game) -> dict[str, Any]:
    state = game.state
    return {
        "id": game.id, "game": game.family, "version": game.version,
        "ruleset": {"id": game.ruleset.id, "name": game.ruleset.name(lang()), "players": 4},
        "players": [{"seat": i, "name": n} for i, n in enumerate(game.players)],
        "pairs": [{"pair": p, "seats": [p, p + 2]} for p in (0, 1)],
        "first_dealer": state.first_dealer, "target": state.target,
        "deals": [{"number": s.deal.number, "dealer": s.deal.dealer, "leader": s.deal.leader,
                   "result": s.result, "points": s.points, "totals": s.totals,
                   "breakdown": s.rows} for s in state.scored],
        "totals": state.totals, "to_go": state.to_go, "finished": state.finished,
        "winner": state.winner,
        "current_deal": state.current.number if state.current else None,
    }


def game_json(game: service.Game) -> dict[str, Any]:
    if game.family == "tybet":
        return _tybet_json(game)
    state = game.state
    return {
        "id": game.id,
        "game": game.stored.game,
        "version": game.version,
        "ruleset": {"id": game.ruleset.id, "name": game.ruleset.name(lang()),
                    "players": game.ruleset.players, "expected_sum": game.ruleset.expected_sum},
        "players": [{"seat": i, "name": n} for i, n in enumerate(game.players)],
        "first_dealer": state.first_dealer,
        "schedule": [{"number": d.number, "contract": d.key, "kind": d.contract.kind,
                      "name": contract_name(d.contract), "dealer": d.dealer,
                      "leader": d.leader, "expected_sum": d.contract.expected_sum,
                      "fields": _fields(d.contract)} for d in state.deals],
        "deals": [{"number": s.deal.number, "result": s.result, "points": s.points,
                   "totals": s.totals, "sum": s.sum, "expected_sum": s.expected_sum}
                  for s in state.scored],
        **summary(state),
    }


def _invalid(e: service.InvalidInput):
    return jsonify({"error": gettext("The input was refused."),
                    "errors": field_errors(e.problems)}), 422


def _conflict(e: service.Conflict):
    return jsonify({"error": e.text(gettext), "version": e.version}), 409


def _load(gid: str) -> service.Game:
    try:
        return service.load(get_db(), gid)
    except store.GameNotFound:
        abort(404)


def _body() -> dict[str, Any]:
    body = request.get_json(silent=True)
    return body if isinstance(body, dict) else {}


@bp.get("/rulesets")
def rulesets():
    kierki = [{"id": rs.id, "game": "kierki", "name": rs.name(lang()), "players": rs.players,
               "deals": len(rs.schedule), "expected_sum": rs.expected_sum,
               "schedule": [{"contract": c.key, "name": contract_name(c),
                             "expected_sum": c.expected_sum} for c in rs.deals()]}
              for rs in registry().values()]
    others = [{"id": r.id, "game": r.game, "name": r.name(lang()), "players": r.players,
               "target": r.target, "targets": r.targets}
              for r in tybet.registry().values()]
    return jsonify(kierki + others)


@bp.post("/games")
def create_game():
    body = _body()
    players = body.get("players")
    dealer = body.get("first_dealer")
    target = body.get("target")
    try:
        if not isinstance(players, list):
            raise service.InvalidInput([Problem("players", N_("Enter the players' names."))])
        gid = service.create_game(get_db(), str(body.get("ruleset", "")), players, dealer,
                                  target=target)
    except service.InvalidInput as e:
        return _invalid(e)
    game = service.load(get_db(), gid)
    return jsonify(game_json(game)), 201, {"Location": url_for("api.get_game", gid=gid)}


@bp.get("/games/<gid>")
def get_game(gid: str):
    return jsonify(game_json(_load(gid)))


@bp.put("/games/<gid>/deals/<int:number>")
def put_deal(gid: str, number: int):
    _load(gid)
    body = _body()
    result = body.get("result")
    try:
        if not isinstance(result, dict):
            raise service.InvalidInput([Problem("result", N_("Send the deal's result."))])
        if not isinstance(body.get("version"), int):
            raise service.InvalidInput([Problem("version", N_("Send the game's version."))])
        game = service.enter_deal(get_db(), gid, number, result, body["version"])
    except service.InvalidInput as e:
        return _invalid(e)
    except service.Conflict as e:
        return _conflict(e)
    return jsonify(game_json(game))


@bp.post("/games/<gid>/undo")
def undo(gid: str):
    _load(gid)
    try:
        game = service.undo_last(get_db(), gid, _body().get("version"))
    except service.InvalidInput as e:
        return _invalid(e)
    except service.Conflict as e:
        return _conflict(e)
    return jsonify(game_json(game))


@bp.get("/openapi.json")
def openapi():
    from .openapi import document
    return jsonify(document())


def init_app(app: Flask) -> None:
    from .views import csrf
    csrf.exempt(bp)  # JSON clients send no cookies; the version check guards writes
    app.register_blueprint(bp)
