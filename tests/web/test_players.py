"""Players across games: three games of one evening, played through the API by the same
four people in turned seats, and every figure checked against numbers worked out by hand.

Each game is the sample game (first dealer seat 0). By seat it gives, deal by deal:
  1 tricks      -80  -60  -40  -80     7 robber  -335 -190 -685  -90
  2 hearts     -100  -60  -80  -20     8-11 trumps 350  400  250  300 (four deals)
  3 queens      -60 -120    0  -60     12 loteryjka 500   0  800    0 (seat 2 first)
  4 gentlemen   -90  -60  -60  -30
  5 K♥ (seat 2)   0    0 -150    0     totals     185 -165   35  -55
  6 7th & last    0  -75    0  -75     places       1    4    2    3
Hearts taken by seat (deal 2 and the robber): 8, 5, 10, 3; the K♥ and the loteryjka go
to seat 2 (twice the K♥: deal 5 and the robber).
"""
import re

import pytest

from scorekeeper.families.kierki.rules.examples import SAMPLE_GAME_4
from tests.fixtures import become_host, join, play_api

ALA, BOLEK, CELINA, DAREK = "Ala", "Bolek", "Celina", "Darek"
SEATINGS = [[ALA, BOLEK, CELINA, DAREK], [BOLEK, CELINA, DAREK, ALA],
            [CELINA, DAREK, ALA, BOLEK]]


def play(client, names):
    game = play_api(client, "standard-4", names, SAMPLE_GAME_4)[-1]
    assert game["totals"] == [185, -165, 35, -55]
    return game


@pytest.fixture
def evening(client):
    games = [play(client, names) for names in SEATINGS]
    ids = {p["name"]: p["id"] for p in client.get("/api/players").get_json()}
    return games, ids


def figures(client, ids, name, family="kierki"):
    """A player's figures in one card game, with the person's id and name beside them."""
    r = client.get(f"/api/players/{ids[name]}")
    assert r.status_code == 200
    data = r.get_json()
    assert "points" not in data  # points of different card games never add up
    return {"id": data["id"], "name": data["name"], **data["families"][family]}


def test_each_players_figures(client, evening):
    _games, ids = evening
    assert sorted(ids) == [ALA, BOLEK, CELINA, DAREK]  # four people, not twelve seats
    # Ala sat at seats 0, 3, 2: 185, -55, 35; places 1, 3, 2
    ala = figures(client, ids, ALA)
    assert (ala["games"], ala["wins"], ala["average_place"], ala["points"]) == \
        (3, 1, 2.0, 165)
    assert ala["streaks"] == {"current": 0, "longest": 1}
    assert (ala["best"]["total"], ala["best"]["place"]) == (185, 1)
    assert (ala["worst"]["total"], ala["worst"]["place"]) == (-55, 3)
    assert [g["total"] for g in ala["form"]] == [185, -55, 35]
    counts = {c["key"]: c["count"] for c in ala["counts"]}
    assert counts == {"hearts": 8 + 3 + 10, "king_of_hearts": 2, "loteryjka": 1}
    kinds = {k["key"]: (k["deals"], k["points"], k["average"]) for k in ala["kinds"]}
    assert kinds["no_tricks"] == (3, -80 - 80 - 40, -66.7)
    assert kinds["robber"] == (3, -335 - 90 - 685, -370.0)
    assert kinds["trumps"] == (12, 350 + 300 + 250, 75.0)
    assert kinds["loteryjka"] == (3, 500 + 0 + 800, 433.3)
    assert kinds["no_king_of_hearts"] == (3, -150, -50.0)
    assert ala["by_ruleset"] == [{"ruleset": "standard-4", "games": 3, "wins": 1,
                                  "average_place": 2.0}]
    # Bolek: seats 1, 0, 3: -165, 185, -55; places 4, 1, 3
    bolek = figures(client, ids, BOLEK)
    assert (bolek["wins"], bolek["average_place"], bolek["points"]) == (1, 2.67, -35)
    assert bolek["streaks"] == {"current": 0, "longest": 1}
    assert {c["key"]: c["count"] for c in bolek["counts"]} == \
        {"hearts": 5 + 8 + 3, "king_of_hearts": 0, "loteryjka": 0}
    # Celina: seats 2, 1, 0: 35, -165, 185; places 2, 4, 1: she won the last game
    celina = figures(client, ids, CELINA)
    assert (celina["wins"], celina["average_place"], celina["points"]) == (1, 2.33, 55)
    assert celina["streaks"] == {"current": 1, "longest": 1}
    # Darek: seats 3, 2, 1: -55, 35, -165; places 3, 2, 4
    darek = figures(client, ids, DAREK)
    assert (darek["wins"], darek["average_place"], darek["points"]) == (0, 3.0, -185)
    assert (darek["best"]["total"], darek["worst"]["total"]) == (35, -165)
    assert {c["key"]: c["count"] for c in darek["counts"]} == \
        {"hearts": 3 + 10 + 5, "king_of_hearts": 2, "loteryjka": 1}
    assert sum(figures(client, ids, n)["points"] for n in ids) == 0
    listed = client.get("/api/players").get_json()
    assert [p["name"] for p in listed] == [ALA, BOLEK, CELINA, DAREK]
    assert listed[0]["games"] == 3 and "points" not in listed[0]
    assert listed[0]["families"]["kierki"]["points"] == 165
    assert "game" not in str(ala["best"]) and "game" not in str(ala["form"])  # no ids


