"""A phone whose live stream is refused (the server's stream budget is spent: 503 with
``Retry-After``) still follows the game: ``static/follow.js`` asks for the version every
5 s instead, and the page works as before; a minute on it tries the stream again."""
import threading
import time

from .conftest import expect, shot
from .test_live import (
    deal_title,
    enter_tricks,
    not_reloaded,
    open_live,
    save,
    start_game,
)


def test_a_phone_past_the_stream_budget_polls_and_still_follows(open_phone, server_app):
    server_app[0].config.update(LIVE_STREAM_LIMIT=1)  # the first phone's stream: the one place
    a, b = open_phone(), open_phone(locale="pl-PL")  # the second phone reads Polish
    url = start_game(a)
    expect(a.locator(".live")).to_have_attribute("data-stream", "open")
    refused = []
    b.on("response", lambda r: refused.append(r.status) if "/events" in r.url else None)
    open_live(b, url, stream="polling")
    assert 503 in refused
    enter_tricks(a, [1, 4, 5, 3])
    save(a)
    started = time.monotonic()
    expect(b.locator(".live")).to_have_attribute("data-version", "2", timeout=20_000)
    print(f"\npolled update after {time.monotonic() - started:.1f} s")
    assert deal_title(b) == "Rozdanie 2 z 12" and not_reloaded(b)
    shot(b, "live-refused-polling")


def test_a_refused_phone_tries_the_stream_again_once_a_place_is_free(open_phone, server_app):
    """Polling is the fallback, not for good: a minute on (the page's clock moved on here),
    the refused phone tries the stream again and, a place having come free, keeps it."""
    from scorekeeper.web.live import budget
    app = server_app[0]
    # the first phone's stream takes the one place; the server sees it gone at a heartbeat
    app.config.update(LIVE_STREAM_LIMIT=1, LIVE_HEARTBEAT_SECONDS=0.2)
    a, b = open_phone(), open_phone()
    url = start_game(a)
    expect(a.locator(".live")).to_have_attribute("data-stream", "open")
    b.clock.install()
    open_live(b, url, stream="polling")
    places, freed = budget(app), threading.Event()
    give_back = places._give_back
    places._give_back = lambda: (give_back(), freed.set())
    a.context.close()
    assert freed.wait(10), "the first phone's place never came free"
    b.clock.fast_forward(61_000)
    expect(b.locator(".live")).to_have_attribute("data-stream", "open")
    # not reloaded (the page's mark is there; the faked clock fakes performance too)
    assert b.evaluate("window.liveMark") == "kept" and not b.errors
