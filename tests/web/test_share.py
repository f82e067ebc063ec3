"""Sharing a game: the join link as a QR code on the game page, and the link itself."""
import re
from html import unescape

import pytest
import segno

from scorekeeper import create_app
from scorekeeper.outputs import share
from tests.fixtures import errors_in, new_game, state

BAD_CODE = {"en": "No game has this code. Check the letters and digits on the other phone.",
            "pl": "Nie ma gry z takim kodem. Sprawdź litery i cyfry na drugim telefonie."}


@pytest.fixture
def app(tmp_path):
    """A server known by the names these tests open it under."""
    return create_app({"DATABASE": str(tmp_path / "test.sqlite"), "SECRET_KEY": "test",
                       "TESTING": True, "WTF_CSRF_ENABLED": False,
                       "ALLOWED_HOSTS": "localhost, 127.0.0.1, 192.168.1.20, 10.0.0.7, "
                                        "kierki.lan"})


def segno_svg(url: str) -> str:
    """segno's own drawing of ``url``: what the page must show, module for module."""
    return segno.make(url, error="m", micro=False).svg_inline(
        scale=1, border=4, dark="#000", light="#fff", omitsize=True)


def join_path(app, gid, code):
    """A game's join link: its code and its secret."""
    from scorekeeper.web import access
    with app.test_request_context():
        return f"/join/{code}/{access.join_secret(gid)}"


def test_the_game_page_shows_the_join_link_as_a_qr_code(app, client):
    gid = new_game(client)
    code = state(app, gid).stored.join_code
    client.get(f"/join/{code}", base_url="http://192.168.1.20:5000")  # this phone's own cookie
    html = client.get(f"/games/{gid}", base_url="http://192.168.1.20:5000").text
    url = f"http://192.168.1.20:5000{join_path(app, gid, code)}"
    assert segno_svg(url) in html  # exactly this link, nothing else
    assert segno.make(url, error="m").designator.startswith(("1-", "2-", "3-", "4-"))  # small
    box = html[html.index('<details class="share">'):html.index("</details>", html.index(
        '<details class="share">'))]
    assert share.grouped(code) in box and url in unescape(box)
    assert "localhost" not in box and 'class="loopback"' not in box
    # the code reads dark on light in both schemes: no colour from the page's palette
    assert re.search(r'<path fill="#fff" d="M0 0h\d+v\d+h-\d+z"/>', box)


def test_each_address_gets_its_own_link(app, client):
    """The page is kept per game version and address: another host is another link."""
    gid = new_game(client)
    code = state(app, gid).stored.join_code
    for _ in range(2):
        for host in ("10.0.0.7:8000", "kierki.lan"):
            client.get(f"/join/{code}", base_url=f"http://{host}")  # a phone of the table
            html = client.get(f"/games/{gid}", base_url=f"http://{host}").text
            assert segno_svg(f"http://{host}{join_path(app, gid, code)}") in html


def test_a_page_opened_as_localhost_says_its_code_is_useless_to_other_phones(app, client,
                                                                              monkeypatch):
    gid = new_game(client)
    code = state(app, gid).stored.join_code
    monkeypatch.setattr(share, "lan_address", lambda: "192.168.1.33")
    html = unescape(client.get(f"/games/{gid}", base_url="http://localhost:5000").text)
    assert "the code only works on this computer" in html
    assert ("Open the app on this computer as http://192.168.1.33:5000"
            f"{join_path(app, gid, code)}") in html
    monkeypatch.setattr(share, "lan_address", lambda: "127.0.0.1")  # no network at all
    client.get(f"/join/{code}", base_url="http://127.0.0.1:5001")
    html = unescape(client.get(f"/games/{gid}", base_url="http://127.0.0.1:5001").text)
    assert "by its address on the Wi-Fi" in html


def test_the_join_link_joins_and_opens_the_game(app, client):
    gid = new_game(client)
    code = state(app, gid).stored.join_code
    phone = app.test_client()
    assert f"/games/{gid}" not in phone.get("/").text
    r = phone.get(f"/join/{code}")
    assert r.status_code == 302 and r.location.endswith(f"/games/{gid}")
    assert f"/games/{gid}" in phone.get("/").text  # remembered, like the join form
    r = phone.get(f"/join/{code.lower()[:3]}-{code.lower()[3:]}")  # as typed by hand
    assert r.status_code == 302 and r.location.endswith(f"/games/{gid}")


@pytest.mark.parametrize("lang", ["en", "pl"])
@pytest.mark.parametrize("code", ["ZZZZZ9", "abc", "0" * 40])
def test_a_wrong_join_link_is_refused_with_a_clear_message(app, lang, code):
    phone = app.test_client()
    phone.set_cookie("lang", lang)
    r = phone.get(f"/join/{code}")
    assert r.status_code == 302 and r.location.endswith("/")
    assert errors_in(phone.get("/").text) == [BAD_CODE[lang]]


def test_loopback_hosts():
    assert share.is_loopback("LOCALHOST:5000") and share.is_loopback("[::1]")
    assert not share.is_loopback("192.168.0.2:5000") and not share.is_loopback("kierki.lan")
