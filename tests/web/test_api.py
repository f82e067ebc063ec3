"""The JSON API: same service, 422 with per-field messages, 409 on a stale version."""
import re

from scorekeeper.families.kierki.rules import get_ruleset
from tests.fixtures import results_for


def create(client, **body):
    body = {"ruleset": "standard-4", "players": ["Ala", "Bolek", "Cela", "Darek"],
            "first_dealer": 1, **body}
    r = client.post("/api/games", json=body)
    if r.status_code == 201:  # this client is now the game's table: it writes with the token
        client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {r.get_json()['token']}"
    return r


def test_rulesets_are_listed_with_their_sums(client):
    data = client.get("/api/rulesets").get_json()
    by_id = {r["id"]: r for r in data}
    assert by_id["standard-4"]["deals"] == 12 and by_id["standard-3"]["deals"] == 11
    assert by_id["kurnik-3"]["expected_sum"] == -255
    assert [d["expected_sum"] for d in by_id["standard-4"]["schedule"]][:7] == \
        [-260, -260, -240, -240, -150, -150, -1300]


def test_create_and_play_a_whole_game(client):
    r = create(client)
    assert r.status_code == 201
    game = r.get_json()
    gid = game["id"]
    assert r.headers["Location"].endswith(f"/api/games/{gid}")
    assert game["schedule"][0]["dealer"] == 1 and game["schedule"][0]["leader"] == 2
    assert game["current_deal"] == 1 and game["finished"] is False
    for number, raw in enumerate(results_for(get_ruleset("standard-4")), start=1):
        r = client.put(f"/api/games/{gid}/deals/{number}",
                       json={"version": game["version"], "result": raw})
        assert r.status_code == 200, r.get_json()
        game = r.get_json()
    assert game["finished"] is True and game["sum"] == 0 == game["expected_sum"]
    assert game["totals"] == client.get(f"/api/games/{gid}").get_json()["totals"]
    assert game["winners"] == [1]
    assert game["deals"][6]["points"][0] == -1300  # seat 0 took the whole robber


def test_invalid_deal_is_422_with_field_messages_and_changes_nothing(client):
    game = create(client).get_json()
    r = client.put(f"/api/games/{game['id']}/deals/1",
                   json={"version": game["version"], "result": {"tricks": [5, 5, 5, 5]}})
    assert r.status_code == 422
    assert r.get_json()["errors"] == {"tricks": ["These must add up to 13; they add up to 20."]}
    after = client.get(f"/api/games/{game['id']}").get_json()
    assert after["version"] == game["version"] and after["deals"] == []


def test_messages_follow_the_language(client):
    game = create(client).get_json()
    r = client.put(f"/api/games/{game['id']}/deals/1", headers={"Accept-Language": "pl"},
                   json={"version": game["version"], "result": {"tricks": [1, 1, 1, 1]}})
    assert r.status_code == 422
    assert r.get_json()["errors"]["tricks"][0].startswith("Suma musi wynosić 13")


def test_bad_bodies_are_422(client):
    assert create(client, players="Ala").status_code == 422
    assert create(client, ruleset="nope").get_json()["errors"]["ruleset"]
    r = create(client, players=["Ala", "Ala", "", "x" * 41])
    assert set(r.get_json()["errors"]) == {"players.1", "players.2", "players.3"}
    gid = create(client).get_json()["id"]
    assert client.put(f"/api/games/{gid}/deals/1", json={"version": 1}).status_code == 422
    r = client.put(f"/api/games/{gid}/deals/1", data="not json")
    assert r.status_code == 415 and r.get_json()["error"]
    r = client.put(f"/api/games/{gid}/deals/1", data="{not json", content_type="application/json")
    assert r.status_code == 400 and r.get_json()["error"]
    r = client.put(f"/api/games/{gid}/deals/1", json=[1, 2])
    assert r.status_code == 422
    assert client.get("/api/games/doesnotexist").status_code == 404


