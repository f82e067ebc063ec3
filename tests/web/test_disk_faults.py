"""Faults are told: a full disk or a read-only database answers 507 (or 503) in the user's
language on every write path, logs one line naming the cause, and ``/healthz`` says so;
nothing acknowledged is lost, and the server saves again as soon as there is room.

SQLite's own "database or disk is full" is raised for real by a page limit on the
request's connection (``PRAGMA max_page_count``); as root, the instance also lives on a
small tmpfs that is filled. A read-only database is SQLite's own refusal too
(``PRAGMA query_only``)."""
import errno
import logging
import os
import subprocess
import uuid
from pathlib import Path

import pytest

from scorekeeper import create_app
from scorekeeper.families.kierki.rules.examples import SAMPLE_GAME_4
from scorekeeper.storage import game_writes
from scorekeeper.web.db import get_db

PL = {"Accept-Language": "pl"}
FULL_EN = "The server's disk is full; nothing was saved."
FULL_PL = "Dysk serwera jest pełny; nic nie zapisano."
NAMES = ["Ala", "Bolek", "Cela", "Darek"]
BIG_NIGHT = {"name": "Wielka noc", "players": [f"Gracz {n}" for n in range(200)],
             "rounds": 3, "rulesets": {"4": "standard-4"}}


def make_app(folder, **extra):
    return create_app({"DATABASE": str(folder / "kierki.sqlite"), "SECRET_KEY": "test",
                       "TESTING": True, "WTF_CSRF_ENABLED": False,
                       "PDF_CACHE_DIR": str(folder / "sheets"), **extra})


def count(app, table):
    with app.app_context():
        return get_db().conn.execute(f"select count(*) from {table}").fetchone()[0]


@pytest.fixture
def capped(tmp_path):
    """An app whose request connections may not grow the database file: the next write
    that needs a page raises SQLite's "database or disk is full"."""
    app = make_app(tmp_path)
    state = {"on": False, "read_only": False}

    @app.before_request
    def cap():
        db = get_db()
        pages = db.conn.execute("pragma page_count").fetchone()[0]
        db.conn.execute(f"pragma max_page_count = {pages if state['on'] else 2 ** 30}")
        db.conn.execute(f"pragma query_only = {int(state['read_only'])}")

    app.before_request_funcs[None].insert(0, app.before_request_funcs[None].pop())
    return app, state


def test_sqlites_disk_full_is_told_logged_and_nothing_is_saved(capped, caplog):
    app, state = capped
    client = app.test_client()
    tournaments = count(app, "tournaments")
    state["on"] = True
    with caplog.at_level(logging.ERROR):
        r = client.post("/api/tournaments", json=BIG_NIGHT, headers=PL)
    assert r.status_code == 507
    assert r.get_json()["error"].startswith(FULL_PL)
    assert "Retry-After" not in r.headers
    lines = [rec.getMessage() for rec in caplog.records if "disk full" in rec.getMessage()]
    assert len(lines) == 1 and "POST /api/tournaments" in lines[0] \
        and "database or disk is full" in lines[0]
    page = client.post("/tournaments/new", data={
        "name": "Noc", "players": "\n".join(BIG_NIGHT["players"]), "rounds": "3",
        "ruleset_4": "standard-4"})
    assert page.status_code in (507, 422)  # (422: the form's own check came first)
    state["on"] = False
    assert count(app, "tournaments") == tournaments  # nothing of it was saved
    again = client.post("/api/tournaments", json=BIG_NIGHT)  # room again: it saves
    assert again.status_code == 201


def test_a_read_only_database_is_told_and_healthz_says_so(capped, monkeypatch, caplog):
    app, state = capped
    client = app.test_client()
    state["read_only"] = True
    with caplog.at_level(logging.ERROR):
        r = client.post("/api/games", json={"ruleset": "standard-4", "players": NAMES})
    assert r.status_code == 503
    assert "read-only" in r.get_json()["error"] and "nothing was saved" in r.get_json()["error"]
    assert any("database read-only" in rec.getMessage() for rec in caplog.records)
    state["read_only"] = False
    assert client.get("/healthz").get_json() == {"status": "ok"}
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    health = client.get("/healthz")
    assert health.status_code == 503 and health.get_json() == {"status": "read_only"}


