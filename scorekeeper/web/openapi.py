"""The OpenAPI 3.1 document of the JSON API: every operation with every answer it can give.

The export file's schema is the same model the import checks (:mod:`.schema`).
"""
from __future__ import annotations

from typing import Any

from ..domain import tournaments
from ..families.kierki.rules.cards import CARD_SETS
from ..outputs.schema import openapi_schemas
from ..rules.named import ID

ERROR = {"type": "object", "required": ["error"], "properties": {
    "error": {"type": "string", "description": "What went wrong, in the client's language "
                                               "(Accept-Language: pl or en)"},
    "errors": {"type": "object", "additionalProperties": {"type": "array",
                                                           "items": {"type": "string"}},
               "description": "422 only: messages per field, e.g. `tricks`, `hearts.2`, "
                              "`positions.0`, `bids.3`, `players.1`; `\"\"` is the input as a whole."},
    "version": {"type": "integer", "description": "409 only: the game's version now"}}}

#: What each error status means for this API.
ERRORS = {
    "400": "The body is not readable JSON (or nested deeper than 32 levels)",
    "401": "No `Authorization: Bearer <token>` header",
    "403": "The token is not this game's",
    "404": "No such game (or join code)",
    "405": "This path does not take this method",
    "409": "The game changed since `version` (another phone, a double submit); nothing "
           "was stored",
    "413": "The body is larger than the server takes (2 MiB by default)",
    "415": "The body is not `application/json`",
    "422": "Refused input, with messages per field; nothing was stored",
    "500": "A server error; nothing was stored",
    "429": "Too many tries from this client (wrong join codes, new games, variants): "
           "try again after `Retry-After` seconds",
    "503": "Another program held the database for the whole busy timeout; nothing was "
           "stored. Try again after `Retry-After` seconds",
}

_COUNTS = {"type": "array", "items": {"type": ["integer", "null"]}}
_SEATS = {"type": "array", "items": {"type": ["integer", "null"]}}
_INTS = {"type": "array", "items": {"type": "integer"}}

RESULT = {"type": "object", "description": (
    "A deal's result. Its fields depend on the game's family and deal. Kierki: see "
    "`schedule[].fields`: counts are lists with one whole number per seat (one `null` is "
    "filled so they add up); `king_of_hearts` is a seat; `positions` and `order` are lists "
    "of seats; `trump` is one of S, H, D, C; `cards` maps cards such as `QH` to seats "
    "(card-by-card entry). A trump auction (a ruleset's trump deal with `auction: true`; "
    "field types `bids` and `yesno`): `bids` has one entry per seat, the highest points "
    "(1 to 10000) that player offered or `null` for no bid (the dealer's is always `null`), "
    "and `sold` is true when the dealer accepted the single highest bid, false when the "
    "dealer refused or nobody bid; an accepted bid moves from the buyer's points to the "
    "dealer's. The partnership game (seed 003): `declarations` (a list per "
    "seat of {kind: cezar, suit, extra} / {kind: four|trio, rank}), either `card_points` "
    "per pair (11 in all; one `null` is filled) or `aces` and `honours` per pair and "
    "`last` (the pair), `special` ({kind, pair} or {kind, seat}) or null, "
    "`confirmed` (true to record a Kondriona whose taker declared no whole-suit cezar)."),
    "example": {"tricks": [3, 3, 3, 4]}, "properties": {
        "tricks": _COUNTS, "bids": {"type": "array", "items": {"type": ["integer", "null"]}},
        "sold": {"type": "boolean"}, "trump": {"type": "string"},
        "positions": _SEATS, "order": _SEATS,
        "cards": {"type": "object", "additionalProperties": {"type": "integer"}},
        **{name: {"type": ["array", "integer"], "items": {"type": ["integer", "null"]},
                  "description": "A count per seat, or the seat that took the one card"}
           for name in CARD_SETS},
        "declarations": {"type": "array", "items": {"type": "array", "items": {
            "type": "object", "properties": {"kind": {"type": "string"},
                                             "suit": {"type": "string"},
                                             "rank": {"type": "string"},
                                             "extra": {"type": "integer"}}}}},
        "aces": _COUNTS, "honours": _COUNTS, "card_points": _COUNTS,
        "last": {"type": "integer"}, "confirmed": {"type": "boolean"},
        "special": {"type": ["object", "null"], "properties": {
            "kind": {"type": "string"}, "seat": {"type": "integer"},
            "pair": {"type": "integer"}}}}}

