"""The OpenAPI 3.1 document of the JSON API, written from the app's URL map, its views'
docstrings (the summary, then the description) and the pydantic models of
:mod:`.api_models` (bodies) and :mod:`.api_answers`: each API route is an operation named
by its view, every refusal the one ``Error`` component. A route with no entry in
:data:`OPERATIONS` cannot be written, and the rulesets a body may name are read from the
database, so the document states every limit the server checks."""
from __future__ import annotations

import copy
import inspect
import re
from dataclasses import dataclass
from typing import Any

from flask import current_app
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema
from sqlite_utils import Database
from werkzeug.routing import Map

from ..domain import tournaments, variants
from ..outputs.schema import openapi_schemas
from ..rules.named import ID
from . import api_answers as a
from . import api_models as m

#: What each refusal means for this API.
ERRORS = {
    "400": "The body is not readable JSON (or nested deeper than 32 levels)",
    "401": "No `Authorization: Bearer <token>` header",
    "403": "The token is not the one this needs",
    "404": "No such game, tournament, club, player or ruleset (or join code); a private "
           "club's to a stranger",
    "405": "This path does not take this method",
    "409": "The game changed since `version` (another phone, a double submit); nothing was stored",
    "413": "The body is larger than the server takes (2 MiB by default)",
    "415": "The body is not `application/json`",
    "422": "Refused input, with messages per field; nothing was stored",
    "429": "Too many tries from this client (wrong join codes, new games, variants): "
           "try again after `Retry-After` seconds",
    "500": "A server error; nothing was stored",
    "503": "Another program held the database for the whole busy timeout; nothing was "
           "stored. Try again after `Retry-After` seconds",
}
#: The errors of an operation that reads a body (503: a write that found no lock), and of
#: a write with a token.
BODY = ("400", "413", "415", "422", "503")
TOKEN = ("401", "403", "404")
VERSION = ERRORS["409"]

_ID = {"type": "string", "pattern": m.ID_PATTERN}
_WHOLE = {"type": "integer", "minimum": 1, "maximum": 2**63 - 1}
#: Path parameters by name: what they are and their schema.
PARAMETERS = {
    "gid": ("A game's id", _ID),
    "tid": ("A tournament's id", _ID),
    "cid": ("A club's id", _ID),
    "pid": ("A person's id", _WHOLE),
    "ruleset_id": ("A ruleset's id", {"type": "string", "pattern": ID.pattern}),
    "mid": ("A club member's id", _WHOLE),
    "number": ("A deal's number (a game) or an entry number (a tournament's player)", _WHOLE),
}


def _page(most: int | None = None) -> dict[str, Any]:
    """``?page=``: whole numbers from 1 (to ``most - 1``, the last one the route takes)."""
    return {"name": "page", "in": "query", "required": False, "schema": {
        "type": "integer", "minimum": 1, "default": 1, **({"maximum": most - 1} if most else {})},
        "description": "From 1; a `Link` header with rel=\"next\" names the next page while "
                       "there is one"}


SEASON = {"name": "season", "in": "query", "required": False,
          "schema": _ID, "description": "A season's id (default: the one today falls in)"}


@dataclass(frozen=True)
class Operation:
    """What the document says of one view beyond its docstring: the status of success,
    the answer (a model, a component's name, a schema, or None for no body), the body, and
    the errors beyond a body's, a token's, 405 and 500 (409 if ``conflict`` says what it
    means here)."""

    status: str
    answer: type[BaseModel] | str | dict[str, Any] | None = None
    body: type[BaseModel] | str | None = None
    errors: tuple[str, ...] = ()
    token: bool = False  # a write that needs a token
    conflict: str | None = None
    query: tuple[dict[str, Any], ...] = ()
    optional_body: bool = False
    many: bool = False  # a list of ``answer``
    located: bool = False  # says where what it made is read
    summary: str = ""  # for a view whose docstring does not say it


