"""A room of strangers (issue 32): reading and writing are different rights for every
game, results are signed as on paper, and a result cannot change silently.

Each test plays what a stranger in a club would try: open a table's public link and
write, write after the director closed the tournament, claim a name; and what the table
and the director do: join with the code, sign, correct, reopen."""
import re

from scorekeeper.domain import service, tournaments
from scorekeeper.families.kierki.web.forms import form_values
from scorekeeper.web import access
from scorekeeper.web.db import get_db
from tests.fixtures import join, new_game, post_deal, results_for, state
from tests.web.test_tournament_pages import create, finish_round, text, tournament

RESULTS = results_for(__import__("scorekeeper.families.kierki.rules",
                                 fromlist=["get_ruleset"]).get_ruleset("standard-4"))
PL = {"Accept-Language": "pl"}


def other_first(first):
    """A first deal (no tricks) other than the one stored."""
    for tricks in ([3, 3, 3, 4], [4, 3, 3, 3]):
        if first != {"tricks": tricks}:
            return {"tricks": tricks}


def snapshot(app, gid):
    game = state(app, gid)
    return game.version, list(game.stored.results)


# -- 1. reading and writing --------------------------------------------------------------

def test_a_stranger_with_the_link_reads_but_cannot_write_until_joining(app, client):
    gid = new_game(client)
    assert post_deal(client, gid, 1, 1, RESULTS[0]).status_code == 302
    code = state(app, gid).stored.join_code
    mine = client.get(f"/games/{gid}").text
    assert 'class="deal-form' in mine and code in mine  # the table's phone: form and code

    stranger = app.test_client()
    stranger.environ_base["REMOTE_ADDR"] = "203.0.113.5"  # another phone, not the host
    page = stranger.get(f"/games/{gid}")
    assert page.status_code == 200
    assert "Bożena" in page.text and "Scores" in page.text  # the score table, read-only
    assert 'class="deal-form' not in page.text and "/deals/1/edit" not in page.text
    assert code not in page.text and "/join/" not in page.text  # no code, no QR code
    assert "/undo" not in page.text and "/rematch" not in page.text
    assert "You are watching this game" in page.text
    before = snapshot(app, gid)
    refused = [
        post_deal(stranger, gid, 2, 2, RESULTS[1]),
        post_deal(stranger, gid, 1, 2, RESULTS[1]),  # a correction
        stranger.get(f"/games/{gid}/deals/1/edit"),
        stranger.post(f"/games/{gid}/undo", data={"version": 2}),
        stranger.post(f"/games/{gid}/delete", data={"version": 2}),
        stranger.post(f"/games/{gid}/sign", data={"version": 2, "seat": 0}),
        stranger.post(f"/games/{gid}/deals/2", data={"version": 2, **form_values(RESULTS[1])},
                      headers={"X-Kierki-Kept": "1"}),  # the offline queue's resend
    ]
    assert [r.status_code for r in refused] == [403] * len(refused)
    assert "Only the phones at this game's table can change it" in text(refused[0].text)
    assert refused[-1].get_json()["error"].startswith("Only the phones")  # the offline queue
    r = stranger.post(f"/games/{gid}/undo", data={"version": 2}, headers=PL)
    assert "Tę grę mogą zmieniać tylko telefony przy jej stole." in r.text
    assert snapshot(app, gid) == before  # nothing stored, nothing changed

    # the API: no token 401, another game's token 403; reading needs none
    other = client.post("/api/games", json={"ruleset": "standard-4", "first_dealer": 0,
                                            "players": ["A", "B", "C", "D"]}).get_json()
    put = {"version": 2, "result": RESULTS[1]}
    assert stranger.put(f"/api/games/{gid}/deals/2", json=put).status_code == 401
    assert stranger.put(f"/api/games/{gid}/deals/2", json=put, headers={
        "Authorization": f"Bearer {other['token']}"}).status_code == 403
    game = stranger.get(f"/api/games/{gid}").get_json()
    assert "token" not in game and "join_code" not in game
    assert snapshot(app, gid) == before

    # joining with the code (the table card's link) is the table's right
    join(stranger, app, gid)
    assert 'class="deal-form' in stranger.get(f"/games/{gid}").text
    assert post_deal(stranger, gid, 2, 2, RESULTS[1]).status_code == 302
    assert state(app, gid).recorded == 2


