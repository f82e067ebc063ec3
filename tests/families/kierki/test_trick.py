"""The trick checker: winners, what a trick costs its taker, lead and follow rulings."""
import pytest

from scorekeeper.families.kierki.rules import (
    Card,
    InvalidPlay,
    check_follow,
    check_lead,
    check_trick,
    get_ruleset,
)


def contract(ruleset, key):
    return get_ruleset(ruleset).contract(key)


def items(result):
    return [(i.key, i.name, i.count, i.points) for i in result.items]


def fields(error):
    return {p.field: p.message % p.params for p in error.value.problems}


# -- winners -------------------------------------------------------------------------

def test_highest_card_of_led_suit_wins_without_trumps():
    t = check_trick(contract("standard-4", "no_tricks"), leader=2, cards=["9D", "AS", "QD", "10D"])
    assert (t.winner, t.card, t.reason.key) == (0, Card("Q", "D"), "highest_of_led_suit")
    assert [s for s, _ in t.plays] == [2, 3, 0, 1]
    assert t.reason.params == {"suit": "D"}


def test_off_suit_ace_does_not_win():
    t = check_trick(contract("standard-4", "no_queens"), leader=0, cards=["2C", "AH", "AS", "3C"])
    assert (t.winner, str(t.card)) == (3, "3C")


def test_highest_trump_wins_and_trick_earns_trump_points():
    t = check_trick(contract("standard-4", "trumps"), leader=1, cards=["AD", "3H", "KD", "5H"],
                    trump="H")
    assert (t.winner, str(t.card), t.reason.key) == (0, "5H", "highest_trump")
    assert items(t) == [("trumps", "trick", 1, 25)]
    assert t.total == 25


def test_lowest_trump_beats_the_led_suit_and_without_trumps_the_led_suit_wins():
    t = check_trick(contract("standard-4", "trumps"), leader=0, cards=["4C", "KC", "2S", "JC"],
                    trump="S")
    assert (t.winner, str(t.card), t.reason.key) == (2, "2S", "highest_trump")
    t = check_trick(contract("standard-4", "trumps"), leader=0, cards=["4C", "KC", "2D", "JC"],
                    trump="S")
    assert (t.winner, str(t.card), t.reason.key) == (1, "KC", "highest_of_led_suit")


def test_three_player_kurnik_trumps_pay_twenty():
    t = check_trick(contract("kurnik-3", "trumps"), leader=2, cards=["10S", "QS", "3C"],
                    trump="C")
    assert (t.winner, t.total) == (1, 20)


# -- scoring, four players -----------------------------------------------------------

def test_standard_4_negative_deals_one_trick_each():
    cards = ["JH", "QH", "KH", "2S"]  # leader 0 plays JH; KH (seat 2) wins
    expected = {
        "no_tricks": [("no_tricks", "trick", 1, -20)],
        "no_hearts": [("no_hearts", "hearts", 3, -60)],
        "no_queens": [("no_queens", "queens", 1, -60)],
        "no_gentlemen": [("no_gentlemen", "gentlemen", 2, -60)],
        "no_king_of_hearts": [("no_king_of_hearts", "king_of_hearts", 1, -150)],
        "no_seventh_last": [],
    }
    for key, want in expected.items():
        t = check_trick(contract("standard-4", key), leader=0, cards=cards, trick=3)
        assert t.winner == 2
        assert items(t) == want, key
        assert t.total == sum(w[3] for w in want)


def test_clean_trick_costs_nothing_in_card_deals():
    t = check_trick(contract("standard-4", "no_king_of_hearts"), 0, ["2S", "3S", "AH", "QH"])
    assert (t.winner, items(t), t.total) == (1, [], 0)


def test_seventh_and_last_trick_cost_75_each():
    c = contract("standard-4", "no_seventh_last")
    for trick, want in ((7, -75), (13, -75), (6, 0), (12, 0)):
        assert check_trick(c, 0, ["2S", "3S", "4S", "5S"], trick=trick).total == want


def test_penalty_trick_without_number_is_pending():
    t = check_trick(contract("standard-4", "no_seventh_last"), 0, ["2S", "3S", "4S", "5S"])
    assert t.items == () and t.total == 0
    [note] = t.pending
    assert note.key == "depends_on_trick"
    assert note.params == {"key": "no_seventh_last", "tricks": "7, 13"}


def test_robber_king_of_hearts_in_the_last_trick():
    t = check_trick(contract("standard-4", "robber"), leader=3, cards=["2H", "QH", "JH", "KH"],
                    trick=13)
    assert (t.winner, str(t.card)) == (2, "KH")
    assert items(t) == [
        ("no_tricks", "trick", 1, -20),
        ("no_hearts", "hearts", 4, -80),
        ("no_queens", "queens", 1, -60),
        ("no_gentlemen", "gentlemen", 2, -60),
        ("no_king_of_hearts", "king_of_hearts", 1, -150),
        ("no_seventh_last", "penalty_trick", 1, -75),
    ]
    assert t.total == -445
    assert t.items[-1].trick == 13
    assert t.items[-1].text() == "Trick 13: -75"


