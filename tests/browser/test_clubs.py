"""Clubs in real browsers (issue 36), at 360 px: a manager makes a private club on a phone,
a second phone joins by the invitation link and starts a game in the club, the club's page
lists its players; the pages at 360 and 1920 px, in Polish and in English, land in
tests/artifacts/ (clubs-*.png)."""
import pytest

from .conftest import expect, shot

NAMES = ["Ania", "Bożena", "Czesław", "Katarzyna Wiśniewska-Nowakowska"]
WAIT_MS = 15_000


def no_sideways_scroll(page):
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


@pytest.mark.parametrize("locale", ["pl-PL", "en-GB"])
def test_a_club_made_an_invitation_by_link_and_a_game_in_the_club(devices, locale):
    lang = locale[:2]
    manager = devices.phone(width=360, height=780, locale=locale, timeout=WAIT_MS)
    manager.goto(manager.base + "/")
    manager.locator("a[href='/clubs']").click()
    manager.wait_for_url("**/clubs")
    no_sideways_scroll(manager)
    shot(manager, f"clubs-index-360-{lang}")
    manager.fill("form[action='/clubs/new'] input[name=name]", "Czwartki <u>u Zosi</u>")
    manager.locator("form[action='/clubs/new'] input[name=public]").uncheck()
    manager.locator("form[action='/clubs/new'] button[type=submit]").click()
    manager.wait_for_selector("[data-invite-code]")
    expect(manager.locator("h1.club-name")).to_have_text("Czwartki <u>u Zosi</u>")
    cid = manager.url.rsplit("/", 1)[1]
    link = manager.locator("[data-invite-link]").inner_text().replace("\n", "")
    code = manager.locator("[data-invite-code]").inner_text().replace(" ", "")
    assert link.endswith(f"/clubs/join/{code}")
    assert manager.locator("#invite svg").count() == 1  # the QR code
    no_sideways_scroll(manager)
    shot(manager, f"clubs-manager-360-{lang}")

    guest = devices.phone(width=360, height=780, locale=locale, timeout=WAIT_MS)
    guest.goto(f"{guest.base}/clubs/{cid}")
    assert guest.locator("h1.club-name").count() == 0  # private: not found
    guest.goto(link)
    guest.wait_for_url(f"**/clubs/{cid}")
    expect(guest.locator("h1.club-name")).to_be_visible()
    assert guest.locator("#invite").count() == 0 and guest.locator("#manage").count() == 0
    no_sideways_scroll(guest)
    shot(guest, f"clubs-member-360-{lang}")

    guest.locator(f"a[href='/clubs/{cid}/games/new']").click()
    expect(guest.locator(".club-of")).to_contain_text("Czwartki")
    guest.select_option("select[name=ruleset]", "standard-4")
    for i, name in enumerate(NAMES):
        guest.fill(f"input[name=player_{i}]", name)
    guest.locator("form button[type=submit].primary").click()
    guest.wait_for_url("**/games/*")
    expect(guest.locator("body")).to_contain_text("Katarzyna Wiśniewska-Nowakowska")

    manager.goto(f"{manager.base}/clubs/{cid}")
    for name in NAMES:
        expect(manager.locator("ul.games").first).to_contain_text(name)
    no_sideways_scroll(manager)
    shot(manager, f"clubs-manager-after-360-{lang}")
    manager.fill("form[action$='/directors'] input[name=name]", "Kasia Wiśniewska-Nowakowska")
    manager.locator("form[action$='/directors'] button[type=submit]").click()
    manager.wait_for_url("**#directors")
    expect(manager.locator("ul.directors")).to_contain_text("Kasia Wiśniewska-Nowakowska")
    no_sideways_scroll(manager)
    shot(manager, f"clubs-directors-360-{lang}")
    manager.goto(f"{manager.base}/players")
    assert "Bożena" not in manager.locator("main").inner_text()  # the home club's list

    wide = devices.phone(width=1920, height=1080, locale=locale, timeout=WAIT_MS)
    wide.goto(link)
    wide.wait_for_url(f"**/clubs/{cid}")
    shot(wide, f"clubs-member-1920-{lang}")
    manager.set_viewport_size({"width": 1920, "height": 1080})
    manager.goto(f"{manager.base}/clubs/{cid}")
    shot(manager, f"clubs-manager-1920-{lang}")
    assert not manager.errors and not guest.errors and not wide.errors