def test_a_cookie_is_no_right_through_the_api(app, client):
    """The API takes no CSRF token, so a browser's cookie never writes through it: only a
    token does."""
    gid = new_game(client)  # this browser is at the table
    r = client.put(f"/api/games/{gid}/deals/1", json={"version": 1, "result": RESULTS[0]})
    assert r.status_code == 401 and state(app, gid).recorded == 0


def test_odd_and_non_ascii_tokens_are_refused_not_a_server_error(app, client):
    gid = new_game(client)
    for given in ("żółw", "\u00e9" * 40, "a" * 5000, "Bearer", "🂡"):
        r = client.put(f"/api/games/{gid}/deals/1", json={"version": 1, "result": RESULTS[0]},
                       headers={"Authorization": f"Bearer {given}".encode().decode("latin-1")})
        assert r.status_code == 403, given


# -- a tournament: the public pages, the table, the director, a closed night ------------

def _table_phone(app, gid):
    return join(app.test_client(), app, gid)


def test_a_stranger_at_a_club_cannot_rewrite_a_table(app, client):
    tid = create(client)  # this browser directs the tournament
    t = tournament(app, tid)
    table = t.rounds[0][1]
    stranger = app.test_client()
    public = stranger.get(f"/tournaments/{tid}").text
    assert f"/games/{table.game_id}" in public  # the read-only view is linked
    assert table.join_code not in public
    assert table.join_code not in stranger.get(f"/tournaments/{tid}/screen?part=live").text
    page = stranger.get(f"/games/{table.game_id}").text
    assert 'class="deal-form' not in page and table.join_code not in page
    assert post_deal(stranger, table.game_id, 1, 1, RESULTS[0]).status_code == 403
    assert state(app, table.game_id).recorded == 0
    # the table's phone (the card's QR code) and the director write it
    phone = _table_phone(app, table.game_id)
    assert post_deal(phone, table.game_id, 1, 1, RESULTS[0]).status_code == 302
    assert post_deal(client, table.game_id, 2, 2, RESULTS[1]).status_code == 302
    assert state(app, table.game_id).recorded == 2


