"""The live table's event stream, in process: ``GET /games/<gid>/events``.

Each test reads a bounded number of events from the response's iterator; a stream lives
``LIVE_STREAM_SECONDS`` (30 s here: generous, for a busy machine), so a missing event
fails a test instead of hanging it. No test asserts how fast anything was.
"""
import json
import time

import pytest

from scorekeeper import create_app
from scorekeeper.domain import service
from scorekeeper.families.kierki.rules import get_ruleset
from scorekeeper.storage import connection
from scorekeeper.web import live
from tests.fixtures import join, new_game, post_deal, results_for, state

RESULTS = results_for(get_ruleset("standard-4"))


def live_app(tmp_path):
    """An app whose streams poll, beat and end quickly enough for a test."""
    return create_app({"DATABASE": str(tmp_path / "test.sqlite"), "SECRET_KEY": "test",
                       "TESTING": True, "WTF_CSRF_ENABLED": False,
                       "LIVE_POLL_SECONDS": 0.02, "LIVE_HEARTBEAT_SECONDS": 0.2,
                       "LIVE_STREAM_SECONDS": 30})


@pytest.fixture
def app(tmp_path):
    return live_app(tmp_path)


class Stream:
    """The events of one open stream, read one at a time."""

    def __init__(self, response):
        self.response = response
        self.chunks = iter(response.response)
        self.buffer = ""

    def next(self) -> dict:
        """The next block (an event or a comment) as {field: value}; {} once it has ended."""
        while "\n\n" not in self.buffer:
            try:
                chunk = next(self.chunks)
            except StopIteration:
                return {}
            self.buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        block, self.buffer = self.buffer.split("\n\n", 1)
        fields: dict = {}
        for line in block.splitlines():
            name, _, value = line.partition(":")
            fields[name or "comment"] = value.strip()
        return fields

    def next_event(self) -> dict:
        """The next event, heartbeats skipped."""
        while True:
            block = self.next()
            if not block or "event" in block:
                return block

    def close(self):
        self.response.close()


def open_stream(client, gid, **headers) -> Stream:
    r = client.get(f"/games/{gid}/events", headers=headers)
    assert r.status_code == 200
    return Stream(r)


def version_of(event: dict) -> int:
    assert event.get("event") == "version", event
    data = json.loads(event["data"])
    assert int(event["id"]) == data["version"]
    return data["version"]


def test_the_stream_is_an_uncompressed_uncached_event_stream(client):
    gid = new_game(client)
    r = client.get(f"/games/{gid}/events", headers={"Accept-Encoding": "gzip"})
    try:
        assert r.status_code == 200
        assert r.mimetype == "text/event-stream"
        assert r.headers["Cache-Control"] == "no-store"
        assert r.headers["X-Accel-Buffering"] == "no"
        assert "Content-Encoding" not in r.headers and "Content-Length" not in r.headers
        assert r.is_streamed
        assert "connect-src 'self'" in r.headers["Content-Security-Policy"]
        assert "Server" not in r.headers
    finally:
        r.close()


def test_the_first_event_carries_the_current_version(app, client):
    gid = new_game(client)
    assert post_deal(client, gid, 1, 1, RESULTS[0]).status_code == 302
    stream = open_stream(client, gid)
    try:
        first = stream.next()
        assert first["retry"] == str(live.RETRY_MS)  # the browser reconnects after 1 s
        assert version_of(first) == state(app, gid).version == 2
    finally:
        stream.close()


def test_a_deal_saved_on_another_phone_is_an_event_at_once(app, client):
    gid = new_game(client)
    stream = open_stream(client, gid)
    other = join(app.test_client(), app, gid)  # the table's other phone
    try:
        assert version_of(stream.next_event()) == 1
        assert post_deal(other, gid, 1, 1, RESULTS[0]).status_code == 302
        assert version_of(stream.next_event()) == 2
        assert other.post(f"/games/{gid}/undo", data={"version": 2}).status_code == 302
        assert version_of(stream.next_event()) == 3
    finally:
        stream.close()


def test_a_change_made_elsewhere_is_found_by_the_database_check(app, client):
    """Another process (here: a connection of its own, no request to this app) writes:
    the watcher's poll finds it."""
    gid = new_game(client)
    stream = open_stream(client, gid)
    db = connection.connect(app.config["DATABASE"])
    try:
        assert version_of(stream.next_event()) == 1
        game = service.load(db, gid)
        service.enter_deal(db, game, 1, RESULTS[0], game.version)
        assert version_of(stream.next_event()) == 2
    finally:
        db.close()
        stream.close()


