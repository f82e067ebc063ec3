"""One rematch per table, on two phones at 360 px (issue 35): one taps "Rematch"; the
other, left on the finished game, is told at once without a reload and follows with one
tap into the same new game, where it may enter deals."""
import pytest

from scorekeeper.families.kierki.rules.examples import SAMPLE_GAME_4
from tests.fixtures import play_api

from .conftest import at_table, expect, shot

PLAYERS = ["Ala", "Bożena", "Czesław", "Żaneta"]


@pytest.mark.parametrize("locale", ["en-GB", "pl-PL"])
def test_the_other_phone_follows_the_rematch_with_one_tap(open_phone, server_app, locale):
    app, base = server_app
    app.config.update(LIVE_POLL_SECONDS=0.25)
    gid = play_api(app.test_client(), "standard-4", PLAYERS, SAMPLE_GAME_4)[-1]["id"]
    first, second = open_phone(locale=locale), open_phone(locale=locale)
    for phone in (first, second):
        at_table(phone, app, base, gid)
        expect(phone.locator(".live")).to_have_attribute("data-stream", "open")
    second.evaluate("window.liveMark = 'kept'")
    rematch = first.locator('[data-live="rematch"] button[type=submit]')
    expect(rematch).to_be_visible()
    rematch.click()
    first.wait_for_url(lambda url: "/games/" in url and gid not in url)
    new = first.url
    expect(first.locator('[data-live="deal"] form')).to_be_visible()

    # the other phone, still on the finished game, is offered the same game at once
    started = second.locator('[data-live="rematch"] .rematch-started')
    expect(started).to_be_visible()
    join = second.locator('[data-live="rematch"] button[type=submit]')
    expect(join).to_be_visible()
    assert second.evaluate("window.liveMark") == "kept"  # told live, not reloaded
    box = join.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360  # on the screen, whole
    assert second.evaluate("document.documentElement.scrollWidth") <= 360
    shot(first, f"rematch-{locale}-first-phone")
    path = shot(second, f"rematch-{locale}-second-phone-offered")
    join.scroll_into_view_if_needed()  # and the screen as the player sees it
    second.screenshot(path=str(path.with_name(f"rematch-{locale}-second-phone-view.png")))
    join.click()  # one tap
    second.wait_for_url(new)
    expect(second.locator('[data-live="deal"] form')).to_be_visible()  # it writes the game
    shot(second, f"rematch-{locale}-second-phone-joined")
    assert not first.errors and not second.errors
