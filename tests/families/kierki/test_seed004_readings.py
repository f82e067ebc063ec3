"""Seed 004's variations as the source words them, and the readings the app chose where its
sources say nothing (issue 25, items 4 and 5). Each test quotes the rule it checks in its
own words (the source: /work/shared/seeds/004_*.txt, "Variations"; digest RULES.md §4).
"""
import copy
import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from scorekeeper.families.kierki.family import Kierki
from scorekeeper.families.kierki.rules import (
    InvalidDeal,
    RulesetError,
    check_lead,
    check_trick,
    document,
    from_data,
    get_ruleset,
    loteryjka,
    new_board,
    replay,
    start,
)
from scorekeeper.families.kierki.rules.examples import plausible_results
from scorekeeper.families.kierki.web import charts, variant_form
from tests.fixtures import play_api

ROOT = Path(__file__).resolve().parents[3]
PLAYERS = ["Ala", "Bożena", "Czesław", "Dorota"]


# -- variation 1: the bandit swept by one player ------------------------------------------

def bandit(**robber):
    """Variation 1's bandit: a trick −2, a heart −2, a queen −5, a king or jack −3, the K♥
    −16, each of the last two tricks −9 (−130 in all), played four times."""
    return {
        "id": "warsaw-1981", "players": 4, "name": {"en": "Warsaw 1981", "pl": "Warszawa 1981"},
        "contracts": {
            "tricks": {"kind": "tricks", "points": -2},
            "hearts": {"kind": "cards", "set": "hearts", "points": -2},
            "queens": {"kind": "cards", "set": "queens", "points": -5},
            "gentlemen": {"kind": "cards", "set": "gentlemen", "points": -3},
            "king": {"kind": "cards", "set": "king_of_hearts", "points": -16},
            "last_two": {"kind": "positions", "positions": [-2, -1], "points": -9},
            "bandit": {"kind": "robber", "lead": ["no_hearts"],
                       "parts": ["tricks", "hearts", "queens", "gentlemen", "king", "last_two"],
                       **robber},
        },
        "schedule": ["bandit"] * 4, "expected_sum": -520, "unbalanced": True,
    }


SWEEP = {"tricks": [0, 13, 0, 0], "hearts": [0, 13, 0, 0], "queens": [0, 4, 0, 0],
         "gentlemen": [0, 8, 0, 0], "king_of_hearts": 1, "positions": [1, 1]}


def test_a_bandit_swept_by_one_player_charges_every_other_player_the_whole_deal():
    """Variation 1 (Warsaw, 1981): the bandit's scores double when one player takes no
    trick and treble when two take none, "but if one player took all the tricks, that
    player scored nothing while the others scored -130 each" -- a rule of its own, not
    the treble (which would charge the taker -390 and nobody else)."""
    rs = from_data(bandit(multipliers=[1, 2, 3], all_tricks="others_pay"))
    robber = rs.contract("bandit")
    assert robber.expected_sum == -130
    state = replay(rs, 0, [SWEEP])
    assert state.scored[0].points == [-130, 0, -130, -130]
    assert state.scored[0].sum == state.scored[0].expected_sum == -390
    # the multipliers still apply short of a sweep: Ala alone took no trick, so doubled
    one_out = {"tricks": [0, 4, 5, 4], "hearts": [0, 4, 5, 4], "queens": [0, 1, 2, 1],
               "gentlemen": [0, 3, 3, 2], "king_of_hearts": 2, "positions": [1, 3]}
    # Bożena −8 −8 −5 −9 −9 = −39, Czesław −10 −10 −10 −9 −16 = −55, Dorota −8 −8 −5 −6 −9
    state = replay(rs, 0, [SWEEP, one_out])
    assert state.scored[1].points == [0, -78, -110, -72]
    assert state.totals == [-130, -78, -240, -202]
    # without the option, the same sweep is the treble the multipliers give
    plain = replay(from_data(bandit(multipliers=[1, 2, 3])), 0, [SWEEP])
    assert plain.scored[0].points == [0, -390, 0, 0]


def test_the_sweep_rule_is_said_on_the_rules_page_and_refused_where_it_cannot_apply(client):
    data = bandit(multipliers=[1, 2, 3], all_tricks="others_pay")
    for key in ("id", "expected_sum"):
        data.pop(key)
    refused = client.post("/api/rulesets", json={**data, "unbalanced": False})
    assert refused.status_code == 422 and "unbalanced" in refused.get_json()["errors"]
    made = client.post("/api/rulesets", json=data)
    assert made.status_code == 201, made.get_json()
    rid = made.get_json()["id"]
    page = client.get(f"/rules/{rid}").get_data(as_text=True)
    assert ("One player takes every trick: that player scores nothing, each other player "
            "−130") in page
    pl = client.get(f"/rules/{rid}", headers={"Accept-Language": "pl"}).get_data(as_text=True)
    assert "Gdy jeden gracz weźmie wszystkie lewy: on ma 0, każdy z pozostałych −130" in pl
    game = play_api(client, rid, PLAYERS, [SWEEP])[-1]
    assert game["deals"][0]["points"] == [-130, 0, -130, -130]
    # a robber with no part that counts tricks cannot tell who took every trick
    broken = bandit(all_tricks="others_pay")
    broken["contracts"]["bandit"]["parts"].remove("tricks")
    with pytest.raises(RulesetError, match="all_tricks"):
        from_data(broken)
    wrong = bandit(all_tricks="others_win")
    with pytest.raises(RulesetError, match="all_tricks"):
        from_data(wrong)


