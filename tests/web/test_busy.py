"""A write that cannot get the database's lock (another process holds it past the busy
timeout) is answered once: 503 with Retry-After, nothing stored, in the user's language."""
import subprocess
import sys

import pytest

from scorekeeper import create_app
from scorekeeper.families.kierki.rules import get_ruleset
from tests.fixtures import authorize, new_game, post_deal, results_for, state

RESULTS = results_for(get_ruleset("standard-4"))

HOLD = ("import sqlite3, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None); "
        "c.execute('BEGIN IMMEDIATE'); print('held', flush=True); sys.stdin.readline()")


@pytest.fixture
def impatient(tmp_path):
    return create_app({"DATABASE": str(tmp_path / "busy.sqlite"), "SECRET_KEY": "test",
                       "TESTING": True, "WTF_CSRF_ENABLED": False, "BUSY_TIMEOUT_MS": 200,
                       "PDF_CACHE_DIR": str(tmp_path / "sheets")})


@pytest.fixture
def locked(impatient):
    """The database's write lock, held by another process for the length of the test."""
    def hold():
        holder = subprocess.Popen([sys.executable, "-c", HOLD, impatient.config["DATABASE"]],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert holder.stdout.readline().strip() == "held"
        held.append(holder)
    held: list[subprocess.Popen] = []
    yield hold
    for holder in held:
        holder.communicate("\n", timeout=30)


def test_a_deal_put_while_the_lock_is_held_is_503_with_retry_after(impatient, locked):
    client = impatient.test_client()
    gid = new_game(client)
    authorize(client, impatient, gid)
    locked()
    r = client.put(f"/api/games/{gid}/deals/1", json={"version": 1, "result": RESULTS[0]},
                   headers={"Accept-Language": "pl"})
    assert r.status_code == 503
    assert int(r.headers["Retry-After"]) >= 1
    assert "Nic nie zapisano" in r.get_json()["error"]
    assert state(impatient, gid).version == 1  # nothing stored


def test_the_deal_form_while_the_lock_is_held_shows_a_page_that_says_so(impatient, locked):
    client = impatient.test_client()
    gid = new_game(client)
    locked()
    r = post_deal(client, gid, 1, 1, RESULTS[0])
    assert r.status_code == 503 and "Retry-After" in r.headers
    assert "nothing was saved" in r.text
    assert f'href="/games/{gid}"' in r.text  # back to the game, one tap
    assert state(impatient, gid).version == 1
