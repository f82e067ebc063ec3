"""The JSON API over the same service, with an OpenAPI document at /api/openapi.json
(:mod:`.openapi`): each view's docstring is its summary there, then its description.

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
from ..domain import clubs, errors, people, reads, seasons, service, tournaments, variants
from ..outputs import season_sheet
from ..rules import checks
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
    return answer, 201, {"Location": url_for(endpoint, **args)}


def _paged(rows: list[Any], more: bool, page: int):
    """A page of a list, with a ``Link`` header naming the next page while there is one."""
    if not more:
        return jsonify(rows)
    link = url_for(request.endpoint, page=page + 1, **request.view_args)
    return jsonify(rows), {"Link": f'<{link}>; rel="next"'}


@bp.errorhandler(InvalidInput)
def invalid(e: InvalidInput):
    return refusal_json(gettext("The input was refused."), errors=field_errors(e.problems)), 422


@bp.errorhandler(service.Conflict)
@bp.errorhandler(tournaments.NotNow)
def conflict(e: service.Conflict | tournaments.NotNow):
    """409: a game's (with its version now), or a tournament's (with its unsigned tables)."""
    extra: dict[str, Any] = {"version": e.version} if isinstance(e, service.Conflict) else {}
    if isinstance(e, tournaments.Unsigned):
        extra["unsigned"] = [{"round": tb.round, "number": tb.number, "game": tb.game_id,
                              "finished": tb.finished, "signatures": tb.signed_seats}
                             for tb in e.tables]
    return refusal_json(e.text(gettext), **extra), 409


@bp.errorhandler(errors.RulesetInUse)
def in_use(e: errors.RulesetInUse):
    return refusal_json(gettext("A game is played with this ruleset; delete the game first.")), 409


@bp.errorhandler(errors.GameNotFound)
@bp.errorhandler(errors.TournamentNotFound)
@bp.errorhandler(errors.PersonNotFound)
@bp.errorhandler(errors.SeasonNotFound)
def not_found(e: Exception):
    return refusal_json(gettext("Not found.")), 404


# -- rulesets ---------------------------------------------------------------------------------


@bp.get("/rulesets")
def rulesets():
    # (its summary in the document names RULESETS_PAGE)
    number = checks.page(request.args.get("page", "1"), RULESETS_PAGES)
    if number is None:
        raise _refused("page", N_("A page is a whole number from 1."))
    found = variants.listing(get_db())
    start = (number - 1) * RULESETS_PAGE
    return _paged([ruleset_entry(*f) for f in found[start:start + RULESETS_PAGE]],
                  start + RULESETS_PAGE < len(found), number)


@bp.get("/rulesets/schema.json")
def ruleset_schema():
    """The JSON Schema of a ruleset document"""
    return jsonify(variants.schema())


@bp.get("/rulesets/<ruleset_id:ruleset_id>")
def get_ruleset(ruleset_id: str):
    """A ruleset's whole data"""
    family, rules = variants.find(get_db(), ruleset_id)  # UnknownRuleset: 404
    return {"family": family.key, **rules.snapshot()}


@bp.post("/rulesets")
def create_ruleset():
    """Make a house variant from a whole ruleset document

    Checked against `/api/rulesets/schema.json`, by the loader of the built-in rulesets,
    and for its totals: a variant whose totals do not add up to zero needs
    `unbalanced: true`.
    """
    rid = variants.create(get_db(), _body(), current_app.config["MAX_VARIANTS"])
    family, rules = variants.find(get_db(), rid)
    return _created({"id": rid, "family": family.key, **rules.snapshot(),
                     "token": access.variant_token(rid)}, "api.get_ruleset", ruleset_id=rid)


@bp.delete("/rulesets/<ruleset_id:ruleset_id>")
def delete_ruleset(ruleset_id: str):
    """Delete a house variant no game is played with: with its maker's token, or by the
    host"""
    variants.find(get_db(), ruleset_id)  # UnknownRuleset: 404
    access.require_variant_maker(ruleset_id)
    variants.delete(get_db(), ruleset_id)
    return "", 204


# -- players ----------------------------------------------------------------------------------


def _players_page(club: str):
    db = get_db()
    page = people_views.page_number()
    listed, more = reads.players_page(db, lang(), page, PLAYERS_PAGE, club)
    return _paged([people.public(people.statistics(db, row["id"])) for row in listed], more, page)


@bp.get("/players")
def players():
    """Everyone who has played on this server, with their figures"""
    return _players_page(reads.HOME_CLUB)


@bp.get("/players/<int:pid>")
def player(pid: int):
    """One player's statistics over their finished games"""
    # no game ids: an id lets whoever has it play the game
    access.club_of_person_readable(get_db(), pid)
    return people.public(people.statistics(get_db(), pid))


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
    """Create a game"""
    body = _body()
    gid = service.create_game(get_db(), body.get("ruleset"), body.get("players"),
                              body.get("first_dealer"), given=body,
                              max_games=current_app.config["MAX_GAMES"],
                              club=_club_of(body, access.MEMBER))
    return _created(with_access(service.load(get_db(), gid)), "api.get_game", gid=gid)


