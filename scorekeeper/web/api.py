"""The JSON API over the same service, with an OpenAPI document at /api/openapi.json.

A game's JSON is the same for every family in its shared keys; the family adds its
own (``Family.game_json``, ``deal_json``). Refused input answers 422 with messages
per field, a version conflict 409, a missing game 404, all from the handlers below.
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, abort, current_app, jsonify, request, url_for
from flask_babel import gettext
from sqlite_utils import Database
from werkzeug.routing import BaseConverter

from ..common.i18n import field_errors, lang
from ..common.safejson import Written
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
from .api_models import RULESETS_PAGE, RULESETS_PAGES
from .db import get_db
from .hardening import tagged
from .jsonprovider import refusal_json
from .views import people as people_views

bp = Blueprint("api", __name__, url_prefix="/api")


class RulesetId(BaseConverter):
    """A ruleset's id in a path: never ``schema.json``, which is a route of its own."""

    regex = ID.pattern.removeprefix("^").removesuffix("$")


def game_json(game: service.Game, db: Database | None = None) -> dict[str, Any]:
    """A game as JSON: the shared keys, then the family's own; a finished game's
    signatures (by seat; the director's seat is -1), read on ``db`` (default: the
    request's)."""
    state = game.state
    finished = state.finished
    signed = service.signatures(db or get_db(), game) if finished else {}
    family = game.family
    extra = family.game_json(game)
    rules = game.rules
    current = state.current
    return {
        **extra,
        "id": game.id, "family": family.key, "version": game.version,
        "ruleset": {"id": rules.id, "name": rules.name(lang()), "players": rules.players,
                    **extra.get("ruleset", {})},
        "players": [{"seat": i, "name": n} for i, n in enumerate(game.players)],
        "first_dealer": state.first_dealer,
        "deals": [_written_deal(game, s) for s in state.scored],
        "totals": state.totals, "finished": finished,
        "winners": state.winners if finished else [],
        "current_deal": current.number if current else None,
        "signatures": [{"seat": seat, "by": s["by"], "at": s["at"]}
                       for seat, s in signed.items()],
    }


def _written_deal(game: service.Game, scored: Any) -> Written:
    return Written({
        "number": scored.deal.number, "dealer": scored.deal.dealer,
        "leader": scored.deal.leader, "result": scored.result, "points": scored.points,
        "totals": scored.totals, **game.family.deal_json(game, scored)})


def _json() -> Any:
    """The request's JSON: 415 if it is not JSON, 400 if it cannot be read."""
    if not request.is_json:
        abort(415)
    body = request.get_json(silent=True)
    if body is None:
        abort(400)
    return body


def _body() -> dict[str, Any]:
    """The request's JSON object (422 if it is another JSON value)."""
    body = _json()
    if not isinstance(body, dict):
        raise InvalidInput([Problem("", N_("Send a JSON object."))])
    return body


@bp.errorhandler(InvalidInput)
def invalid(e: InvalidInput):
    return jsonify(refusal_json(gettext("The input was refused."),
                                errors=field_errors(e.problems))), 422


@bp.errorhandler(service.Conflict)
def conflict(e: service.Conflict):
    return jsonify(refusal_json(e.text(gettext), version=e.version)), 409


@bp.errorhandler(GameNotFound)
def not_found(e: GameNotFound):
    return jsonify(refusal_json(gettext("Not found."))), 404


def _ruleset_entry(family, rules, row) -> dict[str, Any]:
    return {"id": rules.id, "family": family.key, "name": rules.name(lang()),
            "players": rules.players, "builtin": row is None,
            **({"made_by": row["made_by"], "created_at": row["created_at"]} if row else {}),
            **family.ruleset_json(rules)}


