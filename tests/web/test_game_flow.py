"""A whole game through the HTML forms, as phones at the table send them."""
import re

from scorekeeper.families.kierki.rules import get_ruleset
from tests.fixtures import errors_in, new_game, post_deal, results_for, state


def test_a_whole_game_through_the_forms(app, client):
    gid = new_game(client)
    assert len(gid) >= 16  # unguessable ids
    page = client.get(f"/games/{gid}").text
    assert "Deal 1 of 12" in page and "No tricks" in page
    assert "&lt;b&gt;Dżon&lt;/b&gt;" in page and "<b>Dżon" not in page
    rs = get_ruleset("standard-4")
    for number, raw in enumerate(results_for(rs), start=1):
        version = state(app, gid).version
        r = post_deal(client, gid, number, version, raw)
        assert r.status_code == 302, (number, errors_in(r.text))
    page = client.get(f"/games/{gid}").text
    assert "Game over" in page
    assert "Bożena wins!" in page
    final = state(app, gid)
    assert final.state.finished and final.state.total_sum == 0
    assert final.state.totals[0] == -1300 - 1300 + 700 + 800
    assert re.search(r"Final sum 0, as these rules say it must be\s*✓", page)
    listing = client.get("/").text
    assert "finished" in listing and "Bożena" in listing


def test_a_bad_count_is_refused_with_what_was_typed(app, client):
    gid = new_game(client)
    post_deal(client, gid, 1, 1, {"tricks": [3, 4, 3, 3]})
    before = state(app, gid)
    r = post_deal(client, gid, 2, before.version, {"hearts": [5, 5, 5, 5]})
    assert r.status_code == 422
    assert "These must add up to 13; they add up to 20." in errors_in(r.text)
    assert 'type="radio" name="hearts-0" value="5" checked' in r.text  # a tap target each
    after = state(app, gid)
    assert after.version == before.version and after.state.totals == before.state.totals
    assert len(after.state.scored) == 1


def test_a_missing_field_and_a_forged_number_are_refused(app, client):
    gid = new_game(client)
    r = client.post(f"/games/{gid}/deals/1", data={"version": 1, "tricks-0": "<script>"})
    assert r.status_code == 422
    assert "Enter a whole number from 0 to 13." in errors_in(r.text)
    r = post_deal(client, gid, 5, 1, {"king_of_hearts": 0})  # out of order
    assert r.status_code == 422
    assert state(app, gid).state.scored == []


def test_a_single_card_deal_is_one_tap(app, client):
    gid = new_game(client)
    rs = get_ruleset("standard-4")
    for number, raw in enumerate(results_for(rs)[:4], start=1):
        post_deal(client, gid, number, state(app, gid).version, raw)
    page = client.get(f"/games/{gid}").text
    assert "No king of hearts" in page
    # the player buttons themselves submit the deal
    assert page.count('type="submit" name="king_of_hearts"') == 4
    r = client.post(f"/games/{gid}/deals/5", data={"version": 5, "king_of_hearts": "2"})
    assert r.status_code == 302
    assert state(app, gid).state.scored[4].points == [0, 0, -150, 0]


def test_editing_a_past_deal_recomputes_and_keeps_history(app, client):
    gid = new_game(client)
    post_deal(client, gid, 1, 1, {"tricks": [13, 0, 0, 0]})
    post_deal(client, gid, 2, 2, {"hearts": [0, 13, 0, 0]})
    edit = client.get(f"/games/{gid}/deals/1/edit").text
    assert 'value="13"' in edit
    r = post_deal(client, gid, 1, 3, {"tricks": [1, 2, 3, 7]})
    assert r.status_code == 302
    game = state(app, gid)
    assert game.state.totals == [-20, -40 - 260, -60, -140]
    edit = client.get(f"/games/{gid}/deals/1/edit").text
    assert "Earlier values of this deal" in edit and "Ala 13" in edit
    # a stale form (version 3) for the same deal is refused, nothing changes
    r = post_deal(client, gid, 1, 3, {"tricks": [0, 0, 0, 13]}, )
    assert r.status_code == 302
    assert state(app, gid).state.totals == game.state.totals
    assert "already entered" in errors_in(client.get(f"/games/{gid}").text)[0]


