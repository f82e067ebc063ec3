"""What is still in play: the points left to share out and the places already decided
(issue 25, item 15).

A table asks it every evening: "can Ala still be caught?". The answer is a lead larger
than the most one player can still gain on another in the deals left; a lead of exactly
that much can still be drawn level, so it decides nothing.
"""
from scorekeeper.families.kierki.rules import Table, deck, get_ruleset, replay, schedule
from scorekeeper.families.kierki.rules.contracts import make_contract
from scorekeeper.families.kierki.rules.outlook import outlook, swing
from tests.fixtures import new_game, post_deal, state

NOTHING = {  # seat 3 takes every penalty of every negative deal and of the robber
    "no_tricks": {"tricks": [0, 0, 0, 13]},
    "no_hearts": {"hearts": [0, 0, 0, 13]},
    "no_queens": {"queens": [0, 0, 0, 4]},
    "no_gentlemen": {"gentlemen": [0, 0, 0, 8]},
    "no_king_of_hearts": {"king_of_hearts": 3},
    "no_seventh_last": {"positions": [3, 3]},
    "robber": {"tricks": [0, 0, 0, 13], "hearts": [0, 0, 0, 13], "queens": [0, 0, 0, 4],
               "gentlemen": [0, 0, 0, 8], "king_of_hearts": 3, "positions": [3, 3]},
}


def trumps(*tricks):
    return {"trump": "S", "tricks": list(tricks)}


def negatives():
    return list(NOTHING.values())


def test_a_deals_swing_is_one_player_taking_all_of_it_and_another_none():
    # standard-4: 20 a trick, 20 a heart, 60 a queen, 30 a king or jack, 150 the K♥,
    # 75 each for the 7th and last trick; the robber all of them; 25 a trick with
    # trumps; the loteryjka's first finisher gets the most.
    rules = get_ruleset("standard-4")
    by_key = {}
    for deal in schedule(rules, 0):  # every deal of the game
        by_key.setdefault(deal.contract.key, swing(deal.contract))
    assert by_key["no_tricks"] == 13 * 20
    assert by_key["no_queens"] == 4 * 60
    assert by_key["no_king_of_hearts"] == 150
    assert by_key["robber"] == 1300          # one player takes every trick
    assert by_key["trumps"] == 13 * 25
    assert by_key["loteryjka"] == 800         # 800 for the first out, nothing for the last


def test_before_the_first_deal_nothing_is_decided_and_everything_is_left():
    view = outlook(replay(get_ruleset("standard-4"), 0, []))
    assert sum(p for _, p in view.left if p < 0) == -2600
    assert sum(p for _, p in view.left if p > 0) == 2600
    assert view.clinched == [] and view.out == []


def test_a_lead_larger_than_the_last_deal_can_close_decides_first_place():
    # Before the loteryjka Ala (seat 0) took every trick of every trump deal: +1300; the
    # others cannot make up 1300 in one loteryjka.
    results = negatives() + [trumps(13, 0, 0, 0)] * 4
    game = replay(get_ruleset("standard-4"), 0, results)
    view = outlook(game)
    assert game.totals == [1300, 0, 0, -2600]
    assert view.reach < 1300
    assert view.clinched == [0]
    assert view.out == [1, 2, 3]


def test_a_lead_of_exactly_what_is_left_can_still_be_drawn_level():
    rules = get_ruleset("standard-4")
    results = negatives() + [trumps(13, 0, 0, 0), trumps(13, 0, 0, 0),
                             trumps(6, 0, 7, 0), trumps(0, 0, 13, 0)]
    game = replay(rules, 0, results)
    view = outlook(game)
    lead = game.totals[0] - game.totals[1]
    assert lead == view.reach              # Bożena is exactly one loteryjka behind
    assert view.clinched == []             # so nothing is decided for first place…
    assert 1 not in view.out and 3 in view.out
    # …and she can indeed draw level: she finishes first, Ala out of the prizes.
    end = replay(rules, 0, [*results, {"order": [1, 2]}])
    assert end.totals[0] == end.totals[1]


def test_a_deal_with_an_auction_leaves_everything_open():
    # A bid moves any number of points from the buyer to the dealer.
    table = Table(players=4, tricks=13, deck=deck())
    sold = make_contract("trumps", {"kind": "trumps", "points": 25, "auction": True}, table)
    plain = make_contract("trumps", {"kind": "trumps", "points": 25}, table)
    assert swing(sold) is None and swing(plain) == 325


def test_the_game_page_says_what_is_left_and_who_can_no_longer_win(client, app):
    gid = new_game(client, players=["Ala", "Bożena", "Czesław", "Żaneta"])
    page = client.get(f"/games/{gid}", headers={"Accept-Language": "pl"}).text
    assert ("Zostało do podziału: −2600 w rozdaniach ujemnych i w rozbójniku; "
            "+2600 w rozgrywkach atutowych i w loteryjce.") in page
    results = negatives() + [trumps(13, 0, 0, 0)] * 4
    for number, raw in enumerate(results, start=1):
        r = post_deal(client, gid, number, state(app, gid).version, raw)
        assert r.status_code == 302
    page = client.get(f"/games/{gid}", headers={"Accept-Language": "pl"}).text
    assert "w loteryjce." in page
    assert "Pierwsze miejsce rozstrzygnięte: Ala – nikt już nie dogoni." in page
    english = client.get(f"/games/{gid}", headers={"Accept-Language": "en"}).text
    assert "First place is decided: nobody can catch Ala any more." in english
    r = post_deal(client, gid, 12, state(app, gid).version, {"order": [0, 1, 2, 3]})
    assert r.status_code == 302
    over = client.get(f"/games/{gid}", headers={"Accept-Language": "en"}).text
    assert "Still to share out" not in over and "First place is decided" not in over
