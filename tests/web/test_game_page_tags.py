"""A game's page is tagged by what it shows: each phone of the table gets its own CSRF
token (and so its own ETag), never another's; a phone that has the page gets 304 until the
game changes (here or in another process)."""
import re

import pytest

from scorekeeper import create_app
from scorekeeper.families.kierki.rules import get_ruleset
from scorekeeper.web.views import games
from tests.fixtures import form_values, join, new_game, post_deal, results_for
from tests.web.test_fresh_reads import enter_in_another_process

RESULTS = results_for(get_ruleset("standard-4"))
PL = {"Accept-Language": "pl,en;q=0.8"}
PHONE = {"Accept-Encoding": "gzip", **PL}  # compression is the proxy's: none here


def renders(monkeypatch):
    """Count the game pages rendered."""
    made = []
    real = games.game_page

    def counted(game, *args, **kwargs):
        made.append(game.version)
        return real(game, *args, **kwargs)

    monkeypatch.setattr(games, "game_page", counted)
    return made


def token(html: str) -> str:
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)


def table(app, client, gid, phones=3):
    """The game's phone (``client``) and the other phones of its table, joined by code."""
    others = [join(app.test_client(), app, gid) for _ in range(phones)]
    return [client, *others]


@pytest.fixture
def checked(tmp_path):
    """An app that checks CSRF tokens, and a phone that made a game there."""
    app = create_app({"DATABASE": str(tmp_path / "csrf.sqlite"), "SECRET_KEY": "test",
                      "TESTING": True})
    phone = app.test_client()
    r = phone.post("/games/new", data={
        "ruleset": "standard-4", "first_dealer": "0",
        "csrf_token": token(phone.get("/games/new").text),
        **{f"player_{i}": name for i, name in enumerate(["Ala", "Bożena", "Czesław", "Dorota"])}})
    return app, phone, r.location.rsplit("/", 1)[1]


def test_each_phone_of_a_table_gets_its_own_token_and_etag(checked):
    app, client, gid = checked
    phones = table(app, client, gid)
    for phone in phones:
        phone.get(f"/games/{gid}")  # each phone's first visit (its list of games changes)
    enter_in_another_process(app.config["DATABASE"], gid, 1, 1)
    pages = [phone.get(f"/games/{gid}", headers=PL) for phone in phones]
    assert all("Rozdanie 2 z 12" in p.text for p in pages)
    tokens = [token(p.text) for p in pages]
    assert len(set(tokens)) == 4  # each phone its own token
    assert len({p.headers["ETag"] for p in pages}) == 4  # and so its own ETag
    # a phone's own token is accepted, another phone's refused
    data = {"version": 2, **form_values(RESULTS[1])}
    assert phones[0].post(f"/games/{gid}/deals/2",
                          data={**data, "csrf_token": tokens[1]}).status_code == 400
    assert phones[1].post(f"/games/{gid}/deals/2",
                          data={**data, "csrf_token": tokens[1]}).status_code == 302
    assert "Rozdanie 3 z 12" in phones[2].get(f"/games/{gid}", headers=PL).text


def test_a_phone_that_has_the_page_gets_304_and_the_change_at_once(app, client, monkeypatch):
    gid = new_game(client)
    post_deal(client, gid, 1, 1, RESULTS[0])
    client.get(f"/games/{gid}")  # the save's message, shown once
    first = client.get(f"/games/{gid}", headers=PHONE)
    assert "Content-Encoding" not in first.headers
    assert "Content-Security-Policy" in first.headers
    made = renders(monkeypatch)
    again = client.get(f"/games/{gid}", headers={**PHONE, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b"" and not made  # nothing rendered
    assert again.headers["ETag"] == first.headers["ETag"]
    assert "Content-Security-Policy" in again.headers
    other_tag = client.get(f"/games/{gid}", headers={**PHONE, "If-None-Match": '"x"'})
    assert other_tag.status_code == 200 and other_tag.data == first.data

    enter_in_another_process(app.config["DATABASE"], gid, 2, 2)
    after = client.get(f"/games/{gid}", headers={**PL, "If-None-Match": first.headers["ETag"]})
    assert after.status_code == 200 and made[-1] == 3
    client.get("/lang/en")
    english = client.get(f"/games/{gid}", headers={"If-None-Match": after.headers["ETag"]})
    assert english.status_code == 200  # another language is another answer
    assert "Rozdanie 3 z 12" in after.text  # the write elsewhere is seen at once


def test_a_reader_shares_no_render_with_the_table(app, client, monkeypatch):
    gid = new_game(client)
    client.get(f"/games/{gid}")
    reader = app.test_client()
    page = reader.get(f"/games/{gid}").text
    code = re.search(r"[A-Z0-9]{4} [A-Z0-9]{4}", client.get(f"/games/{gid}").text)
    assert code and code.group(0) not in page  # the join code is the table's alone
    assert 'name="version"' in client.get(f"/games/{gid}").text  # the table's form
    assert 'name="version"' not in page


def test_the_front_page_follows_a_deal_entered_elsewhere(app, client):
    gid = new_game(client)
    client.get(f"/games/{gid}")
    before = client.get("/").text
    assert client.get("/").text == before
    enter_in_another_process(app.config["DATABASE"], gid, 1, 1)
    assert client.get("/").text != before


def test_a_get_with_a_body_over_the_limit_is_refused(app, client):
    gid = new_game(client)
    assert client.get(f"/games/{gid}").status_code == 200
    r = client.get(f"/games/{gid}", data=b"x" * (app.config["MAX_CONTENT_LENGTH"] + 1))
    assert r.status_code == 413