#: Every API view by its endpoint.
OPERATIONS: dict[str, Operation] = {
    "api.rulesets": Operation("200", a.RulesetEntry, errors=("422",), many=True,
                              query=(_page(m.RULESETS_PAGES),), summary=(
        f"List the rulesets, {m.RULESETS_PAGE} a page: the built-in ones, then this "
        "server's house variants")),
    "api.create_ruleset": Operation("201", "NewVariant", "RulesetDocument", ("429",),
                                    located=True),
    "api.ruleset_schema": Operation("200", a.JsonSchema),
    "api.get_ruleset": Operation("200", "Ruleset", errors=("404",)),
    "api.delete_ruleset": Operation("204", errors=("422",), token=True,
                                    conflict="A game is played with it"),
    "api.players": Operation("200", a.Player, many=True, query=(_page(),)),
    "api.player": Operation("200", a.Player, errors=("404",)),
    "api.create_game": Operation("201", a.GameWithAccess, m.NewGame,
                                 ("401", "403", "404", "429"), located=True),
    "api.join": Operation("200", a.GameWithAccess, m.JoinCode, ("404", "429")),
    "api.get_game": Operation("200", a.Game, errors=("404",)),
    "api.delete_game": Operation("204", None, m.DeleteGame, token=True, conflict=VERSION),
    "api.put_deal": Operation("200", a.Game, m.DealEntry, token=True, conflict=VERSION),
    "api.check_deal": Operation("200", a.Checked, m.DealCheck, ("404",)),
    "api.undo": Operation("200", a.Game, m.Versioned, token=True, conflict=VERSION),
    "api.sign": Operation("201", a.Game, m.SignatureBody, token=True, conflict=VERSION),
    "api.create_tournament": Operation("201", a.NewTournamentAnswer, m.NewTournament,
                                       ("401", "403", "404", "429"), located=True),
    "api.get_tournament": Operation("200", a.Tournament, errors=("403", "404")),
    "api.draw_round": Operation(
        "201", a.Round, m.DrawRound, token=True, optional_body=True, located=True,
        conflict="A game of the current round is unfinished, every round is drawn, or the "
                 "tournament is closed"),
    "api.add_tournament_player": Operation("201", a.Arrived, m.LateArrival, token=True,
                                           conflict="The tournament is closed"),
    "api.withdraw_tournament_player": Operation("204", errors=("422",), token=True,
                                                conflict="The tournament is closed"),
    "api.close_tournament": Operation(
        "204", None, m.CloseTournament, token=True, optional_body=True,
        conflict="The tournament is closed, or tables are not signed (`unsigned` names "
                 "each: `round`, `number`, `game`, `finished`, `signatures`) and "
                 "`confirm_unsigned` is not true; nothing was changed"),
    "api.reopen_tournament": Operation("204", token=True, conflict="The tournament is open"),
    "api.create_club": Operation("201", a.ClubWithToken, m.NewClub, ("429",), located=True),
    "api.get_club": Operation("200", a.Club, errors=("404",)),
    "api.change_club": Operation("200", a.Club, m.ClubChange, token=True),
    "api.join_club": Operation("200", a.ClubWithToken, m.JoinCode, ("404", "429")),
    "api.club_members": Operation("200", a.Member, token=True, many=True),
    "api.remove_club_member": Operation("204", token=True),
    "api.club_players": Operation("200", a.Player, errors=("404",), many=True,
                                  query=(_page(),)),
    "api.club_season": Operation("200", a.Season, errors=("404",), query=(SEASON,)),
    "api.game_schema": Operation("200", a.JsonSchema),
    "api.openapi": Operation("200", {"type": "object"}),
    "health.healthz": Operation("200", a.Health, errors=("503",),
                                summary="Whether the server can read its database"),
}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def _schema(model: type[BaseModel] | str | dict[str, Any]) -> dict[str, Any]:
    return model if isinstance(model, dict) else _ref(getattr(model, "__name__", model))


def _header(text: str, kind: str = "string") -> dict[str, Any]:
    return {"description": text, "required": False, "schema": {"type": kind}}


