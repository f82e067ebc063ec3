"""The JSON API over the same service, with an OpenAPI document at /api/openapi.json.

A game's JSON is the same for every family in its shared keys; the family adds its own
(``Family.game_json``, ``deal_json``). Refused input answers 422 with messages per field,
a version conflict 409, a missing game 404, all from the handlers below.
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, abort, current_app, jsonify, request, url_for
from flask_babel import gettext
from werkzeug.routing import BaseConverter

from ..common.i18n import field_errors, lang
from ..domain import clubs, people, reads, seasons, service, tournaments, variants
from ..domain.errors import (
    GameNotFound,
    PersonNotFound,
    RulesetInUse,
    SeasonNotFound,
    TournamentNotFound,
)
from ..outputs import season_sheet
from ..rules import checks
from ..rules.checks import is_int
from ..rules.errors import N_, InvalidInput, Problem
from ..rules.named import ID
from . import access, adapters, limits
from .api_answers import (
    club_json,
    game_json,
    round_json,
    ruleset_entry,
    tournament_json,
    with_access,
)
from .api_models import RULESETS_PAGE, RULESETS_PAGES
from .db import get_db
from .hardening import tagged
from .jsonprovider import refusal_json
from .views import people as people_views

bp = Blueprint("api", __name__, url_prefix="/api")

#: People per page of ``GET /api/players``: each comes with all their figures.
PLAYERS_PAGE = 20


class RulesetId(BaseConverter):
    """A ruleset's id in a path: never ``schema.json``, which is a route of its own."""

    regex = ID.pattern.removeprefix("^").removesuffix("$")


def _refused(field: str, message: str) -> InvalidInput:
    return InvalidInput([Problem(field, message)])


def _refusal(status: int, message: str, **extra: Any):
    return jsonify(refusal_json(message, **extra)), status


def _body(optional: bool = False) -> dict[str, Any]:
    """The request's JSON object: 415 if it is not JSON, 400 if it cannot be read, 422 if
    it is another JSON value; ``optional``: {} for no body at all."""
    if optional and not request.content_length:
        return {}
    if not request.is_json:
        abort(415)
    body = request.get_json(silent=True)
    if body is None:
        abort(400)
    if not isinstance(body, dict):
        raise _refused("", N_("Send a JSON object."))
    return body


def _created(answer: dict[str, Any], endpoint: str, **args: Any):
    """201 with ``answer`` and where what it made is read."""
    return jsonify(answer), 201, {"Location": url_for(endpoint, **args)}


def _paged(rows: list[Any], more: bool, endpoint: str, page: int, **args: Any):
    """A page of a list, with a ``Link`` header naming the next page while there is one."""
    answer = jsonify(rows)
    if more:
        answer.headers["Link"] = f'<{url_for(endpoint, page=page + 1, **args)}>; rel="next"'
    return answer


@bp.errorhandler(InvalidInput)
def invalid(e: InvalidInput):
    return _refusal(422, gettext("The input was refused."), errors=field_errors(e.problems))


@bp.errorhandler(service.Conflict)
def conflict(e: service.Conflict):
    return _refusal(409, e.text(gettext), version=e.version)


@bp.errorhandler(tournaments.NotNow)
def not_now(e: tournaments.NotNow):
    return _refusal(409, e.text(gettext))


@bp.errorhandler(tournaments.Unsigned)
def unsigned(e: tournaments.Unsigned):
    return _refusal(409, e.text(gettext), unsigned=[
        {"round": tb.round, "number": tb.number, "game": tb.game_id,
         "finished": tb.finished, "signatures": tb.signed_seats} for tb in e.tables])


@bp.errorhandler(RulesetInUse)
def in_use(e: RulesetInUse):
    return _refusal(409, gettext("A game is played with this ruleset; delete the game "
                                 "first."))


@bp.errorhandler(GameNotFound)
@bp.errorhandler(TournamentNotFound)
@bp.errorhandler(PersonNotFound)
@bp.errorhandler(SeasonNotFound)
def not_found(e: Exception):
    return _refusal(404, gettext("Not found."))


