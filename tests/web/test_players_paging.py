"""Everyone who played here, a page at a time (issue 25): the players page and
``GET /api/players`` list a page each, in the order the language sorts names, and lead
to the next page until everyone has been listed once.

The pages are made small here (three people a page, two in the API) so that a few
games fill several of them.
"""
import re

import pytest

from scorekeeper.common import collation
from scorekeeper.web import api
from scorekeeper.web.views import people as people_views
from tests.fixtures import new_game

TABLES = [["Żaneta", "Łukasz", "Zenon", "Lucyna"], ["Małgorzata", "Ćwikła", "Czesław", "adam"]]
EVERYONE = [name for table in TABLES for name in table]


@pytest.fixture
def small_pages(client, monkeypatch):
    monkeypatch.setattr(people_views, "PAGE_SIZE", 3)
    monkeypatch.setattr(api, "PLAYERS_PAGE", 2)
    for table in TABLES:
        new_game(client, players=table)
    return client


def listed(page: str) -> list[str]:
    """The players' names a page lists (the evenings' lists are not players)."""
    players = page.split("<h2>")[0]
    return re.findall(r'<a href="/players/\d+"><span class="names">([^<]*)</span>', players)


def walk_pages(client, language):
    """Every page of the players page, following its "next" link."""
    names, url, pages = [], "/players", 0
    while url:
        page = client.get(url, headers={"Accept-Language": language})
        assert page.status_code == 200
        names += listed(page.text)
        pages += 1
        nxt = re.search(r'<a class="button" rel="next" href="([^"]+)"', page.text)
        url = nxt.group(1).replace("&amp;", "&") if nxt else None
    return names, pages


@pytest.mark.parametrize("language", ["pl", "en"])
def test_the_players_page_lists_everyone_once_in_the_languages_order(small_pages, language):
    names, pages = walk_pages(small_pages, language)
    assert names == collation.by_name(EVERYONE, language, str)
    assert pages == 3  # 8 people, 3 a page


def test_polish_order_runs_across_the_pages(small_pages):
    first = small_pages.get("/players", headers={"Accept-Language": "pl"}).text
    assert listed(first) == ["adam", "Czesław", "Ćwikła"]
    assert "Strona 1 z 3" in first and "Następna" in first and "Poprzednia" not in first
    last = small_pages.get("/players?page=3", headers={"Accept-Language": "pl"}).text
    assert listed(last) == ["Zenon", "Żaneta"]
    assert "Poprzednia" in last and 'rel="next"' not in last


def test_a_page_past_the_end_is_not_found_and_a_bad_number_is_the_first(small_pages):
    assert small_pages.get("/players?page=4").status_code == 404
    for bad in ("abc", "0", "-1", "99999999999999999999"):
        page = small_pages.get(f"/players?page={bad}", headers={"Accept-Language": "pl"})
        assert page.status_code == 200 and listed(page.text) == ["adam", "Czesław", "Ćwikła"]


def test_the_evenings_are_on_the_first_page_only(small_pages):
    first = small_pages.get("/players", headers={"Accept-Language": "pl"}).text
    assert "Lucyna, Łukasz, Zenon, Żaneta" in first
    assert "Lucyna, Łukasz, Zenon, Żaneta" not in small_pages.get(
        "/players?page=2", headers={"Accept-Language": "pl"}).text


def test_the_api_pages_through_everyone_by_its_next_links(small_pages):
    names, url, answers = [], "/api/players", 0
    while url:
        r = small_pages.get(url, headers={"Accept-Language": "pl"})
        assert r.status_code == 200
        got = r.get_json()
        assert 0 < len(got) <= 2 and all("families" in p for p in got)
        names += [p["name"] for p in got]
        answers += 1
        link = r.headers.get("Link")
        url = re.match(r'<([^>]+)>; rel="next"', link).group(1) if link else None
    assert names == collation.by_name(EVERYONE, "pl", str) and answers == 4


def test_a_renamed_player_moves_to_the_place_of_the_new_name(small_pages):
    ids = {p["name"]: p["id"] for p in small_pages.get("/api/players?page=1").get_json()}
    assert small_pages.post(f"/players/{ids['adam']}/rename",
                            data={"name": "Źdźbło"}).status_code == 302
    names, _ = walk_pages(small_pages, "pl")
    assert names[-3:] == ["Zenon", "Źdźbło", "Żaneta"]