# -- variation 3: the Q♠ instead of the K♥ --------------------------------------------------

def queen_of_spades():
    doc = copy.deepcopy(get_ruleset("standard-4").data)
    return from_data(variant_form.quick(doc, "queen_of_spades"))


def test_the_queen_of_spades_deal_has_no_heart_lead_ban():
    """Variation 3 (RAF Transport Command): "in the fourth deal the 52-point penalty ... is
    for the queen of spades, not the king of hearts". The source says nothing of that
    deal's leads; the app's reading gives it no lead rule (the rules it had are about
    hearts and the K♥), so a heart may be led."""
    rs = queen_of_spades()
    deal = rs.contract("no_king_of_hearts")
    assert deal.set_name == "queen_of_spades" and deal.lead_rules == ()
    assert check_lead(deal, "5H", hand=["5H", "2S"]).allowed is True
    # the hearts deal keeps its own ban
    assert check_lead(rs.contract("no_hearts"), "5H", hand=["5H", "2S"]).allowed is False


def test_the_robber_of_the_queen_of_spades_checks_its_taker_took_a_queen():
    """With the Q♠ as the one-card penalty, its taker's tricks hold a queen (the Q♠ is
    one), as the K♥'s taker's hold a heart and a gentleman."""
    robber = queen_of_spades().contract("robber")
    wrong = {"tricks": [4, 3, 3, 3], "hearts": [4, 3, 3, 3], "queens": [0, 2, 1, 1],
             "gentlemen": [2, 2, 2, 2], "queen_of_spades": 0, "positions": [1, 2]}
    with pytest.raises(InvalidDeal) as e:
        robber.validate(wrong)
    assert [(p.field, p.message) for p in e.value.problems] == [
        ("queens.0", "The player who took the queen of spades has at least one here.")]
    # one trick holding the Q♥, J♥, K♥ and Q♠: three hearts, two gentlemen, two queens in
    # four cards (the K♥ is no penalty of its own here, so it may stand for two headings)
    one_trick = {"tricks": [1, 4, 4, 4], "hearts": [3, 4, 3, 3], "queens": [2, 1, 1, 0],
                 "gentlemen": [2, 2, 2, 2], "queen_of_spades": 0, "positions": [1, 2]}
    assert robber.scored(robber.validate(one_trick)) == [
        -20 - 60 - 120 - 60 - 150, -80 - 80 - 60 - 60 - 75, -80 - 60 - 60 - 60 - 75,
        -80 - 60 - 60]


# -- four trump deals and one without ---------------------------------------------------------

def test_the_deal_without_trumps_counts_as_a_positive_deal_in_charts_and_figures(app):
    """"For the positive games, some play 4 deals with trumps and one deal with no trumps,
    counting 20 per trick": the no-trump deal gives points out, so the charts and a
    player's figures count it with the positive deals, never with the negative ones."""
    doc = copy.deepcopy(get_ruleset("standard-4").data)
    rs = from_data({**variant_form.quick(doc, "no_trump_deal"), "expected_sum": 0})
    assert rs.contract("no_trump").expected_sum == 260 and document.game_sum(rs) == 0
    results = plausible_results(rs)  # Ala takes every trick of every deal but the trumps
    state = replay(rs, 0, results)
    no_trump = state.scored[rs.schedule.index("no_trump")]
    assert no_trump.points == [260, 0, 0, 0]
    game = SimpleNamespace(state=state, players=PLAYERS, rules=rs)
    with app.test_request_context():
        bars = charts.charts(game)[1]
        groups = dict(zip(bars.groups, bars.values))
        # deals 1-6 all Ala's: −1300; the robber another −1300
        assert groups["Negative deals"] == (-1300, 0, 0, 0)
        assert groups["Deals without trumps"] == (260, 0, 0, 0)
        assert groups["Trumps"] == (4 * 20 * 7, 4 * 20 * 2, 4 * 20 * 2, 4 * 20 * 2)
        kinds = Kierki().seat_stats(game, 0)["kinds"]
        assert kinds["no_trump"][1:] == (260, 1, ("no_trump", "Deals without trumps"))
        assert kinds["no_hearts"][3][0] == "negative"