@bp.get("/rulesets")
def rulesets():
    """The rulesets, a page at a time (``?page=2``; the built-in ones first, then this
    server's house variants, oldest first); a ``Link: <…>; rel="next"`` header names the
    next page while there is one."""
    number = checks.page(request.args.get("page", "1"), RULESETS_PAGES)
    if number is None:
        raise InvalidInput([Problem("page", N_("A page is a whole number from 1."))])
    found = variants.listing(get_db())
    start = (number - 1) * RULESETS_PAGE
    response = jsonify([_ruleset_entry(*f) for f in found[start:start + RULESETS_PAGE]])
    if start + RULESETS_PAGE < len(found):
        response.headers["Link"] = (f'<{url_for("api.rulesets", page=number + 1)}>; '
                                    'rel="next"')
    return response


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
    rid = variants.create(get_db(), _body(), current_app.config["MAX_VARIANTS"])
    family, rules = variants.find(get_db(), rid)
    return (jsonify({"id": rid, "family": family.key, **rules.snapshot(),
                     "token": access.variant_token(rid)}), 201,
            {"Location": url_for("api.get_ruleset", ruleset_id=rid)})


@bp.delete("/rulesets/<ruleset_id:ruleset_id>")
def delete_ruleset(ruleset_id: str):
    """Delete a house variant no game is played with (409 while one is): with the token
    its maker was given, or by the host."""
    variants.find(get_db(), ruleset_id)  # UnknownRuleset: 404
    if not access.is_host():
        header = request.headers.get("Authorization", "")
        if access.bearer(header) is None:
            raise access.NoToken()
        if not access.may_delete_variant(header, ruleset_id):
            raise access.WrongToken()
    try:
        variants.delete(get_db(), ruleset_id)  # UnknownRuleset: 404
    except RulesetInUse:
        return jsonify(refusal_json(gettext(
            "A game is played with this ruleset; delete the game first."))), 409
    return "", 204


#: People per page of ``GET /api/players``: each comes with all their figures.
PLAYERS_PAGE = 20


@bp.get("/players")
def players():
    """Everyone who has played here, each with their statistics, a page at a time in the
    order of their names (``?page=``, from 1); a ``Link`` header names the next page
    (``rel="next"``) while there is one."""
    db = get_db()
    page = people_views.page_number()
    listed, more = reads.players_page(db, lang(), page, PLAYERS_PAGE)
    answer = jsonify([people.public(people.statistics(db, row["id"])) for row in listed])
    if more:
        answer.headers["Link"] = f'<{url_for("api.players", page=page + 1)}>; rel="next"'
    return answer


@bp.get("/players/<int:pid>")
def player(pid: int):
    """One player's statistics (no game ids: an id lets whoever has it play the game)."""
    try:
        access.club_of_person_readable(get_db(), pid)
        return jsonify(people.public(people.statistics(get_db(), pid)))
    except PersonNotFound:
        abort(404)


def _with_access(game: service.Game) -> dict[str, Any]:
    """A game's JSON with what its table needs to write: the token and the join code."""
    return {**game_json(game), "token": access.token(game.id),
            "join_code": game.stored.join_code}


def _club_of(body: dict[str, Any], wanted: str) -> str:
    """The club a new game or tournament goes to: ``"club"`` (its id) with a right of at
    least ``wanted`` in it (the token in ``Authorization``: 404 for a private club's
    stranger, 401 without a token, 403 with too weak a one), else the home club."""
    cid = body.get("club")
    if cid is None or cid == reads.HOME_CLUB:
        return reads.HOME_CLUB
    if not isinstance(cid, str):
        raise InvalidInput([Problem("club", N_("Send the club's id."))])
    return access.require_club(get_db(), cid, wanted).id


@bp.post("/games")
def create_game():
    body = _body()
    club = _club_of(body, access.MEMBER)
    gid = service.create_game(get_db(), body.get("ruleset"), body.get("players"),
                              body.get("first_dealer"), given=body,
                              max_games=current_app.config["MAX_GAMES"], club=club)
    game = service.load(get_db(), gid)
    return jsonify(_with_access(game)), 201, {"Location": url_for("api.get_game", gid=gid)}