GAME = {"type": "object", "required": ["id", "family", "version", "players", "deals",
                                       "totals", "finished"], "properties": {
    "id": {"type": "string"},
    "family": {"type": "string", "description": "Which card game: a key of the family "
                                                "registry (Kierki, the seed-003 game)"},
    "version": {"type": "integer"},
    "ruleset": {"type": "object", "properties": {
        "id": {"type": "string"}, "name": {"type": "string"}, "players": {"type": "integer"},
        "expected_sum": {"type": "integer", "description": "Kierki: the game's sum"}}},
    "players": {"type": "array", "items": {"type": "object", "properties": {
        "seat": {"type": "integer"}, "name": {"type": "string"}}}},
    "first_dealer": {"type": "integer"},
    "deals": {"type": "array", "items": {"type": "object", "properties": {
        "number": {"type": "integer"}, "dealer": {"type": "integer"},
        "leader": {"type": "integer"}, "result": RESULT,
        "points": _INTS, "totals": _INTS,
        "sum": {"type": "integer", "description": "Kierki: the deal's points added up"},
        "expected_sum": {"type": "integer", "description": "Kierki: what they must add "
                                                           "up to"},
        "breakdown": {"type": "array", "description": "The partnership game: the deal's "
                      "points per pair, by what gave them",
                      "items": {"type": "object", "properties": {
                          "key": {"type": "string"}, "points": _INTS}}}}}},
    "totals": {"type": "array", "items": {"type": "integer"},
               "description": "Per side: a seat in Kierki, a pair in the partnership game"},
    "current_deal": {"type": ["integer", "null"]}, "finished": {"type": "boolean"},
    "winners": {"type": "array", "items": {"type": "integer"}},
    "schedule": {"type": "array", "description": "Kierki: every deal of the game",
                 "items": {"type": "object", "properties": {
                     "number": {"type": "integer"}, "contract": {"type": "string"},
                     "kind": {"type": "string"}, "name": {"type": "string"},
                     "dealer": {"type": "integer"}, "leader": {"type": "integer"},
                     "expected_sum": {"type": "integer"},
                     "fields": {"type": "array", "items": {"type": "object", "properties": {
                         "name": {"type": "string"}, "type": {"type": "string"},
                         "total": {"type": "integer"},
                         "labels": {"type": "array", "items": {"type": "string"}},
                         "distinct": {"type": "boolean"}}}}}}},
    "sum": {"type": "integer", "description": "Kierki: the totals added up"},
    "expected_sum": {"type": "integer", "description": "Kierki: what they add up to at "
                                                       "the end"},
    "standings": {"type": "array", "description": "Kierki: best first",
                  "items": {"type": "object", "properties": {
                      "seat": {"type": "integer"}, "total": {"type": "integer"},
                      "place": {"type": "integer"}}}},
    "pairs": {"type": "array", "description": "The partnership game: its two pairs",
              "items": {"type": "object", "properties": {"pair": {"type": "integer"},
                                                         "seats": _INTS}}},
    "target": {"type": "integer", "description": "The partnership game: the score "
                                                 "played to"},
    "to_go": {"type": "array", "items": {"type": "integer"},
              "description": "The partnership game: what each pair still needs"},
    "winner": {"type": ["integer", "null"], "description": "The partnership game: the "
                                                           "pair that won"},
    "signatures": {"type": "array", "description": "Who signed the finished game, as on the "
                   "paper sheet: a seat each, the director's as seat -1; a correction or "
                   "undo takes them all off",
                   "items": {"type": "object", "properties": {
                       "seat": {"type": "integer"}, "by": {"enum": ["table", "director"]},
                       "at": {"type": "string", "format": "date-time"}}}}},
    "description": "Shared keys, and each family's own (Kierki: `schedule`, `sum`, "
                   "`expected_sum`, `standings`; the partnership game: `pairs`, `target`, "
                   "`to_go`, `winner`, each deal's `breakdown`)."}

WITH_ACCESS = {"allOf": [GAME, {"type": "object", "properties": {
    "token": {"type": "string", "description": "Send as `Authorization: Bearer <token>` "
                                               "with every write to this game"},
    "join_code": {"type": "string",
                  "description": "Eight characters for other phones (six for older games)"}}}]}


