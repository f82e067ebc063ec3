"""One regression test per hostile input found in testing: each is refused with a message
at its field, in the client's language, and nothing stored changes."""
from urllib.parse import quote

import pytest

from tests.fixtures import errors_in, new_game, state
from tests.store.test_tournaments import TWELVE

PLAYERS = ["Ala", "Bolek", "Cela", "Darek"]


@pytest.mark.parametrize("value", ["²", "--3", "9" * 5000, "3.0", "١"])
def test_odd_digits_in_a_deal_form(app, client, value):
    gid = new_game(client)
    r = client.post(f"/games/{gid}/deals/1", data={"version": 1, "tricks-0": value,
                                                  "tricks-1": "0", "tricks-2": "0"})
    assert r.status_code == 422
    assert errors_in(r.text) == ["Enter a whole number from 0 to 13."]
    assert state(app, gid).version == 1


@pytest.mark.parametrize("target", [21.5, "21.0", True, [21], "²¹", "9" * 5000])
def test_odd_targets(client, target):
    r = client.post("/api/games", json={"ruleset": "tybet-21", "players": PLAYERS,
                                        "first_dealer": 0, "target": target})
    assert r.status_code == 422
    assert r.get_json()["errors"]["target"] == ["Choose the score to play to."]


def test_odd_target_in_the_form_in_polish(client):
    data = {"ruleset": "tybet-21", "first_dealer": "0", "target": "21.0",
            **{f"player_{i}": p for i, p in enumerate(PLAYERS)}}
    r = client.post("/games/new", data=data, headers={"Accept-Language": "pl"})
    assert r.status_code == 422 and "Wybierz, do ilu punktów gracie." in errors_in(r.text)


@pytest.mark.parametrize("declaration", [{"kind": "four", "rank": ["A"]},
                                         {"kind": "trio", "rank": {"r": "A"}},
                                         {"kind": "cezar", "suit": ["H"], "extra": 1},
                                         {"kind": "cezar", "suit": "H", "extra": "²"}])
def test_a_list_where_a_rank_belongs(client, declaration):
    game = client.post("/api/games", json={"ruleset": "tybet-21", "players": PLAYERS,
                                           "first_dealer": 0}).get_json()
    raw = {"declarations": [[declaration], [], [], []], "aces": [4, 0], "honours": [10, 10],
           "last": 0, "special": None}
    r = client.put(f"/api/games/{game['id']}/deals/1", json={"version": 1, "result": raw},
                   headers={"Authorization": f"Bearer {game['token']}"})
    assert r.status_code == 422 and r.get_json()["errors"]["declarations.0"]


def test_invisible_names_in_the_form(client):
    data = {"ruleset": "standard-4", "first_dealer": "0", "player_0": "\u200b\u200b",
            "player_1": "Ola", "player_2": "O\u200bla", "player_3": "Ela"}
    r = client.post("/games/new", data=data)
    assert r.status_code == 422
    assert errors_in(r.text) == ["Enter a name.", "Each player needs a different name."]


def test_a_version_of_true_is_not_a_version(client):
    game = client.post("/api/games", json={"ruleset": "standard-4", "players": PLAYERS,
                                           "first_dealer": 0}).get_json()
    r = client.put(f"/api/games/{game['id']}/deals/1",
                   json={"version": True, "result": {"tricks": [13, 0, 0, 0]}},
                   headers={"Authorization": f"Bearer {game['token']}"})
    assert r.status_code == 422 and r.get_json()["errors"]["version"]
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 1


def test_a_number_too_long_to_read_in_a_json_body(client):
    body = ('{"ruleset": "tybet-21", "players": ["A", "B", "C", "D"], "first_dealer": 0, '
            '"target": ' + "9" * 5000 + "}")
    r = client.post("/api/games", data=body, content_type="application/json")
    assert r.status_code == 400 and r.get_json()["error"]


# -- issue 32 item 8: other scripts' digits and non-ASCII tokens ---------------------------

@pytest.mark.parametrize("page", ["²", "١", "0", "-1", "", "9" * 50])
def test_odd_pages_are_the_first_page_or_refused(client, page):
    assert client.get(f"/players?page={page}").status_code == 200
    assert client.get(f"/api/players?page={page}").status_code == 200
    r = client.get(f"/api/rulesets?page={page}")
    assert r.status_code == 422 and r.get_json()["errors"]["page"]


def test_an_odd_stake_is_refused_at_its_field(client):
    evening = client.get(f"/games/{new_game(client)}/evening")
    assert evening.status_code == 302
    for stake in ("²", "0,٥", "١"):
        r = client.get(evening.location + f"?stake={stake}")
        assert r.status_code == 200 and "0.05" in r.text


@pytest.mark.parametrize("token", ["ż", "Å¼", "\u00ff" * 40, "\udcff", "a" * 5000])
def test_non_ascii_tokens_are_wrong_tokens(client, token):
    game = client.post("/api/games", json={"ruleset": "standard-4", "players": PLAYERS,
                                           "first_dealer": 0}).get_json()
    auth = {"Authorization": f"Bearer {token}"}
    gid = game["id"]
    assert client.put(f"/api/games/{gid}/deals/1", headers=auth,
                      json={"version": 1, "result": {"tricks": [13, 0, 0, 0]}}).status_code == 403
    assert client.post(f"/api/games/{gid}/undo", headers=auth,
                       json={"version": 1}).status_code == 403
    assert client.delete(f"/api/games/{gid}", headers=auth,
                         json={"version": 1, "confirm": True}).status_code == 403
    t = client.post("/api/tournaments", json={
        "name": "T", "players": TWELVE, "rounds": 1, "rulesets": {"4": "standard-4"}}
    ).get_json()
    assert client.get(f"/api/tournaments/{t['id']}", headers=auth).status_code == 403
    assert client.post(f"/api/tournaments/{t['id']}/close", headers=auth).status_code == 403
    assert client.get(f"/tournaments/{t['id']}", headers=auth).status_code == 200
    link = quote(token, errors="surrogateescape")  # "\udcff": the byte 0xff, not UTF-8
    assert client.get(f"/tournaments/{t['id']}/direct/{link}").status_code in (403, 404)
    doc = client.get("/api/rulesets/standard-4").get_json()
    doc.pop("id")
    made = client.post("/api/rulesets", json={**doc, "name": {"en": "Ours", "pl": "Nasze"}})
    assert made.status_code == 201
    r = client.delete(f"/api/rulesets/{made.get_json()['id']}", headers=auth,
                      environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert r.status_code == 403


def test_a_non_ascii_host_password(app, client):
    app.config["ADMIN_PASSWORD"] = "hasło"
    r = client.post("/admin/", data="password=has%C5%82o%FF",  # not UTF-8
                    content_type="application/x-www-form-urlencoded",
                    environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert r.status_code < 500
    r = client.post("/admin/", data={"password": "ząb"}, environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert r.status_code < 500


@pytest.mark.parametrize("name", ["missing", None, False, 0, "", [], "x", {"en": None}])
def test_a_variant_without_a_name_is_refused_at_its_name(client, name):
    doc = client.get("/api/rulesets/standard-4").get_json()
    doc.pop("id")
    if name == "missing":
        doc.pop("name")
    else:
        doc["name"] = name
    r = client.post("/api/rulesets", json=doc)
    assert r.status_code == 422
    assert any(field.split(".")[0] == "name" for field in r.get_json()["errors"])
