"""The outlook is exact for every ruleset (issue 35, item 6): every place's prize is
counted (the place the rules fill in too), whatever its sign, and a house variant's
multipliers are counted as they score. Its verdicts ("First place is decided", "… can no
longer win", "gain up to") are compared with brute force: every result the deals left
can have, scored through the contracts' own checks, over random house variants (seed
004's prize tables among them), not only the built-in rulesets.
"""
import copy
from itertools import permutations, product
from types import SimpleNamespace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.families.kierki.rules import get_ruleset, replay
from scorekeeper.families.kierki.rules.document import game_sum
from scorekeeper.families.kierki.rules.outlook import outlook, swing
from scorekeeper.families.kierki.rules.rulesets import from_data
from scorekeeper.rules.errors import InvalidDeal
from tests.fixtures import become_host, new_game, post_deal, state

# Seed 004's lottery scores ("Variations"): variation 2's "100/50/0/-50", variation 4's
# "200/100/0 if there are three players, and 400/300/200/100/0 if there are 5 players"
SEED_PRIZES = {3: [[200, 100, 0], [790, 485]], 4: [[100, 50, 0, -50], [800, 500]],
               5: [[400, 300, 200, 100, 0]]}
BASE = {3: "standard-3", 4: "standard-4", 5: "zdanowicz-5"}


def variant(base: str, changes) -> object:
    data = copy.deepcopy(get_ruleset(base).data)
    data["id"] = "house-test"
    changes(data)
    data["expected_sum"] = game_sum(from_data(data))
    return from_data(data)


def seed_prizes_variant():
    def change(data):
        data["contracts"]["loteryjka"]["prizes"] = [100, 50, 0, -50]
    return variant("standard-4", change)


# -- brute force: every result of a deal, through validate and scored -----------------

def _splits(total, players):
    """Every way to share ``total`` among ``players``, by trying every tuple (not the
    outlook's own recursion: the brute force shares no code with what it checks)."""
    return (c for c in product(range(total + 1), repeat=players) if sum(c) == total)


#: The issue's game (seed 004's prizes "100/50/0/-50"), 11 deals: totals [0, -120, -500,
#: -680], where first place is not decided.
ISSUE_GAME = [
    {"tricks": [0, 6, 0, 7]}, {"hearts": [0, 0, 0, 13]}, {"queens": [0, 0, 0, 4]},
    {"gentlemen": [0, 0, 0, 8]}, {"king_of_hearts": 3}, {"positions": [3, 3]},
    {"tricks": [0, 0, 13, 0], "hearts": [0, 0, 13, 0], "queens": [0, 0, 4, 0],
     "gentlemen": [0, 0, 8, 0], "king_of_hearts": 2, "positions": [2, 2]},
    {"trump": "S", "tricks": [0, 0, 13, 0]}, {"trump": "S", "tricks": [0, 0, 13, 0]},
    {"trump": "S", "tricks": [0, 0, 6, 7]}, {"trump": "S", "tricks": [0, 0, 0, 13]},
]


def every_points(contract, players):
    """Each distinct set of points a deal can give, by trying every raw result."""
    fields = contract.fields()
    spaces = []
    for f in fields:
        if f.name == "order":  # every full finishing order, the filled place included
            spaces.append([list(p) for p in permutations(range(players))])
        elif f.type == "counts":
            spaces.append([list(s) for s in _splits(f.total, players)])
        elif f.type == "seat":
            spaces.append(list(range(players)))
        elif f.type == "seats":
            spaces.append([list(p) for p in product(range(players), repeat=len(f.labels))])
        elif f.type == "suit":
            spaces.append(["S"])
        else:
            raise AssertionError(f.type)
    found = set()
    for values in product(*spaces):
        try:
            result = contract.validate(dict(zip((f.name for f in fields), values)), 0)
        except InvalidDeal:
            continue
        found.add(tuple(contract.scored(result, 0)))
    return found


def brute(totals, contracts, players):
    """(first place for sure, who cannot reach first place, the most gained on another)."""
    ends = {tuple(totals)}
    for contract in contracts:
        options = every_points(contract, players)
        ends = {tuple(t + p for t, p in zip(e, o)) for e in ends for o in options}
    seats = range(players)
    gain = max(((e[i] - totals[i]) - (e[j] - totals[j]) for e in ends
                for i in seats for j in seats), default=0)
    top = {s for e in ends for s in seats if e[s] == max(e)}
    sure = [s for s in seats
            if all(e[s] > max(v for i, v in enumerate(e) if i != s) for e in ends)]
    return sure, [s for s in seats if s not in top], gain


