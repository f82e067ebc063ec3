"""A page asked again by the same phone is answered before Flask, byte for byte as
Flask answered it, and never after the game has changed (here or in another process)."""
from scorekeeper.families.kierki.rules import get_ruleset
from tests.fixtures import new_game, post_deal, results_for
from tests.web.test_caches import enter_in_another_process

RESULTS = results_for(get_ruleset("standard-4"))
PL = {"Accept-Language": "pl,en;q=0.8"}
PHONE = {"Accept-Encoding": "gzip", **PL}


def counting(app, endpoint):
    """Count how often the view behind ``endpoint`` runs."""
    calls = []
    view = app.view_functions[endpoint]

    def counted(*args, **kwargs):
        calls.append(kwargs)
        return view(*args, **kwargs)

    app.view_functions[endpoint] = counted
    return calls


def same_answer(a, b):
    assert a.status_code == b.status_code == 200
    assert a.data == b.data
    headers = {k: v for k, v in a.headers.items() if k != "Date"}
    assert headers == {k: v for k, v in b.headers.items() if k != "Date"}


def test_a_repeated_game_page_is_answered_without_its_view_until_it_changes(app, client):
    gid = new_game(client)
    post_deal(client, gid, 1, 1, RESULTS[0])
    client.get(f"/games/{gid}")  # the save's message, shown once
    calls = counting(app, "games.show")
    first = client.get(f"/games/{gid}", headers=PHONE)
    again = client.get(f"/games/{gid}", headers=PHONE)
    assert len(calls) == 1
    same_answer(first, again)
    assert again.headers["Content-Encoding"] == "gzip"
    assert "Content-Security-Policy" in again.headers

    enter_in_another_process(app.config["DATABASE"], gid, 2, 2)
    after = client.get(f"/games/{gid}", headers=PL)
    assert len(calls) == 2
    assert "Rozdanie 3 z 12" in after.text  # the write elsewhere is seen at once
    assert client.get(f"/games/{gid}", headers=PL).text == after.text
    assert len(calls) == 2


def test_the_kept_answer_gives_304_as_flask_does(app, client):
    gid = new_game(client)
    client.get(f"/games/{gid}")
    first = client.get(f"/games/{gid}", headers=PHONE)
    calls = counting(app, "games.show")
    asked = {**PHONE, "If-None-Match": first.headers["ETag"]}
    kept = client.get(f"/games/{gid}", headers=asked)
    assert not calls
    assert kept.status_code == 304 and kept.data == b""
    assert kept.headers["ETag"] == first.headers["ETag"]
    assert "Content-Encoding" not in kept.headers
    other_tag = client.get(f"/games/{gid}", headers={**PHONE, "If-None-Match": '"x"'})
    assert other_tag.status_code == 200 and other_tag.data == first.data


def test_each_phone_language_and_address_is_its_own_answer(app, client):
    gid = new_game(client)
    client.get(f"/games/{gid}")
    polish = client.get(f"/games/{gid}", headers=PL).text
    english = client.get(f"/games/{gid}", headers={"Accept-Language": "en"}).text
    assert "Rozdanie 1 z 12" in polish and "Deal 1 of 12" in english
    other_phone = app.test_client()
    theirs = other_phone.get(f"/games/{gid}", headers=PL)
    assert theirs.headers.get("Set-Cookie")  # a new phone gets its own session first
    # (each phone's own CSRF token: test_caches.test_each_phone_gets_its_own_csrf_token…)
    api = client.get(f"/api/games/{gid}", headers=PL).get_json()
    assert api["id"] == gid and api["version"] == 1


def test_the_front_page_follows_a_deal_entered_elsewhere(app, client):
    gid = new_game(client)
    client.get(f"/games/{gid}")
    calls = counting(app, "games.index")
    before = client.get("/").text
    assert client.get("/").text == before and len(calls) == 1
    enter_in_another_process(app.config["DATABASE"], gid, 1, 1)
    after = client.get("/").text
    assert len(calls) == 2 and after != before


def test_a_get_with_a_body_over_the_limit_is_refused_even_when_its_page_is_kept(app, client):
    gid = new_game(client)
    assert client.get(f"/games/{gid}").status_code == 200
    assert client.get(f"/games/{gid}").status_code == 200  # kept now
    r = client.get(f"/games/{gid}", data=b"x" * (app.config["MAX_CONTENT_LENGTH"] + 1))
    assert r.status_code == 413
