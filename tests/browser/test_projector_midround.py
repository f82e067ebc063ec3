"""The projector mid-round at 1920×1080 (issue 35): every player in sight up to 40 players
(standings in columns), a larger field paged by the server (issue 34) with a visible
counter that turns by itself; the standings count the deals entered so far, marked in
play; each table's deal in words."""
import pytest

from scorekeeper.web.db import get_db
from tests.midround import mid_round

from .conftest import PROJECTOR, expect, shot

WAIT_MS = 15_000  # the page turns by itself every few seconds: a page's turn is awaited


def open_screen(open_projector, server_app, count, locale="en-GB"):
    app, base = server_app
    with app.app_context():
        t = mid_round(get_db(), count)
    screen = open_projector(locale=locale, timeout=WAIT_MS)
    screen.goto(f"{base}/tournaments/{t.id}/screen")
    expect(screen.locator(".tour-box")).to_have_attribute("data-stream", "open")
    return t, screen


def inside(box) -> bool:
    return (box is not None and box["x"] >= 0 and box["y"] >= 0
            and box["x"] + box["width"] <= PROJECTOR["width"]
            and box["y"] + box["height"] <= PROJECTOR["height"])


#: Whether every shown line's points sit whole on one line in their column.
POINTS_WHOLE = """() => Array.from(document.querySelectorAll('.screen-rows li:not([hidden]) .pts'))
  .every(p => p.scrollWidth <= p.clientWidth + 1
              && p.getBoundingClientRect().height < 1.6 * parseFloat(getComputedStyle(p).fontSize))"""


def shown_names(screen) -> dict[str, bool]:
    """Each standings name on the screen now, and whether it lies whole inside it."""
    assert screen.evaluate(POINTS_WHOLE)
    out = {}
    for row in screen.locator(".screen-rows li").all():
        if row.is_visible():
            name = row.locator(".sname")
            out[name.inner_text()] = inside(name.bounding_box()) and inside(row.bounding_box())
    return out


@pytest.mark.parametrize("count,locale", [(16, "en-GB"), (40, "pl-PL"), (16, "pl-PL"),
                                          (40, "en-GB")])
def test_every_player_in_sight_mid_round(open_projector, server_app, count, locale):
    t, screen = open_screen(open_projector, server_app, count, locale)
    shown = shown_names(screen)
    assert set(shown) == {p.name for p in t.players.values()}  # everyone, on one page
    assert all(shown.values()), [n for n, whole in shown.items() if not whole]
    assert screen.locator("[data-page-no]").first.inner_text() == ""  # no second page
    # mid-round: the standings hold the deals so far, marked in play
    in_play = screen.locator(".screen-rows li[data-in-play]")
    assert in_play.count() > 0
    expect(screen.locator(".in-play-note")).to_be_visible()
    assert any(p != "0" for p in screen.locator(".screen-rows .pts").all_inner_texts())
    # each table says which deal it plays, in words; the finished one is marked to sign
    words = "deal 7 of 12" if locale == "en-GB" else "rozdanie 7 z 12"
    table = next(tb for tb in t.rounds[0] if tb.deals == 6)
    expect(screen.locator(f'.screen-grid li[data-table="{table.number}"]')).to_contain_text(words)
    expect(screen.locator('.screen-grid li[data-signed="no"]')).to_have_count(
        len([tb for tb in t.rounds[0] if tb.finished]))
    assert not screen.locator(".screen-grid").inner_text().count("/12")
    for cell in screen.locator(".screen-grid li").all():
        assert inside(cell.bounding_box())
    assert screen.evaluate("document.documentElement.scrollWidth") <= PROJECTOR["width"]
    shot(screen, f"projector-midround-{count}-{locale}")
    assert not screen.errors


def test_a_larger_field_pages_with_a_counter_that_turns_by_itself(open_projector, server_app):
    t, screen = open_screen(open_projector, server_app, 64)
    counter = screen.locator(".screen-standings [data-page-no]")
    expect(counter).to_have_text("1/2")
    expect(counter).to_be_visible()
    first = shown_names(screen)
    assert all(first.values()) and len(first) >= 40
    # the server sent this page alone (issue 34), not the whole field hidden in the page
    assert screen.locator(".screen-rows li").count() == 40
    shot(screen, "projector-midround-64-page-1")
    expect(counter).to_have_text("2/2", timeout=WAIT_MS)  # turned by itself
    second = shown_names(screen)
    assert all(second.values())
    shot(screen, "projector-midround-64-page-2")
    assert set(first) | set(second) == {p.name for p in t.players.values()}
    assert not set(first) & set(second)


def test_without_script_the_projector_turns_its_pages_itself(devices, server_app):
    """A projector whose browser runs no script (issue 34: the server sends one page) shows
    the first page of a large field whole, its counter, and turns to the next by itself."""
    app, base = server_app
    with app.app_context():
        t = mid_round(get_db(), 64)
    screen = devices._open(None, WAIT_MS, viewport=PROJECTOR, device_scale_factor=1,
                           java_script_enabled=False)
    screen.goto(f"{base}/tournaments/{t.id}/screen")
    counter = screen.locator(".screen-standings [data-page-no]")
    expect(counter).to_have_text("1/2")
    first = {n.inner_text() for n in screen.locator(".screen-rows .sname").all()}
    assert len(first) == 40
    expect(counter).to_have_text("2/2", timeout=WAIT_MS)  # refreshed to the next page
    second = {n.inner_text() for n in screen.locator(".screen-rows .sname").all()}
    assert first | second == {p.name for p in t.players.values()}
    shot(screen, "projector-midround-64-no-script-page-2")
