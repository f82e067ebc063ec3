"""Every key of every answer the API gives is in the OpenAPI document (issue 32 item 9):
for each operation the tests exercise, the answer validates against the operation's
response schema, and every key in it, walked through nested objects and lists, is
declared there (a listed property, a pattern, or a map's ``additionalProperties``
schema), never let through only by an open object."""
import re

import pytest

from scorekeeper.families.kierki.rules.rulesets import get_ruleset
from tests.fixtures import results_for
from tests.store.test_tournaments import TWELVE
from tests.web.test_import_rulesets import TYBET_DEAL
from tests.web.test_schemas import _resolve, valid

PLAYERS = ["Ala", "Bolek", "Cela", "Darek"]


def _branches(schema, root, value):
    """The schemas that speak for ``value``: ``schema``, its ``allOf`` parts, and of its
    ``anyOf``/``oneOf`` the branches it is valid by (all of them if none)."""
    schema = _resolve(schema, root)
    found = [schema]
    for part in schema.get("allOf", ()):
        found += _branches(part, root, value)
    choices = schema.get("anyOf") or schema.get("oneOf") or ()
    fitting = [c for c in choices if valid(value, c, root)] or list(choices)
    for choice in fitting:
        found += _branches(choice, root, value)
    return found


def undeclared(value, schema, root, path="$"):
    """The places in ``value`` that ``schema`` does not declare."""
    found = []
    branches = _branches(schema, root, value)
    if isinstance(value, dict):
        for key, item in value.items():
            subs = []
            for b in branches:
                if key in b.get("properties", {}):
                    subs.append(b["properties"][key])
                subs += [s for p, s in b.get("patternProperties", {}).items()
                         if re.search(p, key)]
                if isinstance(b.get("additionalProperties"), dict):
                    subs.append(b["additionalProperties"])
            if not subs:
                found.append(f"{path}.{key}")
            for sub in subs:
                found += undeclared(item, sub, root, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            for b in branches:
                prefix = b.get("prefixItems", ())
                sub = prefix[i] if i < len(prefix) else b.get("items")
                if isinstance(sub, dict):
                    found += undeclared(item, sub, root, f"{path}[{i}]")
    return sorted(set(found))


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def answers(client):
    """(path, method, status, answer) of each operation, as a club's program calls them."""
    out = []

    def call(path, method, status, r):
        assert r.status_code == int(status), (path, method, r.status_code, r.get_json())
        out.append((path, method, status, r.get_json()))
        return r.get_json()

    kierki = call("/api/games", "post", "201", client.post("/api/games", json={
        "ruleset": "standard-4", "players": PLAYERS, "first_dealer": 0}))
    gid, auth = kierki["id"], bearer(kierki["token"])
    call("/api/join", "post", "200",
         client.post("/api/join", json={"code": kierki["join_code"]}))
    version = kierki["version"]
    for number, raw in enumerate(results_for(get_ruleset("standard-4")), start=1):
        version = call("/api/games/{gid}/deals/{number}", "put", "200", client.put(
            f"/api/games/{gid}/deals/{number}", headers=auth,
            json={"version": version, "result": raw}))["version"]
    call("/api/games/{gid}", "get", "200", client.get(f"/api/games/{gid}"))
    undone = call("/api/games/{gid}/undo", "post", "200", client.post(
        f"/api/games/{gid}/undo", headers=auth, json={"version": version}))
    call("/api/games/{gid}/deals/{number}/check", "post", "200", client.post(
        f"/api/games/{gid}/deals/1/check", json={"result": {"tricks": [14, 0]}}))
    last = len(undone["deals"]) + 1
    raw = results_for(get_ruleset("standard-4"))[last - 1]
    call("/api/games/{gid}/deals/{number}", "put", "200", client.put(
        f"/api/games/{gid}/deals/{last}", headers=auth,
        json={"version": undone["version"], "result": raw}))  # finished again

    tybet = call("/api/games", "post", "201", client.post("/api/games", json={
        "ruleset": "tybet-21", "players": PLAYERS, "first_dealer": 0, "target": 21}))
    call("/api/games/{gid}/deals/{number}", "put", "200", client.put(
        f"/api/games/{tybet['id']}/deals/1", headers=bearer(tybet["token"]),
        json={"version": tybet["version"], "result": TYBET_DEAL}))
    call("/api/games/{gid}/deals/{number}/check", "post", "200", client.post(
        f"/api/games/{tybet['id']}/deals/2/check", json={"result": TYBET_DEAL}))
    call("/api/games/{gid}", "get", "200", client.get(f"/api/games/{tybet['id']}"))

    doc = client.get("/api/rulesets/standard-4").get_json()
    for key in ("id", "source", "expected_sum"):
        doc.pop(key)
    made = call("/api/rulesets", "post", "201", client.post("/api/rulesets", json={
        **doc, "name": {"en": "Ours", "pl": "Nasze"}, "unbalanced": True}))
    call("/api/rulesets", "get", "200", client.get("/api/rulesets"))
    for rid in ("standard-4", "tybet-21", "zdanowicz-5", made["id"]):
        call("/api/rulesets/{ruleset_id}", "get", "200", client.get(f"/api/rulesets/{rid}"))
    call("/api/players", "get", "200", client.get("/api/players"))
    pid = client.get("/api/players").get_json()[0]["id"]
    call("/api/players/{pid}", "get", "200", client.get(f"/api/players/{pid}"))

    t = call("/api/tournaments", "post", "201", client.post("/api/tournaments", json={
        "name": "Czwartek", "players": TWELVE, "rounds": 2,
        "rulesets": {"3": "standard-3", "4": "standard-4"}, "seed": "klub"}))
    for table in t["round"]["tables"]:
        version = 1
        for number, raw in enumerate(results_for(get_ruleset("standard-4")), start=1):
            r = client.put(f"/api/games/{table['game']}/deals/{number}",
                           headers=bearer(table["token"]),
                           json={"version": version, "result": raw})
            version = r.get_json()["version"]
    director = bearer(t["token"])
    call("/api/tournaments/{tid}/rounds", "post", "201", client.post(
        f"/api/tournaments/{t['id']}/rounds", headers=director))
    call("/api/tournaments/{tid}/players", "post", "201", client.post(
        f"/api/tournaments/{t['id']}/players", headers=director, json={"name": "Zenek"}))
    for headers in ({}, director):
        call("/api/tournaments/{tid}", "get", "200",
             client.get(f"/api/tournaments/{t['id']}", headers=headers))

    call("/api/games", "post", "422", client.post("/api/games", json={"players": 3}))
    call("/api/games/{gid}", "get", "404", client.get("/api/games/none"))
    call("/api/games/{gid}/deals/{number}", "put", "409", client.put(
        f"/api/games/{gid}/deals/1", headers=auth, json={"version": 1, "result": raw}))
    return out


def test_every_key_of_every_answer_is_in_the_document(client, answers):
    document = client.get("/api/openapi.json").get_json()
    exercised = {(path, method) for path, method, _status, _body in answers}
    assert len(exercised) >= 14
    problems = {}
    for path, method, status, body in answers:
        schema = document["paths"][path][method]["responses"][status]["content"][
            "application/json"]["schema"]
        assert valid(body, schema, document), (path, method, status)
        missing = undeclared(body, schema, document)
        if missing:
            problems.setdefault(f"{method.upper()} {path} {status}", set()).update(
                re.sub(r"\[\d+\]", "[]", m) for m in missing)
    assert not problems, "\n".join(f"{k}: {sorted(v)}" for k, v in problems.items())


def test_the_walker_finds_what_an_open_object_lets_through():
    root = {}
    schema = {"type": "object", "properties": {"a": {"type": "object"},
                                               "b": {"type": "array", "items": {
                                                   "type": "object", "properties": {
                                                       "c": {"type": "integer"}}}},
                                               "m": {"type": "object",
                                                     "additionalProperties": {
                                                         "type": "integer"}}},
              "additionalProperties": True}
    value = {"a": {"x": 1}, "b": [{"c": 1, "d": 2}], "m": {"k": 1}, "z": 0}
    assert undeclared(value, schema, root) == ["$.a.x", "$.b[0].d", "$.z"]
    both = {"allOf": [{"type": "object", "properties": {"a": {}}},
                      {"type": "object", "properties": {"t": {}}}]}
    assert undeclared({"a": 1, "t": 2}, both, root) == []
