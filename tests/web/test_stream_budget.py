"""The live tables' streams have a budget of their own (issue 26: 1,010 streams hung the
server for everyone): past ``LIVE_STREAM_LIMIT`` open streams one more is answered 503
with ``Retry-After`` and a word in the phone's language, and a place comes free when a
stream ends, however it ends. tests/server/test_held_connections.py tries it against
``kierki serve`` with pages served meanwhile."""
import pytest

from scorekeeper import create_app
from scorekeeper.web import live
from tests.fixtures import new_game


@pytest.fixture
def app(tmp_path):
    return create_app({"DATABASE": str(tmp_path / "test.sqlite"), "SECRET_KEY": "test",
                       "TESTING": True, "WTF_CSRF_ENABLED": False, "LIVE_STREAM_LIMIT": 2,
                       "LIVE_HEARTBEAT_SECONDS": 0.2, "LIVE_STREAM_SECONDS": 30})


def opened(client, gid, **headers):
    r = client.get(f"/games/{gid}/events", headers=headers)
    if r.status_code == 200:
        assert next(iter(r.response)).startswith(b"retry:")  # started, and so counted
    return r


def test_past_the_budget_a_stream_is_refused_503_in_the_phones_language(app, client):
    gid = new_game(client)
    held = [opened(client, gid), opened(client, gid)]
    try:
        assert [r.status_code for r in held] == [200, 200]
        refused = opened(client, gid, **{"Accept-Language": "pl"})
        assert refused.status_code == 503
        assert int(refused.headers["Retry-After"]) == live.STREAM_RETRY_SECONDS > 0
        assert refused.mimetype == "text/plain"
        assert "Zbyt wiele telefonów śledzi teraz gry" in refused.text
        assert "Too many phones" in opened(client, gid).text
        assert client.get(f"/games/{gid}").status_code == 200  # pages are not counted
        assert client.get(f"/games/{gid}/version").status_code == 200
    finally:
        for r in held:
            r.close()
    assert live.budget(app).open == 0
    again = opened(client, gid)  # the places came free
    assert again.status_code == 200
    again.close()


def test_a_place_is_given_back_however_the_stream_ends(app, client):
    gid = new_game(client)
    never_read = client.get(f"/games/{gid}/events")  # admitted, closed before a byte
    assert never_read.status_code == 200 and live.budget(app).open == 1
    never_read.close()
    assert live.budget(app).open == 0
    app.config["LIVE_STREAM_SECONDS"] = 0.05  # a stream that ends by itself
    ended = client.get(f"/games/{gid}/events")
    assert b"".join(ended.response).count(b"event: version") == 1
    ended.close()
    head = client.head(f"/games/{gid}/events")  # no body at all
    assert head.status_code == 200
    head.close()
    assert live.budget(app).open == 0
    assert client.get("/games/nope/events").status_code == 404
    assert live.budget(app).open == 0
