"""The tournament API as a club's own program uses it (issue 27 item 7): create with round
1 drawn, read the rounds and standings (the tables' tokens for the director alone), draw the
next round only when every table has finished (409 before), late arrivals and withdrawals,
401/403 without the director's token, and every answer as the OpenAPI document says."""
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from scorekeeper.families.kierki.rules.rulesets import get_ruleset
from scorekeeper.rules.draw import table_sizes
from scorekeeper.rules.errors import InvalidInput
from scorekeeper.web import limits
from scorekeeper.web.db import get_db
from tests.store.test_tournaments import TWELVE, bad_evening_for, finish
from tests.web.test_limits import first
from tests.web.test_schemas import valid

BODY = {"name": "Czwartek w klubie", "players": TWELVE, "rounds": 2,
        "rulesets": {"4": "standard-4"}, "seed": "klub"}


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def made(client):
    answer = client.post("/api/tournaments", json=BODY)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def play_table(client, table):
    """A table plays its whole game through the games API, with its token."""
    gid = table["game"]
    version = client.get(f"/api/games/{gid}").get_json()["version"]
    for number, raw in enumerate(bad_evening_for(table["ruleset"], 0), start=1):
        answer = client.put(f"/api/games/{gid}/deals/{number}", headers=bearer(table["token"]),
                            json={"result": raw, "version": version})
        assert answer.status_code == 200, answer.get_json()
        version = answer.get_json()["version"]


def test_create_draws_round_one_and_gives_the_director_its_token(client, made):
    assert set(made) >= {"id", "token", "round"}
    tables = made["round"]["tables"]
    assert made["round"]["number"] == 1 and len(tables) == 3
    assert sorted(n for t in tables for n in t["players"]) == sorted(TWELVE)
    for table in tables:  # each table's game exists, its players seated in that order
        game = client.get(f"/api/games/{table['game']}").get_json()
        assert [p["name"] for p in game["players"]] == table["players"]
        assert game["first_dealer"] == table["first_dealer"]


def test_reading_shows_tokens_to_the_director_alone(client, made):
    tid = made["id"]
    public = client.get(f"/api/tournaments/{tid}").get_json()
    assert public["name"] == BODY["name"] and len(public["rounds"]) == 1
    assert all("token" not in t and "join_code" not in t for t in public["rounds"][0]["tables"])
    assert [s["rank"] for s in public["standings"]] == [1] * 12  # nothing finished yet
    director = client.get(f"/api/tournaments/{tid}", headers=bearer(made["token"])).get_json()
    assert all(t["token"] for t in director["rounds"][0]["tables"])
    assert client.get(f"/api/tournaments/{tid}", headers=bearer("x" * 40)).status_code == 403
    assert client.get("/api/tournaments/nope").status_code == 404


def test_the_next_round_waits_for_every_table(client, made):
    tid, token = made["id"], made["token"]
    no_token = client.post(f"/api/tournaments/{tid}/rounds")
    assert no_token.status_code == 401 and "director's token" in no_token.get_json()["error"]
    assert client.post(f"/api/tournaments/{tid}/rounds",
                       headers=bearer("x" * 40)).status_code == 403
    first, *others = made["round"]["tables"]
    play_table(client, first)
    early = client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(token))
    assert early.status_code == 409 and "Round 1" in early.get_json()["error"]
    assert len(client.get(f"/api/tournaments/{tid}").get_json()["rounds"]) == 1
    for table in others:
        play_table(client, table)
    drawn = client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(token),
                        json={"number": 2})
    assert drawn.status_code == 201 and drawn.get_json()["number"] == 2
    again = client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(token),
                        json={"number": 2})
    assert again.status_code == 409  # the same request twice draws once
    state = client.get(f"/api/tournaments/{tid}").get_json()
    assert len(state["rounds"]) == 2
    standings = state["standings"]
    assert sum(s["points"] for s in standings) == 0 and all(s["games"] == 1 for s in standings)
    losers = {t["players"][0] for t in made["round"]["tables"]}  # seat 0 lost every game
    assert {s["player"] for s in standings[-3:]} == losers