CHECKED = {"type": "object", "required": ["ok", "complete", "problems", "progress"],
           "properties": {
    "ok": {"type": "boolean", "description": "Nothing entered so far breaks a rule"},
    "complete": {"type": "boolean", "description": "Nothing is left blank"},
    "problems": {"type": "array", "items": {"type": "object", "properties": {
        "field": {"type": "string", "description": "As in a 422's `errors`: `tricks`, "
                                                   "`hearts.2`, `positions.0`, `\"\"`"},
        "where": {"type": "string", "description": "The input in words (`Ala · Hearts ♥`, "
                                                   "`Trick 7`), or `\"\"`"},
        "message": {"type": "string", "description": "In the client's language"}}}},
    "progress": {"type": "array", "description": "Each count so far (Kierki)",
                 "items": {"type": "object", "properties": {
                     "field": {"type": "string"}, "entered": {"type": "integer"},
                     "total": {"type": "integer"}, "done": {"type": "boolean"},
                     "text": {"type": "string", "example": "Tricks: 9 of 13"}}}}}}

_COUNT = {"type": "integer"}
_AVERAGE = {"type": ["number", "null"]}
_GAME_LINE = {"type": ["object", "null"], "properties": {
    "date": {"type": "string"}, "ruleset": {"type": "string"}, "total": _COUNT,
    "place": _COUNT, "sides": _COUNT}}
_FIGURES = {"type": "object", "properties": {
    "key": {"type": "string"}, "name": {"type": "string", "description": "The card game"},
    "games": {"type": "integer", "description": "Finished games"},
    "unfinished": _COUNT, "wins": {"type": "integer", "description": "First places, "
                                                                    "shared ones too"},
    "average_place": _AVERAGE,
    "points": {"type": "integer", "description": "The totals of their side, added up"},
    "kinds": {"type": "array", "description": "Points per deal kind", "items": {
        "type": "object", "properties": {"key": {"type": "string"}, "name": {"type": "string"},
                                         "deals": _COUNT, "points": _COUNT,
                                         "average": _AVERAGE, "group": {"type": "string"},
                                         "group_name": {"type": "string"}}}},
    "counts": {"type": "array", "description": "What the game counts per seat (hearts "
                                               "taken, K♥ caught, loteryjka won)",
               "items": {"type": "object", "properties": {
                   "key": {"type": "string"}, "name": {"type": "string"}, "count": _COUNT}}},
    "best": _GAME_LINE, "worst": _GAME_LINE,
    "streaks": {"type": "object", "properties": {"current": _COUNT, "longest": _COUNT}},
    "by_ruleset": {"type": "array", "items": {"type": "object", "properties": {
        "ruleset": {"type": "string"}, "games": _COUNT, "wins": _COUNT,
        "average_place": _AVERAGE}}},
    "form": {"type": "array", "items": _GAME_LINE, "description": "The last games, oldest "
                                                                  "first"}}}
PLAYER = {"type": "object", "required": ["id", "name", "games", "families"], "properties": {
    "id": _COUNT, "name": {"type": "string"},
    "games": {"type": "integer", "description": "Finished games, of every card game"},
    "unfinished": _COUNT,
    "families": {"type": "object", "additionalProperties": _FIGURES,
                 "description": "Per card game played (by its key): its figures; points "
                                "of different card games never add up"}}}

RULESET_ENTRY = {"type": "object", "required": ["id", "family", "name", "players",
                                                "builtin"], "properties": {
    "id": {"type": "string"}, "family": {"type": "string"}, "name": {"type": "string"},
    "players": {"type": "integer"},
    "builtin": {"type": "boolean", "description": "False for this server's house variants"},
    "made_by": {"type": ["string", "null"], "description": "House variants only"},
    "created_at": {"type": "string", "description": "House variants only"},
    "deals": {"type": "integer", "description": "Kierki: deals in a game"},
    "expected_sum": {"type": "integer", "description": "Kierki: what a game adds up to"},
    "schedule": {"type": "array", "description": "Kierki", "items": {
        "type": "object", "properties": {"contract": {"type": "string"},
                                         "name": {"type": "string"},
                                         "expected_sum": {"type": "integer"}}}},
    "target": {"type": "integer", "description": "The partnership game: the usual target"},
    "targets": {"type": "array", "items": {"type": "integer"},
                "description": "The partnership game: the targets a game may play to"}}}


_TABLE = {"type": "object", "required": ["table", "game", "players", "finished"],
          "properties": {
    "table": {"type": "integer", "description": "The table's number in its round, from 1"},
    "game": {"type": "string", "description": "The table's game (`/api/games/{gid}`)"},
    "players": {"type": "array", "items": {"type": "string"},
                "description": "Names in seat order"},
    "entries": {"type": "array", "items": {"type": "integer"},
                "description": "The same players' entry numbers"},
    "first_dealer": {"type": "integer", "description": "The seat that deals first"},
    "ruleset": {"type": "string"}, "deals": {"type": "integer",
                                             "description": "Deals recorded so far"},
    "finished": {"type": "boolean"},
    "signatures": {"type": "integer", "description": "How many of its players signed its "
                   "finished game"},
    "director_signed": {"type": "boolean"},
    "confirmed": {"type": "boolean", "description": "Finished and signed by two players or "
                  "the director: until then its result counts as provisional"},
    "token": {"type": "string", "description": "The game's write token: only with the "
                                               "director's token"},
    "join_code": {"type": "string", "description": "Only with the director's token"}}}