def test_a_closed_tournament_is_frozen_until_the_director_reopens_it(app, client):
    tid = create(client)
    finish_round(app, tid)
    table = tournament(app, tid).rounds[0][0]
    phone = _table_phone(app, table.game_id)
    director_token = client.get(f"/tournaments/{tid}/director").text
    token = re.search(r"/direct/([0-9a-f]+)", director_token)[1]
    assert client.post(f"/tournaments/{tid}/close", data={"confirm_unsigned": "1"}).status_code == 302
    before = snapshot(app, table.game_id)
    first = state(app, table.game_id).stored.results[0]
    edited = form_values(other_first(first))
    page = phone.get(f"/games/{table.game_id}").text
    assert "The tournament is closed: its games are frozen." in page
    assert 'class="deal-form' not in page and "/deals/1/edit" not in page
    for who in (phone, client):  # the table, and the director too
        r = who.post(f"/games/{table.game_id}/deals/1", data={"version": before[0], **edited},
                     follow_redirects=True)
        assert "This game's tournament is closed: its results are final." in text(r.text)
        r = who.post(f"/games/{table.game_id}/sign", data={"version": before[0], "seat": 0},
                     follow_redirects=True)
        assert "its results are final" in r.text
    for bearer in (access_token(app, table.game_id), token):  # the API, either token
        r = client.put(f"/api/games/{table.game_id}/deals/1", headers={
            "Authorization": f"Bearer {bearer}"}, json={"version": before[0],
                                                        "result": other_first(first)})
        assert r.status_code == 409 and "closed" in r.get_json()["error"]
        r = client.post(f"/api/games/{table.game_id}/undo", headers={
            "Authorization": f"Bearer {bearer}"}, json={"version": before[0]})
        assert r.status_code == 409
    assert snapshot(app, table.game_id) == before

    # only the director reopens; it is kept in the list with the correction after it
    assert phone.post(f"/tournaments/{tid}/reopen").status_code == 403
    assert client.post(f"/api/tournaments/{tid}/reopen").status_code == 401
    assert client.post(f"/tournaments/{tid}/reopen").status_code == 302
    version = state(app, table.game_id).version
    assert phone.post(f"/games/{table.game_id}/deals/1",
                      data={"version": version, **edited}).status_code == 302
    director = text(client.get(f"/tournaments/{tid}/director").text)
    assert ("Round 1, table 1 : deal 1 corrected after the game was over · by the table"
            in director)
    assert "The tournament was reopened. · by the director" in director
    assert "The tournament was closed. · by the director" in director
    assert director.index("deal 1 corrected") < director.index("was reopened") \
        < director.index("was closed")  # the latest first
    assert client.post(f"/tournaments/{tid}/reopen").status_code == 409  # open already
    changes = client.get(f"/api/tournaments/{tid}", headers={
        "Authorization": f"Bearer {token}"}).get_json()["changes"]
    assert [c["action"] for c in changes] == ["correct", "reopen", "close"]
    assert changes[0]["by"] == "table" and changes[0]["round"] == 1
    assert "changes" not in client.get(f"/api/tournaments/{tid}").get_json()  # director's


def access_token(app, gid):
    with app.test_request_context():
        return access.token(gid)


# -- 2. signatures ----------------------------------------------------------------------

def test_a_tournament_table_counts_as_provisional_until_two_players_sign(app, client):
    tid = create(client)
    finish_round(app, tid)
    table = tournament(app, tid).rounds[0][0]
    gid = table.game_id
    projector = app.test_client()

    def screen():
        return projector.get(f"/tournaments/{tid}/screen?part=live").text

    def signed_mark():
        return re.search(rf'data-table="{table.number}" data-signed="(\w+)"', screen())[1]

    assert signed_mark() == "no" and "3 not signed" in text(screen())
    assert "Provisional" in client.get(f"/tournaments/{tid}").text
    phone = _table_phone(app, gid)
    game = state(app, gid)
    page = phone.get(f"/games/{gid}").text
    assert "Provisional until two players (or the director) sign." in page
    assert f"Sign as {game.players[0]}" in page
    r = phone.post(f"/games/{gid}/sign", data={"version": game.version, "seat": 0},
                   follow_redirects=True)
    assert f"Signed by {game.players[0]}." in r.text
    assert signed_mark() == "no"  # one signature is not enough
    version = state(app, gid).version
    phone.post(f"/games/{gid}/sign", data={"version": version, "seat": 2})  # passed round
    assert signed_mark() == "yes"
    assert "Confirmed: this table counts" in phone.get(f"/games/{gid}").text
    assert "2 not signed" in text(screen())
    with app.app_context():
        assert tournaments.load(get_db(), tid).table(gid).signed_seats == 2
    # a stranger signs nothing; a seat out of range is refused by its field
    stranger = app.test_client()
    version = state(app, gid).version
    assert stranger.post(f"/games/{gid}/sign",
                         data={"version": version, "seat": 1}).status_code == 403
    r = phone.post(f"/games/{gid}/sign", data={"version": version, "seat": 9},
                   follow_redirects=True)
    assert "Choose who signs: one of the players." in r.text
    assert state(app, gid).version == version
    for forged in ("9" * 5000, "²"):  # no seat: the same message, not an error
        r = phone.post(f"/games/{gid}/sign", data={"version": version, "seat": forged},
                       follow_redirects=True)
        assert "Choose who signs: one of the players." in r.text
    assert state(app, gid).version == version

    # a correction takes the signatures off and every phone of the table is told
    first = state(app, gid).stored.results[0]
    assert post_deal(phone, gid, 1, version, other_first(first)).status_code == 302
    assert signed_mark() == "no"
    for who in (phone, client):
        page = who.get(f"/games/{gid}").text
        assert ("Deal 1 was corrected after the game was signed: the signatures were taken "
                "off.") in page
    assert "signatures taken off" in text(client.get(f"/tournaments/{tid}/director").text)


