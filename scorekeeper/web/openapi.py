"""The OpenAPI 3.1 document of the JSON API, written from the app's URL map and the
pydantic models of :mod:`.api_models` (bodies) and :mod:`.api_answers`: each API route is
an operation named by its view, every refusal the one ``Error`` component. A route with
no entry in :data:`OPERATIONS` cannot be written, and the rulesets a body may name are
read from the database, so the document states every limit the server checks."""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any

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
    "409": "The game changed since `version` (another phone, a double submit); nothing "
           "was stored",
    "413": "The body is larger than the server takes (2 MiB by default)",
    "415": "The body is not `application/json`",
    "422": "Refused input, with messages per field; nothing was stored",
    "429": "Too many tries from this client (wrong join codes, new games, variants): "
           "try again after `Retry-After` seconds",
    "500": "A server error; nothing was stored",
    "503": "Another program held the database for the whole busy timeout; nothing was "
           "stored. Try again after `Retry-After` seconds",
}

#: The errors of an operation that reads a body (503: a write that found no lock).
BODY = ("400", "413", "415", "422", "503")
#: The errors of a write with a token.
TOKEN = ("401", "403", "404")

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


def _page(most: int | None) -> dict[str, Any]:
    """``?page=``: whole numbers from 1 (to ``most - 1``, the last one the route takes)."""
    schema: dict[str, Any] = {"type": "integer", "minimum": 1, "default": 1}
    if most is not None:
        schema["maximum"] = most - 1
    return {"name": "page", "in": "query", "required": False, "schema": schema,
            "description": "From 1; a `Link` header with rel=\"next\" names the next page "
                           "while there is one"}


SEASON = {"name": "season", "in": "query", "required": False,
          "schema": _ID, "description": "A season's id (default: the one today falls in)"}


@dataclass(frozen=True)
class Operation:
    """What the document says of one view."""

    summary: str
    status: str  # the answer's when it succeeds
    answer: type[BaseModel] | str | None  # a model, a component's name, or no body
    errors: tuple[str, ...] = ()
    body: type[BaseModel] | str | None = None
    token: bool = False  # a write that needs a token
    description: str = ""
    query: tuple[dict[str, Any], ...] = ()
    optional_body: bool = False
    conflict: str | None = None  # what a 409 means here (ERRORS's: the game's version)


