"""One regression test per hostile input found in testing: each is refused with a message
at its field, in the client's language, and nothing stored changes."""
import pytest

from tests.fixtures import errors_in, new_game, state

PLAYERS = ["Ala", "Bolek", "Cela", "Darek"]


@pytest.mark.parametrize("value", ["²", "--3", "9" * 5000, "3.0", "١"])
def test_odd_digits_in_a_deal_form(app, client, value):
    gid = new_game(client)
    r = client.post(f"/games/{gid}/deals/1", data={"version": 1, "tricks-0": value,
                                                  "tricks-1": "0", "tricks-2": "0"})
    assert r.status_code == 422
    assert errors_in(r.text) == ["Enter a whole number from 0 to 13."]
    assert state(app, gid).version == 1


@pytest.mark.parametrize("target", [21.0, "21.0", True, [21], "²¹", "9" * 5000])
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
