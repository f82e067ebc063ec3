"""The deal PUT answered before Flask (fastlane.py) answers as Flask does, and leaves
everything unusual to Flask, body included.

Each comparison plays the same deals into two games made alike, one through the whole
app (where the fast lane answers) and one through Flask alone (the app behind the
lane), and compares what a client sees: the status, the headers, the JSON.
"""
import gzip
import json

import pytest
from werkzeug.test import Client

from scorekeeper import access
from scorekeeper.families.kierki.rules import get_ruleset
from tests.fixtures import results_for

RESULTS = results_for(get_ruleset("standard-4"))
PLAYERS = ["Ala", "Bożena", "Czesław", "<b>Żaneta</b>"]


@pytest.fixture
def clients(app):
    """(through the app, through Flask alone)."""
    lane = app.wsgi_app
    assert type(lane).__name__ == "FastLane"  # the app's outermost middleware
    return app.test_client(), Client(lane.wsgi_app)


def new_game(client):
    r = client.post("/api/games", json={"ruleset": "standard-4", "players": PLAYERS,
                                        "first_dealer": 2})
    assert r.status_code == 201
    return r.get_json()["id"], r.get_json()["token"]


def put(client, gid, token, number, body, **headers):
    return client.put(f"/api/games/{gid}/deals/{number}", data=json.dumps(body),
                      headers={"Content-Type": "application/json",
                               "Authorization": f"Bearer {token}", **headers})


def seen(r):
    """What a client reads of an answer: its status, its headers, its JSON."""
    body = r.data
    if r.headers.get("Content-Encoding") == "gzip":
        body = gzip.decompress(body)
    data = json.loads(body)
    if isinstance(data, dict):
        data.pop("id", None)  # the two games' own ids
    return r.status_code, sorted((k, v) for k, v in r.headers.items()
                                 if k not in ("Content-Length",)), data


@pytest.mark.parametrize("headers", [
    {"Accept-Encoding": "gzip", "Accept-Language": "pl-PL,pl;q=0.9"},
    {"Accept-Language": "en"},
    {"Accept-Encoding": "gzip, deflate", "Accept-Language": "en", "lang": "pl"},
])
def test_a_whole_game_is_answered_as_flask_answers_it(app, clients, headers):
    lane, flask = clients
    headers = dict(headers)
    chosen = headers.pop("lang", None)  # the language chosen on the page, over the browser's
    for client in clients if chosen else ():
        client.set_cookie("lang", chosen)
    polish = chosen == "pl" or (chosen is None and "pl" in headers.get("Accept-Language", ""))
    watcher = Pokes()
    app.extensions["live"] = watcher
    a, ta = new_game(lane)
    b, tb = new_game(lane)
    for number, raw in enumerate(RESULTS, start=1):
        body = {"version": number, "result": raw}
        fast, slow = put(lane, a, ta, number, body, **headers), \
            put(flask, b, tb, number, body, **headers)
        assert fast.status_code == 200
        assert seen(fast) == seen(slow)
    assert watcher.pokes == 2 * len(RESULTS)  # the live table heard of every deal
    final = seen(fast)[2]
    assert final["finished"] is True and final["sum"] == 0
    name = final["ruleset"]["name"]
    assert (name != get_ruleset("standard-4").name("en")) == polish
    assert final["players"][3]["name"] == "<b>Żaneta</b>"  # data, as typed


class Pokes:
    def __init__(self):
        self.pokes = 0

    def poke(self):
        self.pokes += 1


def refusals(gid, token):
    """(what is sent, the status Flask answers) for everything the lane leaves to it."""
    good = {"version": 1, "result": RESULTS[0]}
    wrong = {"version": 1, "result": {**RESULTS[0], "tricks": [13, 1, 0, 0]}}
    return [
        ({"body": wrong}, 422),
        ({"body": {"version": 2, "result": RESULTS[0]}}, 409),
        ({"body": {"version": "1", "result": RESULTS[0]}}, 422),
        ({"body": {"version": True, "result": RESULTS[0]}}, 422),
        ({"body": {"version": 1}}, 422),
        ({"body": [1, 2]}, 422),
        ({"body": good, "token": "nope"}, 403),
        ({"body": good, "token": ""}, 401),
        ({"body": good, "gid": "NoSuchGame123"}, 404),
        ({"body": good, "number": 5}, 422),
        ({"raw": b"{not json", "ctype": "application/json"}, 400),
        ({"body": good, "ctype": "text/plain"}, 415),
    ]


@pytest.mark.parametrize("case", range(12))
def test_what_the_lane_leaves_to_flask_is_answered_by_flask_and_stores_nothing(
        app, clients, case):
    lane, flask = clients
    results = []
    for client in (lane, flask):
        gid, token = new_game(client)
        sent, status = refusals(gid, token)[case]
        headers = {"Content-Type": sent.get("ctype", "application/json"),
                   "Accept-Language": "pl", "Accept-Encoding": "gzip"}
        if sent.get("token", token):
            headers["Authorization"] = f"Bearer {sent.get('token', token)}"
        r = client.put(f"/api/games/{sent.get('gid', gid)}/deals/{sent.get('number', 1)}",
                       data=sent.get("raw") or json.dumps(sent["body"]), headers=headers)
        assert r.status_code == status, r.data
        game = client.get(f"/api/games/{gid}").get_json()
        assert game["version"] == 1 and game["deals"] == []  # nothing stored
        results.append(seen(r) if r.mimetype == "application/json" else
                       (r.status_code, r.data))
    assert results[0] == results[1]


def test_a_refused_deal_is_told_in_the_players_language(clients):
    lane, _ = clients
    gid, token = new_game(lane)
    wrong = {**RESULTS[0], "tricks": [13, 1, 0, 0]}
    r = put(lane, gid, token, 1, {"version": 1, "result": wrong}, **{"Accept-Language": "pl"})
    assert r.status_code == 422
    assert r.get_json()["error"] == "Dane odrzucono."


def test_the_token_is_the_games_own(app, clients):
    """A token of another game opens nothing, before Flask or after."""
    lane, _ = clients
    gid, _ = new_game(lane)
    _, other_token = new_game(lane)
    r = put(lane, gid, other_token, 1, {"version": 1, "result": RESULTS[0]})
    assert r.status_code == 403
    with app.app_context():
        assert access.may_write(f"Bearer {access.token(gid)}", gid)
        assert not access.may_write(f"Bearer {other_token}", gid)
        assert not access.may_write(f"Basic {access.token(gid)}", gid)