# -- rulesets ---------------------------------------------------------------------------------


@bp.get("/rulesets")
def rulesets():
    """The rulesets, a page at a time: the built-in ones first, then the house variants."""
    number = checks.page(request.args.get("page", "1"), RULESETS_PAGES)
    if number is None:
        raise _refused("page", N_("A page is a whole number from 1."))
    found = variants.listing(get_db())
    start = (number - 1) * RULESETS_PAGE
    return _paged([ruleset_entry(*f) for f in found[start:start + RULESETS_PAGE]],
                  start + RULESETS_PAGE < len(found), "api.rulesets", number)


@bp.get("/rulesets/schema.json")
def ruleset_schema():
    return jsonify(variants.schema())


@bp.get("/rulesets/<ruleset_id:ruleset_id>")
def get_ruleset(ruleset_id: str):
    family, rules = variants.find(get_db(), ruleset_id)  # UnknownRuleset: 404
    return jsonify({"family": family.key, **rules.snapshot()})


@bp.post("/rulesets")
def create_ruleset():
    rid = variants.create(get_db(), _body(), current_app.config["MAX_VARIANTS"])
    family, rules = variants.find(get_db(), rid)
    return _created({"id": rid, "family": family.key, **rules.snapshot(),
                     "token": access.variant_token(rid)}, "api.get_ruleset", ruleset_id=rid)


@bp.delete("/rulesets/<ruleset_id:ruleset_id>")
def delete_ruleset(ruleset_id: str):
    variants.find(get_db(), ruleset_id)  # UnknownRuleset: 404
    access.require_variant_maker(ruleset_id)
    variants.delete(get_db(), ruleset_id)
    return "", 204


# -- players ----------------------------------------------------------------------------------


def _players_page(club: str, endpoint: str, **args: Any):
    db = get_db()
    page = people_views.page_number()
    listed, more = reads.players_page(db, lang(), page, PLAYERS_PAGE, club)
    return _paged([people.public(people.statistics(db, row["id"])) for row in listed],
                  more, endpoint, page, **args)


@bp.get("/players")
def players():
    return _players_page(reads.HOME_CLUB, "api.players")


@bp.get("/players/<int:pid>")
def player(pid: int):
    """One player's statistics (no game ids: an id lets whoever has it play the game)."""
    access.club_of_person_readable(get_db(), pid)
    return jsonify(people.public(people.statistics(get_db(), pid)))


# -- games ------------------------------------------------------------------------------------


def _club_of(body: dict[str, Any], wanted: str) -> str:
    """The club a new game or tournament goes to: ``"club"`` with a right of at least
    ``wanted`` in it, else the home club."""
    cid = body.get("club")
    if cid is None or cid == reads.HOME_CLUB:
        return reads.HOME_CLUB
    if not isinstance(cid, str):
        raise _refused("club", N_("Send the club's id."))
    return access.require_club(get_db(), cid, wanted).id


@bp.post("/games")
def create_game():
    body = _body()
    club = _club_of(body, access.MEMBER)
    gid = service.create_game(get_db(), body.get("ruleset"), body.get("players"),
                              body.get("first_dealer"), given=body,
                              max_games=current_app.config["MAX_GAMES"], club=club)
    return _created(with_access(service.load(get_db(), gid)), "api.get_game", gid=gid)


@bp.post("/join")
def join():
    """A game's id and write token, for whoever has its join code."""
    code = access.normalise_code(_body().get("code"))
    if not code:
        raise _refused("code", N_("Enter the join code (eight characters; six for an "
                                  "older game)."))
    return jsonify(with_access(service.load(get_db(), reads.game_by_code(get_db(), code))))


@bp.get("/games/<gid>")
def get_game(gid: str):
    """The game, tagged by its version and the language (304 when the client has it)."""
    found = reads.game_versions(get_db(), [gid])
    if not found:
        raise GameNotFound(gid)
    return tagged(lambda: jsonify(game_json(service.load(get_db(), gid))),
                  "api-game", gid, found[0][1], lang())