def test_robber_king_of_hearts_discarded_costs_at_least_220():
    t = check_trick(contract("standard-4", "robber"), 0, ["3S", "KH", "9S", "2S"], trick=2)
    assert (t.winner, t.total) == (2, -220)
    assert t.pending == ()


def test_robber_without_trick_number_scores_the_rest_and_says_what_is_pending():
    t = check_trick(contract("standard-4", "robber"), 0, ["3S", "KH", "9S", "2S"])
    assert t.total == -220
    assert [n.params["key"] for n in t.pending] == ["no_seventh_last"]


# -- scoring, three players and other rulesets -----------------------------------------

def test_standard_3_scores():
    cards = ["KH", "QS", "JH"]  # leader 1: KH wins
    assert check_trick(contract("standard-3", "no_tricks"), 1, cards).total == -15
    assert check_trick(contract("standard-3", "no_king_of_hearts"), 1, cards).total == -140
    c = contract("standard-3", "no_seventh_last")
    assert [check_trick(c, 1, cards, trick=n).total for n in (7, 13, 17)] == [-70, 0, -70]
    t = check_trick(contract("standard-3", "robber"), 1, cards, trick=17)
    assert t.winner == 1
    assert items(t) == [
        ("no_tricks", "trick", 1, -15),
        ("no_hearts", "hearts", 2, -40),
        ("no_queens", "queens", 1, -60),
        ("no_gentlemen", "gentlemen", 2, -60),
        ("no_king_of_hearts", "king_of_hearts", 1, -140),
        ("no_seventh_last", "penalty_trick", 1, -70),
    ]
    assert t.total == -385
    assert check_trick(contract("standard-3", "trumps"), 0, cards, trump="S").total == 25


def test_seed001_last_two_tricks():
    c = contract("seed001-4", "no_last_two")
    assert [check_trick(c, 0, ["2S", "3S", "4S", "5S"], trick=n).total
            for n in (7, 11, 12, 13)] == [0, 0, -75, -75]
    t = check_trick(c, 0, ["2S", "3S", "4S", "5S"])
    assert t.pending[0].params["tricks"] == "12, 13"
    c3 = contract("seed001-3-robber", "robber")
    assert check_trick(c3, 0, ["2S", "3S", "4S"], trick=16).total == -15 - 70


# -- refusals --------------------------------------------------------------------------

def test_refuses_a_card_played_twice():
    with pytest.raises(InvalidPlay) as e:
        check_trick(contract("standard-4", "no_tricks"), 0, ["QH", "2S", "QH", "3S"])
    assert fields(e) == {"cards.2": "QH is played twice."}


def test_refuses_two_of_clubs_with_three_players():
    with pytest.raises(InvalidPlay) as e:
        check_trick(contract("standard-3", "no_tricks"), 0, ["3C", "2C", "AC"])
    assert fields(e) == {"cards.1": "2C is not in this deck."}
    # the same trick is fine with four players' deck
    assert check_trick(contract("standard-4", "no_tricks"), 0, ["3C", "2C", "AC", "4C"]).winner == 2


def test_refuses_wrong_number_of_cards_bad_seat_and_trick_number():
    c = contract("standard-4", "no_seventh_last")
    with pytest.raises(InvalidPlay) as e:
        check_trick(c, 4, ["2S", "3S", "4S"], trick=14)
    assert set(fields(e)) == {"leader", "cards", "trick"}
    assert fields(e)["cards"] == "A trick has one card from each of the 4 players."
    assert fields(e)["trick"] == "The trick number is from 1 to 13."
    with pytest.raises(InvalidPlay):
        check_trick(c, 0, ["2S", "3S", "4S", "5S"], trick=0)
    with pytest.raises(InvalidPlay):
        check_trick(contract("standard-3", "no_tricks"), 0, ["2S", "3S", "4S", "5S"])
    assert check_trick(contract("standard-3", "no_seventh_last"), 0, ["2S", "3S", "4S"],
                       trick=17).total == -70


def test_refuses_nonsense_cards_and_trump_mistakes():
    with pytest.raises(InvalidPlay) as e:
        check_trick(contract("standard-4", "no_tricks"), 0, ["1S", "3S", "4S", "5S"])
    assert fields(e) == {"cards.0": "This is not a card: 1S"}
    with pytest.raises(InvalidPlay) as e:
        check_trick(contract("standard-4", "trumps"), 0, ["2S", "3S", "4S", "5S"])
    assert set(fields(e)) == {"trump"}
    with pytest.raises(InvalidPlay) as e:
        check_trick(contract("standard-4", "no_tricks"), 0, ["2S", "3S", "4S", "5S"], trump="S")
    assert fields(e) == {"trump": "This deal has no trumps."}


