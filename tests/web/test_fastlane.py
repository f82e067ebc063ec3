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

from scorekeeper import access, queries, service, store
from scorekeeper.families import registry
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


# -- a write by another process ------------------------------------------------------
#
# The lane starts a deal from the newest game this process keeps (service.kept), without
# reading the version from the database; another process (a second server worker, the
# command line) may have written since. The database's compare-and-set on the version
# must then refuse the write, and Flask (which reads the database) answer it.

@pytest.fixture
def elsewhere(app):
    """A connection of another process to the app's database: what is written through it,
    the games this process keeps in memory do not hear of."""
    db = store.connect(app.config["DATABASE"])
    yield db
    db.conn.close()


@pytest.fixture
def spies(app, clients, monkeypatch):
    """What the lane started each deal from (the kept game's version) and how often it
    handed the request to Flask. (After ``clients``: the Flask-only client is not spied.)"""
    lane = app.wsgi_app
    seen_by = {"kept": [], "flask": 0}
    inner, kept = lane.wsgi_app, service.kept

    def flask(environ, start_response):
        seen_by["flask"] += 1
        return inner(environ, start_response)

    def spied_kept(gid):
        game = kept(gid)
        seen_by["kept"].append(None if game is None else game.version)
        return game

    monkeypatch.setattr(lane, "wsgi_app", flask)
    monkeypatch.setattr(service, "kept", spied_kept)
    return seen_by


def _game_elsewhere(db, gid):
    stored = queries.load_game(db, gid)
    family = registry.get(stored.family)
    rules = family.load_rules(stored.ruleset)
    return stored, family, rules, family.fold(rules, stored.settings, stored.results)


def _record_next(db, gid):
    stored, family, _, state = _game_elsewhere(db, gid)
    after = family.advance(state, RESULTS[len(stored.results)])
    store.record_deal(db, gid, len(stored.results) + 1, after.scored[-1].result,
                      stored.version, after.finished)


def _correct_deal_2(db, gid):
    stored, family, rules, _ = _game_elsewhere(db, gid)
    result = family.validate(rules, family.deal(rules, stored.settings, 2),
                             {"hearts": [5, 3, 4, 1]})
    store.replace_deal(db, gid, 2, result, stored.version, False)


def _undo(db, gid):
    store.remove_last_deal(db, gid, queries.game_version(db, gid))


def _rename_first_player(db, gid):
    person, name = db.conn.execute("select person_id, name from players "
                                   "where game_id = ? and seat = 0", [gid]).fetchone()
    if name != "Alicja":  # both games seat the same person: renamed in both at once
        store.rename_person(db, person, "Alicja")


#: What another process does to a game: each raises its version, and a write this
#: process starts from the game it kept would, without the database's version check,
#: store a deal on top of it (for an undo or a rename, without even a duplicate deal).
WRITES_ELSEWHERE = {"records the next deal": _record_next, "corrects deal 2": _correct_deal_2,
                    "undoes the last deal": _undo, "renames a player": _rename_first_player}


def in_db(db, gid):
    """The game as another process reads it: version, results, history rows, players."""
    stored = queries.load_game(db, gid)
    history = db.conn.execute("select number, action, result from deal_history "
                              "where game_id = ? order by rowid", [gid]).fetchall()
    return stored.version, stored.results, history, stored.players


def three_deals_each(clients):
    """Two games made alike, three deals entered: game a through the lane (so it is kept
    in memory at version 4), game b through Flask alone."""
    games = [new_game(client) for client in clients]
    for number, raw in enumerate(RESULTS[:3], start=1):
        for client, (gid, token) in zip(clients, games):
            r = put(client, gid, token, number, {"version": number, "result": raw})
            assert r.status_code == 200, r.data
    assert service.kept(games[0][0]).version == 4
    return games


def changed_elsewhere(clients, elsewhere, spies, write):
    """Two games with three deals each, then ``write`` done to both by another
    connection, as another process would: the database is at version 5, the game the
    lane keeps for game a still at 4. The spies start counting afresh."""
    games = three_deals_each(clients)
    for gid, _ in games:
        WRITES_ELSEWHERE[write](elsewhere, gid)
        assert in_db(elsewhere, gid)[0] == 5
    assert service.kept(games[0][0]).version == 4  # stale: the lane does not know of it
    spies["kept"].clear()
    spies["flask"] = 0
    return games


@pytest.mark.parametrize("write", WRITES_ELSEWHERE)
def test_a_write_from_a_game_another_process_changed_is_refused_as_flask_refuses_it(
        clients, elsewhere, spies, write):
    lane, flask = clients
    (a, ta), (b, tb) = changed_elsewhere(clients, elsewhere, spies, write)
    before = {gid: in_db(elsewhere, gid) for gid in (a, b)}

    body = {"version": 4, "result": RESULTS[3]}  # the next deal, as the kept game has it
    fast = put(lane, a, ta, 4, body, **{"Accept-Language": "pl", "Accept-Encoding": "gzip"})
    assert spies["kept"] == [4]  # the lane started from the stale game...
    assert spies["flask"] == 1  # ...and, refused by the database, left the answer to Flask
    slow = put(flask, b, tb, 4, body, **{"Accept-Language": "pl", "Accept-Encoding": "gzip"})
    assert fast.status_code == slow.status_code == 409
    assert seen(fast) == seen(slow)
    assert seen(fast)[2]["version"] == 5  # the version the database has
    for gid in (a, b):
        assert in_db(elsewhere, gid) == before[gid]  # nothing stored