@bp.post("/join")
def join():
    """A game's id and write token, for whoever has its join code."""
    code = access.normalise_code(_body().get("code"))
    if not code:
        raise InvalidInput([Problem("code", N_(
            "Enter the join code (eight characters; six for an older game)."))])
    return jsonify(_with_access(service.load(get_db(), reads.game_by_code(get_db(), code))))


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
    """A deal entered or corrected: the game (404), the token (401, 403), the body (415,
    400, 422), the deal (422, 409); the game after it."""
    db = get_db()
    game = service.load(db, gid)
    right = access.api_right(db, gid, request.headers.get("Authorization", ""),
                             current_app.config["SECRET_KEY"])
    body = _body()
    version = body.get("version")
    if not is_int(version):
        raise InvalidInput([Problem("version", N_("Send the game's version."))])
    return jsonify(game_json(service.enter_deal(db, game, number, body.get("result"),
                                                version, right)))


@bp.post("/games/<gid>/deals/<int:number>/check")
def check_deal(gid: str, number: int):
    """What a deal's result being entered already breaks, by the rules that check it when
    it is saved; stores nothing. Whoever may read the game may ask (no token, as for
    ``GET``); the body is JSON only, so another site's page cannot send it."""
    game = service.load(get_db(), gid)
    result = _body().get("result")
    if not isinstance(result, dict):
        raise InvalidInput([Problem("result", N_("Send the deal's result."))])
    deal = game.deal(number)  # 422 unless recorded or next
    family = game.family
    checked = adapters.of(family).check_entry(game, deal, result)
    if checked is not None:
        return jsonify(checked)
    try:  # a family without its own: what saving would refuse, as it is
        family.validate(game.rules, deal, result)
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
    """A finished game signed for a seat (``{"seat": 0, "version": 14}``), with the game's
    token or the director's (who may also sign as the director: seat -1)."""
    game = service.load(get_db(), gid)
    right = access.require_write(get_db(), gid)
    body = _body()
    signed = service.sign(get_db(), game, body.get("seat"), body.get("version"), right)
    return jsonify(game_json(signed)), 201


@bp.delete("/games/<gid>")
def delete_game(gid: str):
    """Delete for good: needs the token, the current version and ``"confirm": true``."""
    game = service.load(get_db(), gid)
    access.require_write(get_db(), gid)
    body = _body()
    if body.get("confirm") is not True:
        raise InvalidInput([Problem("confirm", N_(
            "Deleting removes the game for good: send \"confirm\": true."))])
    service.delete_game(get_db(), game, body.get("version"))
    return "", 204


def _points(value: Any) -> int | float:
    """A standings' points for JSON: whole when whole (ranking by places gives halves)."""
    return int(value) if value == int(value) else float(value)


def _round_json(t: tournaments.Tournament, number: int, director: bool) -> dict[str, Any]:
    return {"number": number, "finished": t.round_finished(number), "tables": [
        {"table": tb.number, "game": tb.game_id,
         "players": [t.name_of(n) for n in tb.seats], "entries": tb.seats,
         "first_dealer": tb.first_dealer, "ruleset": tb.ruleset_id, "deals": tb.deals,
         "finished": tb.finished, "signatures": tb.signed_seats,
         "director_signed": tb.director_signed, "confirmed": tournaments.confirmed(tb),
         **({"token": access.token(tb.game_id), "join_code": tb.join_code} if director else {})}
        for tb in t.rounds[number - 1]]}


def tournament_json(t: tournaments.Tournament, director: bool) -> dict[str, Any]:
    """A tournament as JSON: its rounds' tables (each game's token and join code for the
    director alone) and its standings, best first."""
    return {
        "id": t.id, "name": t.name, "closed": t.closed, "scoring": t.scoring,
        "rounds_planned": t.planned, "rulesets": t.rulesets, "version": t.version,
        "players": [{"number": p.number, "name": p.name, "joined": p.joined,
                     "withdrawn_after": p.left_after} for p in t.players.values()],
        "rounds": [_round_json(t, n, director) for n in range(1, t.current + 1)],
        "standings": [{"player": t.name_of(s.player), "number": s.player,
                       "points": _points(s.points), "wins": s.wins, "games": s.games,
                       "best": s.best, "rank": s.rank,
                       "provisional": t.provisional(s.player)} for s in t.overall],
        **({"changes": [{k: c[k] for k in ("at", "action", "round", "table", "number", "by",
                                            "finished")}
                        for c in tournaments.changes(get_db(), t.id)]} if director else {}),
    }


