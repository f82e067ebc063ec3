"""The JSON API over the same service, with an OpenAPI document at /api/openapi.json.

A game's JSON is the same for every family in its shared keys; the family adds its
own (``Family.game_json``, ``deal_json``). Refused input answers 422 with messages
per field, a version conflict 409, a missing game 404, all from the handlers below.
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, abort, current_app, jsonify, request, url_for
from flask_babel import gettext
from werkzeug.routing import BaseConverter

from . import access, caches, people, queries, service, store, variants
from .db import get_db
from .i18n import field_errors, lang
from .queries import GameNotFound
from .rules.errors import N_, InvalidInput, Problem
from .rules.named import ID
from .safejson import Written

bp = Blueprint("api", __name__, url_prefix="/api")


class RulesetId(BaseConverter):
    """A ruleset's id in a path: never ``schema.json``, which is a route of its own."""

    regex = ID.pattern.removeprefix("^").removesuffix("$")


def game_json(game: service.Game) -> dict[str, Any]:
    """A game as JSON: the shared keys, then the family's own."""
    state = game.state
    family = game.family
    extra = family.game_json(game)
    rules = game.rules
    return {
        **extra,
        "id": game.id, "family": family.key, "version": game.version,
        "ruleset": {"id": rules.id, "name": rules.name(lang()), "players": rules.players,
                    **extra.get("ruleset", {})},
        "players": [{"seat": i, "name": n} for i, n in enumerate(game.players)],
        "first_dealer": state.first_dealer,
        "deals": [_deal_json(game, s) for s in state.scored],
        "totals": state.totals, "finished": state.finished,
        "winners": state.winners if state.finished else [],
        "current_deal": state.current.number if state.current else None,
    }


def _deal_json(game: service.Game, scored: Any) -> Written:
    """A recorded deal's JSON, written once and kept on the game. A deal's scored record
    is one object from the version that recorded it on (the next deal's state keeps the
    ones before it, and the service hands the game's parts on), and its JSON has no
    words in it, so an answer after each deal entered writes only the new deal's."""
    kept = game.parts.get(("deal-json", scored.deal.number))
    if kept is not None and kept[0] is scored:
        return kept[1]
    written = _written_deal(game, scored)
    game.parts[("deal-json", scored.deal.number)] = (scored, written)
    return written


def _written_deal(game: service.Game, scored: Any) -> Written:
    return Written({
        "number": scored.deal.number, "dealer": scored.deal.dealer,
        "leader": scored.deal.leader, "result": scored.result, "points": scored.points,
        "totals": scored.totals, **game.family.deal_json(game, scored)})


def _body() -> dict[str, Any]:
    """The request's JSON object: 415 if it is not JSON, 400 if it cannot be read."""
    if not request.is_json:
        abort(415)
    body = request.get_json(silent=True)
    if body is None:
        abort(400)
    if not isinstance(body, dict):
        raise InvalidInput([Problem("", N_("Send a JSON object."))])
    return body


@bp.errorhandler(InvalidInput)
def invalid(e: InvalidInput):
    return jsonify({"error": gettext("The input was refused."),
                    "errors": field_errors(e.problems)}), 422


@bp.errorhandler(service.Conflict)
def conflict(e: service.Conflict):
    return jsonify({"error": e.text(gettext), "version": e.version}), 409


@bp.errorhandler(GameNotFound)
def not_found(e: GameNotFound):
    return jsonify({"error": gettext("Not found.")}), 404


def _ruleset_entry(family, rules, row) -> dict[str, Any]:
    return {"id": rules.id, "family": family.key, "name": rules.name(lang()),
            "players": rules.players, "builtin": row is None,
            **({"made_by": row["made_by"], "created_at": row["created_at"]} if row else {}),
            **family.ruleset_json(rules)}


@bp.get("/rulesets")
def rulesets():
    """Every ruleset: the built-in ones, then this server's house variants."""
    return jsonify([_ruleset_entry(*found) for found in variants.listing(get_db())])


@bp.get("/rulesets/schema.json")
def ruleset_schema():
    """The JSON Schema of a Kierki ruleset document (``POST /api/rulesets``)."""
    return jsonify(variants.schema())


@bp.get("/rulesets/<ruleset_id:ruleset_id>")
def get_ruleset(ruleset_id: str):
    """A ruleset's whole data: what ``POST /api/rulesets`` takes to make a variant."""
    family, rules = variants.find(get_db(), ruleset_id)  # UnknownRuleset: 404
    return jsonify({"family": family.key, **rules.snapshot()})