def _responses(endpoint: str, op: Operation, summary: str) -> dict[str, Any]:
    ok: dict[str, Any] = {"description": summary}
    if op.answer is not None:
        schema = _schema(op.answer)
        ok.update(_json({"type": "array", "items": schema} if op.many else schema))
    if any(q["name"] == "page" for q in op.query):
        ok["headers"] = {"Link": _header("`<…>; rel=\"next\"`: the next page, while there is one")}
    if op.located:
        ok["headers"] = {"Location": _header("Where the new thing is read")}
    out = {op.status: ok}
    texts = {**ERRORS, "409": op.conflict}
    codes = {*op.errors, *(BODY if op.body else ()), *(TOKEN if op.token else ()), "405", "500",
             *(("409",) if op.conflict else ())}
    for code in sorted(codes):
        out[code] = {"description": texts[code], **_json(_ref("Error"))}
        if code in ("429", "503"):
            out[code]["headers"] = {"Retry-After": _header("Seconds to wait", "integer")}
    if endpoint == "health.healthz":
        out["503"] = {"description": "The database file is gone or cannot be read",
                      **_json(_ref("Health"))}
    return out


def routes(url_map: Map) -> list[tuple[str, str, str]]:
    """(path, method, endpoint) of every API route: under ``/api/``, and ``/healthz``."""
    return sorted((re.sub(r"<(?:[^:<>]+:)?(\w+)>", r"{\1}", rule.rule), method.lower(),
                   rule.endpoint)
                  for rule in url_map.iter_rules()
                  if rule.rule.startswith("/api/") or rule.rule == "/healthz"
                  for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}))


def _operation(path: str, endpoint: str) -> dict[str, Any]:
    op = OPERATIONS[endpoint]  # KeyError: a route the document does not describe
    first, _, rest = inspect.cleandoc(current_app.view_functions[endpoint].__doc__ or "") \
        .partition("\n\n")
    summary, description = op.summary or " ".join(first.split()), " ".join(rest.split())
    out: dict[str, Any] = {"operationId": endpoint.partition(".")[2], "summary": summary}
    if description:
        out["description"] = description
    parameters = [{"name": name, "in": "path", "required": True, "description": text,
                   "schema": schema} for name in re.findall(r"{(\w+)}", path)
                  for text, schema in [PARAMETERS[name]]]
    if parameters or op.query:
        out["parameters"] = [*parameters, *copy.deepcopy(op.query)]
    if op.token:
        out["security"] = [{"bearer": []}]
    if op.body is not None:
        out["requestBody"] = {"required": not op.optional_body, **_json(_schema(op.body))}
    out["responses"] = _responses(endpoint, op, summary)
    return out


def _components(db: Database) -> dict[str, Any]:
    """Every model's schema, with the bodies that name rulesets limited to the rulesets
    this server has."""
    models = sorted({model for op in OPERATIONS.values() for model in (op.answer, op.body)
                     if isinstance(model, type)} | {m.Error}, key=lambda c: c.__name__)
    _, top = models_json_schema([(model, "validation") for model in models],
                                ref_template="#/components/schemas/{model}")
    schemas: dict[str, Any] = {**top.get("$defs", {}), **openapi_schemas()}
    kept = schemas["KierkiRuleset"]  # NewVariant: a kept Kierki ruleset and its maker's
    # token (the ruleset's own schema allows no other key, so an ``allOf`` of the two
    # would allow no answer at all)
    schemas["NewVariant"] = {**kept, "title": "NewVariant",
                             "required": [*kept.get("required", ()), "token"],
                             "properties": {**kept["properties"], "token": {
                                 "type": "string", "description": "Send as `Authorization: "
                                 "Bearer <token>` to delete this variant"}}}
    schemas["Ruleset"] = {"oneOf": [_ref("KierkiRuleset"), _ref("TybetRuleset")],
                          "description": "A ruleset as its family keeps it"}
    offered = variants.listing(db)
    schemas["NewGame"] = _new_game(schemas["NewGame"], offered)
    schemas["NewTournament"] = _new_tournament(schemas["NewTournament"], offered)
    schemas["ClubChange"]["properties"]["default_ruleset"] = {
        "enum": ["", *sorted(rules.id for _, rules, _ in offered)],
        "description": "A ruleset's id; \"\": the server's"}
    return schemas


