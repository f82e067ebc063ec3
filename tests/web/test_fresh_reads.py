"""Every read shows the game as stored now (a write by another process too), never
another phone's CSRF token or a lost message; a phone that has a page already gets 304."""
import re
import subprocess
import sys
import textwrap

from scorekeeper import create_app
from scorekeeper.families.kierki.rules import get_ruleset
from tests.fixtures import authorize, new_game, post_deal, results_for, state

RESULTS = results_for(get_ruleset("standard-4"))


def totals_on(html: str) -> list[str]:
    return re.findall(r"<strong>([−+]?\d+)</strong></li>", html)


def enter_in_another_process(database: str, gid: str, number: int, version: int) -> None:
    """A second server process (or ``kierki``'s own commands) writing the same database."""
    code = textwrap.dedent(f"""
        from scorekeeper import create_app
        from scorekeeper.domain import service
        from scorekeeper.web.db import get_db
        from scorekeeper.families.kierki.rules import get_ruleset
        from scorekeeper.families.kierki.rules.examples import plausible_results
        app = create_app({{"DATABASE": {database!r}, "SECRET_KEY": "test"}})
        raw = plausible_results(get_ruleset("standard-4"))[{number - 1}]
        with app.app_context():
            db = get_db()
            service.enter_deal(db, service.load(db, {gid!r}), {number}, raw, {version})
    """)
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_a_write_by_another_process_is_seen_on_the_next_read(app, client):
    gid = new_game(client)
    post_deal(client, gid, 1, 1, RESULTS[0])
    client.get(f"/games/{gid}")  # shows the save's message, once
    before = client.get(f"/games/{gid}").text
    api_before = client.get(f"/api/games/{gid}").get_json()
    assert client.get(f"/games/{gid}").text == before  # the same again
    assert "Deal 2 of 12" in before

    enter_in_another_process(app.config["DATABASE"], gid, 2, 2)

    after = client.get(f"/games/{gid}").text
    assert "Deal 3 of 12" in after and "Deal 2 of 12" not in after
    assert totals_on(after) != totals_on(before)
    api_after = client.get(f"/api/games/{gid}").get_json()
    assert api_after["version"] == api_before["version"] + 1
    assert len(api_after["deals"]) == 2
    assert state(app, gid).version == api_after["version"]


def test_a_game_deleted_elsewhere_is_gone_at_once(app, client):
    gid = new_game(client)
    assert client.get(f"/games/{gid}").status_code == 200
    other = create_app({"DATABASE": app.config["DATABASE"], "SECRET_KEY": "test",
                        "TESTING": True, "WTF_CSRF_ENABLED": False})
    with other.app_context():
        from scorekeeper.domain import service
        from scorekeeper.web.db import get_db
        game = service.load(get_db(), gid)
        service.delete_game(get_db(), game, game.version)
    assert client.get(f"/games/{gid}").status_code == 404
    assert client.get(f"/api/games/{gid}").status_code == 404
    assert gid not in client.get("/").text


def test_a_phone_that_has_the_page_gets_304_until_the_game_changes(app, client):
    gid = new_game(client)
    first = client.get(f"/games/{gid}")
    assert first.status_code == 200
    etag = first.headers["ETag"]
    again = client.get(f"/games/{gid}", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    post_deal(client, gid, 1, 1, RESULTS[0])
    client.get(f"/games/{gid}")  # the page that shows the save's message, once
    changed = client.get(f"/games/{gid}", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    # the API's game the same way
    api = client.get(f"/api/games/{gid}")
    assert client.get(f"/api/games/{gid}",
                      headers={"If-None-Match": api.headers["ETag"]}).status_code == 304


def test_each_language_and_each_address_is_its_own_page(app, client):
    gid = new_game(client)
    english = client.get(f"/games/{gid}").text
    client.get("/lang/pl")
    polish = client.get(f"/games/{gid}").text
    assert 'lang="pl"' in polish and 'lang="en"' in english
    assert "Rozdanie 1 z 12" in polish
    assert client.get(f"/api/games/{gid}").get_json()["ruleset"]["name"] != \
        app.test_client().get(f"/api/games/{gid}").get_json()["ruleset"]["name"]


def test_the_saved_message_is_shown_once(app, client):
    gid = new_game(client)
    client.get(f"/games/{gid}")
    post_deal(client, gid, 1, 1, RESULTS[0])
    shown = client.get(f"/games/{gid}").text
    assert "Deal 1:" in shown and "saved" in shown
    later = client.get(f"/games/{gid}").text
    assert "Deal 1:" not in later


def test_each_phone_gets_its_own_csrf_token_and_it_is_accepted(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "csrf.sqlite"), "SECRET_KEY": "test",
                      "TESTING": True})  # CSRF checked
    one, two = app.test_client(), app.test_client()

    def token(html):
        return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)

    setup = token(one.get("/games/new").text)
    r = one.post("/games/new", data={"ruleset": "standard-4", "first_dealer": "0",
                                     "csrf_token": setup, "player_0": "Ala",
                                     "player_1": "Bożena", "player_2": "Czesław",
                                     "player_3": "Dorota"})
    gid = r.location.rsplit("/", 1)[1]
    from tests.fixtures import join
    join(two, app, gid)  # the other phone of the table (a reader's page has no form)
    first_one, second = one.get(f"/games/{gid}"), two.get(f"/games/{gid}")
    page_one, page_two = first_one.text, second.text
    assert token(page_one) != token(page_two)
    assert first_one.headers["ETag"] != second.headers["ETag"]
    assert one.get(f"/games/{gid}").headers["ETag"] == first_one.headers["ETag"]
    from tests.fixtures import form_values
    data = {"version": 1, **form_values(RESULTS[0])}
    # the other phone's token is refused; each phone's own is accepted
    refused = one.post(f"/games/{gid}/deals/1", data={**data, "csrf_token": token(page_two)})
    assert refused.status_code == 400
    saved = two.post(f"/games/{gid}/deals/1", data={**data, "csrf_token": token(page_two)})
    assert saved.status_code == 302
    assert "Deal 2 of 12" in one.get(f"/games/{gid}").text


def test_the_front_page_follows_this_browsers_games(app, client):
    gid = new_game(client)
    assert gid in client.get("/").text
    before = client.get("/").text
    post_deal(client, gid, 1, 1, RESULTS[0])
    client.get(f"/games/{gid}")
    assert client.get("/").text != before
    other = new_game(client, players=["Ewa", "Filip", "Gosia", "Henryk"])
    assert "Henryk" in client.get("/").text and other
    assert "Henryk" not in app.test_client().get("/").text  # another browser's list


def test_the_put_answer_and_the_next_read_agree(app, client):
    gid = new_game(client)
    authorize(client, app, gid)
    put = client.put(f"/api/games/{gid}/deals/1", json={"version": 1, "result": RESULTS[0]})
    assert put.status_code == 200
    assert client.get(f"/api/games/{gid}").get_json() == put.get_json()