ROUND = {"type": "object", "required": ["number", "tables"], "properties": {
    "number": {"type": "integer"}, "finished": {"type": "boolean"},
    "tables": {"type": "array", "items": _TABLE}}}
TOURNAMENT = {"type": "object", "required": ["id", "name", "rounds", "standings"],
              "properties": {
    "id": {"type": "string"}, "name": {"type": "string"}, "closed": {"type": "boolean"},
    "scoring": {"enum": ["points", "places"]},
    "rounds_planned": {"type": "integer"}, "version": {"type": "integer",
                                                       "description": "Moves with every "
                                                       "save at any of its tables"},
    "rulesets": {"type": "object", "additionalProperties": {"type": "string"},
                 "description": "The ruleset id per table size (\"3\", \"4\", \"5\")"},
    "players": {"type": "array", "items": {"type": "object", "properties": {
        "number": {"type": "integer"}, "name": {"type": "string"},
        "joined": {"type": "integer", "description": "The first round they were drawn for"},
        "withdrawn_after": {"type": ["integer", "null"]}}}},
    "rounds": {"type": "array", "items": ROUND},
    "standings": {"type": "array", "description": "Best first: by points (the sum of "
                  "game totals, or 3 to 0 per place when ranked by places), then table "
                  "wins, then the best game; equal lines share a rank",
                  "items": {"type": "object", "properties": {
                      "player": {"type": "string"}, "number": {"type": "integer"},
                      "points": {"type": "number"}, "wins": {"type": "integer"},
                      "games": {"type": "integer", "description": "Finished games"},
                      "best": {"type": ["integer", "null"]}, "rank": {"type": "integer"},
                      "provisional": {"type": "boolean", "description": "A finished table "
                                      "of theirs is not confirmed yet (signed by two of its "
                                      "players or the director)"}}}},
    "changes": {"type": "array", "description": "The director's alone: every correction "
                "and undo of its games, signatures taken off, closing and reopening, the "
                "latest first", "items": {"type": "object", "properties": {
                    "at": {"type": "string"},
                    "action": {"enum": ["correct", "undo", "unsigned", "close", "reopen"]},
                    "round": {"type": ["integer", "null"]},
                    "table": {"type": ["integer", "null"]},
                    "number": {"type": ["integer", "null"], "description": "The deal"},
                    "by": {"enum": ["table", "director", "host"]},
                    "finished": {"type": ["boolean", "integer", "null"], "description":
                                 "Whether the game was over when it was changed"}}}}}}


#: A club (issue 36) as ``GET /api/clubs/{cid}`` gives it; its manager also gets its
#: invitation.
CLUB = {"type": "object", "required": ["id", "name", "public", "casual_rated", "right",
                                       "players"], "properties": {
    "id": {"type": "string"}, "name": {"type": "string"},
    "public": {"type": "boolean", "description": "Anyone may read the club (else its "
                                                 "members, directors and manager only)"},
    "casual_rated": {"type": "boolean", "description": "Its casual games count for the "
                                                       "ratings (a tournament's always do)"},
    "default_ruleset": {"type": ["string", "null"], "description": "The ruleset a new game "
                        "of the club starts with on its page (null: the server's)"},
    "created_at": {"type": "string"},
    "right": {"enum": ["manager", "director", "member", None],
              "description": "The right the request's token holds in the club"},
    "players": {"type": "string", "description": "Where its people are listed"},
    "invite_code": {"type": "string", "description": "The manager's only: the code that "
                                                     "makes a member"},
    "invite_url": {"type": "string", "description": "The manager's only: the invitation "
                                                    "link"}}}
#: A new club, with the manager's token, or a club joined, with a member's token.
CLUB_WITH_TOKEN = {"allOf": [CLUB, {"type": "object", "required": ["token"], "properties": {
    "token": {"type": "string", "description": "`Authorization: Bearer` for the club's "
                                               "writes; given once"}}}]}