def test_last_event_id_gets_a_missed_change_at_once(app, client):
    gid = new_game(client)
    assert post_deal(client, gid, 1, 1, RESULTS[0]).status_code == 302
    missed = open_stream(client, gid, **{"Last-Event-ID": "1"})  # it saw version 1
    try:
        assert version_of(missed.next_event()) == 2
    finally:
        missed.close()
    current = open_stream(client, gid, **{"Last-Event-ID": "2"})  # nothing new for it
    try:
        first = current.next()
        assert "event" not in first and "comment" in first  # not the version again
        assert post_deal(client, gid, 2, 2, RESULTS[1]).status_code == 302
        assert version_of(current.next_event()) == 3
    finally:
        current.close()


def test_heartbeats_and_a_bounded_life(app, client):
    app.config.update(LIVE_STREAM_SECONDS=0.7)
    gid = new_game(client)
    stream = open_stream(client, gid)
    blocks = []
    while block := stream.next():
        blocks.append(block)
        assert len(blocks) < 500, "the stream did not end"  # 100 s of heartbeats
    stream.close()
    comments = [b for b in blocks if "comment" in b]
    assert len(comments) >= 2  # every 0.2 s here, every 15 s by default: it lived a while
    assert [version_of(b) for b in blocks if "event" in b] == [1]


def test_a_deleted_game_says_so_and_ends(app, client):
    gid = new_game(client)
    stream = open_stream(client, gid)
    try:
        assert version_of(stream.next_event()) == 1
        assert client.post(f"/games/{gid}/delete", data={"version": 1}).status_code == 302
        assert stream.next_event()["event"] == "gone"
        assert stream.next() == {}
    finally:
        stream.close()
    assert client.get(f"/games/{gid}/events").status_code == 404


def test_an_unknown_game_is_404(client):
    r = client.get("/games/no-such-game/events")
    assert r.status_code == 404
    assert r.mimetype == "text/html"


def test_the_watcher_runs_only_while_someone_watches(app, client):
    gid, other = new_game(client), new_game(client)
    a, b = open_stream(client, gid), open_stream(client, other)
    a.next_event(), b.next_event()
    watcher = app.extensions["live"]
    assert watcher._thread is not None and set(watcher._streams) == {gid, other}
    a.close()
    assert set(watcher._streams) == {other}
    b.close()
    deadline = time.monotonic() + 30
    while watcher._thread is not None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert watcher._thread is None and not watcher._streams


def test_a_finished_rounds_game_hears_the_next_round_and_says_where_everyone_sits(app, client):
    """A tournament's game whose round is over: its stream tells of the next round drawn
    (an event of its own, the version's id left alone), a stream opened later and the
    polled version say it at once, and the fragment its page fetches names each of the
    table's players' new table and seat, a link to its game."""
    from scorekeeper.domain import tournaments
    from scorekeeper.web.db import get_db
    from tests.store.test_tournaments import finish

    names = ["Ala", "Bożena", "Czesław", "Darek", "Ewa", "Franciszek", "Gosia", "Henryk"]
    with app.app_context():
        t = tournaments.create(get_db(), "Piątek", names, 2, {"4": "standard-4"}, seed="x")
        for i, table in enumerate(t.rounds[0]):
            finish(get_db(), table.game_id, loser_seat=i)
    gid = t.rounds[0][0].game_id
    assert "round" not in client.get(f"/games/{gid}/version").get_json()
    stream = open_stream(client, gid)
    try:
        before = version_of(stream.next_event())
        with app.app_context():
            t = tournaments.draw_next(get_db(), t.id, 2)
        event = stream.next_event()
        assert event["event"] == "round" and "id" not in event
        assert json.loads(event["data"]) == {"round": 2, "spread": 1.0}
    finally:
        stream.close()
    assert client.get(f"/games/{gid}/version").get_json() == {"version": before, "round": 2}
    later = open_stream(client, gid, **{"Last-Event-ID": str(before)})
    try:
        assert json.loads(later.next_event()["data"]) == {"round": 2, "spread": 1.0}
    finally:
        later.close()
    html = client.get(f"/games/{gid}/next-round").get_data(as_text=True)
    for number in t.rounds[0][0].seats:
        table, seat = t.seat_of(number, 2)
        assert (f'href="/games/{table.game_id}">{t.name_of(number)}: table {table.number}, '
                f"seat {seat + 1}</a>") in html
    # a game of round 2 has no later round: nothing to say, and no such fragment elsewhere
    assert "round" not in client.get(f"/games/{t.rounds[1][0].game_id}/version").get_json()
    assert client.get(f"/games/{new_game(client)}/next-round").status_code == 404