@bp.put("/games/<gid>/deals/<int:number>")
def put_deal(gid: str, number: int):
    db = get_db()
    game = service.load(db, gid)
    right = access.require_write(db, gid)
    body = _body()
    if not is_int(body.get("version")):
        raise _refused("version", N_("Send the game's version."))
    return jsonify(game_json(service.enter_deal(db, game, number, body.get("result"),
                                                body["version"], right)))


@bp.post("/games/<gid>/deals/<int:number>/check")
def check_deal(gid: str, number: int):
    """What a deal's result being entered already breaks; stores nothing. Open to whoever
    may read the game: the body is JSON only, so another site's page cannot send it."""
    game = service.load(get_db(), gid)
    result = _body().get("result")
    if not isinstance(result, dict):
        raise _refused("result", N_("Send the deal's result."))
    deal = game.deal(number)  # 422 unless recorded or next
    checked = adapters.of(game.family).check_entry(game, deal, result)
    if checked is not None:
        return jsonify(checked)
    try:  # a family without its own: what saving would refuse
        game.family.validate(game.rules, deal, result)
        problems = []
    except InvalidInput as e:
        problems = [{"field": key, "where": "", "message": m}
                    for key, messages in field_errors(e.problems).items() for m in messages]
    return jsonify({"ok": not problems, "complete": True, "problems": problems,
                    "progress": []})


@bp.post("/games/<gid>/undo")
def undo(gid: str):
    game = service.load(get_db(), gid)
    right = access.require_write(get_db(), gid)
    return jsonify(game_json(service.undo_last(get_db(), game, _body().get("version"), right)))


@bp.post("/games/<gid>/signatures")
def sign(gid: str):
    """A finished game signed for a seat, by its table or the director (seat -1 too)."""
    game = service.load(get_db(), gid)
    right = access.require_write(get_db(), gid)
    body = _body()
    signed = service.sign(get_db(), game, body.get("seat"), body.get("version"), right)
    return jsonify(game_json(signed)), 201


@bp.delete("/games/<gid>")
def delete_game(gid: str):
    game = service.load(get_db(), gid)
    access.require_write(get_db(), gid)
    body = _body()
    if body.get("confirm") is not True:
        raise _refused("confirm", N_("Deleting removes the game for good: send \"confirm\": "
                                     "true."))
    service.delete_game(get_db(), game, body.get("version"))
    return "", 204


# -- tournaments ------------------------------------------------------------------------------


@bp.post("/tournaments")
def create_tournament():
    """A tournament with its first round drawn: its id, the director's token, round 1."""
    body = _body()
    club = _club_of(body, access.DIRECTOR)
    t = tournaments.create(get_db(), body.get("name"), body.get("players"), body.get("rounds"),
                           body.get("rulesets"), body.get("scoring", "points"),
                           body.get("seed"), max_games=current_app.config["MAX_GAMES"],
                           club=club)
    limits.made_games(len(t.rounds[0]))
    return _created({"id": t.id, "token": access.tournament_token(t.id),
                     "round": round_json(t, 1, True)}, "api.get_tournament", tid=t.id)


@bp.get("/tournaments/<tid>")
def get_tournament(tid: str):
    """Anyone who may read it; with a token, only the director's (else 403)."""
    director = access.request_holder().bearer is not None
    if director:
        access.check_director(tid)
    return jsonify(tournament_json(tournaments.load(get_db(), tid), director))


@bp.post("/tournaments/<tid>/rounds")
def draw_round(tid: str):
    access.check_director(tid)
    t = tournaments.draw_next(get_db(), tid, _body(optional=True).get("number"),
                              max_games=current_app.config["MAX_GAMES"])
    limits.made_games(len(t.rounds[t.current - 1]))
    return _created(round_json(t, t.current, True), "api.get_tournament", tid=tid)


@bp.post("/tournaments/<tid>/players")
def add_tournament_player(tid: str):
    access.check_director(tid)
    number = tournaments.add_player(get_db(), tid, _body().get("name"))
    t = tournaments.load(get_db(), tid)
    return jsonify({"number": number, "name": t.name_of(number)}), 201