#: Every API view by its endpoint.
OPERATIONS: dict[str, Operation] = {
    "api.rulesets": Operation(
        f"List the rulesets, {m.RULESETS_PAGE} a page: the built-in ones, then this "
        "server's house variants", "200", a.RulesetEntry, ("422",),
        query=(_page(m.RULESETS_PAGES),)),
    "api.create_ruleset": Operation(
        "Make a house variant from a whole ruleset document", "201", "NewVariant",
        (*BODY, "429"), body="RulesetDocument",
        description="Checked against `/api/rulesets/schema.json`, by the loader of the "
                    "built-in rulesets, and for its totals: a variant whose totals do not "
                    "add up to zero needs `unbalanced: true`."),
    "api.ruleset_schema": Operation("The JSON Schema of a ruleset document", "200",
                                    a.JsonSchema),
    "api.get_ruleset": Operation("A ruleset's whole data", "200", "Ruleset", ("404",)),
    "api.delete_ruleset": Operation(
        "Delete a house variant no game is played with: with its maker's token, or by "
        "the host", "204", None, (*TOKEN, "422"), token=True,
        conflict="A game is played with it"),
    "api.players": Operation("Everyone who has played on this server, with their figures",
                             "200", a.Player, query=(_page(None),)),
    "api.player": Operation("One player's statistics over their finished games", "200",
                            a.Player, ("404",)),
    "api.create_game": Operation("Create a game", "201", a.GameWithAccess,
                                 (*BODY, "401", "403", "404", "429"), body=m.NewGame),
    "api.join": Operation("Join a game by its code: its id and token", "200",
                          a.GameWithAccess, (*BODY, "404", "429"), body=m.JoinCode),
    "api.get_game": Operation("Read a game", "200", a.Game, ("404",)),
    "api.delete_game": Operation("Delete a game for good", "204", None, (*BODY, *TOKEN),
                                 body=m.DeleteGame, token=True, conflict=ERRORS["409"]),
    "api.put_deal": Operation("Record the next deal or correct an earlier one", "200",
                              a.Game, (*BODY, *TOKEN), body=m.DealEntry, token=True,
                              conflict=ERRORS["409"]),
    "api.check_deal": Operation(
        "Check a deal's result while it is being entered; stores nothing", "200",
        a.Checked, (*BODY, "404"), body=m.DealCheck,
        description="The rules that check the deal when it is saved, on what was entered "
                    "so far: a blank (`null`, `\"\"`, a missing field) is no problem yet. "
                    "With nothing blank, `problems` are exactly what `PUT` would refuse "
                    "with 422. Open to whoever may read the game; `number` is a recorded "
                    "deal or the next one (else 422)."),
    "api.undo": Operation("Take back the last deal", "200", a.Game, (*BODY, *TOKEN),
                          body=m.Versioned, token=True, conflict=ERRORS["409"]),
    "api.sign": Operation(
        "Sign a finished game for one of its seats (or, by the director, as the "
        "director: seat -1)", "201", a.Game, (*BODY, *TOKEN), body=m.SignatureBody,
        token=True, conflict=ERRORS["409"],
        description="With the game's token or the tournament director's. A correction "
                    "or undo takes every signature off; a closed tournament's game is "
                    "refused 409."),
    "api.create_tournament": Operation(
        "Start a Kierki tournament: its first round drawn, each table's game created",
        "201", a.NewTournamentAnswer, (*BODY, "401", "403", "404", "429"),
        body=m.NewTournament),
    "api.get_tournament": Operation(
        "A tournament: its rounds, tables and standings", "200", a.Tournament,
        ("403", "404"), description="With the director's token, each table's game "
                                    "`token` and `join_code` too; a wrong token is "
                                    "refused 403."),
    "api.draw_round": Operation(
        "Draw the next round (the director)", "201", a.Round, (*BODY, *TOKEN),
        body=m.DrawRound, token=True, optional_body=True,
        conflict="A game of the current round is unfinished, every round is drawn, or "
                 "the tournament is closed",
        description="As few pairs as the draw can meet again; its tables' games are "
                    "created. The optional `number` names the round meant."),
    "api.add_tournament_player": Operation(
        "Seat a late arrival from the next round on (the director)", "201", a.Arrived,
        (*BODY, *TOKEN), body=m.LateArrival, token=True, conflict="The tournament is closed"),
    "api.withdraw_tournament_player": Operation(
        "Withdraw a player after the current round (the director); their games so far "
        "count", "204", None, (*TOKEN, "422"), token=True,
        conflict="The tournament is closed"),
    "api.close_tournament": Operation(
        "Close the tournament (the director): nothing more is drawn", "204", None,
        (*BODY, *TOKEN), body=m.CloseTournament, token=True, optional_body=True,
        conflict="The tournament is closed, or tables are not signed (`unsigned` names "
                 "each: `round`, `number`, `game`, `finished`, `signatures`) and "
                 "`confirm_unsigned` is not true; nothing was changed"),
    "api.reopen_tournament": Operation(
        "Reopen a closed tournament (the director): its games can be corrected again",
        "204", None, TOKEN, token=True, conflict="The tournament is open"),
    "api.create_club": Operation("Make a club: its own people, games and tournaments",
                                 "201", a.ClubWithToken, (*BODY, "429"), body=m.NewClub),
    "api.get_club": Operation(
        "A club (a private one to its members only: 404 to anyone else)", "200", a.Club,
        ("404",), description="With a member's, director's or the manager's token "
                              "(`Authorization: Bearer`) a private club too, and the "
                              "manager sees its invitation."),
    "api.change_club": Operation("The manager's choices", "200", a.Club, (*BODY, *TOKEN),
                                 body=m.ClubChange, token=True),
    "api.join_club": Operation(
        "Join a club by its invitation code: its id and a member's token", "200",
        a.ClubWithToken, (*BODY, "404", "429"), body=m.JoinCode),
    "api.club_members": Operation(
        "The club's members, in the order they joined (the manager's)", "200", a.Member,
        TOKEN, token=True),
    "api.remove_club_member": Operation(
        "Remove a member (the manager's): their token reads nothing of a private club "
        "from then on", "204", None, TOKEN, token=True),
    "api.club_players": Operation(
        "The club's people, each as `/api/players` gives them", "200", a.Player, ("404",),
        query=(_page(None),), description="A private club's to its members, directors "
                                          "and manager only (their token in "
                                          "`Authorization: Bearer`)."),
    "api.club_season": Operation(
        "The club's season table with each player's rating", "200", a.Season, ("404",),
        query=(SEASON,), description="A private club's to its members, directors and "
                                     "manager only: 404 to anyone else."),
    "api.game_schema": Operation(
        "The JSON Schema of an exported game file (what the import checks)", "200",
        a.JsonSchema),
    "api.openapi": Operation("This document", "200", None),
    "health.healthz": Operation("Whether the server can read its database", "200",
                                a.Health, ("503",)),
}

