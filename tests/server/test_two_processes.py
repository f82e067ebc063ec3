"""Two ``kierki serve`` on one instance folder (the second with ``--workers 2``) serve
the same pages, API, live events and projector: a write on one is read at once on the
other, no process keeping anything the other's answers depend on."""
import http.client
import json
import time

import pytest

from scorekeeper.families.kierki.rules import get_ruleset
from tests.fixtures import results_for
from tests.server.serving import request, start_server
from tests.server.test_streams import Stream

RESULTS = results_for(get_ruleset("standard-4"))
PLAYERS = ["Ala", "Bożena", "Czesław", "Dorota", "Ewa", "Filip", "Gosia", "Henryk"]


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    folder = tmp_path_factory.mktemp("two")
    one, a = start_server(folder / "instance", folder / "one.log")
    two, b = start_server(folder / "instance", folder / "two.log", "--workers", "2")
    yield a, b
    for proc in (one, two):
        proc.terminate()
        proc.wait(10)


def new_tournament(port, name):
    """A two-round tournament of eight, made on the server at ``port``: its API answer."""
    status, _, body = request(port, "POST", "/api/tournaments", {
        "name": name, "players": PLAYERS, "rounds": 2, "rulesets": {"4": "standard-4"}})
    assert status == 201, body
    return json.loads(body)


def read(port, url):
    status, headers, body = request(port, "GET", url)
    assert status == 200, (url, body[:200])
    return headers, body


def test_a_deal_saved_on_one_is_read_at_once_on_the_other(servers):
    a, b = servers
    status, _, body = request(a, "POST", "/api/games", {
        "ruleset": "standard-4", "players": PLAYERS[:4], "first_dealer": 0})
    assert status == 201
    game = json.loads(body)
    gid = game["id"]
    stream = Stream(b, gid)  # a phone following the game on the other process
    try:
        assert stream.status() == 200 and stream.next_version() == 1
        page_before = read(b, f"/games/{gid}")[1]
        for n in (1, 2, 3):  # each deal saved on one process, read on the other
            status, _, _ = request(a, "PUT", f"/api/games/{gid}/deals/{n}",
                                   {"version": n, "result": RESULTS[n - 1]},
                                   token=game["token"])
            assert status == 200
            assert stream.next_version() == n + 1  # the live event, from the database
            for _ in range(3):  # whichever of b's processes answers
                api = json.loads(read(b, f"/api/games/{gid}")[1])
                assert api["version"] == n + 1 and len(api["deals"]) == n
        page_after = read(b, f"/games/{gid}")[1]
        assert page_after != page_before and b"Deal 4 of" in page_after
        # and the other way round: a write on b, read on a
        status, _, _ = request(b, "PUT", f"/api/games/{gid}/deals/4",
                               {"version": 4, "result": RESULTS[3]},
                               token=game["token"])
        assert status == 200
        assert json.loads(read(a, f"/api/games/{gid}")[1])["version"] == 5
        assert stream.next_version() == 5
    finally:
        stream.close()


def test_the_projector_on_one_follows_a_table_saving_on_the_other(servers):
    a, b = servers
    made = new_tournament(a, "Czwartek")
    tid, table = made["id"], made["round"]["tables"][0]
    screen = f"/tournaments/{tid}/screen?part=live"
    headers, before = read(b, screen)
    status, _, _ = request(a, "PUT", f"/api/games/{table['game']}/deals/1",
                           {"version": 1, "result": RESULTS[0]},
                           token=table["token"])
    assert status == 200
    for _ in range(3):  # whichever of b's processes answers
        _, after = read(b, screen)
        assert after != before
    status, _, _ = request(b, "GET", screen)
    assert status == 200
    # the tournament's version moved with its game: the old ETag no longer matches
    conn = http.client.HTTPConnection("127.0.0.1", b, timeout=30)
    try:
        conn.request("GET", screen, headers={"If-None-Match": headers["ETag"]})
        assert conn.getresponse().status == 200
    finally:
        conn.close()


def next_event(stream, patience=30.0):
    """The name of the stream's next named event (``version``, ``round``, ``gone``), if
    one comes within ``patience`` seconds (the heartbeats' comments skipped)."""
    end = time.monotonic() + patience
    while time.monotonic() < end and (line := stream.lines.readline()):
        if line.startswith(b"event: "):
            return line[7:].strip().decode()
    return None


def test_a_round_drawn_on_one_reaches_the_old_tables_phones_on_the_other(servers):
    a, b = servers
    made = new_tournament(a, "Piątek")
    tid, tables = made["id"], made["round"]["tables"]
    for table in tables:  # both tables of round 1 play to the end on a
        for n, result in enumerate(RESULTS, 1):
            status, _, body = request(a, "PUT", f"/api/games/{table['game']}/deals/{n}",
                                      {"version": n, "result": result}, token=table["token"])
            assert status == 200, body
    gid = tables[0]["game"]
    stream = Stream(b, gid)  # a phone at the finished table, following it on b
    try:
        assert stream.status() == 200 and next_event(stream) == "version"
        status, _, body = request(a, "POST", f"/api/tournaments/{tid}/rounds", {},
                                  token=made["token"])
        assert status == 201, body
        assert next_event(stream) == "round"  # from the database, not a's own events
    finally:
        stream.close()
