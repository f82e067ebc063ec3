"""A join code stops working a day after its game finished (issue 26): fewer live codes
leave a guesser less to find, and a table that is still playing never loses its code."""
from scorekeeper.families.kierki.rules import get_ruleset
from scorekeeper.web.db import get_db
from tests.fixtures import results_for

PLAYERS = ["Ala", "Bolek", "Cela", "Darek"]


def age(app, gid, days):
    """As if the game's deals had been entered ``days`` ago."""
    with app.app_context():
        db = get_db()
        iso = "strftime('%Y-%m-%dT%H:%M:%S+00:00', {}, ?)"  # as the store writes times
        db.execute(f"update deals set recorded_at = {iso.format('recorded_at')} "
                   "where game_id = ?", [f"-{days} days", gid])
        db.execute(f"update games set created_at = {iso.format('created_at')} where id = ?",
                   [f"-{days} days", gid])
        db.conn.commit()


def play(client, deals):
    made = client.post("/api/games", json={"ruleset": "standard-4", "players": PLAYERS,
                                           "first_dealer": 0}).get_json()
    auth = {"Authorization": f"Bearer {made['token']}"}
    game = made
    for number, result in enumerate(results_for(get_ruleset("standard-4"))[:deals], 1):
        game = client.put(f"/api/games/{made['id']}/deals/{number}", headers=auth,
                          json={"version": game["version"], "result": result}).get_json()
    return made["id"], made["join_code"], game


def test_a_finished_games_code_works_for_a_day_then_only_its_link(app, client):
    gid, code, game = play(client, 12)
    assert game["finished"]
    assert client.post("/api/join", json={"code": code}).status_code == 200
    age(app, gid, 2)
    assert client.post("/api/join", json={"code": code}).status_code == 404
    assert client.get(f"/join/{code}").location.endswith("/")  # back to the front page
    assert client.get(f"/games/{gid}").status_code == 200   # the link still opens it


def test_an_unfinished_games_code_keeps_working(app, client):
    gid, code, _ = play(client, 3)
    age(app, gid, 30)
    assert client.post("/api/join", json={"code": code}).status_code == 200