def fake_state(rules, totals, left):
    """A game with ``left`` deals to play and these totals (what the outlook reads)."""
    deals = [SimpleNamespace(contract=rules.contract(k)) for k in left]
    return SimpleNamespace(deals=deals, scored=[], totals=list(totals))


@st.composite
def house_games(draw):
    players = draw(st.sampled_from([3, 4, 5]))
    prizes = draw(st.one_of(
        st.sampled_from(SEED_PRIZES[players]),
        st.lists(st.integers(-300, 900), min_size=1, max_size=players)))
    trick_points = draw(st.integers(-40, 40).filter(bool))
    multipliers = draw(st.one_of(st.none(), st.lists(st.integers(0, 4), min_size=1,
                                                     max_size=players)))

    def change(data):
        c = data["contracts"]
        c["loteryjka"]["prizes"] = prizes
        c["counted"] = {"kind": "tricks", "points": trick_points}
        if multipliers is not None:
            c["counted"]["multipliers"] = multipliers
        data["schedule"] = data["schedule"] + ["counted"]
    rules = variant(BASE[players], change)
    small = ["loteryjka", "no_king_of_hearts", "no_seventh_last"] + (
        ["counted"] if players == 3 else [])
    left = draw(st.lists(st.sampled_from(small), min_size=1, max_size=2)) \
        if players < 5 else [draw(st.sampled_from(["loteryjka", "no_seventh_last"]))]
    if players == 4 and draw(st.booleans()):
        left = [draw(st.sampled_from(["loteryjka", "counted"]))]
    totals = draw(st.lists(st.integers(-1500, 1500), min_size=players, max_size=players))
    return rules, left, totals


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(house_games())
def test_the_outlook_agrees_with_brute_force_over_house_variants(game):
    rules, left, totals = game
    view = outlook(fake_state(rules, totals, left))
    sure, out, gain = brute(totals, [rules.contract(k) for k in left], rules.players)
    assert view.reach == gain                      # "One player can still gain up to …"
    assert view.clinched == sure                   # "First place is decided …"
    assert view.out == out                         # "… can no longer win."


def test_the_filled_last_place_with_a_negative_prize_counts():
    # The issue's case: prizes "100/50/0/-50" (seed 004, variation 2), 11 deals played.
    rules = seed_prizes_variant()
    results = ISSUE_GAME
    game = replay(rules, 0, results)
    assert game.totals == [0, -120, -500, -680]
    view = outlook(game)
    assert swing(rules.contract("loteryjka")) == 150   # +100 first, −50 last
    assert view.clinched == [] and view.reach == 150
    assert view.out == [2, 3]
    # the order Bolek, Cezary, Dorota (Ala last, filled in by the rules): Bolek wins
    end = replay(rules, 0, [*results, {"order": [1, 2, 3]}])
    assert end.totals[1] > end.totals[0]


def variation_1_robber():
    """Seed 004's variation 1 bandit: "All scores were doubled if one player took no
    tricks, trebled if two players took no tricks, but if one player took all the
    tricks, that player scored nothing while the others scored -130 each"; −2 a trick,
    −2 a heart, −5 a queen, −3 a king or jack, −16 the K♥, −9 each of the last two."""
    def change(data):
        c = data["contracts"]
        c["no_tricks"]["points"] = -2
        c["no_hearts"]["points"] = -2
        c["no_queens"]["points"] = -5
        c["no_gentlemen"]["points"] = -3
        c["no_king_of_hearts"]["points"] = -16
        c["no_seventh_last"] = {"kind": "positions", "positions": [-2, -1], "points": -9}
        c["robber"]["multipliers"] = [1, 2, 3]
        c["robber"]["all_tricks"] = "others_pay"
    return variant("standard-4", change)


