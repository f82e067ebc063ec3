"""Games belong to their table: the link or the join code opens a game, the API writes
with the game's token, the front page shows only this phone's games, the host sees all."""
import pytest

from scorekeeper import create_app
from scorekeeper.web.db import get_db
from tests.fixtures import errors_in, new_game, state

PLAYERS = ["Ala", "Bolek", "Cela", "Darek"]


def api_game(client):
    r = client.post("/api/games", json={"ruleset": "standard-4", "players": PLAYERS,
                                        "first_dealer": 0})
    assert r.status_code == 201
    return r.get_json()


def test_the_front_page_lists_only_this_phones_games(app, client):
    mine = new_game(client)
    other_phone = app.test_client()
    theirs = new_game(other_phone, players=["Ewa", "Filip", "Gosia", "Henryk"])
    page = client.get("/").text
    assert f"/games/{mine}" in page and f"/games/{theirs}" not in page and "Ewa" not in page
    assert f"/games/{mine}" not in app.test_client().get("/").text  # a stranger sees none
    other_phone.get(f"/games/{mine}")  # opening the link joins the game
    assert f"/games/{mine}" in other_phone.get("/").text


def test_joining_by_code(app, client):
    gid = new_game(client)
    code = state(app, gid).stored.join_code
    assert len(code) == 8 and f"{code[:4]} {code[4:]}" in client.get(f"/games/{gid}").text
    phone = app.test_client()
    r = phone.post("/join", data={"code": f" {code[:3].lower()} {code[3:]} "})
    assert r.status_code == 302 and r.location.endswith(f"/games/{gid}")
    assert f"/games/{gid}" in phone.get("/").text
    r = phone.post("/join", data={"code": "ZZZZZ9"}, follow_redirects=True)
    assert errors_in(r.text) == [("No game has this code. Check the letters and digits "
                                  "on the other phone.")]


def test_a_game_made_with_a_six_character_code_is_still_joined_by_it(app, client):
    """Codes were six characters long before issue 32; those games keep theirs."""
    gid = new_game(client)
    with app.app_context():
        get_db().execute("update games set join_code = 'K7QM2X' where id = ?", [gid])
    phone = app.test_client()
    r = phone.post("/join", data={"code": "k7qm-2x"})
    assert r.status_code == 302 and r.location.endswith(f"/games/{gid}")
    assert phone.post("/api/join", json={"code": "K7QM2X"}).get_json()["id"] == gid
    assert "K7QM2X" in client.get(f"/games/{gid}").text  # shown as it is
    for wrong in ("K7QM2", "K7QM2XR", "K7QM2XRTU"):
        assert phone.post("/api/join", json={"code": wrong}).status_code == 422


def test_api_writes_need_the_games_token(client):
    game = api_game(client)
    gid, token = game["id"], game["token"]
    url = f"/api/games/{gid}/deals/1"
    body = {"version": 1, "result": {"tricks": [13, 0, 0, 0]}}
    r = client.put(url, json=body)
    assert r.status_code == 401 and "Bearer" in r.get_json()["error"]
    other = api_game(client)
    r = client.put(url, json=body, headers={"Authorization": f"Bearer {other['token']}"})
    assert r.status_code == 403 and r.get_json()["error"]
    assert client.get(f"/api/games/{gid}").get_json()["version"] == 1  # nothing changed
    assert client.get(f"/api/games/{gid}").status_code == 200  # reading stays open
    r = client.put(url, json=body, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200 and r.get_json()["version"] == 2
    r = client.post(f"/api/games/{gid}/undo", json={"version": 2})
    assert r.status_code == 401


def test_the_api_joins_by_code_and_deletes_with_confirmation(client):
    game = api_game(client)
    joined = client.post("/api/join", json={"code": game["join_code"].lower()}).get_json()
    assert joined["id"] == game["id"] and joined["token"] == game["token"]
    assert client.post("/api/join", json={"code": "nope"}).status_code == 422
    assert client.post("/api/join", json={"code": "ZZZZZ9"}).status_code == 404
    auth = {"Authorization": f"Bearer {game['token']}"}
    url = f"/api/games/{game['id']}"
    assert client.delete(url, json={"version": 1}, headers=auth).status_code == 422
    assert client.delete(url, json={"version": 7, "confirm": True},
                         headers=auth).status_code == 409
    assert client.delete(url, json={"version": 1, "confirm": True}).status_code == 401
    assert client.delete(url, json={"version": 1, "confirm": True},
                         headers=auth).status_code == 204
    assert client.get(url).status_code == 404


@pytest.fixture
def hosted(tmp_path):
    return create_app({"DATABASE": str(tmp_path / "h.sqlite"), "SECRET_KEY": "x",
                       "TESTING": True, "WTF_CSRF_ENABLED": False,
                       "ADMIN_PASSWORD": "correct horse"})


def test_the_host_page_needs_its_password(app, client, hosted):
    assert client.get("/admin/").status_code == 404  # no password set: no such page
    table = hosted.test_client()
    gid = new_game(table)
    host = hosted.test_client()
    assert host.post("/admin/", data={"password": "wrong"}).status_code == 403
    assert gid not in host.get("/admin/").text
    r = host.post("/admin/", data={"password": "correct horse"})
    assert r.status_code == 302
    page = host.get("/admin/").text
    assert f"/games/{gid}" in page and f"/games/{gid}/delete" in page


def _copy_session(source, target):
    target.set_cookie("session", source.get_cookie("session").value)


def test_a_copied_host_cookie_stops_working_at_logout(hosted):
    gid = new_game(hosted.test_client())
    host = hosted.test_client()
    assert host.post("/admin/", data={"password": "correct horse"}).status_code == 302
    thief = hosted.test_client()
    _copy_session(host, thief)
    assert f"/games/{gid}/delete" in thief.get("/admin/").text  # the copy works…
    stranger = hosted.test_client()
    stranger.post("/admin/logout")  # a stranger's logout ends nobody's session
    assert f"/games/{gid}/delete" in host.get("/admin/").text
    host.post("/admin/logout")
    assert f"/games/{gid}/delete" not in thief.get("/admin/").text  # …until the host leaves
    assert f"/games/{gid}/delete" not in host.get("/admin/").text


def test_a_host_cookie_stops_working_when_the_password_changes(hosted):
    gid = new_game(hosted.test_client())
    host = hosted.test_client()
    host.post("/admin/", data={"password": "correct horse"})
    assert f"/games/{gid}/delete" in host.get("/admin/").text
    hosted.config["ADMIN_PASSWORD"] = "battery staple"
    assert f"/games/{gid}/delete" not in host.get("/admin/").text
    host.post("/admin/", data={"password": "battery staple"})
    assert f"/games/{gid}/delete" in host.get("/admin/").text
