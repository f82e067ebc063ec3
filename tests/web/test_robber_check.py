"""``POST /api/games/<id>/deals/<n>/check``: the robber's cross-checks while its cells are
filled, by the rules that check it when it is saved. Complete, it refuses exactly what
Save refuses; partial, a blank is no problem yet and only what the numbers entered
already break is said; it never stores anything; bad input gets a clear message."""
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.families.kierki.rules import InvalidDeal
from scorekeeper.families.kierki.rules.examples import SAMPLE_GAME_4
from scorekeeper.families.kierki.rules.rulesets import get_ruleset
from tests.families.kierki.test_robber_shared_cards import ROBBERS, real_result

ROBBER = 7  # standard-4's robber is deal 7
Q_HEART = ("Only one player took the Q♥, yet these counts need it for this player and "
           "another one too (it counts under more than one heading).")


@pytest.fixture
def game(client):
    """A standard-4 game at its robber, this client holding its token."""
    made = client.post("/api/games", json={"ruleset": "standard-4", "first_dealer": 0,
                                           "players": ["Ala", "Bolek", "Cela", "Darek"]})
    game = made.get_json()
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {game['token']}"
    for number, raw in enumerate(SAMPLE_GAME_4[:ROBBER - 1], start=1):
        r = client.put(f"/api/games/{game['id']}/deals/{number}",
                       json={"version": number, "result": raw})
        assert r.status_code == 200
    return r.get_json()


def check(client, game, result, lang="en", number=ROBBER):
    r = client.post(f"/api/games/{game['id']}/deals/{number}/check", json={"result": result},
                    headers={"Accept-Language": lang})
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def said(answer):
    """The answer's problems as a 422 gives them: messages per field."""
    out = {}
    for p in answer["problems"]:
        out.setdefault(p["field"], []).append(p["message"])
    return out


ROW = {"tricks": [1, 1, 11, 0], "hearts": [4, 4, 5, 0], "queens": [1, 1, 2, 0],
       "gentlemen": [0, 0, 8, 0], "king_of_hearts": 2, "positions": [2, 2]}
REFUSED = [
    ROW,  # the case: two one-trick hands each needing the one Q♥
    dict(ROW, queens=[0, 0, 4, 0], gentlemen=[1, 1, 6, 0]),  # ... the one J♥
    {"tricks": [4, 3, 5, 1], "hearts": [3, 2, 8, 0], "queens": [1, 1, 2, 0],
     "gentlemen": [2, 1, 5, 0], "king_of_hearts": 3, "positions": [2, 0]},  # K♥, no heart
    {"tricks": [0, 4, 5, 4], "hearts": [1, 3, 5, 4], "queens": [0, 1, 2, 1],
     "gentlemen": [0, 2, 3, 3], "king_of_hearts": 1, "positions": [0, 2]},  # no trick
    {"tricks": [1, 4, 4, 4], "hearts": [5, 3, 3, 2], "queens": [1, 1, 1, 1],
     "gentlemen": [1, 2, 3, 2], "king_of_hearts": 1, "positions": [1, 2]},  # too many
    dict(SAMPLE_GAME_4[ROBBER - 1], tricks=[5, 5, 5, 5]),  # a sum
]


@pytest.mark.parametrize("raw", REFUSED, ids=range(len(REFUSED)))
def test_a_complete_result_is_refused_as_save_refuses_it_and_stores_nothing(client, game,
                                                                          raw):
    answer = check(client, game, raw)
    assert answer["complete"] is True and answer["ok"] is False
    put = client.put(f"/api/games/{game['id']}/deals/{ROBBER}",
                     json={"version": game["version"], "result": raw})
    assert put.status_code == 422
    assert said(answer) == put.get_json()["errors"]
    assert client.get(f"/api/games/{game['id']}").get_json() == game


def test_a_real_robber_is_fine_and_checking_it_stores_nothing(client, game):
    raw = SAMPLE_GAME_4[ROBBER - 1]
    before = client.get(f"/api/games/{game['id']}").data
    answer = check(client, game, raw)
    assert answer == {"ok": True, "complete": True, "problems": [], "progress": [
        {"field": "tricks", "entered": 13, "total": 13, "done": True,
         "text": "Tricks: 13 of 13 ✓"},
        {"field": "hearts", "entered": 13, "total": 13, "done": True,
         "text": "Hearts ♥: 13 of 13 ✓"},
        {"field": "queens", "entered": 4, "total": 4, "done": True,
         "text": "Queens: 4 of 4 ✓"},
        {"field": "gentlemen", "entered": 8, "total": 8, "done": True,
         "text": "Kings and jacks: 8 of 8 ✓"}]}
    assert client.get(f"/api/games/{game['id']}").data == before  # same version, same deals
    del client.environ_base["HTTP_AUTHORIZATION"]  # reading access is enough to ask
    assert check(client, game, raw)["ok"] is True
    put = client.put(f"/api/games/{game['id']}/deals/{ROBBER}",
                     json={"version": game["version"], "result": raw})
    assert put.status_code == 401  # (writing is not)


def test_blank_cells_do_not_shout_and_the_counts_so_far_are_given(client, game):
    partial = {"tricks": ["9", None, "", None], "hearts": [3, None, None, None]}
    answer = check(client, game, partial, lang="pl")
    assert answer["ok"] is True and answer["complete"] is False and answer["problems"] == []
    assert [p["text"] for p in answer["progress"]] == [
        "Lewy: 9 z 13", "Kiery ♥: 3 z 13", "Damy: 0 z 4", "Panowie (K i W): 0 z 8"]
    assert check(client, game, {})["problems"] == []  # nothing entered, nothing to say


