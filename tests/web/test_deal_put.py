"""The deal PUT is answered by its Flask view, as every request is: refusals in the
player's language, a write made meanwhile by another process met as on any phone."""
import json

import pytest

from scorekeeper.families.kierki.rules import get_ruleset
from scorekeeper.web import api
from tests.fixtures import results_for
from tests.web.test_fresh_reads import enter_in_another_process

RESULTS = results_for(get_ruleset("standard-4"))
PLAYERS = ["Ala", "Bożena", "Czesław", "<b>Żaneta</b>"]


@pytest.fixture
def flask_calls(app, monkeypatch):
    """How many requests reached the Flask view of the deal PUT."""
    calls = []
    view = app.view_functions["api.put_deal"]
    monkeypatch.setitem(app.view_functions, "api.put_deal",
                        lambda **kw: calls.append(kw) or view(**kw))
    return calls


def new_game(client):
    r = client.post("/api/games", json={"ruleset": "standard-4", "players": PLAYERS,
                                        "first_dealer": 2})
    assert r.status_code == 201
    return r.get_json()["id"], r.get_json()["token"]


def put(client, gid, token, number, body, **headers):
    return client.put(f"/api/games/{gid}/deals/{number}", data=json.dumps(body),
                      headers={"Content-Type": "application/json",
                               "Authorization": f"Bearer {token}", **headers})


def test_every_deal_put_reaches_the_flask_view(app, client, flask_calls):
    gid, token = new_game(client)
    for n, result in enumerate(RESULTS[:3], start=1):
        r = put(client, gid, token, n, {"version": n, "result": result})
        assert r.status_code == 200 and r.get_json()["version"] == n + 1
    assert len(flask_calls) == 3
    assert put(client, gid, "wrong", 4, {"version": 4, "result": RESULTS[3]}) \
        .status_code == 403
    assert len(flask_calls) == 4


def test_a_refused_deal_is_told_in_the_players_language(client):
    gid, token = new_game(client)
    wrong = {**RESULTS[0], "tricks": [13, 1, 0, 0]}
    r = put(client, gid, token, 1, {"version": 1, "result": wrong}, **{"Accept-Language": "pl"})
    assert r.status_code == 422
    assert r.get_json()["error"] == "Dane odrzucono."


@pytest.mark.parametrize("language", ["pl", "en"])
def test_the_answer_speaks_the_requests_language(client, language):
    gid, token = new_game(client)
    r = put(client, gid, token, 1, {"version": 1, "result": RESULTS[0]},
            **{"Accept-Language": language})
    assert r.get_json()["schedule"][0]["name"] == \
        ("Bez lew" if language == "pl" else "No tricks")


def test_a_body_that_is_not_a_json_object_is_refused(client):
    gid, token = new_game(client)
    r = client.put(f"/api/games/{gid}/deals/1", data="[1]",
                   headers={"Content-Type": "application/json",
                            "Authorization": f"Bearer {token}"})
    assert r.status_code == 422 and "error" in r.get_json()
    r = client.put(f"/api/games/{gid}/deals/1", data="{",
                   headers={"Content-Type": "application/json",
                            "Authorization": f"Bearer {token}"})
    assert r.status_code == 400


def test_a_bug_behind_the_view_is_not_hidden(app, client, monkeypatch):
    gid, token = new_game(client)

    def broken(game, *rest):
        raise RuntimeError("a bug in the answer")

    monkeypatch.setattr(api, "game_json", broken)
    with pytest.raises(RuntimeError, match="a bug in the answer"):
        put(client, gid, token, 1, {"version": 1, "result": RESULTS[0]})


def test_a_deal_entered_by_another_process_meanwhile_is_met_as_on_any_phone(app, client):
    """Another process wrote deal 2 meanwhile: deal 3 is stored on top of it, a stale
    deal 3 is told 409 with the version there is now; nothing is lost or stored twice."""
    gid, token = new_game(client)
    assert put(client, gid, token, 1, {"version": 1, "result": RESULTS[0]}).status_code == 200
    enter_in_another_process(app.config["DATABASE"], gid, 2, 2)  # version 3 elsewhere

    r = put(client, gid, token, 3, {"version": 3, "result": RESULTS[2]})
    assert r.status_code == 200
    game = r.get_json()
    assert game["version"] == 4 and [d["number"] for d in game["deals"]] == [1, 2, 3]
    again = put(client, gid, token, 3, {"version": 3, "result": RESULTS[2]})
    assert again.status_code == 409 and again.get_json()["version"] == 4
