"""The OpenAPI 3.1 document of the JSON API."""
from __future__ import annotations

from typing import Any

ERRORS = {"type": "object", "properties": {
    "error": {"type": "string"},
    "errors": {"type": "object", "additionalProperties": {"type": "array",
                                                           "items": {"type": "string"}},
               "description": "Messages per field, e.g. `tricks`, `hearts.2`, `positions.0`; "
                              "`\"\"` is the deal as a whole."}}}

RESULT = {"type": "object", "description": (
    "A deal's result. Partnership games (`family` of the seed-003 game): `declarations` (a list per seat of "
    "{kind: cezar, suit, extra} / {kind: four|trio, rank}), `aces` and `honours` per pair, "
    "`last` (the pair), `special` ({kind, pair} or {kind, seat}) or null. "
    "Kierki: its fields depend on the contract (see `schedule[].fields`). "
    "Counts are lists with one whole number per seat (one `null` is filled so they add up); "
    "`king_of_hearts` is a seat; `positions` and `order` are lists of seats; `trump` is one "
    "of S, H, D, C; `cards` maps cards such as `QH` to seats (card-by-card entry)."),
    "example": {"tricks": [3, 3, 3, 4]}}

GAME = {"type": "object", "required": ["id", "version", "players", "deals", "totals",
                                       "finished"], "properties": {
    "id": {"type": "string"},
    "family": {"type": "string", "description": "Which card game: a key of the family "
                                                 "registry (Kierki, the seed-003 game)"},
    "version": {"type": "integer"},
    "ruleset": {"type": "object"},
    "players": {"type": "array", "items": {"type": "object"}},
    "first_dealer": {"type": "integer"},
    "schedule": {"type": "array", "items": {"type": "object"}},
    "deals": {"type": "array", "items": {"type": "object", "properties": {
        "number": {"type": "integer"}, "result": RESULT,
        "points": {"type": "array", "items": {"type": "integer"}},
        "totals": {"type": "array", "items": {"type": "integer"}},
        "sum": {"type": "integer"}, "expected_sum": {"type": "integer"}}}},
    "totals": {"type": "array", "items": {"type": "integer"}},
    "sum": {"type": "integer"}, "expected_sum": {"type": "integer"},
    "current_deal": {"type": ["integer", "null"]}, "finished": {"type": "boolean"},
    "standings": {"type": "array", "items": {"type": "object"}},
    "winners": {"type": "array", "items": {"type": "integer"}}}}


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def document() -> dict[str, Any]:
    gid = {"name": "gid", "in": "path", "required": True, "schema": {"type": "string"}}
    number = {"name": "number", "in": "path", "required": True,
              "schema": {"type": "integer", "minimum": 1}}
    game_ok = {"description": "The game's full state", **_json(GAME)}
    refused = {"description": "Refused input; nothing was stored", **_json(ERRORS)}
    missing = {"description": "No such game", **_json(ERRORS)}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Kierki Scorekeeper API", "version": "1"},
        "paths": {
            "/api/rulesets": {"get": {"summary": "List the rulesets", "responses": {
                "200": {"description": "Rulesets", **_json({"type": "array",
                                                           "items": {"type": "object"}})}}}},
            "/api/games": {"post": {
                "summary": "Create a game",
                "requestBody": {"required": True, **_json({"type": "object",
                    "required": ["ruleset", "players"], "properties": {
                        "ruleset": {"type": "string", "example": "standard-4"},
                        "players": {"type": "array", "items": {"type": "string"},
                                    "description": "Names in clockwise seat order"},
                        "first_dealer": {"type": ["integer", "null"],
                                         "description": "Seat; null draws at random"},
                        "target": {"type": "integer", "example": 21,
                                   "description": "Tybet only: the score to play to "
                                                  "(one of the ruleset's targets)"}}})},
                "responses": {"201": game_ok, "422": refused}}},
            "/api/games/{gid}": {"get": {"summary": "Read a game", "parameters": [gid],
                                         "responses": {"200": game_ok, "404": missing}}},
            "/api/games/{gid}/deals/{number}": {"put": {
                "summary": "Record the next deal or correct an earlier one",
                "parameters": [gid, number],
                "requestBody": {"required": True, **_json({"type": "object",
                    "required": ["version", "result"], "properties": {
                        "version": {"type": "integer",
                                    "description": "The game's version as last read"},
                        "result": RESULT}})},
                "responses": {"200": game_ok, "422": refused, "404": missing,
                              "409": {"description": "The game changed since `version` "
                                                     "(e.g. the deal was already entered)",
                                      **_json(ERRORS)}}}},
            "/api/games/{gid}/undo": {"post": {
                "summary": "Take back the last deal", "parameters": [gid],
                "requestBody": {"required": True, **_json({"type": "object", "properties": {
                    "version": {"type": "integer"}}})},
                "responses": {"200": game_ok, "404": missing, "422": refused,
                              "409": {"description": "Version conflict", **_json(ERRORS)}}}},
        },
    }