def test_late_arrival_and_withdrawal_need_the_director(client):
    body = {**BODY, "rulesets": {"4": "standard-4", "3": "standard-3"}}
    made = client.post("/api/tournaments", json=body).get_json()
    tid, token = made["id"], made["token"]
    assert client.post(f"/api/tournaments/{tid}/players", json={"name": "Zenek"}).status_code \
        == 401
    added = client.post(f"/api/tournaments/{tid}/players", headers=bearer(token),
                        json={"name": "Zenek"})
    assert added.status_code == 201 and added.get_json() == {"number": 13, "name": "Zenek"}
    twice = client.post(f"/api/tournaments/{tid}/players", headers=bearer(token),
                        json={"name": "zenek"})
    assert twice.status_code == 422 and "players" not in twice.get_json()["errors"]
    assert client.delete(f"/api/tournaments/{tid}/players/2",
                         headers=bearer(token)).status_code == 204
    players = client.get(f"/api/tournaments/{tid}").get_json()["players"]
    assert [p["withdrawn_after"] for p in players if p["number"] == 2] == [1]
    assert client.post(f"/api/tournaments/{tid}/close", headers=bearer(token),
                       json={"confirm_unsigned": True}).status_code == 204
    closed = client.post(f"/api/tournaments/{tid}/players", headers=bearer(token),
                         json={"name": "Olek"})
    assert closed.status_code == 409


@pytest.mark.parametrize("change, field", [
    ({"players": TWELVE[:5]}, "players"),
    ({"rounds": "dużo"}, "rounds"),
    ({"rulesets": {"4": "tybet-21"}}, "rulesets.4"),
    ({"name": "   "}, "name"),
])
def test_a_wrong_tournament_is_refused_by_field_and_nothing_is_made(client, change, field):
    answer = client.post("/api/tournaments", json={**BODY, **change},
                         headers={"Accept-Language": "pl"})
    assert answer.status_code == 422
    assert field in answer.get_json()["errors"]
    assert client.post("/api/games", json={}).status_code == 422  # (the API still answers)


def test_every_answer_is_as_the_openapi_document_says(client, made):
    doc = client.get("/api/openapi.json").get_json()
    paths = doc["paths"]
    assert {"/api/tournaments", "/api/tournaments/{tid}", "/api/tournaments/{tid}/rounds",
            "/api/tournaments/{tid}/players", "/api/tournaments/{tid}/players/{number}",
            "/api/tournaments/{tid}/close"} <= set(paths)
    created = paths["/api/tournaments"]["post"]["responses"]["201"]
    assert valid(made, created["content"]["application/json"]["schema"], doc)
    read = paths["/api/tournaments/{tid}"]["get"]["responses"]["200"]
    for headers in ({}, bearer(made["token"])):
        body = client.get(f"/api/tournaments/{made['id']}", headers=headers).get_json()
        assert valid(body, read["content"]["application/json"]["schema"], doc)


def stored(app):
    """How many tournaments and games the server keeps."""
    with app.app_context():
        db = get_db()
        return (db.execute("select count(*) from tournaments").fetchone()[0],
                db.execute("select count(*) from games").fetchone()[0])


def test_a_refusal_stores_nothing(app, client):
    before = stored(app)
    for change in ({"players": TWELVE[:7]}, {"players": [*TWELVE[:11], "ala"]},
                   {"rounds": 0}, {"rulesets": {"4": "no-such-rules"}}, {"scoring": "money"},
                   {"seed": 7}):
        answer = client.post("/api/tournaments", json={**BODY, **change})
        assert answer.status_code == 422, change
    assert client.post("/api/tournaments", data="{", content_type="application/json"
                       ).status_code == 400
    app.config["MAX_GAMES"] = before[1] + 2  # round 1's three games would not fit
    full = client.post("/api/tournaments", json=BODY)
    assert full.status_code == 422 and "at most" in full.get_json()["errors"][""][0]
    assert stored(app) == before


def test_tournaments_count_as_new_games_for_the_rate_limit(app, client):
    for _ in range(first(limits.CREATE)):
        assert client.post("/api/games", json={"ruleset": "standard-4", "players": TWELVE[:4],
                                               "first_dealer": 0}).status_code == 201
    before = stored(app)
    refused = client.post("/api/tournaments", json=BODY, headers={"Accept-Language": "pl"})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert "Odczekaj" in refused.get_json()["error"]
    assert stored(app) == before


