"""Points of different card games never add up: one evening of a Kierki game and a Tybet
game by the same four people, and the player page, the API and the settlement keep each
card game's figures to itself.

The Kierki game is the sample game (totals by seat 185, -165, 35, -55); the Tybet game
is played to 21 by the pairs Ala & Celina (29) and Bolek & Darek (4). Ala's Kierki +185
and her pair's Tybet +29 would make +214; that number must appear nowhere.
"""
import re

import pytest

from scorekeeper.families.kierki.rules.examples import SAMPLE_GAME_4
from tests.fixtures import play_api

PLAYERS = ["Ala", "Bolek", "Celina", "Darek"]
PLAIN = {"declarations": [[], [], [], []], "aces": [3, 1], "honours": [11, 9], "last": 0}
SWEEP = {"declarations": [[], [], [], []], "aces": [4, 0], "honours": [20, 0], "last": 0}


@pytest.fixture
def mixed(client):
    kierki = play_api(client, "standard-4", PLAYERS, SAMPLE_GAME_4)[-1]
    tybet = play_api(client, "tybet-21", PLAYERS, [PLAIN, SWEEP, SWEEP])[-1]
    assert kierki["totals"] == [185, -165, 35, -55]
    assert tybet["totals"] == [29, 4] and tybet["finished"]
    ids = {p["name"]: p["id"] for p in client.get("/api/players").get_json()}
    return kierki, tybet, ids


def test_the_api_gives_each_card_games_figures_apart(client, mixed):
    _k, _t, ids = mixed
    ala = client.get(f"/api/players/{ids['Ala']}").get_json()
    assert ala["games"] == 2 and "points" not in ala and "wins" not in ala
    assert list(ala["families"]) == ["kierki", "tybet"]
    kierki, tybet = ala["families"]["kierki"], ala["families"]["tybet"]
    assert (kierki["games"], kierki["wins"], kierki["points"]) == (1, 1, 185)
    assert (tybet["games"], tybet["wins"], tybet["points"]) == (1, 1, 29)
    assert kierki["best"]["total"] == kierki["worst"]["total"] == 185
    assert tybet["best"]["total"] == tybet["worst"]["total"] == 29
    assert [g["total"] for g in tybet["form"]] == [29]
    bolek = client.get(f"/api/players/{ids['Bolek']}").get_json()
    assert bolek["families"]["kierki"]["points"] == -165
    assert bolek["families"]["tybet"]["points"] == 4
    listed = {p["name"]: p for p in client.get("/api/players").get_json()}
    assert listed["Ala"]["families"]["tybet"]["points"] == 29
    assert all("points" not in p for p in listed.values())


def test_a_kierki_only_player_has_no_tybet_section(client):
    play_api(client, "standard-4", PLAYERS, SAMPLE_GAME_4)
    ids = {p["name"]: p["id"] for p in client.get("/api/players").get_json()}
    ala = client.get(f"/api/players/{ids['Ala']}").get_json()
    assert list(ala["families"]) == ["kierki"]
    page = client.get(f"/players/{ids['Ala']}").get_data(as_text=True)
    assert "<h2>Kierki</h2>" in page and "<h2>Tybet</h2>" not in page


def _shows(page, number):
    """Whether the page shows ``number`` as a number (not inside a link's random id)."""
    words = re.sub(r"<[^>]*>", " ", page)
    return re.search(rf"(?<![\w]){number}(?![\w])", words) is not None


def _section(page, key):
    start = page.index(f'id="family-{key}"')
    return page[start:page.index("</section>", start)]


def test_the_player_page_shows_each_card_game_in_its_own_section(client, mixed):
    _k, _t, ids = mixed
    page = client.get(f"/players/{ids['Ala']}").get_data(as_text=True)
    kierki, tybet = _section(page, "kierki"), _section(page, "tybet")
    assert "<h2>Kierki</h2>" in kierki and "+185" in kierki and "+29" not in kierki
    assert "<h2>Tybet</h2>" in tybet and "+29" in tybet and "+185" not in tybet
    assert not _shows(page, "214")
    client.set_cookie("lang", "pl")
    page = client.get(f"/players/{ids['Bolek']}").get_data(as_text=True)
    assert "<h2>Kierki</h2>" in page and "<h2>Tybet</h2>" in page
    assert "−161" not in page and "-161" not in page  # -165 + 4


def test_the_evening_settles_each_card_game_on_its_own(client, mixed):
    kierki, _t, _ids = mixed
    page = client.get(f"/games/{kierki['id']}/evening").location
    text = client.get(page).get_data(as_text=True)
    assert "+185" in _section(text, "kierki") and "+29" in _section(text, "tybet")
    assert not _shows(text, "214")
    # per point: Kierki's points only (Ala +1.85, Bolek -1.65, Celina +0.35, Darek -0.55);
    # Tybet is not settled per point, and the page says so
    text = client.get(page + "?stake=0.01&per=point").get_data(as_text=True)
    found = re.findall(r"<li>(\w+ pays \w+ [\d.]+)</li>", text)
    assert found == ["Bolek pays Ala 1.65", "Darek pays Ala 0.20", "Darek pays Celina 0.35"]
    assert "Not settled per point" in text and "2.14" not in text
    # per place: Kierki around 2.5 (Ala +1.5, Bolek -1.5, Celina +0.5, Darek -0.5) and
    # Tybet around 1.5 (Ala, Celina +0.5; Bolek, Darek -0.5): the money adds up
    text = client.get(page + "?stake=1&per=place").get_data(as_text=True)
    found = re.findall(r"<li>(\w+ pays \w+ [\d.]+)</li>", text)
    assert found == ["Bolek pays Ala 2.00", "Darek pays Celina 1.00"]
    assert "Not settled per point" not in text
    assert "Each card game is settled on its own" in text
    client.set_cookie("lang", "pl")
    text = client.get(page + "?stake=0,01&per=point").get_data(as_text=True)
    assert "Bez rozliczenia za punkt" in text
