"""The robber checked as its cells are filled, at 360 and 320 px: what the numbers entered
already break shows beside the grid before Save (the server's own checks, nothing
stored), the cells concerned marked, and goes when it is put right; a row still blank
says nothing, only how far each count has got."""
import pytest
from playwright.sync_api import expect

from scorekeeper.domain import service
from scorekeeper.families.kierki.rules.examples import SAMPLE_GAME_4
from scorekeeper.web.db import get_db

from .conftest import ARTIFACTS, at_table

PLAYERS = ["Ala", "Bolek", "Cela", "Darek"]
Q_HEART = ("Only one player took the Q♥, yet these counts need it for this player and "
           "another one too (it counts under more than one heading).")


@pytest.fixture(params=[360, 320], ids=lambda w: f"{w}px")
def robber(request, open_phone, server_app):
    """A phone of the given width at deal 7 (the robber) of a standard-4 game."""
    app, base = server_app
    page = open_phone(width=request.param, height=740)
    page.width = request.param
    with app.app_context():
        db = get_db()
        gid = service.create_game(db, "standard-4", PLAYERS, 0)
        for number, raw in enumerate(SAMPLE_GAME_4[:6], start=1):
            service.enter_deal(db, service.load(db, gid), number, raw, number)
    page.version = lambda: service.load(get_db(), gid).version
    page.app = app
    at_table(page, app, base, gid)
    return page


def enter(page, seat, **counts):
    """Tap a player's cells and the picker's numbers, as a player does."""
    for part, value in counts.items():
        page.locator(f".robber #rc-{part}-{seat} .rcell").click()
        page.locator(f".dock-part[data-part={part}] button[data-v='{value}']").click()


def stored_version(page):
    with page.app.app_context():
        return page.version()


def test_a_card_claimed_by_two_players_shows_before_save_and_goes_when_fixed(robber):
    page = robber
    live = page.locator(".robber [data-live-check]")
    progress = page.locator(".robber [data-progress]")
    assert live.get_attribute("aria-live") == "polite"
    # Ala's row: one trick with four hearts and a queen: only the Q♥ makes it fit
    enter(page, 0, tricks=1, hearts=4, queens=1, gentlemen=0)
    expect(progress).to_contain_text("Tricks: 1 of 13")
    expect(progress).to_contain_text("Hearts ♥: 4 of 13")
    assert live.inner_text() == ""  # the others still blank: nothing to say yet
    # Bolek's row the same: there is one Q♥
    enter(page, 1, tricks=1, hearts=4, queens=1, gentlemen=0)
    # (one line for both: the message names each cell it concerns)
    expect(live).to_have_text(f"Ala · Hearts ♥; Bolek · Hearts ♥: {Q_HEART}")
    expect(progress).to_contain_text("Tricks: 2 of 13")
    for seat in (0, 1):
        assert "flagged" in page.locator(f"#rc-hearts-{seat}").get_attribute("class")
    assert "flagged" not in page.locator("#rc-hearts-2").get_attribute("class")
    save = page.get_by_role("button", name="Save deal 7")
    assert save.is_visible() and save.is_enabled()
    assert stored_version(page) == 7  # checking stored nothing
    width, inner = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width <= inner
    ARTIFACTS.mkdir(exist_ok=True)  # the screen as the player sees it, grid to messages
    page.locator(".robber").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"robber-live-{page.width}.png"))
    # Bolek took three hearts, not four: the message goes, and the marks with it
    enter(page, 1, hearts=3)
    expect(live).to_have_text("")
    assert page.locator(".robber .flagged").count() == 0
    expect(progress).to_contain_text("Hearts ♥: 7 of 13")


def test_checks_grow_with_the_rows_and_save_is_still_refused_by_the_server(robber):
    page = robber
    live = page.locator(".robber [data-live-check]")
    progress = page.locator(".robber [data-progress]")
    # a player with no trick and a heart: said as soon as that row is entered
    enter(page, 0, tricks=0, hearts=1, queens=0, gentlemen=0)
    message = "Ala · Hearts ♥: This player took no trick, so no penalty card."
    expect(live).to_have_text(message)
    enter(page, 0, hearts=0)
    expect(live).to_have_text("")
    # the rest, counts complete, then the K♥ to Darek, who took no heart
    enter(page, 1, tricks=4, hearts=3, queens=1, gentlemen=2)
    enter(page, 2, tricks=5, hearts=10)
    expect(progress).to_contain_text("Tricks: 13 of 13 ✓")
    expect(progress).to_contain_text("Hearts ♥: 13 of 13 ✓")
    expect(progress).to_contain_text("Queens: 1 of 4")
    enter(page, 2, queens=3, gentlemen=6)
    expect(progress).to_be_hidden()  # every count adds up: nothing more to count
    assert page.locator(".robber #rc-hearts-3 .rcell").inner_text() == "0"  # filled itself
    expect(live).to_have_text("")
    page.locator('.pick:has(input[name=king_of_hearts][value="3"])').click()
    king = "The player who took the king of hearts has at least one here."
    expect(live).to_have_text(f"Darek · Hearts ♥, Kings and jacks: {king}")
    # Save is still there: the server refuses it as it always did, and says the same
    page.locator('.pick:has(input[name=positions-0][value="2"])').click()
    page.locator('.pick:has(input[name=positions-1][value="1"])').click()
    with page.expect_navigation():
        page.get_by_role("button", name="Save deal 7").click()
    assert king in page.locator(".error-summary").inner_text()
    assert stored_version(page) == 7