@bp.delete("/tournaments/<tid>/players/<int:number>")
def withdraw_tournament_player(tid: str, number: int):
    access.check_director(tid)
    tournaments.withdraw(get_db(), tid, number)
    return "", 204


@bp.post("/tournaments/<tid>/close")
def close_tournament(tid: str):
    """Closed; while tables are not signed, 409 naming them, unless the body says
    ``{"confirm_unsigned": true}``."""
    access.check_director(tid)
    confirm = _body(optional=True).get("confirm_unsigned") is True
    tournaments.close(get_db(), tid, confirm_unsigned=confirm)
    return "", 204


@bp.post("/tournaments/<tid>/reopen")
def reopen_tournament(tid: str):
    access.check_director(tid)
    tournaments.reopen(get_db(), tid)
    return "", 204


@bp.get("/schema/game.json")
def game_schema():
    from ..outputs.schema import json_schema
    return jsonify(json_schema())


@bp.get("/openapi.json")
def openapi():
    from .openapi import document
    return jsonify(document(current_app.url_map, get_db()))


# -- clubs ------------------------------------------------------------------------------------


@bp.post("/clubs")
def create_club():
    """A new club: its id, the manager's token (given this once) and its invitation."""
    body = _body()
    club = clubs.create(get_db(), body.get("name"), body.get("public", True))
    return _created({**club_json(club, access.MANAGER), "token": access.club_token(club.id)},
                    "api.get_club", cid=club.id)


@bp.get("/clubs/<cid>")
def get_club(cid: str):
    db = get_db()
    club = access.readable_club(db, cid)
    return jsonify(club_json(club, access.club_right(db, cid)))


@bp.patch("/clubs/<cid>")
def change_club(cid: str):
    """The manager's choices: ``name``, ``public``, ``casual_rated``, ``default_ruleset``."""
    db = get_db()
    club = access.require_club(db, cid, access.MANAGER)
    body = _body()
    for key in ("public", "casual_rated"):
        if key in body and not isinstance(body[key], bool):
            raise _refused(key, N_("Send true or false."))
    club = clubs.change(db, club, body.get("name"), body.get("public"),
                        body.get("casual_rated"), body.get("default_ruleset"))
    return jsonify(club_json(club, access.MANAGER))


@bp.post("/join-club")
def join_club():
    """A club's id and a member's token, for whoever has its invitation code."""
    code = access.normalise_code(_body().get("code"))
    if not code:
        raise _refused("code", N_("Enter the club's invitation code."))
    club = clubs.by_code(get_db(), code)  # 404 (a wrong guess) if none
    return jsonify({**club_json(club, access.MEMBER), "token": clubs.join(get_db(), club)})


@bp.get("/clubs/<cid>/members")
def club_members(cid: str):
    db = get_db()
    return jsonify(clubs.members(db, access.require_club(db, cid, access.MANAGER)))


@bp.delete("/clubs/<cid>/members/<int:mid>")
def remove_club_member(cid: str, mid: int):
    """A member removed: their token reads nothing of a private club from now on."""
    db = get_db()
    if not clubs.remove_member(db, access.require_club(db, cid, access.MANAGER), mid):
        abort(404)
    return "", 204


@bp.get("/clubs/<cid>/players")
def club_players(cid: str):
    club = access.readable_club(get_db(), cid)
    return _players_page(club.id, "api.club_players", cid=cid)


@bp.get("/clubs/<cid>/season")
def club_season(cid: str):
    """The club's season table, best first: the current season, or ``?season=<id>``."""
    db = get_db()
    access.readable_club(db, cid)
    season = seasons.find(db, cid, request.args.get("season"))
    return jsonify(season_sheet.to_json(season, seasons.table(db, season)))


def init_app(app: Flask) -> None:
    from .views import csrf
    csrf.exempt(bp)  # JSON clients send no cookies; the version check guards writes
    app.url_map.converters["ruleset_id"] = RulesetId
    app.register_blueprint(bp)
