"""Every contract kind, scored and checked as players at a table would check it."""
import pytest

from scorekeeper.families.kierki.rules import InvalidDeal, get_ruleset

S4 = get_ruleset("standard-4")
S3 = get_ruleset("standard-3")


def problems(contract, raw):
    with pytest.raises(InvalidDeal) as e:
        contract.validate(raw)
    return {p.field: p for p in e.value.problems}


def score(contract, raw):
    return contract.score(contract.validate(raw))


# -- counts per player -------------------------------------------------------

@pytest.mark.parametrize("rs, tricks, points", [
    (S4, [3, 4, 6, 0], [-60, -80, -120, 0]),
    (S3, [5, 5, 7], [-75, -75, -105]),
])
def test_no_tricks_scores_each_trick(rs, tricks, points):
    assert score(rs.contract("no_tricks"), {"tricks": tricks}) == points
    assert sum(points) == rs.contract("no_tricks").expected_sum


def test_tricks_must_add_up_to_13_or_17():
    assert "tricks" in problems(S4.contract("no_tricks"), {"tricks": [3, 3, 3, 3]})
    assert "tricks" in problems(S3.contract("no_tricks"), {"tricks": [5, 5, 5]})


def test_the_one_missing_count_is_filled():
    c = S4.contract("no_tricks")
    assert c.validate({"tricks": [3, 3, None, 3]})["tricks"] == [3, 3, 4, 3]


def test_a_count_out_of_range_is_named_at_its_player():
    found = problems(S4.contract("no_tricks"), {"tricks": [14, 0, 0, "x"]})
    assert set(found) >= {"tricks.0", "tricks.3"}


@pytest.mark.parametrize("key, counts, points", [
    ("no_hearts", [13, 0, 0, 0], [-260, 0, 0, 0]),
    ("no_queens", [1, 1, 2, 0], [-60, -60, -120, 0]),
    ("no_gentlemen", [0, 8, 0, 0], [0, -240, 0, 0]),
])
def test_card_counts_four_players(key, counts, points):
    c = S4.contract(key)
    assert score(c, {c.fields()[0].name: counts}) == points


@pytest.mark.parametrize("key, total", [("no_hearts", 13), ("no_queens", 4), ("no_gentlemen", 8)])
def test_card_counts_must_match_the_set(key, total):
    c = S3.contract(key)
    name = c.fields()[0].name
    assert name in problems(c, {name: [total, 1, 0]})
    assert sum(score(c, {name: [total, 0, 0]})) == c.expected_sum


def test_king_of_hearts_is_one_tap_for_one_player():
    c = S4.contract("no_king_of_hearts")
    assert [f.type for f in c.fields()] == ["seat"]
    assert score(c, {"king_of_hearts": 2}) == [0, 0, -150, 0]
    assert score(S3.contract("no_king_of_hearts"), {"king_of_hearts": 0}) == [-140, 0, 0]
    assert "king_of_hearts" in problems(c, {"king_of_hearts": 4})
    assert "king_of_hearts" in problems(c, {})


def test_penalty_tricks_seventh_and_last():
    c = S4.contract("no_seventh_last")
    assert [f.labels for f in c.fields()] == [("7", "13")]
    assert score(c, {"positions": [1, 1]}) == [0, -150, 0, 0]
    assert score(c, {"positions": [0, 3]}) == [-75, 0, 0, -75]
    assert "positions.1" in problems(c, {"positions": [0, None]})


def test_penalty_tricks_with_three_players_last_is_17th():
    c = S3.contract("no_seventh_last")
    assert c.fields()[0].labels == ("7", "17")
    assert score(c, {"positions": [2, 0]}) == [-70, 0, -70]


def test_last_two_tricks_reading_of_seed_001():
    c = get_ruleset("seed001-4").contract("no_last_two")
    assert c.fields()[0].labels == ("12", "13")
    assert score(c, {"positions": [3, 3]}) == [0, 0, 0, -150]


# -- robber ------------------------------------------------------------------

ROBBER_OK = {"tricks": [4, 3, 6, 0], "hearts": [5, 2, 6, 0], "queens": [1, 1, 2, 0],
             "gentlemen": [3, 1, 4, 0], "king_of_hearts": 0, "positions": [2, 1]}


