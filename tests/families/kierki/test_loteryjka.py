"""The loteryjka board: legal cards per option, forced play, passes, finishing, undo, result."""
import random

import pytest

from scorekeeper.families.kierki.rules import (
    InvalidPlay,
    get_ruleset,
    is_legal,
    legal_cards,
    loteryjka_result,
    new_board,
    pass_turn,
    play,
    play_moves,
    undo,
)
from scorekeeper.families.kierki.rules.cards import RANKS, SUITS


def contract(ruleset):
    return get_ruleset(ruleset).contract("loteryjka")


def names(cards):
    return [str(c) for c in cards]


def suit_cards(board, suit):
    return [str(c) for c in legal_cards(board) if c.suit == suit]


def message(error):
    [problem] = error.value.problems
    return problem.message % problem.params


def by_suit(suit, ranks):
    return [r + suit for r in ranks]


# -- options ---------------------------------------------------------------------------

def test_start_seven_only_sevens_open():
    b = new_board(contract("standard-4"), start_seat=1)
    assert names(legal_cards(b)) == ["7S", "7H", "7D", "7C"]
    with pytest.raises(InvalidPlay) as e:
        play(b, "8H")
    assert message(e) == "A new row starts with its 7H."
    b = play(b, "7H")
    assert names(legal_cards(b)) == ["7S", "6H", "8H", "7D", "7C"]
    assert b.turn == 2 and b.left == (13, 12, 13, 13)
    assert b.rows["H"] == (b.row("H")[6], b.row("H")[6])


def test_ace_low_row_runs_from_ace_to_king():
    b = play_moves(new_board(contract("standard-4"), 0), by_suit("H", "765432"))
    assert suit_cards(b, "H") == ["8H", "AH"]
    b = play_moves(b, ["AH"] + by_suit("H", ["8", "9", "10", "J", "Q"]))
    assert suit_cards(b, "H") == ["KH"]
    b = play(b, "KH")
    assert suit_cards(b, "H") == []
    assert names(b.rows["H"]) == ["AH", "KH"]


def test_ace_high_row_runs_from_two_to_ace():
    b = new_board(contract("kurnik-4"), 0, start_rank="7")
    b = play_moves(b, by_suit("H", "765432"))
    assert suit_cards(b, "H") == ["8H"]
    with pytest.raises(InvalidPlay) as e:
        play(b, "AH")
    assert message(e) == "AH does not fit; this row takes 8H."
    b = play_moves(b, by_suit("H", ["8", "9", "10", "J", "Q", "K"]))
    assert suit_cards(b, "H") == ["AH"]


def test_start_any_first_card_sets_the_rank():
    b = new_board(contract("kurnik-4"), 3)
    assert len(legal_cards(b)) == 52
    b = play(b, "9D")
    assert b.start_rank == "9"
    assert names(legal_cards(b)) == ["9S", "9H", "8D", "10D", "9C"]
    with pytest.raises(InvalidPlay) as e:
        play(b, "7S")
    assert message(e) == "A new row starts with its 9S."


def test_start_any_with_a_chosen_rank():
    b = new_board(contract("kurnik-4"), 0, start_rank="Q")
    assert names(legal_cards(b)) == ["QS", "QH", "QD", "QC"]
    with pytest.raises(InvalidPlay):
        play(b, "5S")
    b = play(b, "QS")
    assert suit_cards(b, "S") == ["JS", "KS"]


def test_chosen_rank_refused_where_the_start_is_fixed():
    with pytest.raises(InvalidPlay) as e:
        new_board(contract("standard-4"), 0, start_rank="9")
    assert message(e) == "In this ruleset every row starts with a 7."
    assert new_board(contract("standard-4"), 0, start_rank="7").start_rank == "7"


def test_only_a_loteryjka_deal_has_a_board():
    with pytest.raises(ValueError):
        new_board(get_ruleset("standard-4").contract("trumps"), 0)


def test_dealer_or_left_begins_is_the_schedules_leader():
    from scorekeeper.families.kierki.rules import schedule
    assert schedule(get_ruleset("standard-4"), 1)[-1].leader == 0  # dealer 0 begins
    assert schedule(get_ruleset("seed002-4"), 1)[-1].leader == 1  # left of dealer 0


# -- three players: 17 cards each, no 2♣ ---------------------------------------------------

