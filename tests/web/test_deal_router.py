"""The deal PUT's thin router (api.DealRouter) answers as the Flask view does, with the
same function, and leaves every refusal to Flask, body included.

Each comparison plays the same deals into two games made alike, one through the whole
app (where the router answers) and one through Flask alone (the app behind the router),
and compares what a client sees: the status, the headers, the JSON.
"""
import json

import pytest
from werkzeug.test import Client

from scorekeeper.domain import bus
from scorekeeper.domain.events import DealRecorded
from scorekeeper.families.kierki.rules import get_ruleset
from scorekeeper.web import api, caches, pipeline
from tests.fixtures import results_for

RESULTS = results_for(get_ruleset("standard-4"))
PLAYERS = ["Ala", "Bożena", "Czesław", "<b>Żaneta</b>"]


def _router(app):
    wsgi = app.wsgi_app
    while not isinstance(wsgi, api.DealRouter):
        wsgi = wsgi.wsgi_app
    return wsgi


@pytest.fixture
def clients(app):
    """(through the app, through Flask alone: the same layers in front, no router)."""
    return app.test_client(), Client(pipeline.Pipeline(app, _router(app).wsgi_app))


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


def seen(r):
    """What a client reads of an answer: its status, its headers, its JSON."""
    data = json.loads(r.data)
    if isinstance(data, dict):
        data.pop("id", None)  # the two games' own ids
    return r.status_code, sorted(r.headers.items()), data


@pytest.mark.parametrize("headers", [
    {"Accept-Encoding": "gzip", "Accept-Language": "pl-PL,pl;q=0.9"},
    {"Accept-Language": "en"},
    {"Accept-Encoding": "gzip, deflate", "Accept-Language": "en", "lang": "pl"},
])
def test_a_whole_game_is_answered_as_flask_answers_it(app, clients, flask_calls, headers):
    routed, flask = clients
    headers = dict(headers)
    chosen = headers.pop("lang", None)  # the language chosen on the page, over the browser's
    for client in clients if chosen else ():
        client.set_cookie("lang", chosen)
    polish = chosen == "pl" or (chosen is None and "pl" in headers.get("Accept-Language", ""))
    a, ta = new_game(routed)
    b, tb = new_game(routed)
    told = []
    stop = bus.subscribe(DealRecorded, told.append)  # what the live table hears
    for number, raw in enumerate(RESULTS, start=1):
        body = {"version": number, "result": raw}
        fast, slow = put(routed, a, ta, number, body, **headers), \
            put(flask, b, tb, number, body, **headers)
        assert fast.status_code == 200
        assert seen(fast) == seen(slow)
    assert len(flask_calls) == len(RESULTS)  # Flask answered the second game's deals only
    stop()
    assert len(told) == 2 * len(RESULTS)  # the live table heard of every deal, either way
    final = seen(fast)[2]
    assert final["finished"] is True and final["sum"] == 0
    name = final["ruleset"]["name"]
    assert (name != get_ruleset("standard-4").name("en")) == polish
    assert final["schedule"][0]["name"] == ("Bez lew" if polish else "No tricks")
    assert final["players"][3]["name"] == "<b>Żaneta</b>"  # data, as typed


def refusals(gid, token):
    """(what is sent, the status Flask answers) for everything the router leaves to it."""
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
        ({"raw": b"[" * 5000, "ctype": "application/json"}, 400),
        ({"body": good, "ctype": "text/plain"}, 415),
    ]


@pytest.mark.parametrize("case", range(13))
def test_what_the_router_leaves_to_flask_is_answered_by_flask_and_stores_nothing(
        app, clients, flask_calls, case):
    results = []
    for client in clients:
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
    assert len(flask_calls) == 2 or status == 415  # both answered by the view


def test_a_refused_deal_is_told_in_the_players_language(clients):
    routed, _ = clients
    gid, token = new_game(routed)
    wrong = {**RESULTS[0], "tricks": [13, 1, 0, 0]}
    r = put(routed, gid, token, 1, {"version": 1, "result": wrong}, **{"Accept-Language": "pl"})
    assert r.status_code == 422
    assert r.get_json()["error"] == "Dane odrzucono."


@pytest.mark.parametrize("language", ["pl", "en"])
def test_words_never_written_yet_are_the_requests_even_inside_another_context(
        app, clients, language):
    """The schedule's deal names are written once per language with flask-babel: a
    server that has not written them yet answers in the player's language, also when the
    caller already holds an app context of its own (a test, a command)."""
    routed, _ = clients
    gid, token = new_game(routed)
    caches.clear()
    with app.test_request_context(headers={"Accept-Language": "en" if language == "pl"
                                           else "pl"}):
        inside = put(routed, gid, token, 1, {"version": 1, "result": RESULTS[0]},
                     **{"Accept-Language": language})
    assert inside.get_json()["schedule"][0]["name"] == \
        ("Bez lew" if language == "pl" else "No tricks")


def test_a_bug_behind_the_router_is_not_hidden(app, clients, monkeypatch):
    """Only the refusals the service defines go to Flask: anything else is the server's
    error, logged and answered by it, never retried quietly."""
    routed, _ = clients
    gid, token = new_game(routed)

    def broken(game, *rest):
        raise RuntimeError("a bug in the answer")

    monkeypatch.setattr(api, "game_json", broken)
    with pytest.raises(RuntimeError, match="a bug in the answer"):
        put(routed, gid, token, 1, {"version": 1, "result": RESULTS[0]})


def test_a_debugging_server_answers_as_its_flask_does(app, clients, flask_calls):
    """Flask writes indented JSON while debugging: the router leaves it the deal."""
    app.debug = True
    routed, flask = clients
    a, ta = new_game(routed)
    b, tb = new_game(routed)
    fast = put(routed, a, ta, 1, {"version": 1, "result": RESULTS[0]})
    slow = put(flask, b, tb, 1, {"version": 1, "result": RESULTS[0]})
    assert fast.status_code == 200 and len(flask_calls) == 2
    assert fast.data.replace(a.encode(), b"") == slow.data.replace(b.encode(), b"")
    assert b"\n  " in fast.data


def test_a_deal_entered_by_another_process_meanwhile_is_met_as_on_any_phone(
        app, clients):
    """Another process wrote meanwhile: the router reads the game afresh, so the next deal
    is stored, a stale one is told 409 with the version there is now, nothing is lost or
    stored twice."""
    from tests.web.test_caches import enter_in_another_process

    through, _ = clients
    gid, token = new_game(through)
    assert put(through, gid, token, 1, {"version": 1, "result": RESULTS[0]}).status_code == 200
    enter_in_another_process(app.config["DATABASE"], gid, 2, 2)  # version 3 elsewhere

    r = put(through, gid, token, 3, {"version": 3, "result": RESULTS[2]})
    assert r.status_code == 200
    game = r.get_json()
    assert game["version"] == 4 and [d["number"] for d in game["deals"]] == [1, 2, 3]
    again = put(through, gid, token, 3, {"version": 3, "result": RESULTS[2]})
    assert again.status_code == 409 and again.get_json()["version"] == 4
    r = put(through, gid, token, 4, {"version": 4, "result": RESULTS[3]})
    assert r.status_code == 200
    assert [d["number"] for d in r.get_json()["deals"]] == [1, 2, 3, 4]