def _new_game(schema: dict[str, Any], offered: list[Any]) -> dict[str, Any]:
    """``NewGame`` as one choice per kind of ruleset: its ids, as many names as it seats,
    a first dealer among them, and its targets where it plays to one."""
    kinds: dict[tuple[int, tuple[int, ...]], list[str]] = {}
    for family, rules, _ in offered:
        targets = tuple(family.ruleset_json(rules).get("targets") or ())
        kinds.setdefault((rules.players, targets), []).append(rules.id)
    choices = []
    for (players, targets), ids in sorted(kinds.items()):
        choices.append(choice := copy.deepcopy(schema))
        props = choice["properties"]
        props["ruleset"] = {"enum": sorted(ids), "description": "The ruleset's id"}
        props["players"] = {**props["players"], "minItems": players, "maxItems": players,
                            "uniqueItems": True}
        props["first_dealer"] = {"anyOf": [{"type": "integer", "minimum": 0,
                                            "maximum": players - 1}, {"type": "null"}],
                                 "description": "Seat; null draws at random"}
        if targets:
            props["target"] = {"anyOf": [{"enum": list(targets)}, {"type": "null"}],
                               "description": "The score to play to (null: the ruleset's)"}
    return {"title": "NewGame", "description": schema.get("description", ""), "oneOf": choices}


def _new_tournament(schema: dict[str, Any], offered: list[Any]) -> dict[str, Any]:
    """``NewTournament`` with the rulesets it may draw with: per table size, rulesets of
    single players for that many; ranked by points, only rulesets whose games give every
    player the same points on average (:func:`.tournaments.per_seat`)."""
    solo = [(rules, tournaments.per_seat(rules)) for family, rules, _ in offered
            if rules.players in tournaments.SIZES
            and all(len(side) == 1 for side in family.sides(rules))]

    def choice(scoring: dict[str, Any], fits: list[Any]) -> dict[str, Any]:
        out = copy.deepcopy(schema)
        out["properties"]["scoring"] = scoring
        out["properties"]["rulesets"] = {
            "type": "object", "additionalProperties": False, "required": ["3", "4"],
            "description": "The ruleset per table size: tables of four where possible, "
                           "then three (or five); tables of three and four are both "
                           "named so that any count of players can be drawn",
            "properties": {str(size): {"enum": ids} for size in tournaments.SIZES
                           if (ids := sorted(r.id for r in fits if r.players == size))}}
        return out

    places = choice({"const": "places"}, [r for r, _ in solo])
    places["required"] = [*places["required"], "scoring"]
    fair = ([r for r, s in solo if s == share] for share in sorted({s for _, s in solo} - {None}))
    return {"title": "NewTournament", "description": (
        "A Kierki tournament. Ranked by points (the default), its rulesets' games must "
        "give every player the same points on average; by places, any rulesets."),
        "oneOf": [places, *(choice({"const": "points", "default": "points"}, rules)
                            for rules in fair if {3, 4} <= {r.players for r in rules})]}


def document(url_map: Map, db: Database) -> dict[str, Any]:
    """The document of every API route of ``url_map``, with ``db``'s rulesets."""
    paths: dict[str, dict[str, Any]] = {}
    for path, method, endpoint in routes(url_map):
        paths.setdefault(path, {})[method] = _operation(path, endpoint)
    return {
        "openapi": "3.1.0",
        "info": {"title": "Kierki Scorekeeper API", "version": "3", "description": (
            "Reads are open to whoever may read the game, tournament or club; every write "
            "to a game needs its token (given when it is created or joined by code). "
            "Refusals are `Error` objects, in the client's language.")},
        "components": {"securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
                       "schemas": _components(db)},
        "paths": paths,
    }