#: The answers that are lists of a model, and those of them a page at a time.
LISTS = {"api.rulesets", "api.players", "api.club_players", "api.club_members"}
PAGED = {"api.rulesets", "api.players", "api.club_players"}
#: The answers that say where what they made is read.
LOCATED = {"api.create_ruleset", "api.create_game", "api.create_tournament", "api.draw_round",
           "api.create_club"}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def _name(model: type[BaseModel] | str) -> str:
    return model if isinstance(model, str) else model.__name__


def _responses(endpoint: str, op: Operation) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if op.answer is None:
        ok: dict[str, Any] = {"description": op.summary}
        if endpoint == "api.openapi":
            ok.update(_json({"type": "object"}))
    else:
        schema = _ref(_name(op.answer))
        ok = {"description": op.summary,
              **_json({"type": "array", "items": schema} if endpoint in LISTS else schema)}
    if endpoint in PAGED:
        ok["headers"] = {"Link": _header("`<…>; rel=\"next\"`: the next page, while there "
                                         "is one")}
    if endpoint in LOCATED:
        ok["headers"] = {"Location": _header("Where the new thing is read")}
    out[op.status] = ok
    codes = [*op.errors, "405", "500"]
    if op.conflict is not None:
        codes.append("409")
    for code in sorted(set(codes)):
        if code == "503" and endpoint == "health.healthz":
            out[code] = {"description": "The database file is gone or cannot be read",
                         **_json(_ref("Health"))}
            continue
        text = op.conflict if code == "409" and op.conflict else ERRORS[code]
        out[code] = {"description": text, **_json(_ref("Error"))}
        if code in ("429", "503"):
            out[code]["headers"] = {"Retry-After": _header("Seconds to wait", "integer")}
    return out


def _header(text: str, kind: str = "string") -> dict[str, Any]:
    return {"description": text, "required": False, "schema": {"type": kind}}


#: ``<converter(args):name>`` in a route.
_ARGUMENT = re.compile(r"<(?:[^:<>]+:)?(\w+)>")


def _path(rule: str) -> str:
    return _ARGUMENT.sub(r"{\1}", rule)


def routes(url_map: Map) -> list[tuple[str, str, str]]:
    """(path, method, endpoint) of every API route: under ``/api/``, and ``/healthz``."""
    return sorted((_path(rule.rule), method.lower(), rule.endpoint)
                  for rule in url_map.iter_rules()
                  if rule.rule.startswith("/api/") or rule.rule == "/healthz"
                  for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}))