def test_two_phones_same_deal_second_gets_409(client):
    game = create(client).get_json()
    url = f"/api/games/{game['id']}/deals/1"
    first = client.put(url, json={"version": game["version"], "result": {"tricks": [13, 0, 0, 0]}})
    second = client.put(url, json={"version": game["version"], "result": {"tricks": [0, 13, 0, 0]}})
    assert first.status_code == 200 and second.status_code == 409
    assert "already entered" in second.get_json()["error"]
    assert second.get_json()["version"] == first.get_json()["version"]
    assert client.get(f"/api/games/{game['id']}").get_json()["deals"][0]["points"] == \
        [-260, 0, 0, 0]


def test_edit_a_past_deal_and_undo(client):
    game = create(client).get_json()
    gid = game["id"]
    game = client.put(f"/api/games/{gid}/deals/1", json={
        "version": game["version"], "result": {"tricks": [13, 0, 0, 0]}}).get_json()
    game = client.put(f"/api/games/{gid}/deals/2", json={
        "version": game["version"], "result": {"hearts": [0, 13, 0, 0]}}).get_json()
    game = client.put(f"/api/games/{gid}/deals/1", json={
        "version": game["version"], "result": {"tricks": [0, 0, 13, 0]}}).get_json()
    assert game["totals"] == [0, -260, -260, 0]
    r = client.post(f"/api/games/{gid}/undo", json={"version": game["version"]})
    assert r.status_code == 200 and r.get_json()["current_deal"] == 2
    r = client.post(f"/api/games/{gid}/undo", json={"version": game["version"]})
    assert r.status_code == 409


def test_openapi_document_names_every_route_and_answer(app, client):
    doc = client.get("/api/openapi.json").get_json()
    assert doc["openapi"].startswith("3.")
    routes = {(re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule), method)
              for rule in app.url_map.iter_rules()
              if rule.rule.startswith("/api/") or rule.rule == "/healthz"
              for method in rule.methods - {"HEAD", "OPTIONS"}}
    documented = {(path, method.upper()) for path, ops in doc["paths"].items() for method in ops}
    assert routes == documented
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            codes = set(op["responses"])
            assert {"405", "500"} <= codes, (path, method)
            if "requestBody" in op:
                assert {"400", "413", "415", "422"} <= codes, (path, method)
            if "{gid}" in path:
                assert "404" in codes, (path, method)
            if op.get("security"):
                assert {"401", "403"} <= codes, (path, method)
            if (method in ("put", "delete") or path.endswith("/undo")) \
                    and "/members/" not in path:  # removing a member meets no version
                assert "409" in codes, (path, method)


def test_every_api_error_is_json_and_matches_the_document(client):
    gid = create(client).get_json()["id"]
    cases = [
        (client.get, "/api/nothing-here", {}, 404),
        (client.delete, "/api/rulesets", {}, 405),
        (client.post, "/api/games", {"data": "x", "content_type": "text/plain"}, 415),
        (client.post, "/api/games", {"data": "{", "content_type": "application/json"}, 400),
        (client.post, "/api/games", {"data": "[" * 5000 + "]" * 5000,
                                     "content_type": "application/json"}, 400),
        (client.post, "/api/games", {"json": {"ruleset": "standard-4"}}, 422),
        (client.put, f"/api/games/{gid}/deals/1",
         {"json": {"version": True, "result": {"tricks": [13, 0, 0, 0]}}}, 422),
        (client.post, "/api/games", {"data": b"{" + b" " * (3 * 1024 * 1024) + b"}",
                                     "content_type": "application/json"}, 413),
    ]
    for call, url, kwargs, status in cases:
        r = call(url, **kwargs)
        assert r.status_code == status, (url, r.status_code, r.data[:200])
        assert r.is_json and r.get_json()["error"], url
    assert client.get(f"/api/games/{gid}").get_json()["version"] == 1
