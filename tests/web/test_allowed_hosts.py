"""The server answers only to the names it is known by (issue 26): a request under any
other ``Host`` (a page's DNS rebinding, a link built from a forged name) is refused 400 on
every path, before any view (Flask's ``TRUSTED_HOSTS``)."""
import pytest

from scorekeeper import create_app
from scorekeeper.web import hardening

PLAYERS = ["Ala", "Bolek", "Cela", "Darek"]


def test_by_default_this_machines_names_and_loopback():
    names = hardening.default_hosts("https://kierki.example.org")
    assert {"localhost", "127.0.0.1", "kierki.example.org"} <= set(names)


@pytest.fixture
def app(tmp_path):
    return create_app({"DATABASE": str(tmp_path / "t.sqlite"), "SECRET_KEY": "t",
                       "TESTING": True, "WTF_CSRF_ENABLED": False,
                       "ALLOWED_HOSTS": "kierki.lan, 192.168.1.20"})


def test_another_name_is_refused_on_every_path(client):
    made = client.post("/api/games", json={"ruleset": "standard-4", "players": PLAYERS,
                                           "first_dealer": 0},
                       headers={"Host": "kierki.lan"}).get_json()
    gid, auth = made["id"], {"Authorization": f"Bearer {made['token']}"}
    evil = {"Host": "rebind.example.com"}
    assert client.get("/", headers=evil).status_code == 400
    page = client.get(f"/games/{gid}", headers=evil)
    assert page.status_code == 400 and "Ala" not in page.text
    assert page.headers["X-Frame-Options"] == "DENY"
    assert page.mimetype == "text/plain" and "does not answer to that name" in page.text
    r = client.put(f"/api/games/{gid}/deals/1", headers={**auth, **evil},
                   json={"version": made["version"], "result": {"tricks": [3, 3, 3, 4]}})
    assert r.status_code == 400
    assert client.get(f"/api/games/{gid}", headers={"Host": "kierki.lan"}).get_json()[
        "version"] == made["version"]  # nothing saved
    for _ in range(2):
        assert client.get(f"/api/games/{gid}", headers={"Host": "192.168.1.20:5000"}
                          ).status_code == 200
    assert client.get(f"/api/games/{gid}", headers=evil).status_code == 400


def test_star_allows_any_name(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "t.sqlite"), "SECRET_KEY": "t",
                      "TESTING": True, "ALLOWED_HOSTS": "*"})
    assert app.test_client().get("/", headers={"Host": "any.example"}).status_code == 200