@bp.post("/join")
def join():
    """Join a game by its code: its id and token"""
    code = access.normalise_code(_body().get("code"))
    if not code:
        raise _refused("code", N_("Enter the join code (eight characters; six for an older game)."))
    return with_access(service.load(get_db(), reads.game_by_code(get_db(), code)))


@bp.get("/games/<gid>")
def get_game(gid: str):
    """Read a game"""
    # tagged by its version and the language: 304 when the client has it
    found = reads.game_versions(get_db(), [gid])
    if not found:
        raise errors.GameNotFound(gid)
    return tagged(lambda: jsonify(game_json(service.load(get_db(), gid))),
                  "api-game", gid, found[0][1], lang())


@bp.put("/games/<gid>/deals/<int:number>")
def put_deal(gid: str, number: int):
    """Record the next deal or correct an earlier one"""
    db = get_db()
    game = service.load(db, gid)
    right = access.require_write(db, gid)
    body = _body()
    if not checks.is_int(body.get("version")):
        raise _refused("version", N_("Send the game's version."))
    return game_json(service.enter_deal(db, game, number, body.get("result"), body["version"],
                                        right))


@bp.post("/games/<gid>/deals/<int:number>/check")
def check_deal(gid: str, number: int):
    """Check a deal's result while it is being entered; stores nothing

    The rules that check the deal when it is saved, on what was entered so far: a blank
    (`null`, `""`, a missing field) is no problem yet. With nothing blank, `problems` are
    exactly what `PUT` would refuse with 422. Open to whoever may read the game; `number`
    is a recorded deal or the next one (else 422).
    """
    # open to readers: the body is JSON only, so another site's page cannot send it
    game = service.load(get_db(), gid)
    result = _body().get("result")
    if not isinstance(result, dict):
        raise _refused("result", N_("Send the deal's result."))
    deal = game.deal(number)  # 422 unless recorded or next
    return adapters.of(game.family).check_entry(game, deal, result)


@bp.post("/games/<gid>/undo")
def undo(gid: str):
    """Take back the last deal"""
    game = service.load(get_db(), gid)
    right = access.require_write(get_db(), gid)
    return game_json(service.undo_last(get_db(), game, _body().get("version"), right))


@bp.post("/games/<gid>/signatures")
def sign(gid: str):
    """Sign a finished game for one of its seats (or, by the director, as the director:
    seat -1)

    With the game's token or the tournament director's. A correction or undo takes every
    signature off; a closed tournament's game is refused 409.
    """
    game = service.load(get_db(), gid)
    right = access.require_write(get_db(), gid)
    body = _body()
    return game_json(service.sign(get_db(), game, body.get("seat"), body.get("version"),
                                  right)), 201


@bp.delete("/games/<gid>")
def delete_game(gid: str):
    """Delete a game for good"""
    game = service.load(get_db(), gid)
    access.require_write(get_db(), gid)
    body = _body()
    if body.get("confirm") is not True:
        raise _refused("confirm", N_("Deleting removes the game for good: send \"confirm\": true."))
    service.delete_game(get_db(), game, body.get("version"))
    return "", 204


# -- tournaments ------------------------------------------------------------------------------


@bp.post("/tournaments")
def create_tournament():
    """Start a Kierki tournament: its first round drawn, each table's game created"""
    body = _body()
    t = tournaments.create(get_db(), body.get("name"), body.get("players"), body.get("rounds"),
                           body.get("rulesets"), body.get("scoring", "points"),
                           body.get("seed"), max_games=current_app.config["MAX_GAMES"],
                           club=_club_of(body, access.DIRECTOR))
    limits.made_games(len(t.rounds[0]))
    return _created({"id": t.id, "token": access.tournament_token(t.id),
                     "round": round_json(t, 1, True)}, "api.get_tournament", tid=t.id)


@bp.get("/tournaments/<tid>")
def get_tournament(tid: str):
    """A tournament: its rounds, tables and standings

    With the director's token, each table's game `token` and `join_code` too; a wrong
    token is refused 403.
    """
    director = access.request_holder().bearer is not None
    if director:
        access.check_director(tid)
    return tournament_json(tournaments.load(get_db(), tid), director)


@bp.post("/tournaments/<tid>/rounds")
def draw_round(tid: str):
    """Draw the next round (the director)

    As few pairs as the draw can meet again; its tables' games are created. The optional
    `number` names the round meant.
    """
    access.check_director(tid)
    t = tournaments.draw_next(get_db(), tid, _body(optional=True).get("number"),
                              max_games=current_app.config["MAX_GAMES"])
    limits.made_games(len(t.rounds[t.current - 1]))
    return _created(round_json(t, t.current, True), "api.get_tournament", tid=tid)


