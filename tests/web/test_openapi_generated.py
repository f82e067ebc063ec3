"""The API's document is written from the URL map and the models: every route is an
operation with an operationId, every refusal the one ``Error`` component, every limit
the server checks a body by is in it (read from the same constants), and Schemathesis,
over every operation with real ids and tokens, finds no server error, no answer the
document does not describe and no schema-valid request refused."""
import re
import sys
import unicodedata

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis.core.failures import Failure, FailureGroup
from schemathesis.specs.openapi import checks

from scorekeeper import create_app
from scorekeeper.domain import clubs, tournaments
from scorekeeper.rules import checks as rules_checks
from scorekeeper.web import api_models, openapi
from tests.store.test_tournaments import TWELVE

PLAYERS = ["Ala", "Bolek", "Cela", "Darek"]


@pytest.fixture
def document(client):
    return client.get("/api/openapi.json").get_json()


def _operations(document):
    return [(path, method, op) for path, ops in document["paths"].items()
            for method, op in ops.items()]


def test_every_route_of_the_url_map_is_an_operation_with_an_id(app, document):
    documented = {(path, method) for path, method, _ in _operations(document)}
    assert documented == {(path, method) for path, method, _ in openapi.routes(app.url_map)}
    ids = [op["operationId"] for _, _, op in _operations(document)]
    assert len(ids) == len(set(ids)) == len(documented)


def test_a_route_the_document_does_not_know_cannot_be_written(app):
    app.add_url_rule("/api/forgotten", "api.forgotten", lambda: "")
    with app.app_context(), pytest.raises(KeyError, match="api.forgotten"):
        from scorekeeper.web.db import get_db
        openapi.document(app.url_map, get_db())


def test_every_refusal_is_the_one_error_component(document):
    assert "Error" in document["components"]["schemas"]
    for path, method, op in _operations(document):
        for code, answer in op["responses"].items():
            if code.startswith(("4", "5")) and path != "/healthz":
                schema = answer["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/Error"}, (path, method, code)


def test_the_limits_are_the_servers_constants(document):
    schemas = document["components"]["schemas"]
    tournament = schemas["NewTournament"]["oneOf"][0]["properties"]
    assert tournament["players"]["minItems"] == tournaments.MIN_PLAYERS
    assert tournament["players"]["maxItems"] == tournaments.MAX_PLAYERS
    assert tournament["rounds"]["maximum"] == tournaments.MAX_ROUNDS
    assert tournament["name"]["maxLength"] == tournaments.NAME_MAX
    assert tournament["players"]["items"]["maxLength"] == rules_checks.NAME_MAX
    assert schemas["NewClub"]["properties"]["name"]["maxLength"] == clubs.NAME_MAX
    page = document["paths"]["/api/rulesets"]["get"]["parameters"][0]["schema"]
    assert page["maximum"] == api_models.RULESETS_PAGES - 1
    games = schemas["NewGame"]["oneOf"]
    four = next(g for g in games if "standard-4" in g["properties"]["ruleset"]["enum"])
    assert four["properties"]["players"]["minItems"] == 4
    assert four["properties"]["first_dealer"]["anyOf"][0]["maximum"] == 3
    tybet = next(g for g in games if "tybet-21" in g["properties"]["ruleset"]["enum"])
    assert 21 in tybet["properties"]["target"]["anyOf"][0]["enum"]


def test_a_house_variant_is_offered_once_it_is_made(client):
    doc = client.get("/api/rulesets/standard-4").get_json()
    for key in ("id", "source", "expected_sum"):
        doc.pop(key)
    made = client.post("/api/rulesets", json={**doc, "name": {"en": "Ours", "pl": "Nasze"},
                                              "unbalanced": True}).get_json()["id"]
    schemas = client.get("/api/openapi.json").get_json()["components"]["schemas"]
    assert made in schemas["ClubChange"]["properties"]["default_ruleset"]["enum"]
    assert any(made in g["properties"]["ruleset"]["enum"]
               for g in schemas["NewGame"]["oneOf"])


def test_a_name_pattern_leaves_out_what_a_kept_name_drops():
    hidden = api_models.HIDDEN
    one = re.compile(f"[{hidden}]")
    for code in range(sys.maxunicode + 1):
        c = chr(code)
        if unicodedata.category(c) in ("Cc", "Cf", "Zs", "Zl", "Zp") or c.isspace():
            assert one.fullmatch(c), hex(code)
    pattern = re.compile(api_models.NAME_PATTERN)
    for name in ("Ala", "a b", "Żaneta Ó", "7"):
        assert pattern.search(name) and rules_checks.clean_name(name) == name
    for name in (" Ala", "Ala ", "\u200b", "\x07", ""):
        assert not pattern.search(name)


