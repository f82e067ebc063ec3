"""On a phone: "Keep the screen on" on the game page, with the Wake Lock where the browser
has it (HTTPS, localhost) and over plain HTTP with the silent video started by a tap."""
import pytest

from scorekeeper.domain import service
from scorekeeper.web.db import get_db

from .conftest import at_table, shot

PLAYERS = ["Ala", "Bożena", "Czesław", "Żaneta"]

#: Over plain HTTP on the table's Wi-Fi the browser has no Wake Lock API (secure contexts
#: only). 127.0.0.1 is a secure context in Chromium, so the test takes the API away as a
#: LAN address over HTTP would.
PLAIN_HTTP = "delete Navigator.prototype.wakeLock;"

VIDEO = "document.querySelector('video.keep-awake-video')"
STATE = "document.querySelector('[data-keep-awake]').dataset.state"


@pytest.fixture
def phone(open_phone):
    """``phone(init=None, **options)``: a phone (:meth:`conftest.Devices.phone`), ``init``
    run before its pages' scripts."""
    return lambda init=None, **options: open_phone(init=init, **options)


def game(app) -> str:
    with app.app_context():
        return service.create_game(get_db(), "standard-4", PLAYERS, 0)


def playing(page):
    """The video plays: not paused, and its time moves on (waited for, not timed)."""
    page.wait_for_function(f"() => {VIDEO} && !{VIDEO}.paused && {VIDEO}.readyState >= 2")
    page.evaluate(f"window.seen = {VIDEO}.currentTime")
    page.wait_for_function(f"() => {VIDEO}.currentTime !== window.seen && !{VIDEO}.paused")


def test_over_plain_http_the_video_keeps_the_screen_on_and_the_toggle_stops_it(
        phone, server_app):
    app, base = server_app
    gid = game(app)
    page = phone(PLAIN_HTTP)
    at_table(page, app, base, gid)
    assert page.evaluate("'wakeLock' in navigator") is False
    toggle = page.get_by_label("Keep the screen on")
    assert toggle.is_visible() and toggle.is_checked()  # on unless this phone said otherwise
    playing(page)  # Chromium lets a muted video start without a tap
    page.wait_for_function(f"() => {STATE} === 'on'")
    video = page.evaluate(f"""(() => {{ const v = {VIDEO}; const box = v.getBoundingClientRect();
        return {{muted: v.muted, loop: v.loop, inline: v.hasAttribute('playsinline'),
                 source: v.currentSrc,
                 covers: box.width >= innerWidth && box.height >= innerHeight,
                 under: getComputedStyle(v).zIndex, taps: getComputedStyle(v).pointerEvents}};
        }})()""")
    # Chromium keeps the screen on for a muted video that covers the window; it sits under
    # the page and takes no tap.
    assert video["muted"] and not video["loop"] and video["inline"]
    assert video["source"].startswith(f"{base}/static/keepawake.")
    assert video["covers"] and video["under"] == "-1" and video["taps"] == "none"
    assert page.locator("h1").first.evaluate(
        "h => document.elementFromPoint(h.getBoundingClientRect().x + 2, "
        "h.getBoundingClientRect().y + 2) === h || h.contains(document.elementFromPoint("
        "h.getBoundingClientRect().x + 2, h.getBoundingClientRect().y + 2))")
    shot(page, "keep-awake-on-en-360")

    toggle.tap()  # off: the video stops, and this phone remembers it
    page.wait_for_function(f"() => {VIDEO}.paused")
    assert not toggle.is_checked() and page.evaluate(STATE) == "off"
    page.reload()
    page.locator("h1").first.tap()
    assert not toggle.is_checked() and page.evaluate(STATE) == "off"
    assert page.evaluate(f"!{VIDEO} || {VIDEO}.paused")

    toggle.tap()  # on again
    playing(page)
    page.wait_for_function(f"() => {STATE} === 'on'")
    assert toggle.is_checked()
    page.reload()
    assert page.get_by_label("Keep the screen on").is_checked()
    assert page.errors == []


#: Safari plays the (unmuted) video only from a tap; Chromium's own rule for a video with
#: sound, put on every video here.
AFTER_A_TAP = """
const play = HTMLMediaElement.prototype.play;
HTMLMediaElement.prototype.play = function () {
  return navigator.userActivation.isActive ? play.call(this)
    : Promise.reject(new DOMException("a tap first", "NotAllowedError"));
};"""


@pytest.mark.parametrize("locale, width", [("pl-PL", 320), ("en-GB", 360)])
def test_a_video_that_waits_for_a_tap_starts_on_the_first_one(phone, server_app, locale,
                                                               width):
    app, base = server_app
    gid = game(app)
    page = phone(PLAIN_HTTP + AFTER_A_TAP, locale=locale, width=width)
    at_table(page, app, base, gid)
    label, wait = {"pl-PL": ("Nie wygaszaj ekranu", "(od następnego dotknięcia)"),
                   "en-GB": ("Keep the screen on", "(from your next tap)")}[locale]
    toggle = page.get_by_label(label)
    toggle.scroll_into_view_if_needed()
    assert toggle.is_checked() and page.evaluate(STATE) == "waiting"
    assert page.get_by_text(wait).is_visible()
    assert page.evaluate(f"!{VIDEO} || {VIDEO}.paused")
    shot(page, f"keep-awake-waiting-{locale[:2]}-{width}")
    page.locator("h1").first.tap()  # any tap on the page
    playing(page)
    page.wait_for_function(f"() => {STATE} === 'on'")  # said once the video plays
    assert not page.get_by_text(wait).is_visible()
    toggle.tap()
    page.wait_for_function(f"() => {VIDEO}.paused")
    toggle.tap()  # the toggle's own tap starts it again
    playing(page)
    assert page.errors == []


def test_with_the_wake_lock_the_toggle_takes_and_gives_back_the_lock(phone, server_app):
    app, base = server_app
    gid = game(app)
    page = phone()
    at_table(page, app, base, gid)
    assert page.evaluate("'wakeLock' in navigator") is True
    page.wait_for_function(f"() => {STATE} === 'on'")
    assert page.evaluate("document.querySelector('[data-keep-awake]').dataset.way") \
        == "wake-lock"
    assert page.evaluate(f"{VIDEO}") is None  # no video where the lock is had
    toggle = page.get_by_label("Keep the screen on")
    toggle.tap()
    page.wait_for_function(f"() => {STATE} === 'off'")
    toggle.tap()
    page.wait_for_function(f"() => {STATE} === 'on'")
    assert page.errors == []