def test_the_evening_and_its_settlement(client, evening):
    games, _ids = evening
    client.get(f"/games/{games[-1]['id']}")  # this browser knows the last game
    r = client.get(f"/games/{games[0]['id']}/evening")
    assert r.status_code == 302
    page = r.location
    text = client.get(page).get_data(as_text=True)
    assert text.count("Classic (pagat.com), 4 players") >= 3
    # stake 0.01 a point: Ala +165, Bolek -35, Celina +55, Darek -185 points, no smaller
    # group settles by itself: three transfers, the largest debt to the largest claim
    text = client.get(page + "?stake=0.01&per=point").get_data(as_text=True)
    found = re.findall(r"<li>(\w+ pays \w+ [\d.]+)</li>", text)
    assert found == ["Bolek pays Celina 0.35", "Darek pays Ala 1.65", "Darek pays Celina 0.20"]
    # 1.00 a place, around the middle place 2.5: Ala 1.5 - 0.5 + 0.5 = +1.50, Bolek -0.50,
    # Celina +0.50, Darek -1.50: two pairs settle by themselves, two transfers
    text = client.get(page + "?stake=1&per=place").get_data(as_text=True)
    found = re.findall(r"<li>(\w+ pays \w+ [\d.]+)</li>", text)
    assert found == ["Bolek pays Celina 0.50", "Darek pays Ala 1.50"]
    client.set_cookie("lang", "pl")
    text = client.get(page + "?stake=0,01&per=point").get_data(as_text=True)
    assert "Darek → Ala: 1,65" in text
    bad = client.get(page + "?stake=dużo").get_data(as_text=True)
    assert "Wpisz stawkę" in bad


def test_one_person_whatever_the_spelling_and_renamed_in_one_place(client):
    game = client.post("/api/games", json={"ruleset": "standard-3", "first_dealer": 0,
                                           "players": ["Ala", "BOLEK", "Celina"]}).get_json()
    again = client.post("/api/games", json={"ruleset": "standard-3", "first_dealer": 0,
                                            "players": [" ala\u200b", "Bolek", "Ｃｅｌｉｎａ"]})
    assert again.status_code == 201
    assert len(client.get("/api/players").get_json()) == 3
    refused = client.post("/api/games", json={"ruleset": "standard-3",
                                              "players": ["Ala", "ALA", "Celina"]})
    assert refused.status_code == 422
    ala = next(p for p in client.get("/api/players").get_json() if p["name"] == "Ala")
    become_host(client)  # the API's games are not remembered by this browser: the host renames
    r = client.post(f"/players/{ala['id']}/rename", data={"name": "Alicja <b>"})
    assert r.status_code == 302
    for gid in (game["id"], again.get_json()["id"]):
        assert client.get(f"/api/games/{gid}").get_json()["players"][0]["name"] == "Alicja <b>"
    page = client.get(f"/players/{ala['id']}").get_data(as_text=True)
    assert "Alicja &lt;b&gt;" in page and "Alicja <b>" not in page
    taken = client.post(f"/players/{ala['id']}/rename", data={"name": "bolek"})
    assert taken.status_code == 422
    assert "Someone else here is already called bolek." in taken.get_data(as_text=True)


def test_rematch_turns_the_seats_and_moves_the_deal(client):
    game = play(client, SEATINGS[0])
    stranger = client.application.test_client()
    assert stranger.post(f"/games/{game['id']}/rematch").status_code == 403  # not its table
    join(client, client.application, game["id"])  # a phone of the table
    r = client.post(f"/games/{game['id']}/rematch")
    assert r.status_code == 302
    new = client.get("/api/games/" + r.location.rsplit("/", 1)[1]).get_json()
    assert [p["name"] for p in new["players"]] == [BOLEK, CELINA, DAREK, ALA]
    # the first dealer was Ala (seat 0); the next deal starts with Bolek, now seat 0
    assert new["first_dealer"] == 0 and new["players"][0]["name"] == BOLEK
    new_game_page = client.get("/games/new").get_data(as_text=True)
    assert '<option value="Bolek">' in new_game_page  # known people offered by name


def test_exports_carry_the_players_and_the_evening(client, evening, tmp_path):
    import io

    from scorekeeper import create_app
    games, _ids = evening
    other = create_app({"DATABASE": str(tmp_path / "other.sqlite"), "TESTING": True,
                        "WTF_CSRF_ENABLED": False, "SECRET_KEY": "other"}).test_client()
    for game in games:
        raw = client.get(f"/games/{game['id']}/export.json").data
        r = other.post("/games/import", data={"file": (io.BytesIO(raw), "game.json")},
                       content_type="multipart/form-data")
        assert r.status_code == 302
    here = {p["name"]: p for p in client.get("/api/players").get_json()}
    there = {p["name"]: p for p in other.get("/api/players").get_json()}
    assert sorted(there) == sorted(here)
    for name, mine in here.items():
        assert {k: v for k, v in there[name].items() if k != "id"} == \
            {k: v for k, v in mine.items() if k != "id"}
    evenings = other.get("/players").get_data(as_text=True)
    assert evenings.count("/evenings/") == 1 and "3 games" in evenings


@pytest.mark.parametrize("pid", [2**63, 2**63 - 1, 10**40])
def test_an_id_past_sqlites_integers_is_not_found(client, pid):
    assert client.get(f"/api/players/{pid}").status_code == 404
    assert client.get(f"/api/players/{pid}").get_json() == {"error": "Not found."}
    assert client.get(f"/players/{pid}").status_code == 404
    assert client.post(f"/players/{pid}/rename", data={"name": "Ala"}).status_code == 404