@pytest.mark.parametrize("write", WRITES_ELSEWHERE)
def test_a_write_at_the_version_another_process_wrote_is_accepted_with_its_change(
        clients, elsewhere, spies, write):
    lane, flask = clients
    (a, ta), (b, tb) = changed_elsewhere(clients, elsewhere, spies, write)
    _, results, _, players = in_db(elsewhere, a)

    number = len(results) + 1
    body = {"version": 5, "result": RESULTS[number - 1]}
    fast, slow = put(lane, a, ta, number, body), put(flask, b, tb, number, body)
    assert spies["kept"] == [4] and spies["flask"] == 1  # stale: Flask read the database
    assert fast.status_code == slow.status_code == 200
    game = fast.get_json()
    assert game["version"] == 6
    assert [d["result"] for d in game["deals"]] == [*results, RESULTS[number - 1]]
    assert [p["name"] for p in game["players"]] == players  # the other process's change
    assert seen(fast) == seen(slow)
    assert in_db(elsewhere, a)[:2] == (6, [*results, game["deals"][-1]["result"]])

    # Flask's answer kept the game as the database has it: the next deal is the lane's.
    assert service.kept(a).version == 6
    spies["flask"] = 0
    body = {"version": 6, "result": RESULTS[number]}
    fast, slow = put(lane, a, ta, number + 1, body), put(flask, b, tb, number + 1, body)
    assert spies["kept"][-1] == 6 and spies["flask"] == 0  # answered by the lane itself
    assert fast.status_code == slow.status_code == 200
    assert fast.get_json()["version"] == 7
    assert [d["result"] for d in fast.get_json()["deals"]][:len(results)] == results


@pytest.mark.parametrize("deleted_by", ["another process", "this app"])
def test_a_write_to_a_game_deleted_meanwhile_is_not_found_and_stores_nothing(
        clients, elsewhere, spies, deleted_by):
    lane, flask = clients
    (a, ta), (b, tb) = three_deals_each(clients)
    for client, (gid, token) in zip(clients, [(a, ta), (b, tb)]):
        if deleted_by == "another process":
            store.delete_game(elsewhere, gid, 4)
        else:
            r = client.delete(f"/api/games/{gid}", json={"version": 4, "confirm": True},
                              headers={"Authorization": f"Bearer {token}"})
            assert r.status_code == 204
    if deleted_by == "another process":
        assert service.kept(a).version == 4  # the lane still keeps the game
    spies["kept"].clear()
    spies["flask"] = 0

    body = {"version": 4, "result": RESULTS[3]}
    fast, slow = put(lane, a, ta, 4, body), put(flask, b, tb, 4, body)
    assert spies["flask"] == 1  # the lane left it to Flask
    assert fast.status_code == slow.status_code == 404
    assert seen(fast) == seen(slow)
    for gid in (a, b):
        for table, column in [("games", "id"), ("deals", "game_id"), ("players", "game_id"),
                              ("deal_history", "game_id")]:
            assert elsewhere.conn.execute(f"select count(*) from {table} where {column} = ?",
                                          [gid]).fetchone()[0] == 0, table
        assert lane.get(f"/api/games/{gid}").status_code == 404


@pytest.mark.parametrize("language", ["pl", "en"])
def test_words_never_written_yet_are_answered_by_the_lane_in_the_players_language(
        app, clients, spies, language):
    """The lane answers without an app context; the schedule's deal names are made once
    per language with flask-babel, which needs one: a server that has not written them
    yet (just started, or another language) still answers from the lane, in the player's
    language, as Flask does."""
    from scorekeeper.families.kierki import family as kierki

    lane, flask = clients
    a, ta = new_game(lane)
    b, tb = new_game(lane)
    kierki._SCHEDULES.clear()
    body = {"version": 1, "result": RESULTS[0]}
    before = spies["flask"]  # the games were made through Flask
    fast = put(lane, a, ta, 1, body, **{"Accept-Language": language})
    assert spies["flask"] == before  # the lane answered
    slow = put(flask, b, tb, 1, body, **{"Accept-Language": language})
    assert seen(fast) == seen(slow)
    names = [d["name"] for d in fast.get_json()["schedule"]]
    assert names[0] == ("Bez lew" if language == "pl" else "No tricks")


def test_words_are_written_in_the_requests_language_inside_another_apps_context(app, clients):
    """A caller that already holds an app context (a test, a command) speaking another
    language, or none: the lane's words are still the request's, and what it keeps for
    later requests too."""
    from scorekeeper.families.kierki import family as kierki

    lane, _ = clients
    a, ta = new_game(lane)
    b, tb = new_game(lane)
    kierki._SCHEDULES.clear()
    body = {"version": 1, "result": RESULTS[0]}
    with app.test_request_context(headers={"Accept-Language": "en"}):
        inside = put(lane, a, ta, 1, body, **{"Accept-Language": "pl"})
    later = put(lane, b, tb, 1, body, **{"Accept-Language": "pl"})
    assert inside.get_json()["schedule"][0]["name"] == "Bez lew"
    assert later.get_json()["schedule"][0]["name"] == "Bez lew"
    kierki._SCHEDULES.clear()
    c, tc = new_game(lane)
    with app.app_context():
        bare = put(lane, c, tc, 1, body, **{"Accept-Language": "pl"})
    assert bare.status_code == 200 and bare.get_json()["schedule"][0]["name"] == "Bez lew"