def test_what_the_entered_numbers_already_break_is_said_in_the_users_language(client,
                                                                             game):
    over = check(client, game, {"tricks": [9, 5, None, None]}, lang="pl")
    assert said(over) == {"tricks": ["Suma musi wynosić 13, a wynosi 14."]}
    assert over["problems"][0]["where"] == "Lewy"
    # a player with no trick and a heart, as soon as that player's row is entered
    row = {"tricks": [0, None, None, None], "hearts": [1, None, None, None],
           "queens": [0, None, None, None], "gentlemen": [0, None, None, None]}
    answer = check(client, game, row)
    assert said(answer) == {"hearts.0": ["This player took no trick, so no penalty card."]}
    assert answer["problems"][0]["where"] == "Ala · Hearts ♥"
    # two rows each needing the one Q♥, the other two rows, the K♥ and the tricks blank
    two = {k: [*v[:2], None, None] for k, v in ROW.items() if k in
           ("tricks", "hearts", "queens", "gentlemen")}
    assert said(check(client, game, two)) == {"hearts.0": [Q_HEART], "hearts.1": [Q_HEART]}
    assert check(client, game, dict(two, hearts=[4, 3, None, None]))["ok"] is True


def test_a_blank_choice_may_still_go_to_the_player_who_needs_it(client, game):
    # one trick with four hearts, a queen and two gentlemen fits only with the K♥ in it
    row = {"tricks": [1, None, None, None], "hearts": [4, None, None, None],
           "queens": [1, None, None, None], "gentlemen": [2, None, None, None]}
    assert check(client, game, row)["ok"] is True  # the K♥ not chosen yet: it may be Ala's
    assert check(client, game, dict(row, king_of_hearts=0))["ok"] is True
    other = check(client, game, dict(row, king_of_hearts=1))
    assert said(other) == {"tricks.0": ["5 different penalty cards do not fit in 1 tricks."]}
    # two penalty tricks for a one-trick player, whoever the blank ones go to
    taken = {"tricks": [1, None, None, None], "hearts": [0, None, None, None],
             "queens": [0, None, None, None], "gentlemen": [0, None, None, None],
             "positions": [0, 0]}
    assert said(check(client, game, taken)) == {
        "tricks.0": ["2 penalty tricks need at least 2 tricks."]}


def test_bad_input_gets_a_clear_message_and_changes_nothing(client, game):
    url = f"/api/games/{game['id']}/deals/{ROBBER}/check"
    r = client.post(url, data="tricks=1", content_type="application/x-www-form-urlencoded")
    assert r.status_code == 415 and r.get_json()["error"]
    r = client.post(url, json=[1, 2])
    assert r.status_code == 422 and r.get_json()["errors"] == {"": ["Send a JSON object."]}
    r = client.post(url, json={"result": "13"}, headers={"Accept-Language": "pl"})
    assert r.status_code == 422
    assert r.get_json()["errors"] == {"result": ["Podaj wynik rozdania."]}
    r = client.post(f"/api/games/{game['id']}/deals/9/check", json={"result": {}})
    assert r.status_code == 422
    assert r.get_json()["errors"] == {"": ["Deals are entered in order; the next is deal 7."]}
    assert client.post("/api/games/no-such-game/deals/7/check",
                       json={"result": {}}).status_code == 404
    # what cannot be read is said at its field, as saving would say it
    answer = check(client, game, {"tricks": [1, "x", None, None], "queens": "four"})
    assert said(answer) == {"tricks.1": ["Enter a whole number from 0 to 13."],
                            "queens": ["Enter a number for each of the 4 players."]}
    assert client.get(f"/api/games/{game['id']}").get_json() == game


def test_an_earlier_deal_is_checked_for_its_correction(client, game):
    answer = check(client, game, {"tricks": [5, 5, 5, None]}, number=1)
    assert answer["ok"] is False and said(answer) == {
        "tricks": ["These must add up to 13; they add up to 15."]}


def _blanked(robber, raw, rnd):
    """``raw`` with some cells and choices left blank at random."""
    out = {}
    for key, value in raw.items():
        if isinstance(value, list):
            out[key] = [None if rnd.random() < 0.4 else v for v in value]
        else:
            out[key] = None if rnd.random() < 0.4 else value
    return out


@pytest.mark.parametrize(("ruleset", "key"), ROBBERS)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), weights=st.lists(st.integers(0, 6), min_size=5,
                                                    max_size=5).filter(any))
def test_a_real_deal_half_entered_is_never_refused(ruleset, key, seed, weights):
    robber = get_ruleset(ruleset).contract(key)
    weights = weights[:robber.table.players]
    if not any(weights):
        weights[0] = 1
    raw = real_result(robber, seed, weights)
    assert robber.entered(_blanked(robber, raw, random.Random(seed))) == []


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_what_a_half_entered_deal_is_refused_for_its_whole_is_refused_for_too(seed):
    # counts that add up, at random: whenever a part entered is refused, every whole it
    # can be part of is refused by saving (here: the whole it was cut from)
    robber = get_ruleset("standard-4").contract("robber")
    rnd = random.Random(seed)

    def shares(total):
        cuts = sorted(rnd.randint(0, total) for _ in range(3))
        return [a - b for a, b in zip([*cuts, total], [0, *cuts])]
    raw = {"tricks": shares(13), "hearts": shares(13), "queens": shares(4),
           "gentlemen": shares(8), "king_of_hearts": rnd.randrange(4),
           "positions": [rnd.randrange(4), rnd.randrange(4)]}
    if robber.entered(_blanked(robber, raw, rnd)):
        with pytest.raises(InvalidDeal):
            robber.validate(raw)