def test_the_director_confirms_a_table_and_signs_through_the_api(app, client):
    made = client.post("/api/tournaments", json={
        "name": "Klub", "players": [f"P{i}" for i in range(8)], "rounds": 1,
        "rulesets": {"4": "standard-4"}, "seed": "x"}).get_json()
    tid, director = made["id"], {"Authorization": f"Bearer {made['token']}"}
    finish_round(app, tid)
    gid = made["round"]["tables"][0]["game"]
    version = state(app, gid).version
    stranger_token = {"Authorization": "Bearer " + "0" * 40}
    assert client.post(f"/api/games/{gid}/signatures", json={"seat": 0, "version": version},
                       headers=stranger_token).status_code == 403
    table_token = {"Authorization": f"Bearer {made['round']['tables'][0]['token']}"}
    r = client.post(f"/api/games/{gid}/signatures", json={"seat": -1, "version": version},
                    headers=table_token)  # only the director signs as the director
    assert r.status_code == 422
    r = client.post(f"/api/games/{gid}/signatures", json={"seat": -1, "version": version},
                    headers=director)
    assert r.status_code == 201 and r.get_json()["signatures"][0]["seat"] == -1
    tables = client.get(f"/api/tournaments/{tid}").get_json()["rounds"][0]["tables"]
    assert [t["confirmed"] for t in tables] == [True, False]
    standings = client.get(f"/api/tournaments/{tid}").get_json()["standings"]
    assert sorted(s["provisional"] for s in standings) == [False] * 4 + [True] * 4
    # the results file (what its PDF prints) says the same to anyone
    results = client.get(f"/tournaments/{tid}/results.json").get_json()
    assert [tb["confirmed"] for tb in results["rounds"][0]["tables"]] == [True, False]
    assert sorted(s["provisional"] for s in results["standings"]) == [False] * 4 + [True] * 4


def test_outside_a_tournament_signing_is_offered_never_required(app, client):
    gid = new_game(client)
    game = state(app, gid)
    with app.app_context():
        for number, raw in enumerate(RESULTS, start=1):
            game = service.enter_deal(get_db(), service.load(get_db(), gid), number, raw,
                                      game.version)
    page = client.get(f"/games/{gid}").text
    assert "Signing is optional outside a tournament." in page
    assert client.post(f"/games/{gid}/sign", data={"version": game.version,
                                                   "seat": 1}).status_code == 302
    assert "✓ Bożena" in client.get(f"/games/{gid}").text
    assert client.get(f"/api/games/{gid}").get_json()["signatures"][0]["seat"] == 1
    # an unfinished game is not signed
    other = new_game(client)
    r = client.post(f"/games/{other}/sign", data={"version": 1, "seat": 0},
                    follow_redirects=True)
    assert "A game is signed when it is over." in r.text


# -- 3. an undo is kept with its right ----------------------------------------------------

def test_every_undo_and_correction_is_kept_with_its_right(app, client):
    tid = create(client)
    table = tournament(app, tid).rounds[0][0]
    phone = _table_phone(app, table.game_id)
    assert post_deal(phone, table.game_id, 1, 1, RESULTS[0]).status_code == 302
    assert phone.post(f"/games/{table.game_id}/undo", data={"version": 2}).status_code == 302
    with app.app_context():
        kept = tournaments.changes(get_db(), tid)
    assert [(c["action"], c["number"], c["by"], c["finished"]) for c in kept] == [
        ("undo", 1, "table", 0)]
    assert "deal 1 taken back · by the table" in text(
        client.get(f"/tournaments/{tid}/director").text)
