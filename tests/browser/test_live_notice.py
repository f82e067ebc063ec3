""""Entered elsewhere" said where the player is (issue 25, item 9): phone A is down at the
deal form, its taps half made, when phone B saves that deal. On A the notice is on the
screen, next to the Save button, and the button no longer names the old deal: it names the
deal the game is at now and goes there. Nothing of A's can be saved onto the old deal."""
import pytest

from scorekeeper.domain import service
from scorekeeper.families.kierki.rules import get_ruleset
from scorekeeper.web.db import get_db
from tests.fixtures import results_for

from .conftest import expect, shot
from .test_live import (
    CODES,
    PLAYERS,
    count_of,
    enter_tricks,
    not_reloaded,
    open_live,
    save,
    set_count,
    undo,
    wait_for_version,
)

SCREEN = 740


def phones_at(open_phone, server_app, width):
    server_app[0].config.update(LIVE_POLL_SECONDS=0.25)
    return [open_phone(width=width, height=SCREEN) for _ in range(2)]


@pytest.fixture(params=[320, 360])
def phones(request, open_phone, server_app):
    return phones_at(open_phone, server_app, request.param)


def new_game(app, deals_done=0) -> str:
    with app.app_context():
        db = get_db()
        gid = service.create_game(db, "standard-4", PLAYERS, 0)
        for number, raw in enumerate(results_for(get_ruleset("standard-4"))[:deals_done],
                                     start=1):
            service.enter_deal(db, service.load(db, gid), number, raw, number)
        CODES[gid] = service.load(db, gid).stored.join_code  # the phones join with it
    return gid


def on_screen(locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= -0.5 and box["y"] + box["height"] <= SCREEN + 0.5


def down_at_the_form(page):
    """The player scrolls to the foot of the deal form: the card's title is out of sight."""
    page.locator('[data-live="deal"] form.deal-form').evaluate(
        "f => window.scrollTo(0, f.getBoundingClientRect().bottom + window.scrollY"
        " - window.innerHeight + 40)")
    assert not on_screen(page.locator('[data-live="deal"] .deal-no'))


def test_the_notice_is_where_the_player_is_and_save_names_the_new_deal(phones, server_app):
    a, b = phones
    app, base = server_app
    url = f"{base}/games/{new_game(app)}"
    open_live(a, url)
    open_live(b, url)
    set_count(a, "tricks-0", 3)  # A has started deal 1, down at its form
    set_count(a, "tricks-1", 3)
    down_at_the_form(a)
    save_button = a.locator('[data-live="deal"] form.deal-form button.primary')
    assert save_button.inner_text() == "Save deal 1"
    taps = a.locator('[data-live="deal"] .qp-row').last  # the taps' place on the screen
    place = taps.bounding_box()["y"]

    enter_tricks(b, [1, 4, 5, 3])  # B enters deal 1
    save(b)
    wait_for_version(a, 2)
    note = a.locator('[data-live="deal"] [data-live-notice]')
    expect(note).to_have_count(1)
    assert note.inner_text().startswith(
        "Deal 1 was entered on another phone: Ala −20, Bożena −80, Czesław −100, Żaneta −60")
    assert on_screen(note), note.bounding_box()
    assert save_button.inner_text() == "Go to deal 2"  # not "Save deal 1" any more
    assert on_screen(save_button)
    assert abs(taps.bounding_box()["y"] - place) < 1  # nothing jumped
    assert count_of(a, "tricks-0") == "3"  # A's taps are still there to compare
    if a.viewport_size["width"] == 360:
        a.screenshot(path=str(shot(a, "live-notice-360").with_name("live-notice-360-screen.png")))

    save_button.click()  # goes to deal 2, not onto deal 1
    assert a.locator('[data-live="deal"] .deal-no').first.inner_text() == "Deal 2 of 12"
    assert note.count() == 0
    assert a.locator('[data-live="deal"] form.deal-form button.primary').inner_text() \
        == "Save deal 2"
    assert not_reloaded(a)
    with app.app_context():  # deal 1 is B's, once
        game = service.load(get_db(), a.url.rsplit("/", 1)[1].split("#")[0])
    assert game.recorded == 1
    assert game.state.scored[0].result["tricks"] == [1, 4, 5, 3]


def test_one_tap_buttons_are_switched_off_and_the_notice_names_the_deal(open_phone, server_app):
    """A trump deal saves with a tap on the suit: on the stale card the suits do nothing,
    and the notice's own button names the next deal."""
    a, b = phones_at(open_phone, server_app, 360)
    app, base = server_app
    url = f"{base}/games/{new_game(app, deals_done=7)}"  # deal 8: the first trump deal
    open_live(a, url)
    open_live(b, url)
    assert "Deal 8" in a.locator('[data-live="deal"] .deal-no').first.inner_text()
    enter_tricks(a, [4, 3, 3, 3])
    a.locator('[data-live="deal"] .suit-pick').first.scroll_into_view_if_needed()
    enter_tricks(b, [3, 3, 3, 4])
    b.locator('[data-live="deal"] .suit-pick').first.click()  # B saves deal 8, ♠
    b.wait_for_load_state()
    wait_for_version(a, 9)
    note = a.locator('[data-live="deal"] [data-live-notice]')
    expect(note).to_have_count(1)
    assert on_screen(note)
    assert a.locator('[data-live="deal"] .suit-pick:enabled').count() == 0
    go = note.get_by_role("button", name="Go to deal 9")
    assert on_screen(go)
    go.click()
    assert "Deal 9" in a.locator('[data-live="deal"] .deal-no').first.inner_text()
    assert a.locator('[data-live="deal"] .suit-pick:enabled').count() == 4


def test_the_deal_taken_back_elsewhere_gives_the_save_button_back(open_phone, server_app):
    """B saves deal 1 and takes it back: A's card is deal 1 again, its Save button saves."""
    a, b = phones_at(open_phone, server_app, 360)
    app, base = server_app
    url = f"{base}/games/{new_game(app)}"
    open_live(a, url)
    open_live(b, url)
    set_count(a, "tricks-0", 2)
    down_at_the_form(a)
    enter_tricks(b, [1, 4, 5, 3])
    save(b)
    wait_for_version(a, 2)
    save_button = a.locator('[data-live="deal"] form.deal-form button.primary')
    assert save_button.inner_text() == "Go to deal 2"
    undo(b)
    wait_for_version(a, 3)
    expect(a.locator("[data-live-notice]")).to_have_count(0)
    assert save_button.inner_text() == "Save deal 1"
    for seat, value in enumerate([2, 4, 4, 3]):
        set_count(a, f"tricks-{seat}", value)
    save_button.click()
    a.wait_for_load_state()
    assert a.locator('[data-live="deal"] .deal-no').first.inner_text() == "Deal 2 of 12"
    assert a.locator(".flash.error").count() == 0
