"""A club's season in real browsers (issue 36): the manager names the season on a phone,
the season table with every player's rating, a player's nights and head to head, at
360 px and 1920 px, in Polish and English; nothing wider than the phone. Screenshots in
tests/artifacts/ (season-*)."""
import re

import pytest

from scorekeeper.domain import clubs
from scorekeeper.storage import connection
from scorekeeper.web import access
from tests.web.test_seasons_web import play_night

from .conftest import expect, shot

EIGHT = ["Ala", "Bożena", "Czesław", "Darek", "Ewa", "Franciszek",
         "Katarzyna Wiśniewska-Nowakowska", "Łucja"]


def night(db, club, name, loser):
    return play_night(db, club, name, loser, EIGHT)


@pytest.fixture
def season_club(server_app):
    app, base = server_app
    db = connection.connect(app.config["DATABASE"])
    try:
        club = clubs.create(db, "Kierki w Czwartki", public=False)
        night(db, club.id, "Czwartek 1", "Darek")
        night(db, club.id, "Czwartek 2", "Ala")
    finally:
        db.close()
    with app.test_request_context():
        token = access.club_token(club.id)
    return base, club.id, token


def _fits(page) -> None:
    """Nothing wider than the screen, and the season table needs no sideways scroll."""
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= page.viewport_size["width"], wide
    inner = page.evaluate("[...document.querySelectorAll('.table-wrap')]"
                          ".map(w => w.scrollWidth - w.clientWidth)")
    assert all(x <= 0 for x in inner), inner


@pytest.mark.parametrize("locale,words", [
    ("en-GB", {"season": "Season", "rating": "Rating", "h2h": "Head to head",
               "save": "Save the season", "name": "Name a season", "compare": "Compare"}),
    ("pl-PL", {"season": "Sezon", "rating": "Ranking", "h2h": "Bilans bezpośredni",
               "save": "Zapisz sezon", "name": "Nazwij sezon", "compare": "Porównaj"}),
])
def test_the_season_table_and_a_players_nights(devices, season_club, locale, words):
    base, cid, token = season_club
    lang = locale[:2]
    stranger = devices.phone(locale=locale)
    assert stranger.goto(f"{base}/clubs/{cid}/season").status == 404  # a private club
    phone = devices.phone(locale=locale)
    phone.goto(f"{base}/clubs/{cid}/manage/{token}")  # the manager's link
    phone.goto(f"{base}/clubs/{cid}/season")
    phone.get_by_text(words["name"]).click()
    phone.fill("input[name=name]", "Jesień 2026" if lang == "pl" else "Autumn 2026")
    phone.fill("input[name=starts]", "2000-01-01")
    phone.fill("input[name=ends]", "2099-12-31")
    phone.select_option("select[name=scoring]", "places")
    phone.get_by_role("button", name=words["save"]).click()
    phone.wait_for_url(re.compile(r"season=\w+"))
    expect(phone.locator("h1")).to_contain_text(words["season"])
    rows = phone.locator(".season-table tbody tr")
    expect(rows).to_have_count(8)
    expect(phone.locator(".season-table thead")).to_contain_text(words["rating"])
    assert phone.locator(".season-table tbody tr").first.locator("td").first \
        .inner_text().strip() == "1"
    _fits(phone)
    shot(phone, f"season-table-360-{lang}")
    big = devices.projector(locale=locale)  # a member's big screen: the manager's link too
    big.goto(f"{base}/clubs/{cid}/manage/{token}")
    big.goto(phone.url)
    expect(big.locator(".season-table tbody tr")).to_have_count(8)
    shot(big, f"season-table-1920-{lang}")
    phone.get_by_role("link", name="Katarzyna Wiśniewska-Nowakowska").click()
    expect(phone.locator("h1")).to_have_text("Katarzyna Wiśniewska-Nowakowska")
    expect(phone.locator(".season-history li")).to_have_count(2)
    phone.select_option("select[name=with]", label="Darek")
    phone.get_by_role("button", name=words["compare"], exact=True).click()
    expect(phone.locator(".h2h")).to_be_visible()
    expect(phone.locator("#h2h")).to_contain_text(words["h2h"])
    _fits(phone)
    shot(phone, f"season-player-360-{lang}")
    big.goto(phone.url)
    expect(big.locator(".season-history li")).to_have_count(2)
    shot(big, f"season-player-1920-{lang}")
    assert phone.errors == [] and big.errors == []