def test_every_write_path_answers_507_not_500(tmp_path, monkeypatch):
    """The deal's own path (before Flask, then Flask's), a form, a signature, a PDF."""
    app = make_app(tmp_path)
    client = app.test_client()
    game = client.post("/api/games", json={"ruleset": "standard-4", "players": NAMES,
                                           "first_dealer": 0}).get_json()
    auth = {"Authorization": f"Bearer {game['token']}"}
    ok = client.put(f"/api/games/{game['id']}/deals/1", headers=auth,
                    json={"version": 1, "result": SAMPLE_GAME_4[0]})
    assert ok.status_code == 200

    import sqlite3

    def full(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    for name in ("record_deal", "create_game", "remove_last_deal"):
        monkeypatch.setattr(game_writes, name, full)
    r = client.put(f"/api/games/{game['id']}/deals/2", headers=auth,
                   json={"version": 2, "result": SAMPLE_GAME_4[1]})
    assert r.status_code == 507 and r.get_json()["error"].startswith(FULL_EN)
    r = client.post("/games/new", data={"ruleset": "standard-4", "first_dealer": "0",
                                        **{f"player_{i}": n for i, n in enumerate(NAMES)}},
                    headers=PL)
    assert r.status_code == 507 and FULL_PL in r.text
    r = client.post(f"/api/games/{game['id']}/undo", headers=auth, json={"version": 2})
    assert r.status_code == 507
    monkeypatch.undo()
    # acknowledged: deal 1, still there
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 2

    from scorekeeper.outputs import pdf

    def no_room(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pdf.SheetCache, "put", no_room)
    client.post("/join", data={"code": game["join_code"]})
    r = client.get(f"/games/{game['id']}/sheet.pdf", headers=PL)
    assert r.status_code == 507 and FULL_PL in r.text


def _root():
    return os.geteuid() == 0 and os.path.exists("/bin/mount")


@pytest.fixture
def small_disk(tmp_path):
    if not _root():
        pytest.skip("mounting a small filesystem needs root")
    where = tmp_path / f"disk-{uuid.uuid4().hex[:6]}"
    where.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(where)],
                      capture_output=True, check=False).returncode:
        pytest.skip("this machine mounts no tmpfs")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def _fill(folder: Path) -> list[Path]:
    """Every block of the filesystem taken (big writes, then the last small ones)."""
    made = []
    for size in (65536, 512, 1):
        made.append(folder / f"filler-{size}")
        with open(made[-1], "wb", buffering=0) as f:
            try:
                while True:
                    f.write(b"\0" * size)
            except OSError:
                pass
    return made


def test_a_full_filesystem_then_room_again_then_read_only(small_disk, caplog):
    app = make_app(small_disk)
    client = app.test_client()
    game = client.post("/api/games", json={"ruleset": "standard-4", "players": NAMES,
                                           "first_dealer": 0}).get_json()
    auth = {"Authorization": f"Bearer {game['token']}"}
    version = 1
    for number, result in enumerate(SAMPLE_GAME_4[:3], start=1):
        r = client.put(f"/api/games/{game['id']}/deals/{number}", headers=auth,
                       json={"version": version, "result": result})
        assert r.status_code == 200
        version = r.get_json()["version"]
    assert client.get("/healthz").get_json() == {"status": "ok"}

    fillers = _fill(small_disk)
    health = client.get("/healthz")
    assert health.status_code == 503 and health.get_json() == {"status": "disk_full"}
    with caplog.at_level(logging.ERROR):
        r = client.post("/api/tournaments", json=BIG_NIGHT, headers=PL)
    assert r.status_code == 507, r.get_data(as_text=True)[:300]
    assert r.get_json()["error"].startswith(FULL_PL)
    assert any("disk full" in rec.getMessage() for rec in caplog.records)

    for f in fillers:
        f.unlink()
    assert client.get("/healthz").get_json() == {"status": "ok"}  # by itself, at once
    r = client.put(f"/api/games/{game['id']}/deals/4", headers=auth,
                   json={"version": version, "result": SAMPLE_GAME_4[3]})
    assert r.status_code == 200
    assert len(r.get_json()["deals"]) == 4  # the three acknowledged before, and this one