def _director(tid: str) -> bool:
    """Whether the request brings the director's token: none is a reader (False), a wrong
    one is refused 403."""
    header = request.headers.get("Authorization", "")
    if access.bearer(header) is None:
        return False
    access.check_director(header, tid)
    return True


@bp.errorhandler(tournaments.NotNow)
def not_now(e: tournaments.NotNow):
    return jsonify(refusal_json(e.text(gettext))), 409


@bp.errorhandler(TournamentNotFound)
def no_tournament(e: TournamentNotFound):
    return jsonify(refusal_json(gettext("Not found."))), 404


@bp.post("/tournaments")
def create_tournament():
    """A tournament with its first round drawn: its id, the director's token, round 1."""
    body = _body()
    club = _club_of(body, access.DIRECTOR)
    t = tournaments.create(get_db(), body.get("name"), body.get("players"), body.get("rounds"),
                           body.get("rulesets"), body.get("scoring", "points"),
                           body.get("seed"), max_games=current_app.config["MAX_GAMES"],
                           club=club)
    limits.made_games(len(t.rounds[0]))  # round 1's games
    return jsonify({"id": t.id, "token": access.tournament_token(t.id),
                    "round": _round_json(t, 1, True)}), 201, {
        "Location": url_for("api.get_tournament", tid=t.id)}


@bp.get("/tournaments/<tid>")
def get_tournament(tid: str):
    director = _director(tid)
    return jsonify(tournament_json(tournaments.load(get_db(), tid), director))


@bp.post("/tournaments/<tid>/rounds")
def draw_round(tid: str):
    """The next round drawn (409 while a game of the current one is unfinished)."""
    access.check_director(request.headers.get("Authorization", ""), tid)
    tournaments.load(get_db(), tid)  # 404 before reading a body
    body = _body() if request.content_length else {}
    t = tournaments.draw_next(get_db(), tid, body.get("number"),
                              max_games=current_app.config["MAX_GAMES"])
    limits.made_games(len(t.rounds[t.current - 1]))
    return jsonify(_round_json(t, t.current, True)), 201, {
        "Location": url_for("api.get_tournament", tid=tid)}


@bp.post("/tournaments/<tid>/players")
def add_tournament_player(tid: str):
    """A late arrival, drawn from the next round on."""
    access.check_director(request.headers.get("Authorization", ""), tid)
    number = tournaments.add_player(get_db(), tid, _body().get("name"))
    t = tournaments.load(get_db(), tid)
    return jsonify({"number": number, "name": t.name_of(number)}), 201


@bp.delete("/tournaments/<tid>/players/<int:number>")
def withdraw_tournament_player(tid: str, number: int):
    """A player leaves after the current round; their games so far count."""
    access.check_director(request.headers.get("Authorization", ""), tid)
    tournaments.withdraw(get_db(), tid, number)
    return "", 204


@bp.post("/tournaments/<tid>/close")
def close_tournament(tid: str):
    """The tournament closed; while tables are not signed, 409 naming them (``unsigned``:
    each table's round, ``number`` and game), unless the body says
    ``{"confirm_unsigned": true}``."""
    access.check_director(request.headers.get("Authorization", ""), tid)
    tournaments.load(get_db(), tid)  # 404 before reading a body
    body = _body() if request.content_length else {}
    try:
        tournaments.close(get_db(), tid, confirm_unsigned=body.get("confirm_unsigned") is True)
    except tournaments.Unsigned as e:
        return jsonify(refusal_json(e.text(gettext), unsigned=[
            {"round": tb.round, "number": tb.number, "game": tb.game_id,
             "finished": tb.finished, "signatures": tb.signed_seats}
            for tb in e.tables])), 409
    return "", 204


@bp.post("/tournaments/<tid>/reopen")
def reopen_tournament(tid: str):
    """A closed tournament opened again: its games can be corrected (kept in its changes)."""
    access.check_director(request.headers.get("Authorization", ""), tid)
    tournaments.reopen(get_db(), tid)
    return "", 204


@bp.get("/schema/game.json")
def game_schema():
    """The JSON Schema of an exported game file, the one the import checks."""
    from ..outputs.schema import json_schema
    return jsonify(json_schema())