def test_the_trick_checker_takes_no_trumps_where_the_deal_form_does(client):
    """Variation 1's forehand "chose a trump suit (or no trump)": where a trump deal may be
    played without trumps, the trick checker offers it too, and the highest card of the
    suit led wins."""
    data = client.get("/api/rulesets/standard-4").get_json()
    for key in ("id", "source", "summary", "notes", "expected_sum"):
        data.pop(key, None)
    data["name"] = {"en": "With no trumps", "pl": "Z bez atu"}
    data["contracts"]["trumps"]["no_trump"] = True
    rid = client.post("/api/rulesets", json=data).get_json()["id"]
    gid = client.post("/api/games", json={"ruleset": rid, "players": PLAYERS,
                                          "first_dealer": 0}).get_json()["id"]
    page = client.get(f"/games/{gid}/trick?contract=trumps&leader=0&trump=NT"
                      "&cards=9D,AS,2H,10D")
    text = page.get_data(as_text=True)
    assert page.status_code == 200
    assert 'value="NT" checked' in text and "No trumps" in text
    assert "Dorota takes the trick with 10♦." in text
    assert "Choose the trump suit." not in text
    # the standard rules have no such choice: "NT" is no trump suit there
    standard = client.get("/tools/trick?contract=trumps&trump=NT&cards=9D,AS,2H,10D")
    assert 'value="NT"' not in standard.get_data(as_text=True)
    assert "Choose the trump suit." in standard.get_data(as_text=True)
    trumps = from_data({**data, "id": "x", "expected_sum": 0}).contract("trumps")
    assert check_trick(trumps, 0, ["9D", "AS", "2H", "10D"], trump="NT").winner == 3


# -- the race for five: its fifth place, and the readings of zdanowicz-5 ---------------------

def test_the_race_for_five_fills_its_fifth_place_itself():
    """Variation 4 (Zdanowicz): the race pays "400/300/200/100/0 if there are 5 players".
    Once four have run out of cards the last place is whoever is left, so four places are
    entered and the rules fill the fifth (as the loteryjka board ends there)."""
    race = get_ruleset("zdanowicz-5").contract("loteryjka")
    assert race.fields()[0].labels == ("1", "2", "3", "4")
    result = race.validate({"order": [2, 0, 4, 1]})
    assert result["order"] == [2, 0, 4, 1, 3]
    assert race.scored(result) == [300, 100, 400, 0, 200]
    assert race.validate({"order": [2, 0, 4, 1, ""]})["order"] == [2, 0, 4, 1, 3]
    assert race.validate({"order": [2, 0, 4, 1, 3]})["order"] == [2, 0, 4, 1, 3]
    with pytest.raises(InvalidDeal) as e:
        race.validate({"order": [2, 2, 4, 1]})
    assert [p.field for p in e.value.problems] == ["order.1"]
    # the board asks for four players out, not five
    board = new_board(race, 0)
    with pytest.raises(InvalidDeal) as e:
        loteryjka.result(board)
    assert e.value.problems[0].params == {"places": 4}
    # the deal says so where the places are entered
    deal = start(get_ruleset("zdanowicz-5"), 0).deals[-1]
    assert ("Place %(place)s is whoever is left: it fills itself.", {"place": 5}) in [
        (line.message, line.params) for line in deal.notes()]
    # four players and two prizes: both places are still asked
    assert get_ruleset("standard-4").contract("loteryjka").fields()[0].labels == ("1", "2")


def _ruleset_json(rid):
    path = ROOT / "scorekeeper/families/kierki/rules/rulesets" / f"{rid}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def test_the_readings_of_zdanowicz_5_and_kurnik_3_are_marked_as_the_apps(client):
    """Variation 4 names no removed cards and no number of trump deals for five (variation
    2's "with five players the 2 and 2" lost its suits), and kurnik.pl does not say which
    card three players leave out: the notes on the rules page and docs/rulesets.md say
    the app chose, and why."""
    five = _ruleset_json("zdanowicz-5")
    assert five["removed"] == ["2C", "2D"] and five["schedule"].count("trumps") == 5
    en = client.get("/rules/zdanowicz-5").get_data(as_text=True)
    for words in ("the rest the report does not say, so the app chose",
                  "Out go the 2♣, as in the three-player game, and the 2♦",
                  ("Five trump deals, one per dealer, as kurnik.pl plays as many as there "
                   "are players"), "its fifth place is whoever is left, and the app fills it in"):
        assert words in en, words
    pl = client.get("/rules/zdanowicz-5", headers={"Accept-Language": "pl"}).get_data(
        as_text=True)
    assert "reszty opis nie mówi, więc wybrała ją aplikacja" in pl
    assert "piąte miejsce zajmuje ten, kto został – aplikacja wpisuje je sama" in pl
    three = client.get("/rules/kurnik-3").get_data(as_text=True)
    assert "Its page does not say which card goes to make 51; the app takes out the 2♣" \
        in three
    docs = (ROOT / "docs/rulesets.md").read_text(encoding="utf-8")
    kurnik3 = docs.split("### kurnik-3")[1].split("###")[0]
    zdanowicz = docs.split("### zdanowicz-5")[1].split("##")[0]
    assert "the app's reading" in kurnik3 and "2♣" in kurnik3
    for words in ("2♦", "five trump deals", "fifth place"):
        assert words in zdanowicz and "the app's reading" in zdanowicz, words
