"""Whole games: schedules, the fold of results, and each named ruleset's totals."""
import pytest

from scorekeeper.families.kierki.rules import (
    get_ruleset,
    legal_cards,
    loteryjka_result,
    new_board,
    pass_turn,
    play,
    registry,
    replay,
    schedule,
)
from scorekeeper.families.kierki.rules.examples import plausible_results as results_for

FOUR = ["Ala", "Bolek", "Cela", "Darek"]


def test_standard_four_schedule_passes_the_deal_left():
    deals = schedule(get_ruleset("standard-4"), first_dealer=3)
    assert len(deals) == 12
    assert [d.dealer for d in deals[:5]] == [3, 0, 1, 2, 3]
    assert deals[0].leader == 0  # left of the dealer leads
    assert [d.key for d in deals[7:11]] == ["trumps"] * 4
    assert sorted(d.dealer for d in deals[7:11]) == [0, 1, 2, 3]  # each player names once
    assert deals[11].key == "loteryjka"


def test_standard_three_has_eleven_deals_of_17_tricks():
    rs = get_ruleset("standard-3")
    assert len(rs.schedule) == 11
    assert rs.table.tricks == 17
    assert len(rs.table.deck) == 51 and "2C" not in {str(c) for c in rs.table.deck}


def test_five_players_play_ten_tricks_without_two_twos_and_deal_in_turn():
    """Seed 004, variation 4: with five players the 2♣ and 2♦ go, so all 13 hearts stay;
    kings and jacks come before queens, the 7th and last trick before the K♥, and each
    of the five deals one trump deal (the dealer sees 4 of their 10 cards first)."""
    rs = get_ruleset("zdanowicz-5")
    assert (rs.players, rs.table.tricks, len(rs.table.deck)) == (5, 10, 50)
    assert {"2C", "2D"}.isdisjoint(str(c) for c in rs.table.deck)
    deals = schedule(rs, first_dealer=4)
    assert len(deals) == 13
    assert [d.key for d in deals[2:6]] == ["no_gentlemen", "no_queens", "no_seventh_last",
                                           "no_king_of_hearts"]
    assert [d.dealer for d in deals[:6]] == [4, 0, 1, 2, 3, 4]
    assert deals[0].leader == 0
    trumps = deals[7:12]
    assert sorted(d.dealer for d in trumps) == [0, 1, 2, 3, 4]
    assert all(d.trump_caller == d.dealer == d.leader for d in trumps)
    assert trumps[0].notes()[0].params == {"player": trumps[0].dealer, "cards": 4}
    assert rs.contract("no_seventh_last").trick_numbers == [7, 10]
    # −100 −260 −320 −320 −320 −320 = −1640, the robber as much again; 5 × 10 × 50 in
    # trumps; 400 + 300 + 200 + 100 + 0 in the race
    assert [c.expected_sum for c in rs.deals()] == [-100, -260, -320, -320, -320, -320,
                                                   -1640] + [500] * 5 + [1000]
    assert rs.expected_sum == -1640 * 2 + 2500 + 1000 == 220


@pytest.mark.parametrize("ruleset_id", sorted(registry()))
def test_every_named_ruleset_ends_at_its_expected_sum(ruleset_id):
    rs = get_ruleset(ruleset_id)
    state = replay(rs, 0, results_for(rs))
    assert state.finished
    assert all(s.sum == s.expected_sum for s in state.scored)
    assert state.total_sum == rs.expected_sum


@pytest.mark.parametrize("ruleset_id, expected", [
    ("standard-4", 0), ("standard-3", 0), ("kurnik-4", 0), ("kurnik-3", -255),
    ("seed001-4", 0), ("seed001-3", 0), ("seed001-4-robber", -1300),
    ("seed001-3-robber", -1275), ("seed002-4", 0), ("zdanowicz-5", 220),
])
def test_named_ruleset_game_totals(ruleset_id, expected):
    assert get_ruleset(ruleset_id).expected_sum == expected


def test_full_standard_game_standings():
    rs = get_ruleset("standard-4")
    state = replay(rs, 0, results_for(rs))
    # seat 0 took every penalty: -1300 for deals 1-6 and -1300 in the robber,
    # then 7 tricks in each of four trump deals (+700) and won the loteryjka (+800)
    assert state.totals[0] == -1300 - 1300 + 4 * 7 * 25 + 800
    assert state.winners == [1]  # second in the loteryjka, +500
    assert [s.place for s in state.standings()] == [1, 2, 2, 4]


def test_correcting_an_early_deal_recomputes_every_total_after_it():
    rs = get_ruleset("standard-3")
    results = results_for(rs)
    before = replay(rs, 1, results)
    results[0] = {"tricks": [0, 17, 0]}
    after = replay(rs, 1, results)
    assert after.totals[0] - before.totals[0] == 255
    assert after.totals[1] - before.totals[1] == -255
    assert after.total_sum == 0


def test_a_race_of_five_is_played_out_and_pays_every_place():
    """The race (loteryjka) with five hands of 10 from the 50 cards: the first four to run
    out take 400/300/200/100 and the fifth is placed last with 0; the 2♦ is not in the
    diamond row, so the A♦ sits below the 3♦."""
    rs = get_ruleset("zdanowicz-5")
    race = rs.contract("loteryjka")
    deck = list(rs.table.deck)
    hands = [deck[seat::5] for seat in range(5)]
    assert all(len(h) == 10 for h in hands)
    board = new_board(race, start_seat=0, hands=hands)
    assert [str(c) for c in board.row("D")[:2]] == ["AD", "3D"]
    while not board.over:
        legal = legal_cards(board)
        board = play(board, legal[0]) if legal else pass_turn(board)
    result = loteryjka_result(board)
    assert sorted(result["order"]) == [0, 1, 2, 3, 4]
    points = race.score(race.validate(result))
    assert sorted(points) == [0, 100, 200, 300, 400] and sum(points) == race.expected_sum


@pytest.mark.parametrize("ruleset_id", sorted(registry()))
def test_stored_results_replay_unchecked_to_the_same_state(ruleset_id):
    # A stored result is what validate returned; validating it again changes nothing, so
    # the read path may score it without the check and reach the same totals.
    rules = get_ruleset(ruleset_id)
    checked = replay(rules, 1, results_for(rules))
    stored = [s.result for s in checked.scored]
    for score in checked.scored:
        assert score.deal.contract.validate(score.result, score.deal.dealer) == score.result
    unchecked = replay(rules, 1, stored, checked=False)
    assert [s.points for s in unchecked.scored] == [s.points for s in checked.scored]
    assert unchecked.totals == checked.totals and unchecked.finished
