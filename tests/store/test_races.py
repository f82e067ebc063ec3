"""Writers at the same moment on a real threaded server: none is refused for a lock.

Every write takes SQLite's write lock at its start (``BEGIN IMMEDIATE``) and waits for
it (``busy_timeout``); with deferred transactions some of these writers got
``database is locked`` (HTTP 500) instead.
"""
import http.client
import json
import sqlite3
import threading
import uuid

import pytest

from scorekeeper import create_app
from scorekeeper.families.kierki.rules import get_ruleset
from scorekeeper.families.kierki.rules.examples import plausible_results

CREATORS = 16
IMPORTERS = 8
PLAYERS = ["Ala", "Bożena", "Czesław", "Darek"]


@pytest.fixture
def served(tmp_path):
    """A real threaded server (a thread per request, like a table of phones)."""
    from werkzeug.serving import make_server

    path = tmp_path / "races.sqlite"
    app = create_app({"DATABASE": str(path), "SECRET_KEY": "x", "TESTING": True,
                      "WTF_CSRF_ENABLED": False})
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv.server_port, path
    srv.shutdown()
    thread.join()


def call(port, method, url, body=b"", headers=None):
    """One request on its own connection; (status, headers, body). Redirects are not followed."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request(method, url, body=body, headers=headers or {})
        r = conn.getresponse()
        return r.status, dict(r.getheaders()), r.read()
    finally:
        conn.close()


def create(port):
    body = json.dumps({"ruleset": "standard-4", "players": PLAYERS, "first_dealer": 0})
    return call(port, "POST", "/api/games", body.encode(), {"Content-Type": "application/json"})


def upload(port, raw: bytes):
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; "
            f"filename=\"game.json\"\r\nContent-Type: application/json\r\n\r\n").encode() \
        + raw + f"\r\n--{boundary}--\r\n".encode()
    return call(port, "POST", "/games/import", body,
                {"Content-Type": f"multipart/form-data; boundary={boundary}"})


def test_creators_and_importers_at_the_same_moment_are_all_stored(served):
    port, path = served
    status, _, body = create(port)
    assert status == 201
    source, token = json.loads(body)["id"], json.loads(body)["token"]
    for number, raw in enumerate(plausible_results(get_ruleset("standard-4"))[:3], start=1):
        status, _, _ = call(port, "PUT", f"/api/games/{source}/deals/{number}",
                            json.dumps({"version": number, "result": raw}).encode(),
                            {"Content-Type": "application/json",
                             "Authorization": f"Bearer {token}"})
        assert status == 200
    status, _, exported = call(port, "GET", f"/games/{source}/export.json")
    assert status == 200

    barrier = threading.Barrier(CREATORS + IMPORTERS)
    answers: list[tuple[str, int, str]] = []  # (kind, status, new game's id)
    lock = threading.Lock()

    def creator():
        barrier.wait()
        status, _, body = create(port)
        gid = json.loads(body)["id"] if status == 201 else ""
        with lock:
            answers.append(("create", status, gid))

    def importer():
        barrier.wait()
        status, headers, _ = upload(port, exported)
        gid = headers.get("Location", "").rstrip("/").rsplit("/", 1)[-1] if status == 302 else ""
        with lock:
            answers.append(("import", status, gid))

    threads = [threading.Thread(target=creator) for _ in range(CREATORS)] \
        + [threading.Thread(target=importer) for _ in range(IMPORTERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads)

    statuses = sorted((kind, status) for kind, status, _ in answers)
    failed = [s for s in statuses if s[1] >= 500]
    assert failed == [], f"{len(failed)} of {len(statuses)} writers answered 5xx"
    assert statuses == [("create", 201)] * CREATORS + [("import", 302)] * IMPORTERS

    db = sqlite3.connect(path)
    try:
        assert db.execute("pragma integrity_check").fetchone()[0] == "ok"
        stored = {gid for (gid,) in db.execute("select id from games")}
        assert len(stored) == 1 + CREATORS + IMPORTERS
        assert stored == {source} | {gid for _, _, gid in answers}
        imported = [gid for kind, _, gid in answers if kind == "import"]
        for gid in imported:  # each import is the whole game, not a part of it
            assert db.execute("select count(*) from deals where game_id = ?",
                              [gid]).fetchone()[0] == 3
            assert db.execute("select count(*) from players where game_id = ?",
                              [gid]).fetchone()[0] == 4
    finally:
        db.close()