def test_the_robbers_swing_with_multipliers_is_the_most_a_result_gives():
    rules = variation_1_robber()
    robber = rules.contract("robber")
    assert robber.expected_sum == -130
    # Two players take no trick (×3), one takes a single clean trick (−2), the last all
    # the rest: −128 × 3 = −384 against 0.
    result = robber.validate({"tricks": [0, 0, 1, 12], "hearts": [0, 0, 0, 13],
                              "queens": [0, 0, 0, 4], "gentlemen": [0, 0, 0, 8],
                              "king_of_hearts": 3, "positions": [3, 3]})
    points = robber.scored(result)
    assert max(points) - min(points) == 384
    assert swing(robber) == 384                    # not 130 × 3 = 390
    # one player taking every trick pays nothing, the others −130 each: a gap of 130
    sweep = robber.scored(robber.validate({
        "tricks": [0, 0, 0, 13], "hearts": [0, 0, 0, 13], "queens": [0, 0, 0, 4],
        "gentlemen": [0, 0, 0, 8], "king_of_hearts": 3, "positions": [3, 3]}))
    assert sweep == [-130, -130, -130, 0]


def test_the_robbers_swing_is_the_brute_force_one_on_a_small_table():
    # Every result of a robber of tricks and the K♥ on a three-player table, scored:
    # the swing is the widest gap any of them gives, multipliers and the sweep included.
    def change(data):
        c = data["contracts"]
        c["robber"] = {"kind": "robber", "parts": ["no_tricks", "no_king_of_hearts"],
                       "multipliers": [1, 3, 2], "lead": ["no_hearts"]}
    for multipliers, sweep in (([1, 3, 2], False), ([1, 3], True), ([2], False)):
        def change2(data, multipliers=multipliers, sweep=sweep):
            change(data)
            data["contracts"]["robber"]["multipliers"] = multipliers
            if sweep:
                data["contracts"]["robber"]["all_tricks"] = "others_pay"
        robber = variant("standard-3", change2).contract("robber")
        found = every_points(robber, 3)
        assert swing(robber) == max(max(p) - min(p) for p in found), multipliers


def test_the_no_trump_deal_is_not_called_a_negative_deal(client, app):
    become_host(client, app)
    data = client.get("/api/rulesets/standard-4").get_json()
    for key in ("id", "source", "summary", "notes", "expected_sum"):
        data.pop(key, None)
    data["name"] = {"en": "Four and one", "pl": "Cztery i jedno"}
    data["made_by"] = "Ala"
    for key in ("trumps",):
        data["contracts"][key]["points"] = 20
    data["contracts"]["no_trump"] = {"kind": "tricks", "points": 20}
    data["schedule"] = [k for k in data["schedule"] if k != "loteryjka"] + ["no_trump"]
    data["schedule"].remove("robber")
    made = client.post("/api/rulesets", json=data)
    assert made.status_code == 201, made.get_json()
    gid = new_game(client, ruleset=made.get_json()["id"],
                   players=["Ala", "Bożena", "Czesław", "Żaneta"])
    english = client.get(f"/games/{gid}", headers={"Accept-Language": "en"}).text
    assert ("Still to share out: −1300 in the negative deals; +1300 in the trump deals "
            "and the deals without trumps.") in english
    polish = client.get(f"/games/{gid}", headers={"Accept-Language": "pl"}).text
    assert ("Zostało do podziału: −1300 w rozdaniach ujemnych; +1300 w rozgrywkach "
            "atutowych i w rozdaniach bez atu.") in polish


def test_the_game_page_no_longer_calls_first_place_decided(client, app):
    # The issue's game on the page: a house variant with 100/50/0/-50, 11 deals played.
    become_host(client, app)
    data = client.get("/api/rulesets/standard-4").get_json()
    for key in ("id", "source", "summary", "notes", "expected_sum"):
        data.pop(key, None)
    data["name"] = {"en": "Lottery to minus fifty", "pl": "Loteria do minus pięćdziesięciu"}
    data["made_by"] = "Ala"
    data["contracts"]["loteryjka"]["prizes"] = [100, 50, 0, -50]
    data["unbalanced"] = True
    made = client.post("/api/rulesets", json=data)
    assert made.status_code == 201, made.get_json()
    gid = new_game(client, ruleset=made.get_json()["id"],
                   players=["Ala", "Bolek", "Cezary", "Dorota"])
    results = ISSUE_GAME
    for number, raw in enumerate(results, start=1):
        r = post_deal(client, gid, number, state(app, gid).version, raw)
        assert r.status_code == 302, number
    page = client.get(f"/games/{gid}", headers={"Accept-Language": "en"}).text
    assert "First place is decided" not in page
    assert "Cezary and Dorota can no longer win." in page
    assert "One player can still gain up to 150 on another." in page
