"""Words and forms a stranger reads first: the new-game form's rulesets in groups (Kierki
by players, Tybet's pairs), Tybet's partners said, one home for the tournament's limits
(the form, the README and the server say the same), /admin's way back, a line on the
front page saying what the app is for, a calm 404 for a private club."""
import re
from pathlib import Path

from scorekeeper.domain import tournaments
from scorekeeper.web.views.tournaments import FORM_LIMITS

PL = {"Accept-Language": "pl"}
README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_new_game_form_groups_the_rulesets(client):
    page = client.get("/games/new", headers=PL).text
    groups = re.findall(r'<optgroup label="([^"]*)">(.*?)</optgroup>', page, re.DOTALL)
    assert [g for g, _ in groups] == ["Kierki dla 4 graczy", "Kierki dla 3 graczy",
                                      "Kierki dla 5 graczy", "Tybet dla 4 graczy"]
    options = {g: re.findall(r'<option value="([^"]+)"', body) for g, body in groups}
    assert options["Kierki dla 4 graczy"][0] == "standard-4"
    assert "zdanowicz-5" in options["Kierki dla 5 graczy"]
    assert all(o.startswith("tybet") for o in options["Tybet dla 4 graczy"])
    assert sum(len(o) for o in options.values()) == 15
    assert re.search(r"<option value=\"standard-4\" selected>", page) or "selected" not in page.split("</select>")[0]
    # Tybet's part of the form (shown with a Tybet ruleset) says who partners whom
    tybet_part = re.search(r'<div data-family="tybet">(.*?)</div>', page, re.DOTALL)[1]
    assert "gracze 1 i 3 przeciw 2 i 4" in tybet_part


def test_a_house_variant_has_a_group_of_its_own(client):
    from tests.web.test_variants_api import make, standard
    made = make(client, standard(client))
    assert made.status_code == 201, made.get_json()
    groups = dict(re.findall(r'<optgroup label="([^"]*)">(.*?)</optgroup>',
                             client.get("/games/new").text, re.DOTALL))
    assert made.get_json()["id"] in groups["Kierki for 4 players, house variants"]
    assert made.get_json()["id"] not in groups["Kierki for 4 players"]


def test_the_tournaments_limits_have_one_home(client):
    low, high = FORM_LIMITS["players"]
    assert (low, high) == (tournaments.MIN_PLAYERS, tournaments.MAX_PLAYERS)
    assert "From 8 to 4,000 players." in client.get("/tournaments/new").text
    assert "Od 8 do 4000 graczy." in client.get("/tournaments/new", headers=PL).text
    assert f"the players ({low} to {high:,}, one a line)" in README.read_text()
    too_many = [f"Gracz {i}" for i in range(high + 1)]
    r = client.post("/api/tournaments", json={"name": "Duży", "players": too_many,
                                               "rounds": 1, "rulesets": {"4": "standard-4"}})
    assert r.status_code in (413, 422)
    if r.status_code == 422:
        assert f"{low} to {high} players" in r.get_json()["errors"]["players"][0]


def test_admin_has_a_way_back_and_the_front_page_says_what_it_is_for(app, client):
    app.config["ADMIN_PASSWORD"] = "correct horse"
    page = client.get("/admin/").text
    assert re.search(r'<nav class="tools"[^>]*><a class="button" href="/">', page)
    front = client.get("/", headers=PL).text
    assert "Zapisuje wyniki Kierek i Tybeta przy stole" in front


def test_a_private_clubs_404_is_calm(client):
    made = client.post("/api/clubs", json={"name": "Tajny", "public": False}).get_json()
    stranger = client.application.test_client()
    r = stranger.get(f"/clubs/{made['id']}", headers=PL)
    assert r.status_code == 404
    assert "Coś jest nie tak" not in r.text and "Tu nic nie ma" in r.text
    assert "jest prywatny" in r.text
    other = stranger.get("/games/nie-ma-takiej", headers=PL)
    assert other.status_code == 404 and "Tu nic nie ma" in other.text
