"""The trump auction (house variant, seed 004 "Variations"): the players other than the
dealer bid for the dealer's right to take the box and name trumps; an accepted bid moves
from the buyer's score to the dealer's."""
import copy

import pytest

from scorekeeper.families.kierki.rules import InvalidDeal, from_data, get_ruleset, replay
from scorekeeper.families.kierki.rules.examples import plausible_results

NORTH, EAST, SOUTH, WEST = range(4)


def auction_rules(players=4):
    data = copy.deepcopy(get_ruleset(f"standard-{players}").data)
    data["id"] = f"auction-{players}"
    data["contracts"]["trumps"]["auction"] = True
    return from_data(data)


RULES = auction_rules()
TRUMPS = RULES.contract("trumps")


def problems(raw, dealer=NORTH):
    with pytest.raises(InvalidDeal) as e:
        TRUMPS.validate(raw, dealer)
    return {p.field: p.text() for p in e.value.problems}


def test_the_worked_example_north_sells_to_west_for_125():
    raw = {"bids": [None, None, None, 125], "sold": True, "trump": "H",
           "tricks": [2, 1, 4, 6]}
    result = TRUMPS.validate(raw, NORTH)
    assert result == raw
    # by hand, 25 a trick: N 2 × 25 + 125 = 175, E 25, S 4 × 25 = 100, W 6 × 25 − 125 = 25
    assert TRUMPS.score(result, NORTH) == [175, 25, 100, 25]
    assert sum(TRUMPS.score(result, NORTH)) == 325 == TRUMPS.expected_sum


def test_the_highest_bid_buys_and_a_buyer_may_end_below_zero():
    raw = {"bids": [90, None, 200, None], "sold": True, "trump": "S", "tricks": [4, 4, 3, 2]}
    result = TRUMPS.validate(raw, EAST)
    assert TRUMPS.buyer(result) == SOUTH
    # N 100, E 100 + 200 = 300, S 75 − 200 = −125, W 50
    assert TRUMPS.score(result, EAST) == [100, 300, -125, 50]


def test_refused_or_unbid_the_tricks_score_alone():
    refused = TRUMPS.validate({"bids": [None, 60, 80, None], "sold": False, "trump": "D",
                               "tricks": [5, 3, 3, 2]}, NORTH)
    assert TRUMPS.buyer(refused) is None
    assert TRUMPS.score(refused, NORTH) == [125, 75, 75, 50]
    nobody = TRUMPS.validate({"bids": ["", "", None, ""], "sold": False, "trump": "C",
                              "tricks": [13, 0, 0, 0]}, WEST)
    assert nobody["bids"] == [None] * 4
    assert TRUMPS.score(nobody, WEST) == [325, 0, 0, 0]


def test_the_fields_put_the_trump_suit_last():
    assert [(f.name, f.type) for f in TRUMPS.fields()] == [
        ("bids", "bids"), ("sold", "yesno"), ("tricks", "counts"), ("trump", "suit")]
    plain = get_ruleset("standard-4").contract("trumps")
    assert [f.type for f in plain.fields()] == ["suit", "counts"]
    assert "auction" not in plain.data


@pytest.mark.parametrize("raw, field", [
    ({"bids": [50, None, None, 60]}, "bids.0"),             # North deals: no bid
    ({"bids": [None, 100, None, 100]}, "bids"),             # a tie cannot end an auction
    ({"bids": [None, None, None, None]}, "sold"),           # nothing to accept
    ({"bids": [None, -5, None, 60]}, "bids.1"),
    ({"bids": [None, 0, None, 60]}, "bids.1"),
    ({"bids": [None, "lots", None, 60]}, "bids.1"),
    ({"bids": [None, 10_001, None, 60]}, "bids.1"),
    ({"bids": [None, None, 60]}, "bids"),                   # one entry per seat
    ({"bids": [None, None, None, 60], "sold": None}, "sold"),
    ({"bids": [None, None, None, 60], "sold": "yes"}, "sold"),
    ({"bids": [None, None, None, 60], "sold": 1}, "sold"),
])
def test_an_impossible_auction_is_named(raw, field):
    base = {"sold": True, "trump": "H", "tricks": [2, 1, 4, 6]}
    found = problems({**base, **raw})
    assert field in found, found


def test_the_messages_say_what_is_wrong():
    found = problems({"bids": [50, None, None, 10_001], "sold": True, "trump": "H",
                      "tricks": [2, 1, 4, 6]})
    assert found == {"bids.0": "The dealer does not bid.",
                     "bids.3": "A bid is a whole number of points from 1 to 10000."}
    tie = problems({"bids": [None, 100, None, 100], "sold": True, "trump": "H",
                    "tricks": [2, 1, 4, 6]})
    assert tie["bids"].startswith("Two players cannot both hold the highest bid")
    assert problems({"bids": [None] * 4, "trump": "H", "tricks": [2, 1, 4, 6]})["sold"] == (
        "Say whether the dealer accepts the highest bid or refuses.")


def test_a_tie_may_be_refused():
    result = TRUMPS.validate({"bids": [None, 100, None, 100], "sold": False, "trump": "H",
                              "tricks": [2, 1, 4, 6]}, NORTH)
    assert TRUMPS.score(result, NORTH) == [50, 25, 100, 150]


def test_an_auction_is_checked_and_scored_only_with_its_dealer():
    raw = {"bids": [None, None, None, 125], "sold": True, "trump": "H", "tricks": [2, 1, 4, 6]}
    with pytest.raises(ValueError):
        TRUMPS.validate(raw)
    with pytest.raises(ValueError):
        TRUMPS.score(TRUMPS.validate(raw, NORTH))


def test_the_schedule_notes_and_sums():
    deal = next(d for d in replay(RULES, WEST, []).deals if d.key == "trumps")
    assert deal.dealer == (WEST + 7) % 4 and deal.trump_caller is None
    notes = deal.notes()
    assert notes[0].params == {"player": deal.dealer, "cards": 12, "box": 4}
    assert any("accepts the highest bid or refuses" in n.message for n in notes)
    assert any("from the buyer's score to the dealer's" in n.message for n in notes)
    three = next(d for d in replay(auction_rules(3), 0, []).deals if d.key == "trumps")
    assert three.notes()[0].params == {"player": 1, "cards": 16, "box": 3}  # 3 × 16 + 3 = 51
    assert RULES.expected_sum == 0 == sum(c.expected_sum for c in RULES.deals())


def test_a_whole_game_of_plausible_results_stays_zero_sum():
    for first in range(4):
        state = replay(RULES, first, plausible_results(RULES))
        assert state.finished and state.total_sum == 0