def test_a_second_phone_sending_the_same_deal_is_told(app, client):
    gid = new_game(client)
    assert post_deal(client, gid, 1, 1, {"tricks": [13, 0, 0, 0]}).status_code == 302
    r = post_deal(client, gid, 1, 1, {"tricks": [0, 13, 0, 0]})
    assert r.status_code == 302
    page = client.get(f"/games/{gid}").text
    assert any("already entered" in m for m in errors_in(page))
    assert state(app, gid).state.scored[0].points == [-260, 0, 0, 0]


def test_undo_takes_back_the_last_deal(app, client):
    gid = new_game(client)
    post_deal(client, gid, 1, 1, {"tricks": [13, 0, 0, 0]})
    r = client.post(f"/games/{gid}/undo", data={"version": 2})
    assert r.status_code == 302
    assert state(app, gid).state.scored == []
    assert "Deal 1 of 12" in client.get(f"/games/{gid}").text


def test_card_by_card_entry_through_the_form(app, client):
    gid = new_game(client)
    post_deal(client, gid, 1, 1, {"tricks": [13, 0, 0, 0]})
    page = client.get(f"/games/{gid}?mode=cards").text
    assert page.count('name="card-') == 13 * 4  # 13 hearts, a button per player
    cards = {f"card-{r}H": "1" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]}
    cards["card-AH"] = "3"
    r = client.post(f"/games/{gid}/deals/2", data={"version": 2, "mode": "cards", **cards})
    assert r.status_code == 302, errors_in(r.text)
    assert state(app, gid).state.scored[1].points == [0, -240, 0, -20]


def test_setup_refuses_duplicate_and_long_names(client):
    r = client.post("/games/new", data={"ruleset": "standard-4", "first_dealer": "random",
                                        "player_0": "Ala", "player_1": "ala",
                                        "player_2": "x" * 41, "player_3": ""})
    assert r.status_code == 422
    messages = errors_in(r.text)
    assert "Each player needs a different name." in messages
    assert "A name can have at most 40 characters; this one has 41." in messages
    assert "Enter a name." in messages
    assert 'value="Ala"' in r.text
    assert "No games yet" in client.get("/").text  # nothing was stored


def test_three_player_game_with_random_dealer(app, client):
    gid = new_game(client, "standard-3", ["Ola", "Piotr", "Rysiek"], dealer="random")
    game = state(app, gid)
    assert game.players == ["Ola", "Piotr", "Rysiek"] and len(game.state.deals) == 11
    assert "Deal 1 of 11" in client.get(f"/games/{gid}").text


def test_delete_after_confirming(app, client):
    gid = new_game(client)
    assert "Delete this game?" in client.get(f"/games/{gid}/delete").text
    client.post(f"/games/{gid}/delete", data={"version": 1})
    assert client.get(f"/games/{gid}").status_code == 404


def test_polish_when_the_browser_prefers_it_and_the_switch(client):
    gid = new_game(client)
    page = client.get(f"/games/{gid}", headers={"Accept-Language": "pl-PL,pl;q=0.9"}).text
    assert "Rozdanie 1 z 12" in page and "Bez lew" in page
    r = client.get("/lang/en?next=/games/" + gid, headers={"Accept-Language": "pl"})
    assert r.location.endswith(f"/games/{gid}")
    page = client.get(f"/games/{gid}", headers={"Accept-Language": "pl"}).text
    assert "Deal 1 of 12" in page
    assert client.get("/lang/pl?next=https://evil.example/").location == "/"


def test_the_version_endpoint_follows_every_write(app, client):
    gid = new_game(client)
    assert client.get(f"/games/{gid}/version").get_json() == {"version": 1}
    post_deal(client, gid, 1, 1, {"tricks": [13, 0, 0, 0]})
    assert client.get(f"/games/{gid}/version").get_json() == {"version": 2}
    assert client.get("/games/nope/version").status_code == 404


def test_a_forged_setup_is_refused_in_the_users_language(client):
    data = {"ruleset": "nope", "player_0": "A", "player_1": "B", "player_2": "C",
            "player_3": "D", "first_dealer": "9"}
    r = client.post("/games/new", data=data, headers={"Accept-Language": "pl"})
    assert r.status_code == 422
    assert errors_in(r.text) == ["Nieprawidłowy wybór", "Nieprawidłowy wybór"]
    assert "Nie ma jeszcze gier" in client.get("/", headers={"Accept-Language": "pl"}).text
