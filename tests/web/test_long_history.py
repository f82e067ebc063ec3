"""Pages that would grow with history stay one size (issue 34): an evening shows at most
``EVENING_GAMES`` games of a sitting and says so; a player page lists their busiest
tables, at most ``PLAYER_TABLES``, and says so."""
from scorekeeper.domain import evenings
from scorekeeper.families.kierki.rules.examples import SAMPLE_GAME_4
from scorekeeper.web.views import people as views
from tests.fixtures import play_api

NAMES = ["Ala", "Bolek", "Celina", "Darek", "Ewa"]


def test_a_long_sitting_shows_its_first_games_and_says_so(client, monkeypatch):
    monkeypatch.setattr(evenings, "EVENING_GAMES", 2)
    games = [play_api(client, "standard-4", NAMES[:4], SAMPLE_GAME_4)[-1] for _ in range(3)]
    page = client.get(f"/games/{games[0]['id']}/evening", follow_redirects=True)
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert html.count('href="/games/') == 2  # the first two games of the three
    assert "The first 2 games of this sitting" in html
    short = client.get(f"/games/{games[0]['id']}/evening", follow_redirects=True)
    monkeypatch.setattr(evenings, "EVENING_GAMES", 60)
    whole = client.get(short.request.path).get_data(as_text=True)
    assert whole.count('href="/games/') == 3 and "of this sitting" not in whole


def test_a_player_page_lists_the_busiest_tables(client, monkeypatch):
    monkeypatch.setattr(views, "PLAYER_TABLES", 1)
    play_api(client, "standard-4", NAMES[:4], SAMPLE_GAME_4)
    play_api(client, "standard-4", NAMES[:4], SAMPLE_GAME_4)
    play_api(client, "standard-4", ["Ala", *NAMES[2:5]], SAMPLE_GAME_4)
    ala = {p["name"]: p["id"] for p in client.get("/api/players").get_json()}["Ala"]
    html = client.get(f"/players/{ala}").get_data(as_text=True)
    assert "2 games" in html and "The 1 tables with the most games." in html
    assert html.count('href="/tables/') == 1
    monkeypatch.setattr(views, "PLAYER_TABLES", 20)
    html = client.get(f"/players/{ala}").get_data(as_text=True)
    assert html.count('href="/tables/') == 2 and "with the most games" not in html
