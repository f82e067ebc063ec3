"""Who is the host (issue 32, item 4): never an address a client controls, only whoever
logged in with the host's password or opened the host link ``kierki serve`` printed."""
import pytest

from scorekeeper import create_app
from scorekeeper.domain import house
from scorekeeper.storage import house_reads
from scorekeeper.web import access, limits
from scorekeeper.web.db import get_db
from tests.fixtures import become_host

FORGED = {"X-Forwarded-For": "127.0.0.1", "X-Real-IP": "127.0.0.1",
          "Forwarded": "for=127.0.0.1"}


def make(tmp_path, **config):
    return create_app({"DATABASE": str(tmp_path / "test.sqlite"), "SECRET_KEY": "test",
                       "TESTING": True, "WTF_CSRF_ENABLED": False,
                       "PDF_CACHE_DIR": str(tmp_path / "sheets"), **config})


def device(app, address):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def hosts(client) -> bool:
    """Whether the server takes this client for the host (the rules new games start with
    may be chosen only by the host)."""
    return client.post("/rules/kurnik-4/default").status_code == 302


def link(app) -> str:
    with app.app_context():
        return access.new_host_link(get_db())


@pytest.mark.parametrize("hops", [0, 1])
def test_no_address_and_no_header_makes_a_client_the_host(tmp_path, hops):
    app = make(tmp_path, PROXY_HOPS=hops)
    for address in ("127.0.0.1", "::1", "192.0.2.5"):
        assert not hosts(device(app, address))
    for name, value in FORGED.items():
        for address in ("127.0.0.1", "192.0.2.5"):
            assert device(app, address).post("/rules/kurnik-4/default",
                                             headers={name: value}).status_code == 403
    assert device(app, "127.0.0.1").get("/admin/").status_code == 404  # no password, no host


def test_the_host_link_makes_one_browser_the_host_once(tmp_path):
    app = make(tmp_path)
    token = link(app)
    with app.app_context():  # only its hash is kept
        assert token not in (house_reads.setting(get_db(), house.HOST_LINK) or "")
    laptop = device(app, "192.0.2.5")
    r = laptop.get(f"/host/{token}")
    assert r.status_code == 302 and r.location.endswith("/admin/")
    assert hosts(laptop)
    assert "All games (host)" in laptop.get("/admin/").text
    assert "All games (host)" in laptop.get("/").text  # the front page links the host's page
    # used up: a second browser with the same link is not the host
    again = device(app, "192.0.2.6")
    r = again.get(f"/host/{token}", headers={"Accept-Language": "pl"})
    assert r.status_code == 403 and "kierki host-link" in r.text
    assert not hosts(again)


def test_a_new_link_or_a_logout_ends_the_host_sessions(tmp_path):
    app = make(tmp_path)
    laptop = become_host(device(app, "192.0.2.5"))
    copied = device(app, "203.0.113.9")
    copied.set_cookie("session", laptop.get_cookie("session").value)
    assert hosts(copied)  # a copied cookie works…
    second = become_host(device(app, "192.0.2.6"))  # …until a new link is made
    assert not hosts(laptop) and not hosts(copied) and hosts(second)
    second.post("/admin/logout")
    assert not hosts(second)


def test_the_host_link_works_beside_the_password(tmp_path):
    app = make(tmp_path, ADMIN_PASSWORD="correct horse")
    laptop = become_host(device(app, "192.0.2.5"))
    assert "Log in" not in laptop.get("/admin/").text
    phone = device(app, "192.0.2.6")
    assert phone.post("/admin/", data={"password": "correct horse"}).status_code == 302
    assert hosts(phone) and hosts(laptop)


def test_wrong_host_tokens_count_against_the_login_limit(tmp_path):
    app = make(tmp_path)
    token = link(app)
    guesser = device(app, "203.0.113.9")
    allowed = int(limits.LOGIN.split(" per minute")[0])
    for n in range(allowed):
        assert guesser.get(f"/host/guess-{n:020d}").status_code == 403
    assert guesser.get(f"/host/{token}").status_code == 429  # even the right one now
    assert become_host(device(app, "192.0.2.5"))  # the laptop is not held back


def test_the_host_link_command_prints_a_link_that_works(tmp_path, monkeypatch, capsys):
    from scorekeeper import cli
    monkeypatch.setenv("KIERKI_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.setenv("KIERKI_SECRET_KEY", "x")
    monkeypatch.delenv("KIERKI_PUBLIC_URL", raising=False)
    monkeypatch.setenv("KIERKI_PORT", "5077")
    assert cli.main(["host-link"]) == 0
    url = capsys.readouterr().out.split()[-1]
    assert ":5077/host/" in url
    app = create_app()
    app.config.update(TESTING=True)
    laptop = app.test_client()
    assert laptop.get("/admin/").status_code == 404  # no password: nobody's page yet
    assert laptop.get(url.split(":5077", 1)[1]).status_code == 302
    assert laptop.get("/admin/").status_code == 200