#: A club's season table (issue 36), as ``GET /api/clubs/{cid}/season`` gives it.
SEASON = {"type": "object", "required": ["season", "standings"], "properties": {
    "season": {"type": "object", "required": ["id", "name", "starts", "ends", "scoring",
                                              "best"], "properties": {
        "id": {"type": ["string", "null"], "description": "null: the calendar year, the "
                                                         "season of a club that named none"},
        "name": {"type": "string"},
        "starts": {"type": "string", "format": "date"},
        "ends": {"type": "string", "format": "date", "description": "Its nights: the "
                 "club's tournaments begun from `starts` to `ends`, both days in"},
        "scoring": {"enum": ["points", "places"], "description": "points: the sum of each "
                    "night's points; places: each night gives field + 1 − place"},
        "best": {"type": ["integer", "null"], "description": "Only each player's best "
                 "`best` nights count (null: all)"}}},
    "standings": {"type": "array", "description": "Best first", "items": {
        "type": "object", "required": ["player", "points", "nights", "games", "wins",
                                       "rating", "rank"], "properties": {
            "player": {"type": "string"}, "person_id": {"type": "integer"},
            "points": {"type": "number"}, "nights": {"type": "integer"},
            "games": {"type": "integer"}, "wins": {"type": "integer"},
            "counted": {"type": "integer", "description": "Nights whose points count"},
            "rank": {"type": "integer", "description": "Equal lines share a rank"},
            "rating": {"type": ["number", "null"], "description": "The conservative rating "
                       "mu − 3·sigma (openskill's Plackett–Luce; null: no rated game)"},
            "mu": {"type": ["number", "null"], "description": "The skill the games show"},
            "sigma": {"type": ["number", "null"], "description": "Its uncertainty"}}}}}}
#: ``"club"`` in a new game's or tournament's body.
CLUB_FIELD = {"type": "string", "description": "The club it is of (its id), with a "
              "member's token (a game) or the manager's or a director's (a tournament) in "
              "`Authorization: Bearer`; left out, the server's own club"}


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def _answers(ok: dict[str, Any], *codes: str) -> dict[str, Any]:
    out = dict(ok)
    for code in (*codes, "405", "500"):
        out[code] = {"description": ERRORS[code], **_json(ERROR)}
    return out


def _body(schema: dict[str, Any]) -> dict[str, Any]:
    return {"required": True, **_json(schema)}


#: A ruleset as the API shows it (``GET /api/rulesets/<id>``, a new variant): the kept
#: ruleset of its family.
RULESET = {"oneOf": [{"$ref": "#/components/schemas/KierkiRuleset"},
                     {"$ref": "#/components/schemas/TybetRuleset"}]}
#: A JSON Schema document (draft 2020-12), as the schema answers give it.
JSON_SCHEMA = {"type": "object", "required": ["$id", "$schema", "type", "properties"],
               "properties": {"$id": {"type": "string"}, "$schema": {"type": "string"}}}


#: ``GET /healthz`` (outside ``/api/``, for a container's or a monitor's health check):
#: the database read on the request's own connection; no session, never cached.
_HEALTH = {"type": "object", "required": ["status"],
           "properties": {"status": {"enum": ["ok", "unavailable"]}}}
HEALTHZ = {"get": {
    "summary": "Whether the server can read its database",
    "responses": {
        "200": {"description": "The database answered", **_json(_HEALTH)},
        "503": {"description": "The database file is gone or cannot be read",
                **_json(_HEALTH)},
        "405": {"description": "Only GET (and HEAD)"},
        "500": {"description": "Something went wrong on the server"}}}}


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