def test_robber_is_the_sum_of_the_parts():
    pts = score(S4.contract("robber"), ROBBER_OK)
    # player 0: 4 tricks -80, 5 hearts -100, 1 queen -60, 3 gentlemen -90, K♥ -150
    assert pts[0] == -80 - 100 - 60 - 90 - 150
    assert pts[2] == -120 - 120 - 120 - 120 - 75
    assert sum(pts) == -1300 == S4.contract("robber").expected_sum


def test_robber_king_of_hearts_trick_costs_at_least_220():
    # one trick taken, holding the K♥ and nothing else scoring: -20 -20 -30 -150
    raw = {"tricks": [1, 12, 0, 0], "hearts": [1, 12, 0, 0], "queens": [0, 4, 0, 0],
           "gentlemen": [1, 7, 0, 0], "king_of_hearts": 0, "positions": [1, 1]}
    assert score(S4.contract("robber"), raw)[0] == -220


def test_robber_player_without_tricks_holds_nothing():
    raw = dict(ROBBER_OK, hearts=[5, 2, 5, 1])
    assert "hearts.3" in problems(S4.contract("robber"), raw)
    raw = dict(ROBBER_OK, positions=[3, 1])
    assert "positions.0" in problems(S4.contract("robber"), raw)


def test_robber_king_of_hearts_taker_counts_a_heart_and_a_gentleman():
    raw = dict(ROBBER_OK, king_of_hearts=1, hearts=[5, 0, 8, 0])
    found = problems(S4.contract("robber"), raw)
    assert any(k.startswith("hearts") for k in found)


def test_robber_penalty_cards_fit_in_the_tricks():
    # one trick holds four cards: 3 hearts and 2 queens fit only if one is the Q♥
    raw = {"tricks": [1, 12, 0, 0], "hearts": [3, 10, 0, 0], "queens": [2, 2, 0, 0],
           "gentlemen": [0, 8, 0, 0], "king_of_hearts": 1, "positions": [1, 1]}
    assert sum(score(S4.contract("robber"), raw)) == -1300
    raw = dict(raw, hearts=[4, 9, 0, 0])  # 4 hearts + 2 queens: at least 5 cards
    assert problems(S4.contract("robber"), raw)


def test_robber_two_penalty_tricks_need_two_tricks():
    raw = {"tricks": [1, 12, 0, 0], "hearts": [0, 13, 0, 0], "queens": [0, 4, 0, 0],
           "gentlemen": [0, 8, 0, 0], "king_of_hearts": 1, "positions": [0, 0]}
    assert problems(S4.contract("robber"), raw)


def test_robber_three_players():
    c = S3.contract("robber")
    raw = {"tricks": [6, 6, 5], "hearts": [4, 4, 5], "queens": [1, 2, 1],
           "gentlemen": [3, 3, 2], "king_of_hearts": 2, "positions": [0, 1]}
    assert sum(score(c, raw)) == -1275 == c.expected_sum


def test_card_by_card_entry_makes_the_counts():
    c = S4.contract("robber")
    owners = {str(card): 0 for card in c.card_sets}
    owners.update({"QS": 1, "JC": 1})
    raw = {"tricks": [10, 3, 0, 0], "positions": [0, 0], "cards": owners}
    result = c.validate(raw)
    assert result["queens"] == [3, 1, 0, 0]
    assert result["gentlemen"] == [7, 1, 0, 0]
    assert result["hearts"] == [13, 0, 0, 0]
    assert result["king_of_hearts"] == 0


def test_card_by_card_entry_needs_every_card():
    c = S4.contract("no_queens")
    found = problems(c, {"cards": {"QS": 0, "QH": 1}})
    assert {"cards.QD", "cards.QC"} <= set(found)


# -- trumps and loteryjka --------------------------------------------------

def test_trumps_need_a_suit_and_score_each_trick():
    c = S4.contract("trumps")
    assert score(c, {"trump": "H", "tricks": [4, 3, 3, 3]}) == [100, 75, 75, 75]
    assert "trump" in problems(c, {"trump": "X", "tricks": [4, 3, 3, 3]})
    assert score(S3.contract("trumps"), {"trump": "S", "tricks": [17, 0, 0]}) == [425, 0, 0]


def test_loteryjka_prizes_for_the_first_two():
    c = S4.contract("loteryjka")
    assert score(c, {"order": [2, 0]}) == [500, 0, 800, 0]
    assert score(S3.contract("loteryjka"), {"order": [1, 2]}) == [0, 790, 485]
    assert "order.1" in problems(c, {"order": [2, 2]})
    assert "order.0" in problems(c, {"order": [None, 1]})