def test_three_players_ace_low_clubs_skip_the_missing_two():
    b = new_board(contract("standard-3"), 0)
    assert b.left == (17, 17, 17)
    b = play_moves(b, by_suit("C", "76543"))
    assert suit_cards(b, "C") == ["8C", "AC"]
    with pytest.raises(InvalidPlay) as e:
        play(b, "2C")
    assert message(e) == "2C is not in this deck."


def test_three_players_start_two_opens_clubs_with_the_three():
    b = new_board(contract("kurnik-3"), 0, start_rank="2")
    assert names(legal_cards(b)) == ["2S", "2H", "2D", "3C"]
    b = play(b, "3C")
    assert suit_cards(b, "C") == ["4C"]


def test_three_players_first_card_two_opens_clubs_with_the_three():
    b = play(new_board(contract("kurnik-3"), 2), "2D")
    assert names(legal_cards(b)) == ["2S", "2H", "3D", "3C"]


# -- known hands: forced play and passes -------------------------------------------------

SUIT_HANDS = [by_suit(s, RANKS) for s in SUITS]  # seat 0 spades, 1 hearts, 2 diamonds, 3 clubs


def test_known_hand_limits_legal_cards_and_forbids_passing():
    b = new_board(contract("standard-4"), 0, hands=SUIT_HANDS)
    assert names(legal_cards(b)) == ["7S"]
    assert is_legal(b, "7S") and not is_legal(b, "7H")
    with pytest.raises(InvalidPlay) as e:
        pass_turn(b)
    assert message(e) == "You must play: 7S fits."
    with pytest.raises(InvalidPlay) as e:
        play(b, "7H")
    assert message(e) == "7H is not in this player's hand."
    assert names(legal_cards(b, hand=["7H", "8H", "6S"])) == ["7H"]


def test_pass_allowed_only_without_a_fitting_card():
    hands = [list(h) for h in SUIT_HANDS]
    hands[0][hands[0].index("7S")], hands[1][hands[1].index("2H")] = "2H", "7S"
    b = new_board(contract("standard-4"), 0, hands=hands)
    assert legal_cards(b) == []
    b = pass_turn(b)
    assert b.turn == 1 and b.passes == (1, 0, 0, 0)
    assert names(legal_cards(b)) == ["7S", "7H"]
    with pytest.raises(InvalidPlay):
        pass_turn(b)
    b = play(b, "7S")
    assert names(legal_cards(b)) == ["7D"]
    b = play_moves(b, ["7D", "7C"])
    assert names(legal_cards(b)) == ["6S", "8S"]  # seat 0 can now play


def test_counts_only_tap_plays_for_current_player_and_pass_is_always_allowed():
    b = new_board(contract("standard-4"), 2)
    b = pass_turn(b)
    assert b.turn == 3
    b = play(b, "7C")
    assert b.left == (13, 13, 13, 12) and b.history[-1].seat == 3


def test_card_in_another_known_hand_is_refused():
    b = new_board(contract("standard-4"), 1, hands=[SUIT_HANDS[0], None, None, None])
    assert "7S" not in names(legal_cards(b))
    with pytest.raises(InvalidPlay) as e:
        play(b, "7S")
    assert message(e) == "7S is in another player's hand."


def test_bad_hands_are_refused():
    with pytest.raises(InvalidPlay):
        new_board(contract("standard-4"), 0, hands=[SUIT_HANDS[0]] * 4)
    with_two_of_clubs = by_suit("C", RANKS) + by_suit("S", "2345")
    with pytest.raises(InvalidPlay) as e:
        new_board(contract("standard-3"), 0, hands=[with_two_of_clubs, None, None])
    assert e.value.problems[0].field == "hands.0"
    assert new_board(contract("standard-4"), 0, hands=[with_two_of_clubs[:13], None, None, None])
    with pytest.raises(InvalidPlay):
        new_board(contract("standard-4"), 0, hands=[["1S"] * 13, None, None, None])
    with pytest.raises(InvalidPlay):
        new_board(contract("standard-4"), 4)


# -- finishing order, turns, result ------------------------------------------------------