def test_a_round_drawn_costs_its_games_against_the_creation_limit(client, made):
    allowed = first(limits.CREATE)
    left = client.post("/api/games", json={"ruleset": "standard-4", "players": TWELVE[:4],
                                           "first_dealer": 0}).headers
    assert int(left["X-RateLimit-Remaining"]) == allowed - 3 - 1  # round 1's three tables
    for table in made["round"]["tables"]:
        play_table(client, table)
    drawn = client.post(f"/api/tournaments/{made['id']}/rounds", headers=bearer(made["token"]))
    assert drawn.status_code == 201 and len(drawn.get_json()["tables"]) == 3
    assert int(drawn.headers["X-RateLimit-Remaining"]) == allowed - 3 - 1 - 3


def test_no_round_after_the_last_or_once_closed(client):
    made = client.post("/api/tournaments", json={**BODY, "rounds": 1}).get_json()
    tid, token = made["id"], made["token"]
    for table in made["round"]["tables"]:
        play_table(client, table)
    last = client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(token))
    assert last.status_code == 409 and "All 1 rounds are drawn" in last.get_json()["error"]
    assert client.post(f"/api/tournaments/{tid}/close", headers=bearer(token),
                       json={"confirm_unsigned": True}).status_code == 204
    closed = client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(token))
    assert closed.status_code == 409 and "closed" in closed.get_json()["error"]
    assert client.delete(f"/api/tournaments/{tid}/players/1",
                         headers=bearer(token)).status_code == 409
    state = client.get(f"/api/tournaments/{tid}").get_json()
    assert state["closed"] is True and len(state["rounds"]) == 1
    assert all(p["withdrawn_after"] is None for p in state["players"])


SIZES = {"4": "standard-4", "3": "standard-3", "5": "zdanowicz-5"}


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(count=st.integers(8, 15), sizes=st.sampled_from([("4",), ("3", "4"), ("4", "5")]),
       scoring=st.sampled_from(["points", "places"]), seed=st.text("abcdef", min_size=1,
                                                                    max_size=6),
       losers=st.lists(st.integers(0, 4), min_size=5, max_size=5))
def test_once_every_game_is_finished_the_standings_add_up(app, client, count, sizes, scoring,
                                                          seed, losers):
    """Any tournament the API accepts: each table's game sums to its ruleset's total (zero
    but for the five-player rules, which rank by places only beside the others), so the
    standings by points sum to the tables' totals;
    by places each table hands out 3 + … + 0 (6 at four, 4½ at three, 7½ at five)."""
    body = {**BODY, "players": [f"Gracz {i}" for i in range(count)], "scoring": scoring,
            "rulesets": {s: SIZES[s] for s in sizes}, "seed": seed}
    answer = client.post("/api/tournaments", json=body)
    event(f"answered {answer.status_code}")
    if scoring == "points" and "5" in sizes:  # +44 a player at five, 0 at four: unfair
        assert answer.status_code == 422
        assert "scoring" in answer.get_json()["errors"]
        return
    if answer.status_code == 422:  # only a count the sizes cannot seat: 9 at tables of four
        with pytest.raises(InvalidInput):
            table_sizes(count, sorted(int(s) for s in sizes))
        return
    assert answer.status_code == 201, answer.get_json()
    made = answer.get_json()
    tables = made["round"]["tables"]
    with app.app_context():
        for i, table in enumerate(tables):
            finish(get_db(), table["game"], losers[i % 5] % len(table["players"]))
    standings = client.get(f"/api/tournaments/{made['id']}").get_json()["standings"]
    assert sorted(s["player"] for s in standings) == sorted(body["players"])
    assert all(s["games"] == 1 for s in standings)
    expected = sum(get_ruleset(t["ruleset"]).expected_sum or 0 if scoring == "points"
                   else {3: 4.5, 4: 6, 5: 7.5}[len(t["players"])] for t in tables)
    assert sum(s["points"] for s in standings) == expected
    assert sum(s["wins"] for s in standings) >= len(tables)  # a table's ties share a win
    assert [s["rank"] for s in standings] == sorted(s["rank"] for s in standings)