@bp.get("/openapi.json")
def openapi():
    from .openapi import document
    return jsonify(document(current_app.url_map, get_db()))


# -- clubs ----------------------------------------------------------------


def club_json(club: clubs.Club, right: str | None) -> dict[str, Any]:
    """A club as JSON; its manager also gets its invitation code."""
    out = {"id": club.id, "name": club.name, "public": club.public,
           "casual_rated": club.casual_rated, "default_ruleset": club.default_ruleset,
           "created_at": club.created_at, "right": right,
           "players": url_for("api.club_players", cid=club.id)}
    if right == access.MANAGER and not club.home:
        out["invite_code"] = club.invite_code
        out["invite_url"] = url_for("clubs.join_link", code=club.invite_code, _external=True)
    return out


@bp.post("/clubs")
def create_club():
    """A new club: its id, the manager's token (given this once) and its invitation."""
    body = _body()
    club = clubs.create(get_db(), body.get("name"), body.get("public", True))
    return jsonify({**club_json(club, access.MANAGER),
                    "token": access.club_token(club.id)}), 201, {
        "Location": url_for("api.get_club", cid=club.id)}


@bp.get("/clubs/<cid>")
def get_club(cid: str):
    """A club (404 to a stranger of a private club)."""
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
            raise InvalidInput([Problem(key, N_("Send true or false."))])
    club = clubs.change(db, club, body.get("name"), body.get("public"),
                        body.get("casual_rated"), body.get("default_ruleset"))
    return jsonify(club_json(club, access.MANAGER))


@bp.post("/join-club")
def join_club():
    """A club's id and a member's token, for whoever has its invitation code."""
    code = access.normalise_code(_body().get("code"))
    if not code:
        raise InvalidInput([Problem("code", N_("Enter the club's invitation code."))])
    club = clubs.by_code(get_db(), code)  # 404 (a wrong guess) if none
    return jsonify({**club_json(club, access.MEMBER), "token": clubs.join(get_db(), club)})


@bp.get("/clubs/<cid>/members")
def club_members(cid: str):
    """The club's members (the manager's): ``[{"id", "joined_at"}]``, in the order they
    joined."""
    db = get_db()
    club = access.require_club(db, cid, access.MANAGER)
    return jsonify(clubs.members(db, club))


@bp.delete("/clubs/<cid>/members/<int:mid>")
def remove_club_member(cid: str, mid: int):
    """A member removed (the manager's): their token reads nothing of a private club
    from now on. 404 if the club has no such member."""
    db = get_db()
    club = access.require_club(db, cid, access.MANAGER)
    if not clubs.remove_member(db, club, mid):
        abort(404)
    return "", 204


@bp.get("/clubs/<cid>/players")
def club_players(cid: str):
    """The club's people, each as ``/api/players`` gives them, a page at a time in the
    order of their names (``?page=``; a ``Link`` header names the next page)."""
    db = get_db()
    club = access.readable_club(db, cid)
    page = people_views.page_number()
    listed, more = reads.players_page(db, lang(), page, PLAYERS_PAGE, club.id)
    answer = jsonify([people.public(people.statistics(db, row["id"])) for row in listed])
    if more:
        answer.headers["Link"] = (f'<{url_for("api.club_players", cid=cid, page=page + 1)}>; '
                                  'rel="next"')
    return answer


@bp.get("/clubs/<cid>/season")
def club_season(cid: str):
    """The club's season table: ``{"season": …, "standings": [{"player", "points",
    "nights", "games", "wins", "rating", "rank", …}]}``, best first, ``rating`` the
    conservative number (``mu − 3·sigma``); the current season, or ``?season=<id>``. 404
    to a stranger of a private club, as every read of it."""
    db = get_db()
    access.readable_club(db, cid)
    try:
        season = seasons.find(db, cid, request.args.get("season"))
    except SeasonNotFound:
        abort(404)
    return jsonify(season_sheet.to_json(season, seasons.table(db, season)))


def init_app(app: Flask) -> None:
    from .views import csrf
    csrf.exempt(bp)  # JSON clients send no cookies; the version check guards writes
    app.url_map.converters["ruleset_id"] = RulesetId
    app.register_blueprint(bp)