@bp.post("/rulesets")
def create_ruleset():
    """A house variant from a whole ruleset document; 201 with its id."""
    rid = variants.create(get_db(), _body())
    family, rules = variants.find(get_db(), rid)
    return (jsonify({"id": rid, "family": family.key, **rules.snapshot()}), 201,
            {"Location": url_for("api.get_ruleset", ruleset_id=rid)})


@bp.delete("/rulesets/<ruleset_id:ruleset_id>")
def delete_ruleset(ruleset_id: str):
    """Delete a house variant no game is played with (409 while one is)."""
    try:
        variants.delete(get_db(), ruleset_id)  # UnknownRuleset: 404
    except store.RulesetInUse:
        return jsonify({"error": gettext(
            "A game is played with this ruleset; delete the game first.")}), 409
    return "", 204


@bp.get("/players")
def players():
    """Everyone who has played here, each with their statistics."""
    db = get_db()
    return jsonify([people.public(people.statistics(db, row["id"]))
                    for row in queries.people(db)])


@bp.get("/players/<int:pid>")
def player(pid: int):
    """One player's statistics (no game ids: an id lets whoever has it play the game)."""
    try:
        return jsonify(people.public(people.statistics(get_db(), pid)))
    except queries.PersonNotFound:
        abort(404)


def _with_access(game: service.Game) -> dict[str, Any]:
    """A game's JSON with what its table needs to write: the token and the join code."""
    return {**game_json(game), "token": access.token(game.id),
            "join_code": game.stored.join_code}


@bp.post("/games")
def create_game():
    body = _body()
    gid = service.create_game(get_db(), body.get("ruleset"), body.get("players"),
                              body.get("first_dealer"), given=body,
                              max_games=current_app.config["MAX_GAMES"])
    game = service.load(get_db(), gid)
    return jsonify(_with_access(game)), 201, {"Location": url_for("api.get_game", gid=gid)}


@bp.post("/join")
def join():
    """A game's id and write token, for whoever has its join code."""
    code = access.normalise_code(_body().get("code"))
    if not code:
        raise InvalidInput([Problem("code", N_("Enter the six-character join code."))])
    return jsonify(_with_access(service.load(get_db(), queries.game_by_code(get_db(), code))))


@bp.get("/games/<gid>")
def get_game(gid: str):
    """Written once per game version and language, with a strong ETag (304 when the
    client has it)."""
    game = service.load(get_db(), gid)
    body = caches.body(("api-game", gid, game.version, lang()),
                       lambda: caches.Body.of(current_app.json.dumps(game_json(game)) + "\n"))
    return caches.respond(body, "application/json")


@bp.put("/games/<gid>/deals/<int:number>")
def put_deal(gid: str, number: int):
    game = service.load(get_db(), gid)
    access.require_token(gid)
    body = _body()
    version = body.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise InvalidInput([Problem("version", N_("Send the game's version."))])
    return jsonify(game_json(service.enter_deal(get_db(), game, number, body.get("result"),
                                                version)))


@bp.post("/games/<gid>/undo")
def undo(gid: str):
    game = service.load(get_db(), gid)
    access.require_token(gid)
    return jsonify(game_json(service.undo_last(get_db(), game, _body().get("version"))))


@bp.delete("/games/<gid>")
def delete_game(gid: str):
    """Delete for good: needs the token, the current version and ``"confirm": true``."""
    game = service.load(get_db(), gid)
    access.require_token(gid)
    body = _body()
    if body.get("confirm") is not True:
        raise InvalidInput([Problem("confirm", N_(
            "Deleting removes the game for good: send \"confirm\": true."))])
    service.delete_game(get_db(), game, body.get("version"))
    return "", 204


@bp.get("/schema/game.json")
def game_schema():
    """The JSON Schema of an exported game file, the one the import checks."""
    from .schema import json_schema
    return jsonify(json_schema())


@bp.get("/openapi.json")
def openapi():
    from .openapi import document
    return jsonify(document())


def init_app(app: Flask) -> None:
    from .views import csrf
    csrf.exempt(bp)  # JSON clients send no cookies; the version check guards writes
    app.url_map.converters["ruleset_id"] = RulesetId
    app.register_blueprint(bp)
