"""The schemas the API serves are the server's own types: what the ruleset schema takes,
``POST /api/rulesets`` takes (and refuses what it refuses, naming the field), and every
answer the OpenAPI document declares is what the server answers."""
import copy
import io
import json
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.families.kierki.rules.document import RulesetDocument
from tests.fixtures import new_game, post_deal

# -- a small validator of the schemas the app serves (jsonschema is not installed) -------


def _resolve(schema, root):
    while "$ref" in schema:
        ref = schema["$ref"]
        name = ref.rsplit("/", 1)[1]
        schema = root["$defs"][name] if ref.startswith("#/$defs/") \
            else root["components"]["schemas"][name]
    return schema


def valid(value, schema, root) -> bool:
    """Whether ``value`` is valid by ``schema`` (the keywords these schemas use)."""
    schema = _resolve(schema, root)
    if "allOf" in schema:
        rest = {k: v for k, v in schema.items() if k != "allOf"}
        return all(valid(value, s, root) for s in schema["allOf"]) and valid(value, rest, root)
    if "anyOf" in schema or "oneOf" in schema:
        branches = [valid(value, s, root) for s in schema.get("anyOf", schema.get("oneOf"))]
        return any(branches) if "anyOf" in schema else branches.count(True) == 1
    if "const" in schema and value != schema["const"]:
        return False
    if "enum" in schema and value not in schema["enum"]:
        return False
    kind = schema.get("type")
    if isinstance(kind, list):
        return any(valid(value, {**schema, "type": k}, root) for k in kind)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool) \
            and schema.get("minimum", value) <= value <= schema.get("maximum", value)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "null":
        return value is None
    if kind == "string":
        return isinstance(value, str) and schema.get("minLength", 0) <= len(value) \
            <= schema.get("maxLength", len(value)) \
            and ("pattern" not in schema or re.search(schema["pattern"], value) is not None)
    if kind == "array":
        return isinstance(value, list) and schema.get("minItems", 0) <= len(value) \
            <= schema.get("maxItems", len(value)) \
            and all(valid(v, schema.get("items", {}), root) for v in value)
    if kind == "object":
        if not isinstance(value, dict) or not set(schema.get("required", ())) <= set(value):
            return False
        if not schema.get("minProperties", 0) <= len(value) \
                <= schema.get("maxProperties", len(value)):
            return False
        props, extra = schema.get("properties", {}), schema.get("additionalProperties", True)
        names = schema.get("propertyNames")
        patterns = schema.get("patternProperties", {})
        for key, item in value.items():
            if names is not None and not valid(key, names, root):
                return False
            matched = [s for p, s in patterns.items() if re.search(p, key)]
            if not all(valid(item, s, root) for s in matched):
                return False
            if key in props:
                if not valid(item, props[key], root):
                    return False
            elif matched:
                continue
            elif extra is False or (isinstance(extra, dict) and not valid(item, extra, root)):
                return False
    return True


# -- the ruleset schema against POST /api/rulesets ---------------------------------------

def _document(client):
    data = client.get("/api/rulesets/standard-4").get_json()
    for key in ("id", "source", "expected_sum"):
        data.pop(key)
    data.update(name={"en": "Ours", "pl": "Nasze"}, unbalanced=True)
    return data


def _paths(value, path=()):
    """Every place in a document: its keys and list entries, nested."""
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*path, i))


def _put(doc, path, value):
    doc = copy.deepcopy(doc)
    if not path:
        return value
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return doc


def _nested(depth):
    value = "x"
    for _ in range(depth):
        value = [value]
    return value