def _operation(path: str, method: str, endpoint: str) -> dict[str, Any]:
    op = OPERATIONS[endpoint]  # KeyError: a route the document does not describe
    out: dict[str, Any] = {"operationId": endpoint.partition(".")[2], "summary": op.summary}
    if op.description:
        out["description"] = op.description
    parameters = []
    for name in _ARGUMENT.findall(path.replace("{", "<").replace("}", ">")):
        text, schema = PARAMETERS[name]
        parameters.append({"name": name, "in": "path", "required": True,
                           "description": text, "schema": schema})
    parameters += [copy.deepcopy(q) for q in op.query]
    if parameters:
        out["parameters"] = parameters
    if op.token:
        out["security"] = [{"bearer": []}]
    if op.body is not None:
        out["requestBody"] = {"required": not op.optional_body,
                              **_json(_ref(_name(op.body)))}
    out["responses"] = _responses(endpoint, op)
    return out


def _components(db: Database) -> dict[str, Any]:
    """Every model's schema, with the bodies that name rulesets limited to the rulesets
    this server has."""
    models = sorted({model for op in OPERATIONS.values() for model in (op.answer, op.body)
                     if isinstance(model, type)} | {m.Error}, key=lambda c: c.__name__)
    _, top = models_json_schema([(model, "validation") for model in models],
                                ref_template="#/components/schemas/{model}")
    schemas: dict[str, Any] = dict(top.get("$defs", {}))
    schemas.update(_with_new_variant(openapi_schemas()))
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
        choice = copy.deepcopy(schema)
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
        choices.append(choice)
    return {"title": "NewGame", "description": schema.get("description", ""),
            "oneOf": choices}


def _new_tournament(schema: dict[str, Any], offered: list[Any]) -> dict[str, Any]:
    """``NewTournament`` with the rulesets it may draw with: per table size, rulesets of
    single players for that many; ranked by points, only rulesets whose games give every
    player the same points on average (:func:`.tournaments.per_seat`)."""
    solo = [(rules, tournaments.per_seat(rules)) for family, rules, _ in offered
            if rules.players in tournaments.SIZES
            and all(len(side) == 1 for side in family.sides(rules))]

    def sizes(fits: list[Any]) -> dict[str, Any]:
        by_size = {str(size): sorted(r.id for r in fits if r.players == size)
                   for size in tournaments.SIZES}
        return {"type": "object", "additionalProperties": False,
                "required": ["3", "4"],
                "description": "The ruleset per table size: tables of four where possible, "
                               "then three (or five); tables of three and four are both "
                               "named so that any count of players can be drawn",
                "properties": {size: {"enum": ids} for size, ids in by_size.items() if ids}}

    choices = []
    places = copy.deepcopy(schema)
    places["properties"]["scoring"] = {"const": "places"}
    places["properties"]["rulesets"] = sizes([r for r, _ in solo])
    places["required"] = [*places["required"], "scoring"]
    choices.append(places)
    for share in sorted({s for _, s in solo if s is not None}):
        fair = [r for r, s in solo if s == share]
        if not {3, 4} <= {r.players for r in fair}:
            continue
        points = copy.deepcopy(schema)
        points["properties"]["scoring"] = {"const": "points", "default": "points"}
        points["properties"]["rulesets"] = sizes(fair)
        choices.append(points)
    return {"title": "NewTournament", "description": (
        "A Kierki tournament. Ranked by points (the default), its rulesets' games must "
        "give every player the same points on average; by places, any rulesets."),
        "oneOf": choices}


def _with_new_variant(schemas: dict[str, Any]) -> dict[str, Any]:
    """The schemas, and ``NewVariant``: a kept Kierki ruleset and its maker's ``token``
    (the ruleset's own schema allows no other key, so an ``allOf`` of the two would
    allow no answer at all)."""
    kept = schemas["KierkiRuleset"]
    return {**schemas, "NewVariant": {
        **kept, "title": "NewVariant",
        "required": [*kept.get("required", ()), "token"],
        "properties": {**kept["properties"], "token": {
            "type": "string", "description": "Send as `Authorization: Bearer <token>` to "
                                             "delete this variant"}}}}


def document(url_map: Map, db: Database) -> dict[str, Any]:
    """The document of every API route of ``url_map``, with ``db``'s rulesets."""
    paths: dict[str, dict[str, Any]] = {}
    for path, method, endpoint in routes(url_map):
        paths.setdefault(path, {})[method] = _operation(path, method, endpoint)
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