@bp.post("/tournaments/<tid>/players")
def add_tournament_player(tid: str):
    """Seat a late arrival from the next round on (the director)"""
    access.check_director(tid)
    number = tournaments.add_player(get_db(), tid, _body().get("name"))
    return {"number": number, "name": tournaments.load(get_db(), tid).name_of(number)}, 201


@bp.delete("/tournaments/<tid>/players/<int:number>")
def withdraw_tournament_player(tid: str, number: int):
    """Withdraw a player after the current round (the director); their games so far
    count"""
    access.check_director(tid)
    tournaments.withdraw(get_db(), tid, number)
    return "", 204


@bp.post("/tournaments/<tid>/close")
def close_tournament(tid: str):
    """Close the tournament (the director): nothing more is drawn"""
    access.check_director(tid)
    confirm = _body(optional=True).get("confirm_unsigned") is True
    tournaments.close(get_db(), tid, confirm_unsigned=confirm)
    return "", 204


@bp.post("/tournaments/<tid>/reopen")
def reopen_tournament(tid: str):
    """Reopen a closed tournament (the director): its games can be corrected again"""
    access.check_director(tid)
    tournaments.reopen(get_db(), tid)
    return "", 204


@bp.get("/schema/game.json")
def game_schema():
    """The JSON Schema of an exported game file (what the import checks)"""
    from ..outputs.schema import json_schema
    return jsonify(json_schema())


@bp.get("/openapi.json")
def openapi():
    """This document"""
    from .openapi import document
    return jsonify(document(current_app.url_map, get_db()))


# -- clubs ------------------------------------------------------------------------------------


@bp.post("/clubs")
def create_club():
    """Make a club: its own people, games and tournaments"""
    body = _body()
    club = clubs.create(get_db(), body.get("name"), body.get("public", True))
    return _created({**club_json(club, access.MANAGER), "token": access.club_token(club.id)},
                    "api.get_club", cid=club.id)


@bp.get("/clubs/<cid>")
def get_club(cid: str):
    """A club (a private one to its members only: 404 to anyone else)

    With a member's, director's or the manager's token (`Authorization: Bearer`) a private
    club too, and the manager sees its invitation.
    """
    db = get_db()
    return club_json(access.readable_club(db, cid), access.club_right(db, cid))


@bp.patch("/clubs/<cid>")
def change_club(cid: str):
    """The manager's choices"""
    db = get_db()
    club = access.require_club(db, cid, access.MANAGER)
    body = _body()
    for key in ("public", "casual_rated"):
        if key in body and not isinstance(body[key], bool):
            raise _refused(key, N_("Send true or false."))
    club = clubs.change(db, club, body.get("name"), body.get("public"),
                        body.get("casual_rated"), body.get("default_ruleset"))
    return club_json(club, access.MANAGER)


@bp.post("/join-club")
def join_club():
    """Join a club by its invitation code: its id and a member's token"""
    code = access.normalise_code(_body().get("code"))
    if not code:
        raise _refused("code", N_("Enter the club's invitation code."))
    club = clubs.by_code(get_db(), code)  # 404 (a wrong guess) if none
    return {**club_json(club, access.MEMBER), "token": clubs.join(get_db(), club)}


@bp.get("/clubs/<cid>/members")
def club_members(cid: str):
    """The club's members, in the order they joined (the manager's)"""
    db = get_db()
    return jsonify(clubs.members(db, access.require_club(db, cid, access.MANAGER)))


@bp.delete("/clubs/<cid>/members/<int:mid>")
def remove_club_member(cid: str, mid: int):
    """Remove a member (the manager's): their token reads nothing of a private club from
    then on"""
    db = get_db()
    if not clubs.remove_member(db, access.require_club(db, cid, access.MANAGER), mid):
        abort(404)
    return "", 204


@bp.get("/clubs/<cid>/players")
def club_players(cid: str):
    """The club's people, each as `/api/players` gives them

    A private club's to its members, directors and manager only (their token in
    `Authorization: Bearer`).
    """
    club = access.readable_club(get_db(), cid)
    return _players_page(club.id)


@bp.get("/clubs/<cid>/season")
def club_season(cid: str):
    """The club's season table with each player's rating

    A private club's to its members, directors and manager only: 404 to anyone else.
    """
    # the current season, or ``?season=<id>``
    db = get_db()
    access.readable_club(db, cid)
    season = seasons.find(db, cid, request.args.get("season"))
    return season_sheet.to_json(season, seasons.table(db, season))


def init_app(app: Flask) -> None:
    from .views import csrf
    csrf.exempt(bp)  # JSON clients send no cookies; the version check guards writes
    app.url_map.converters["ruleset_id"] = RulesetId
    app.register_blueprint(bp)