def test_loteryjka_has_no_tricks():
    c = contract("standard-4", "loteryjka")
    for call in (lambda: check_trick(c, 0, ["2S", "3S", "4S", "5S"]),
                 lambda: check_lead(c, "7S"), lambda: check_follow(c, "7S", "8S", ["8S"])):
        with pytest.raises(InvalidPlay) as e:
            call()
        assert fields(e) == {"": "The loteryjka has no tricks."}


# -- lead rules ------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", ["standard-4", "standard-3", "kurnik-4", "seed001-4"])
def test_no_hearts_lead_in_deals_2_and_5(ruleset):
    for key in ("no_hearts", "no_king_of_hearts"):
        c = contract(ruleset, key)
        r = check_lead(c, "5H", hand=["5H", "9H", "3D"])
        assert (r.allowed, r.key) == (False, "no_hearts")
        r = check_lead(c, "5H", hand=["5H", "9H"])
        assert (r.allowed, r.key) == (True, "only_hearts_left")
        assert check_lead(c, "3D", hand=["5H", "3D"]).allowed is True
        assert check_lead(c, "5H").allowed is None


@pytest.mark.parametrize("ruleset", ["standard-4", "standard-3", "kurnik-3", "seed002-4"])
def test_robber_forbids_heart_leads(ruleset):
    r = check_lead(contract(ruleset, "robber"), "AH", hand=["AH", "2C", "KD"])
    assert (r.allowed, r.key) == (False, "no_hearts")


@pytest.mark.parametrize("key", ["no_tricks", "no_queens", "no_gentlemen", "no_seventh_last",
                                 "trumps"])
def test_free_leads(key):
    r = check_lead(contract("standard-4", key), "5H", hand=["5H", "3D"])
    assert (r.allowed, r.key) == (True, "free_lead")


def test_seed002_deal_5_forbids_the_king_of_hearts_even_among_hearts_only():
    c = contract("seed002-4", "no_king_of_hearts")
    r = check_lead(c, "KH", hand=["KH", "2H", "3D"])
    assert (r.allowed, r.key) == (False, "no_king_of_hearts")
    assert check_lead(c, "KH", hand=["KH", "2H"]).allowed is False
    assert check_lead(c, "KH", hand=["KH"]).allowed is True
    assert check_lead(c, "2H", hand=["KH", "2H"]).allowed is True
    assert check_lead(c, "2H", hand=["KH", "2H", "3D"]).key == "no_hearts"  # seed 002: no hearts
    assert check_lead(c, "KH").allowed is None


def test_lead_of_a_card_not_held_or_not_in_deck():
    c = contract("standard-3", "no_tricks")
    assert check_lead(c, "2C").key == "not_in_deck"
    assert check_lead(c, "3C", hand=["4C"]).key == "not_in_hand"


# -- follow rules ----------------------------------------------------------------------

def test_must_follow_suit_but_need_not_beat():
    c = contract("standard-4", "no_queens")
    assert check_follow(c, "10S", "2S", ["2S", "AS", "QH"]).allowed is True
    r = check_follow(c, "10S", "QH", ["2S", "AS", "QH"])
    assert (r.allowed, r.key, r.reason.params) == (False, "must_follow", {"suit": "S"})
    assert check_follow(c, "10S", "QH", ["QH", "3D"]).key == "void_any_card"
    assert check_follow(c, "10S", "QH").allowed is None
    assert check_follow(c, "10S", "QH", ["3D"]).key == "not_in_hand"


def test_trumps_need_not_trump():
    c = contract("standard-4", "trumps")
    r = check_follow(c, "10S", "4D", ["4D", "AH"])  # hearts trumps, holds AH: may keep it
    assert (r.allowed, r.key) == (True, "void_any_card")


def test_king_of_hearts_must_be_discarded_at_first_chance_in_seed001():
    # deal 5 only: seed 001's robber forbids heart leads and nothing more
    for ruleset, key in (("seed001-4", "no_king_of_hearts"),
                         ("seed001-3-robber", "no_king_of_hearts")):
        c = contract(ruleset, key)
        r = check_follow(c, "3C", "QS", ["QS", "KH", "2H"])
        assert (r.allowed, r.key) == (False, "must_discard_king_of_hearts")
        assert check_follow(c, "3C", "KH", ["QS", "KH", "2H"]).allowed is True
        # still following suit while able
        assert check_follow(c, "3C", "KH", ["4C", "KH"]).key == "must_follow"
    # the pagat ruleset lets the holder keep it
    c = contract("standard-4", "no_king_of_hearts")
    assert check_follow(c, "3C", "QS", ["QS", "KH", "2H"]).allowed is True