#: Values of every JSON type, the schema's bounds and beyond them.
ODD = st.one_of(
    st.sampled_from([None, True, False, 0, -1, 1, 10, 11, 13, 14, 17, 18, 10_000, 10_001,
                     -10_000, -10_001, 10**20, -(10**20), 1.5, "", "x", "7", "no_hearts",
                     "hearts", "dealer", "a" * 80, "a" * 81, "b" * 160, "b" * 161,
                     "c" * 600, "c" * 601, "d" * 40, "d" * 41, [], {}, ["x"], [1, 2],
                     {"en": "x"}, {"en": "x", "pl": "y"}, {"en": "", "pl": "y"},
                     {"en": "x", "pl": "y", "de": "z"}, "<b>x</b>", "QS", "1Z"]),
    st.integers(min_value=0, max_value=25).map(_nested),
    st.text(max_size=5),
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_the_server_takes_what_the_ruleset_schema_takes(client, data):
    """A valid document with one place changed (to any type, a bound, past a bound, a
    deep nesting, a plain-string name) is refused at its shape, naming the field, when
    the served schema refuses it; when the schema takes it, the server does not refuse
    its shape (it may still find the rules unplayable, which the schema cannot say)."""
    schema = client.get("/api/rulesets/schema.json").get_json()
    base = _document(client)
    assert valid(base, schema, schema)
    path = data.draw(st.sampled_from([p for p in _paths(base) if p]))
    doc = _put(base, path, data.draw(ODD))
    r = client.post("/api/rulesets", json=doc)
    assert r.status_code in (201, 422), r.status_code
    errors = r.get_json().get("errors", {})
    if valid(doc, schema, schema):
        assert r.status_code == 201 or list(errors) == [""], (path, errors)
    else:
        assert r.status_code == 422 and errors and "" not in errors, (path, errors)
        assert any(path[0] == field.split(".")[0] for field in errors), (path, errors)


def test_the_served_schemas_are_the_servers_types(client):
    """One type, one set of limits: a name of 80 characters is the most both the schema
    and the server take."""
    served = client.get("/api/rulesets/schema.json").get_json()
    assert {k: v for k, v in served.items() if not k.startswith("$s") and k != "$id"} \
        == json.loads(json.dumps(RulesetDocument.model_json_schema()))
    name = _resolve(served["properties"]["name"], served)
    assert name["properties"]["en"]["maxLength"] == 80 and name["required"] == ["en", "pl"]
    long = {**_document(client), "name": {"en": "a" * 81, "pl": "b"}}
    r = client.post("/api/rulesets", json=long)
    assert r.status_code == 422 and list(r.get_json()["errors"]) == ["name.en"]
    game = client.get("/api/schema/game.json").get_json()
    assert {s["$ref"] for s in game["properties"]["ruleset"]["anyOf"]} \
        == {"#/$defs/KierkiRuleset", "#/$defs/TybetRuleset"}


# -- every declared answer --------------------------------------------------------------

def _declared(document, path, method, status):
    answer = document["paths"][path][method]["responses"][status]
    return answer["content"]["application/json"]["schema"]


def test_every_declared_answer_is_what_the_server_answers(client):
    """Each answer of the ruleset and schema routes validates against the schema the
    OpenAPI document declares for it, and each path allows the methods it lists."""
    document = client.get("/api/openapi.json").get_json()
    made = client.post("/api/rulesets", json=_document(client))
    assert made.status_code == 201
    rid = made.get_json()["id"]
    answers = [
        ("/api/rulesets", "post", "201", made),
        ("/api/rulesets/schema.json", "get", "200", client.get("/api/rulesets/schema.json")),
        ("/api/schema/game.json", "get", "200", client.get("/api/schema/game.json")),
        ("/api/openapi.json", "get", "200", client.get("/api/openapi.json")),
        ("/api/rulesets", "get", "200", client.get("/api/rulesets")),
        ("/api/rulesets/{ruleset_id}", "get", "404", client.get("/api/rulesets/none")),
        ("/api/rulesets", "post", "422", client.post("/api/rulesets", json={"x": 1})),
    ]
    for listed in client.get("/api/rulesets").get_json():
        answers.append(("/api/rulesets/{ruleset_id}", "get", "200",
                         client.get(f"/api/rulesets/{listed['id']}")))
    assert {a[3].get_json()["id"] for a in answers[7:]} >= {"standard-4", "tybet-21", rid}
    for path, method, status, r in answers:
        assert r.status_code == int(status), (path, r.status_code)
        assert valid(r.get_json(), _declared(document, path, method, status), document), \
            (path, method, status)
    for path, methods in document["paths"].items():
        concrete = path.replace("{ruleset_id}", "standard-4").replace("{gid}", "x") \
            .replace("{number}", "1").replace("{pid}", "1").replace("{mid}", "1")
        allowed = client.open(concrete, method="OPTIONS").headers["Allow"]
        listed = {m.upper() for m in methods} | {"OPTIONS"}
        assert listed | ({"HEAD"} if "GET" in listed else set()) \
            == set(allowed.split(", ")), path


def test_an_export_is_valid_by_the_game_schema(client):
    """What the export writes, the game schema describes, its ruleset too."""
    schema = client.get("/api/schema/game.json").get_json()
    gid = new_game(client)
    post_deal(client, gid, 1, 1, {"tricks": [1, 2, 3, 7]})
    exported = json.loads(client.get(f"/games/{gid}/export.json").data)
    assert valid(exported, schema, schema)
    broken = {**exported, "ruleset": {**exported["ruleset"], "name": "plain"}}
    assert not valid(broken, schema, schema)
    r = client.post("/games/import", data={"file": (io.BytesIO(json.dumps(broken).encode()),
                                                    "x.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 422
