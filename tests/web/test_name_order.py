"""Issue 25: people in the order their language reads names, not by code point
(Polish puts Ł right after L, Ć after C, Ż after Ź after Z)."""
import re

from tests.fixtures import new_game

NAMES = ["Żaneta", "Łukasz", "Zenon", "Małgorzata", "Ćwikła", "Lucyna", "Ania", "Czesław"]
POLISH = ["Ania", "Czesław", "Ćwikła", "Lucyna", "Łukasz", "Małgorzata", "Zenon", "Żaneta"]
ENGLISH = ["Ania", "Ćwikła", "Czesław", "Lucyna", "Łukasz", "Małgorzata", "Żaneta", "Zenon"]


def two_tables(client):
    new_game(client, players=NAMES[:4])
    new_game(client, players=NAMES[4:])


def listed(html: str) -> list[str]:
    """The names of the players page's list of everyone, top to bottom."""
    everyone = html.split('<ul class="games">', 1)[1].split("</ul>", 1)[0]
    return re.findall(r'<span class="names">([^<]*)</span>', everyone)


def test_players_page_in_polish_and_english_order(client):
    two_tables(client)
    assert listed(client.get("/players", headers={"Accept-Language": "pl"}).text) == POLISH
    assert listed(client.get("/players", headers={"Accept-Language": "en"}).text) == ENGLISH


def test_api_lists_players_in_the_languages_order(client):
    two_tables(client)
    for language, order in (("pl", POLISH), ("en", ENGLISH)):
        got = client.get("/api/players", headers={"Accept-Language": language}).get_json()
        assert [p["name"] for p in got] == order, language


def test_an_evenings_people_in_polish_order(client):
    new_game(client, players=["Żaneta", "Łukasz", "Zenon", "Lucyna"])
    page = client.get("/players", headers={"Accept-Language": "pl"}).text
    assert "Lucyna, Łukasz, Zenon, Żaneta" in page
    evening = re.search(r'href="(/players/evenings/[^"]+)"', page) or \
        re.search(r'href="([^"]*evening[^"]*)"', page)
    text = client.get(evening.group(1), headers={"Accept-Language": "pl"}).text
    assert "Lucyna, Łukasz, Zenon, Żaneta" in text