def document() -> dict[str, Any]:
    gid = {"name": "gid", "in": "path", "required": True, "schema": {"type": "string"}}
    tid = {"name": "tid", "in": "path", "required": True, "schema": {"type": "string"}}
    cid = {"name": "cid", "in": "path", "required": True, "schema": {"type": "string"}}
    closed = {"409": {"description": "The tournament is closed", **_json(ERROR)}}
    ruleset_id = {"name": "ruleset_id", "in": "path", "required": True,
                  "schema": {"type": "string", "pattern": ID.pattern}}
    number = {"name": "number", "in": "path", "required": True,
              "schema": {"type": "integer", "minimum": 1}}
    game = {"description": "The game's full state", **_json(GAME)}
    token = [{"bearer": []}]
    body_errors = ("400", "413", "415", "422", "503")  # (503: a write that found no lock)
    versioned = {"type": "object", "required": ["version"],
                 "properties": {"version": {"type": "integer",
                                            "description": "The game's version as last read"}}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Kierki Scorekeeper API", "version": "2", "description": (
            "Reads are open to whoever has a game's id; every write to a game needs its "
            "token (given when it is created or joined by code).")},
        "components": {"securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
                       "schemas": _with_new_variant(openapi_schemas())},
        "paths": {
            "/api/rulesets": {
                "get": {"summary": "List the rulesets, 50 a page: the built-in ones, then "
                                   "this server's house variants",
                        "parameters": [{"name": "page", "in": "query", "required": False,
                                        "schema": {"type": "integer", "minimum": 1}}],
                        "responses": _answers({"200": {
                            "description": "Rulesets; a `Link` header with rel=\"next\" "
                                           "names the next page while there is one",
                            **_json({"type": "array", "items": RULESET_ENTRY})}},
                            "422")},
                "post": {"summary": "Make a house variant from a whole ruleset document",
                         "description": "Checked against `/api/rulesets/schema.json`, by "
                                        "the loader of the built-in rulesets, and for its "
                                        "totals: a variant whose totals do not add up to "
                                        "zero needs `unbalanced: true`.",
                         "requestBody": _body({"$ref": "#/components/schemas/"
                                                       "RulesetDocument"}),
                         "responses": _answers({"201": {
                             "description": "The variant, with its new id, its sum and "
                                            "`token`, its maker's: deleting it needs it",
                             **_json({"$ref": "#/components/schemas/NewVariant"})}},
                             *body_errors, "429")}},
            "/api/rulesets/schema.json": {"get": {
                "summary": "The JSON Schema of a ruleset document",
                "responses": _answers({"200": {"description": "JSON Schema",
                                               **_json(JSON_SCHEMA)}})}},
            "/api/rulesets/{ruleset_id}": {
                "get": {"summary": "A ruleset's whole data", "parameters": [ruleset_id],
                        "responses": _answers({"200": {
                            "description": "The ruleset", **_json(RULESET)}}, "404")},
                "delete": {"summary": "Delete a house variant no game is played with: "
                                      "with its maker's token, or by the host",
                           "parameters": [ruleset_id], "security": token,
                           "responses": {
                               **_answers({"204": {"description": "Deleted"}}, "401",
                                          "403", "404", "422"),
                               "409": {"description": "A game is played with it",
                                       **_json(ERROR)}}}},
            "/api/players": {"get": {
                "summary": "Everyone who has played on this server, with their figures",
                "responses": _answers({"200": {"description": "Players", **_json({
                    "type": "array", "items": PLAYER})}})}},
            "/api/players/{pid}": {"get": {
                "summary": "One player's statistics over their finished games",
                "parameters": [{"name": "pid", "in": "path", "required": True,
                                "schema": {"type": "integer"}}],
                "responses": _answers({"200": {"description": "The player",
                                               **_json(PLAYER)}}, "404")}},
            "/api/games": {"post": {
                "summary": "Create a game",
                "requestBody": _body({"type": "object", "required": ["ruleset", "players"],
                                      "properties": {
                    "ruleset": {"type": "string", "example": "standard-4"},
                    "players": {"type": "array", "items": {"type": "string"},
                                "description": "Names in clockwise seat order"},
                    "first_dealer": {"type": ["integer", "null"],
                                     "description": "Seat; null draws at random"},
                    "club": CLUB_FIELD,
                    "target": {"type": "integer", "example": 21,
                               "description": "Partnership game only: the score to play "
                                              "to (one of the ruleset's targets)"}}}),
                "responses": _answers({"201": {"description": "The new game, its token and "
                                                              "join code",
                                               **_json(WITH_ACCESS)}}, *body_errors,
                                      "429")}},
            "/api/join": {"post": {
                "summary": "Join a game by its code: its id and token",
                "requestBody": _body({"type": "object", "required": ["code"], "properties": {
                    "code": {"type": "string", "example": "K7QM2X"}}}),
                "responses": _answers({"200": {"description": "The game, its token and "
                                                              "join code",
                                               **_json(WITH_ACCESS)}}, *body_errors, "404",
                                      "429")}},
            "/api/games/{gid}": {
                "get": {"summary": "Read a game", "parameters": [gid],
                        "responses": _answers({"200": game}, "404")},
                "delete": {"summary": "Delete a game for good", "parameters": [gid],
                           "security": token,
                           "requestBody": _body({**versioned, "required": ["version",
                                                                           "confirm"],
                                                 "properties": {
                               **versioned["properties"],
                               "confirm": {"const": True}}}),
                           "responses": _answers({"204": {"description": "Deleted"}},
                                                 *body_errors, "401", "403", "404", "409")}},
            "/api/games/{gid}/deals/{number}": {"put": {
                "summary": "Record the next deal or correct an earlier one",
                "parameters": [gid, number], "security": token,
                "requestBody": _body({**versioned, "required": ["version", "result"],
                                      "properties": {**versioned["properties"],
                                                     "result": RESULT}}),
                "responses": _answers({"200": game}, *body_errors, "401", "403", "404",
                                      "409")}},
            "/api/games/{gid}/deals/{number}/check": {"post": {
                "summary": "Check a deal's result while it is being entered; stores nothing",
                "description": (
                    "The rules that check the deal when it is saved, on what was entered "
                    "so far: a blank (`null`, `\"\"`, a missing field) is no problem yet, "
                    "and only what the values entered already break is given (a count "
                    "over its total; in the robber, a row of counts that breaks the "
                    "cross-checks whoever the blank choices go to). With nothing blank, "
                    "`problems` are exactly what `PUT` would refuse with 422. Open to "
                    "whoever may read the game, as `GET` is; `number` is a recorded deal "
                    "or the next one (else 422)."),
                "parameters": [gid, number],
                "requestBody": _body({"type": "object", "required": ["result"],
                                      "properties": {"result": RESULT}}),
                "responses": _answers({"200": {"description": "What is wrong so far",
                                               **_json(CHECKED)}},
                                      *body_errors, "404")}},
            "/api/games/{gid}/undo": {"post": {
                "summary": "Take back the last deal", "parameters": [gid], "security": token,
                "requestBody": _body(versioned),
                "responses": _answers({"200": game}, *body_errors, "401", "403", "404",
                                      "409")}},
            "/api/games/{gid}/signatures": {"post": {
                "summary": "Sign a finished game for one of its seats (or, by the director, "
                           "as the director: seat -1)",
                "description": "With the game's token or the tournament director's. A "
                               "tournament's table counts as confirmed once two players or "
                               "the director signed; a correction or undo takes every "
                               "signature off. A closed tournament's game is refused 409.",
                "parameters": [gid], "security": token,
                "requestBody": _body({"type": "object", "required": ["seat", "version"],
                                      "properties": {"seat": {"type": "integer"},
                                                     "version": {"type": "integer"}}}),
                "responses": _answers({"201": game}, *body_errors, "401", "403", "404",
                                      "409")}},
            "/api/tournaments": {"post": {
                "summary": "Start a Kierki tournament: its first round drawn, each table's "
                           "game created with its players seated",
                "requestBody": _body({"type": "object",
                                      "required": ["name", "players", "rounds", "rulesets"],
                                      "properties": {
                    "name": {"type": "string"},
                    "players": {"type": "array", "items": {"type": "string"},
                                "minItems": 8, "maxItems": tournaments.MAX_PLAYERS},
                    "rounds": {"type": "integer", "minimum": 1, "maximum": 20},
                    "rulesets": {"type": "object", "additionalProperties": {"type": "string"},
                                 "example": {"4": "standard-4", "3": "standard-3"},
                                 "description": "A ruleset per table size used: tables of "
                                                "four where possible, then three or five"},
                    "scoring": {"enum": ["points", "places"], "default": "points"},
                    "seed": {"type": "string", "maxLength": 40, "description": "Draws are "
                             "reproducible from it (random when left out)"},
                    "club": CLUB_FIELD}}),
                "responses": _answers({"201": {
                    "description": "Its id, the director's `token` (every change needs it) "
                                   "and round 1", **_json({
                        "type": "object", "required": ["id", "token", "round"],
                        "properties": {"id": {"type": "string"}, "token": {"type": "string"},
                                       "round": ROUND}})}}, *body_errors, "429")}},
            "/api/tournaments/{tid}": {"get": {
                "summary": "A tournament: its rounds, tables and standings",
                "description": "With the director's token, each table's game `token` and "
                               "`join_code` too; a wrong token is refused 403.",
                "parameters": [tid],
                "responses": _answers({"200": {"description": "The tournament",
                                               **_json(TOURNAMENT)}}, "403", "404")}},
            "/api/tournaments/{tid}/rounds": {"post": {
                "summary": "Draw the next round (the director)",
                "description": "As few pairs as the draw can meet again; its tables' games "
                               "are created. An optional body `{\"number\": N}` names the "
                               "round meant, so a request sent twice draws it once.",
                "parameters": [tid], "security": token,
                "responses": {**_answers({"201": {"description": "The round drawn",
                                                  **_json(ROUND)}},
                                         *body_errors, "401", "403", "404"),
                              "409": {"description": "A game of the current round is "
                                                     "unfinished, every round is drawn, or "
                                                     "the tournament is closed",
                                      **_json(ERROR)}}}},
            "/api/tournaments/{tid}/players": {"post": {
                "summary": "Seat a late arrival from the next round on (the director)",
                "parameters": [tid], "security": token,
                "requestBody": _body({"type": "object", "required": ["name"],
                                      "properties": {"name": {"type": "string"}}}),
                "responses": _answers({"201": {"description": "Their entry number",
                                               **_json({"type": "object", "properties": {
                                                   "number": {"type": "integer"},
                                                   "name": {"type": "string"}}})}},
                                      *body_errors, "401", "403", "404") | closed}},
            "/api/tournaments/{tid}/players/{number}": {"delete": {
                "summary": "Withdraw a player after the current round (the director); "
                           "their games so far count",
                "parameters": [tid, number], "security": token,
                "responses": _answers({"204": {"description": "Withdrawn"}}, "401", "403",
                                      "404", "422") | closed}},
            "/api/tournaments/{tid}/close": {"post": {
                "summary": "Close the tournament (the director): nothing more is drawn",
                "parameters": [tid], "security": token,
                "responses": _answers({"204": {"description": "Closed"}}, "401", "403",
                                      "404") | closed}},
            "/api/tournaments/{tid}/reopen": {"post": {
                "summary": "Reopen a closed tournament (the director): its games can be "
                           "corrected again",
                "parameters": [tid], "security": token,
                "responses": _answers({"204": {"description": "Open again"}}, "401", "403",
                                      "404", "409")}},
            "/api/clubs": {"post": {
                "summary": "Make a club: its own people, games and tournaments",
                "requestBody": _body({"type": "object", "required": ["name"], "properties": {
                    "name": {"type": "string", "maxLength": 60},
                    "public": {"type": "boolean", "default": True}}}),
                "responses": _answers({"201": {"description": "The club, the manager's "
                                                              "token and the invitation",
                                               **_json(CLUB_WITH_TOKEN)}}, *body_errors,
                                      "429")}},
            "/api/join-club": {"post": {
                "summary": "Join a club by its invitation code: its id and a member's token",
                "requestBody": _body({"type": "object", "required": ["code"], "properties": {
                    "code": {"type": "string", "example": "K7QM2XRT"}}}),
                "responses": _answers({"200": {"description": "The club and a member's "
                                                              "token",
                                               **_json(CLUB_WITH_TOKEN)}}, *body_errors,
                                      "404", "429")}},
            "/api/clubs/{cid}": {
                "get": {"summary": "A club (a private one to its members only: 404 to "
                                   "anyone else)",
                        "description": "With a member's, director's or the manager's "
                                       "token (`Authorization: Bearer`) a private club too, "
                                       "and the manager sees its invitation.",
                        "parameters": [cid],
                        "responses": _answers({"200": {"description": "The club",
                                                       **_json(CLUB)}}, "404")},
                "patch": {"summary": "The manager's choices",
                          "parameters": [cid], "security": token,
                          "requestBody": _body({"type": "object", "properties": {
                              "name": {"type": "string", "maxLength": 60},
                              "public": {"type": "boolean"},
                              "casual_rated": {"type": "boolean"},
                              "default_ruleset": {"type": "string", "description": "A "
                                                  "ruleset's id; \"\": the server's"}}}),
                          "responses": _answers({"200": {"description": "The club",
                                                         **_json(CLUB)}}, *body_errors,
                                                "401", "403", "404")}},
            "/api/clubs/{cid}/players": {"get": {
                "summary": "The club's people, each as `/api/players` gives them",
                "description": "A private club's to a member's, director's or the "
                               "manager's token (`Authorization: Bearer`) only; a page at a "
                               "time (`?page=`, a `Link` header names the next).",
                "parameters": [cid],
                "responses": _answers({"200": {"description": "Players", **_json({
                    "type": "array", "items": PLAYER})}}, "404")}},
            "/api/clubs/{cid}/season": {"get": {
                "summary": "The club's season table with each player's rating (a private "
                           "club's to its members, directors and manager only, by their "
                           "token in `Authorization: Bearer`: 404 to anyone else)",
                "parameters": [cid, {"name": "season", "in": "query", "required": False,
                                     "schema": {"type": "string"}, "description": "A "
                                     "season's id (default: the one today falls in)"}],
                "responses": _answers({"200": {"description": "The season",
                                               **_json(SEASON)}}, "404")}},
            "/api/schema/game.json": {"get": {
                "summary": "The JSON Schema of an exported game file (what the import checks)",
                "responses": _answers({"200": {"description": "JSON Schema of "
                                                             "`#/components/schemas/GameFile`",
                                               **_json(JSON_SCHEMA)}})}},
            "/api/openapi.json": {"get": {"summary": "This document",
                                          "responses": _answers({"200": {
                                              "description": "OpenAPI 3.1",
                                              **_json({"type": "object"})}})}},
            "/healthz": HEALTHZ,
        },
    }
