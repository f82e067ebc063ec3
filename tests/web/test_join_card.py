"""Joining that a stranger cannot block: the table's QR code carries the code with the
game's long secret and is never limited, so a phone at an address a guesser has limited
joins at once; the guesser still meets the limit, and is told in its language how long
to wait and to scan the table's QR code."""
import re

import pytest

from scorekeeper import create_app
from scorekeeper.web import limits

PL = {"Accept-Language": "pl"}


@pytest.fixture
def app(tmp_path, monkeypatch):
    # the address's limit at a size a test reaches (the real one: limits.JOIN_ADDRESS)
    monkeypatch.setattr(limits, "JOIN_ADDRESS", "30 per 10 minutes")
    for endpoint, method in (("games.join", "POST"), ("games.join_link", "GET"),
                             ("api.join", "POST")):
        monkeypatch.setitem(limits.LIMITS, endpoint, limits._join(method))
    return create_app({"DATABASE": str(tmp_path / "t.sqlite"), "SECRET_KEY": "test",
                       "TESTING": True, "WTF_CSRF_ENABLED": False})


def phone_at(app, address, cookies=True):
    client = app.test_client(use_cookies=cookies)
    client.environ_base["REMOTE_ADDR"] = address
    return client


def test_the_qr_link_joins_from_an_address_a_guesser_has_limited(app):
    maker = app.test_client()
    game = maker.post("/api/games", json={"ruleset": "standard-4", "players": [
        "Ala", "Bolek", "Cela", "Darek"]}).get_json()
    maker.post("/join", data={"code": game["join_code"]})  # at the table: it shows the code
    page = maker.get(f"/games/{game['id']}").text
    link = re.search(r"/join/{}/([A-Za-z0-9_-]+)".format(game["join_code"]), page)
    assert link, "the game page's join link carries the secret"
    secret = link.group(1)
    assert len(secret) * 6 >= 96  # URL-safe base64: 6 bits a character
    for n in range(30):  # a guesser with a fresh cookie each time: the address's limit
        r = phone_at(app, "198.51.100.9", cookies=False).post(
            "/api/join", json={"code": "ZZZZZZZZ"})
        assert r.status_code == 404, n
    refused = phone_at(app, "198.51.100.9").post("/api/join", json={"code": game["join_code"]},
                                                 headers=PL)
    assert refused.status_code == 429
    message = refused.get_json()["error"]
    assert "kod QR stołu" in message and re.search(r"za \d+ minut", message), message
    page = phone_at(app, "198.51.100.9").get(f"/join/{game['join_code']}", headers=PL)
    assert page.status_code == 429 and "kod QR stołu" in page.text
    # a phone at the same address scans the table's QR code: it joins at once
    phone = phone_at(app, "198.51.100.9")
    joined = phone.get(f"/join/{game['join_code']}/{secret}")
    assert joined.status_code == 302 and joined.location.endswith(f"/games/{game['id']}")
    with app.test_request_context():
        from scorekeeper.web import access
        assert access.join_secret(game["id"]) == secret
    # a wrong secret is the unknown code's 404, and still no limit met by the link
    for wrong in ("A" * 16, secret[:-1] + ("A" if secret[-1] != "A" else "B")):
        assert phone_at(app, "198.51.100.9").get(
            f"/join/{game['join_code']}/{wrong}").status_code == 404
    assert phone_at(app, "198.51.100.9").get(f"/join/ZZZZZZZZ/{secret}").status_code == 404
    # the guesser still meets the limit
    assert phone_at(app, "198.51.100.9", cookies=False).post(
        "/api/join", json={"code": "ZZZZZZZZ"}).status_code == 429


def test_the_table_card_carries_the_secret_link(app):
    maker = app.test_client()
    made = maker.post("/api/tournaments", json={
        "name": "Noc", "players": [f"P{i}" for i in range(8)], "rounds": 1,
        "rulesets": {"4": "standard-4"}}).get_json()
    table = made["round"]["tables"][0]
    with app.test_request_context():
        from scorekeeper.web import access
        secret = access.join_secret(table["game"])
    from scorekeeper.domain import tournaments
    from scorekeeper.outputs import tournament_sheet
    from scorekeeper.web.db import get_db
    from scorekeeper.web.views import tournament_sheets
    with app.test_request_context():
        t = tournaments.load(get_db(), made["id"])
        cards = tournament_sheet.cards(t, 1, tournament_sheets.card_links(t))
    assert any(c.url.endswith(f"/join/{table['join_code']}/{secret}") for c in cards)