def test_suit_per_player_finishing_order_and_score():
    c = contract("standard-4")
    b = new_board(c, 0, hands=SUIT_HANDS)
    up, down = ["7", "8", "9", "10", "J", "Q", "K"], ["6", "5", "4", "3", "2", "A"]
    for rank in up + down:
        for suit in SUITS:
            if not b.over:
                b = play(b, rank + suit)
    assert b.finished == (0, 1) and b.over and b.turn is None
    assert b.left == (0, 0, 1, 1)
    result = loteryjka_result(b)
    assert result == {"order": [0, 1]}
    assert c.score(c.validate(result)) == [800, 500, 0, 0]
    with pytest.raises(InvalidPlay) as e:
        play(b, "AD")
    assert message(e) == "The loteryjka is over."
    back = undo(b)  # seat 1's last heart taken back
    assert back.finished == (0,) and back.turn == 1 and not back.over
    assert names(legal_cards(back)) == ["AH"]


def test_finished_player_is_skipped():
    b = new_board(contract("standard-4"), 0, hands=[SUIT_HANDS[0], None, None, None])
    spades = by_suit("S", ["7", "8", "9", "10", "J", "Q", "K", "6", "5", "4", "3", "2", "A"])
    hearts = by_suit("H", ["7", "8", "9", "10", "J", "Q", "K", "6", "5", "4", "3", "2"])
    for spade, heart in zip(spades, hearts + [None]):
        b = play(b, spade)
        b = pass_turn(b) if heart is None else play(b, heart)
        b = pass_turn(pass_turn(b))
    assert b.finished == (0,) and not b.over
    assert b.turn == 1  # seat 0 is skipped
    with pytest.raises(InvalidPlay) as e:
        loteryjka_result(b)
    assert message(e) == "Not decided yet: 2 players must run out of cards first."
    b = play(b, "AH")
    assert loteryjka_result(b) == {"order": [0, 1]}


@pytest.mark.parametrize("ruleset", ["standard-3", "kurnik-3", "standard-4", "seed002-4"])
def test_random_deal_played_out_with_known_hands(ruleset):
    c = contract(ruleset)
    table = c.table
    cards = list(table.deck)
    random.Random(ruleset).shuffle(cards)
    n = table.tricks
    hands = [cards[i * n:(i + 1) * n] for i in range(table.players)]
    b = new_board(c, 1, hands=hands)
    for _ in range(500):
        if b.over:
            break
        fits = legal_cards(b)
        b = play(b, fits[0]) if fits else pass_turn(b)
    assert b.over
    result = loteryjka_result(b)
    assert result["order"] == list(b.finished)
    assert all(b.left[s] == 0 for s in b.finished)
    played = [m for m in b.history if m.card is not None]
    assert len(played) == len(b.laid) == table.players * n - sum(b.left)
    first = result["order"][0]
    assert sum(1 for m in played if m.seat == first) == n
    points = c.score(c.validate(result))
    assert sorted(points, reverse=True)[:2] == c.prizes
    assert points[first] == c.prizes[0]


def test_three_player_prizes():
    c = contract("standard-3")
    assert c.score(c.validate({"order": [2, 0]})) == [485, 0, 790]


# -- undo ---------------------------------------------------------------------------------

def test_undo_steps_back_through_plays_and_passes():
    start = new_board(contract("standard-4"), 0)
    b = play(start, "7H")
    b2 = pass_turn(b)
    assert undo(b2) == b
    assert undo(undo(b2)) == start
    assert names(legal_cards(undo(b))) == ["7S", "7H", "7D", "7C"]
    with pytest.raises(InvalidPlay) as e:
        undo(start)
    assert message(e) == "Nothing to undo."


def test_undo_restores_the_start_rank():
    b = play(new_board(contract("kurnik-4"), 0), "JC")
    assert undo(b).start_rank is None
    assert names(legal_cards(undo(b)))[:3] == ["2S", "3S", "4S"]


def test_a_loteryjka_without_an_ace_option_is_noted_ace_low_as_the_board_plays_it():
    import copy

    from scorekeeper.families.kierki.rules import from_data, get_ruleset, schedule
    data = copy.deepcopy(get_ruleset("standard-4").data)
    data["id"] = "house-no-ace"
    data["contracts"]["loteryjka"].pop("ace", None)
    deal = next(d for d in schedule(from_data(data), 0) if d.contract.kind == "loteryjka")
    texts = [t.text() for t in deal.notes()]
    assert "Ace low (below the 2)." in texts and "Ace high (above the king)." not in texts