def test_a_whole_number_written_with_a_point_is_that_number(client):
    game = client.post("/api/games", json={"ruleset": "standard-4", "players": PLAYERS,
                                           "first_dealer": 0.0}).get_json()
    assert game["first_dealer"] == 0
    r = client.put(f"/api/games/{game['id']}/deals/1",
                   headers={"Authorization": f"Bearer {game['token']}"},
                   json={"version": 1.0, "result": {"tricks": [13.0, 0, 0, 0]}})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["deals"][0]["result"]["tricks"] == [13, 0, 0, 0]


# -- Schemathesis over every operation ----------------------------------------------------

#: Refused by the ruleset loader's rules across fields (the deck shared by the players, the
#: deals' totals), which the document states in words, not as a schema.
ACROSS_FIELDS = {"POST /api/rulesets"}

CHECKS = [schemathesis.checks.not_a_server_error, checks.status_code_conformance,
          checks.content_type_conformance, checks.response_schema_conformance,
          checks.response_headers_conformance]


def _same_people(body):
    """Whether a body names one person twice: names are told apart as people are (case and
    spacing aside, :func:`.checks.person_key`), which JSON Schema's ``uniqueItems`` does
    not state."""
    names = body.get("players") if isinstance(body, dict) else None
    if not isinstance(names, list):
        return False
    keys = [rules_checks.person_key(rules_checks.clean_name(n)) for n in names]
    return len(set(keys)) < len(keys)


def _fresh(client, part):
    """A new thing of the kind a path is under (a game, a tournament, a club, a house
    variant), its ids and its token: each request meets it as it was made."""
    if part == "games":
        game = client.post("/api/games", json={"ruleset": "standard-4", "players": PLAYERS,
                                               "first_dealer": 0}).get_json()
        return {"gid": game["id"], "number": 1}, game["token"]
    if part == "tournaments":
        night = client.post("/api/tournaments", json={
            "name": "Czwartek", "players": TWELVE, "rounds": 3,
            "rulesets": {"3": "standard-3", "4": "standard-4"}}).get_json()
        return {"tid": night["id"], "number": 1}, night["token"]
    if part == "clubs":
        club = client.post("/api/clubs", json={"name": "Klub"}).get_json()
        client.post("/api/join-club", json={"code": club["invite_code"]})
        member = client.get(f"/api/clubs/{club['id']}/members", headers={
            "Authorization": f"Bearer {club['token']}"}).get_json()[-1]
        return {"cid": club["id"], "mid": member["id"]}, club["token"]
    if part == "rulesets":
        doc = client.get("/api/rulesets/standard-4").get_json()
        for key in ("id", "source", "expected_sum"):
            doc.pop(key)
        variant = client.post("/api/rulesets", json={
            **doc, "name": {"en": "Ours", "pl": "Nasze"}, "unbalanced": True}).get_json()
        return {"ruleset_id": variant["id"]}, variant["token"]
    return {}, None


def _fuzz(client, operation, wanted, failures):
    """A few of Schemathesis's requests to ``operation``, their failures in ``failures``."""

    @given(case=operation.as_strategy())
    @settings(max_examples=6, deadline=None, phases=[Phase.explicit, Phase.generate],
              suppress_health_check=list(HealthCheck))
    def run(case):
        part = operation.path.split("/")[2] if operation.path.startswith("/api/") else ""
        ids, token = _fresh(client, part)
        ids["pid"] = client.get("/api/players").get_json()[0]["id"]
        for key in list(case.path_parameters or {}):
            case.path_parameters[key] = ids[key]
        headers = {"Accept-Encoding": "identity",
                   **({"Authorization": f"Bearer {token}"} if token else {})}
        response = case.call(headers=headers)
        told = wanted if not _same_people(case.body) else CHECKS
        try:
            case.validate_response(response, checks=told, headers=headers)
        except (FailureGroup, Failure) as e:
            failures.append(f"{operation.label}: {response.status_code} "
                            f"{response.text[:400]} {str(e)[:600]}")

    run()


@pytest.fixture
def unlimited(tmp_path):
    """The app without its rate limits: each request gets things of its own."""
    return create_app({"DATABASE": str(tmp_path / "fuzz.sqlite"), "SECRET_KEY": "test",
                       "TESTING": True, "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False,
                       "PDF_CACHE_DIR": str(tmp_path / "sheets")})


def test_schemathesis_finds_nothing_on_any_operation(unlimited):
    app, client = unlimited, unlimited.test_client()
    _fresh(client, "games")  # a person
    _fresh(client, "rulesets")  # a house variant, in the document
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    failures, seen = [], []
    for operation in (r.ok() for r in schema.get_all_operations()):
        seen.append(operation.label)
        wanted = CHECKS if operation.label in ACROSS_FIELDS \
            else [*CHECKS, checks.positive_data_acceptance]
        _fuzz(client, operation, wanted, failures)
    # (Schemathesis leaves out the path it read the document from.)
    assert set(seen) == {f"{method.upper()} {path}"
                         for path, method, _ in openapi.routes(app.url_map)
                         } - {"GET /api/openapi.json"}
    assert failures == []
