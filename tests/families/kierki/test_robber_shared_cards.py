"""The robber's counts against real deals: a card that counts twice is in one hand only.

The rules (seed 004, pagat, and the digest's worked figures): in the robber every
penalty of the earlier deals is counted at once, so a single card may be charged
under several headings. The Q♥ is both a heart and a queen, the J♥ a heart and a
gentleman, and the K♥ a heart, a gentleman and the king-of-hearts penalty. Yet each
card is still only one card, won in one trick by one player: whoever "uses" the Q♥
to fit four hearts and a queen in a single trick is the only one who can.
"""
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.families.kierki.rules import InvalidDeal
from scorekeeper.families.kierki.rules.contracts import CardCount, PenaltyTricks, Robber
from scorekeeper.families.kierki.rules.rulesets import get_ruleset, registry

ROBBERS = [(rs.id, key) for rs in registry().values()
           for key, c in rs.contracts.items() if isinstance(c, Robber)]
S4 = get_ruleset("standard-4").contract("robber")


def problems(contract, raw):
    with pytest.raises(InvalidDeal) as e:
        contract.validate(raw)
    return {p.field: p for p in e.value.problems}


def real_result(robber, seed, weights):
    """Deal the deck into tricks at random and give each trick to a player (some may
    take none), then count what a player would count from the tricks in front of them."""
    table = robber.table
    rnd = random.Random(seed)
    cards = list(table.deck)
    rnd.shuffle(cards)
    per = table.players  # a card of each player in every trick
    tricks = [cards[i * per:(i + 1) * per] for i in range(table.tricks)]
    takers = rnd.choices(range(table.players), weights=weights, k=table.tricks)
    raw = {}
    for part in robber.parts:
        if isinstance(part, CardCount):
            counts = [0] * table.players
            for trick, seat in zip(tricks, takers):
                counts[seat] += sum(1 for c in trick if c in part.card_sets)
            if part.single:
                raw[part.set_name] = counts.index(1)
            else:
                raw[part.set_name] = counts
        elif isinstance(part, PenaltyTricks):
            raw["positions"] = [takers[n - 1] for n in part.trick_numbers]
        elif part.kind == "tricks":
            raw["tricks"] = [takers.count(s) for s in range(table.players)]
    return raw


@pytest.mark.parametrize(("ruleset", "key"), ROBBERS)
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), weights=st.lists(st.integers(0, 6), min_size=5,
                                                    max_size=5).filter(any))
def test_every_real_deal_is_accepted(ruleset, key, seed, weights):
    robber = get_ruleset(ruleset).contract(key)
    weights = weights[:robber.table.players]
    if not any(weights):
        weights[0] = 1
    raw = real_result(robber, seed, weights)
    robber.validate(raw)  # raises if a real deal is refused


def test_many_players_claiming_few_tricks_are_real_when_the_cards_exist():
    # one trick: 4 hearts and a queen fit only with the Q♥ in it (4 cards a trick)
    raw = {"tricks": [1, 12, 0, 0], "hearts": [4, 9, 0, 0], "queens": [1, 3, 0, 0],
           "gentlemen": [0, 8, 0, 0], "king_of_hearts": 1, "positions": [1, 1]}
    S4.validate(raw)


def test_two_players_cannot_both_have_the_queen_of_hearts():
    # seats 0 and 1 each took one trick of four cards, each "holding" four hearts and a
    # queen: each needs the Q♥ to make that fit, and there is one Q♥
    raw = {"tricks": [1, 1, 11, 0], "hearts": [4, 4, 5, 0], "queens": [1, 1, 2, 0],
           "gentlemen": [0, 0, 8, 0], "king_of_hearts": 2, "positions": [2, 2]}
    found = problems(S4, raw)
    assert {"hearts.0", "hearts.1"} <= set(found)
    assert found["hearts.0"].params["card"] == "Q♥"
    assert "Only one player took" in found["hearts.0"].message


def test_two_players_cannot_both_have_the_jack_of_hearts():
    # each one trick with four hearts and a gentleman: only the J♥ (or the K♥, but seat 2
    # took that) is both
    raw = {"tricks": [1, 1, 11, 0], "hearts": [4, 4, 5, 0], "queens": [0, 0, 4, 0],
           "gentlemen": [1, 1, 6, 0], "king_of_hearts": 2, "positions": [2, 2]}
    found = problems(S4, raw)
    assert {"hearts.0", "hearts.1"} <= set(found)
    assert found["hearts.0"].params["card"] == "J♥"


def test_the_king_of_hearts_is_double_for_its_taker_only():
    # seat 0 took the K♥; seat 1's one trick with four hearts and a gentleman needs the
    # J♥, which is fine alone ...
    raw = {"tricks": [1, 1, 11, 0], "hearts": [4, 4, 5, 0], "queens": [0, 0, 4, 0],
           "gentlemen": [1, 1, 6, 0], "king_of_hearts": 0, "positions": [2, 2]}
    S4.validate(raw)
    # ... but not with seat 2 also needing it (one trick, four hearts, one gentleman)
    raw = {"tricks": [1, 1, 1, 10], "hearts": [4, 4, 4, 1], "queens": [0, 0, 0, 4],
           "gentlemen": [1, 1, 1, 5], "king_of_hearts": 0, "positions": [3, 3]}
    found = problems(S4, raw)
    assert {"hearts.1", "hearts.2"} <= set(found)
    assert "hearts.0" not in found


def test_the_queen_and_jack_of_hearts_are_both_double_in_one_trick_of_another():
    # seat 0: one trick, 4 hearts, a queen and a gentleman: Q♥ and J♥ and two hearts;
    # seat 1 then cannot also need the Q♥
    raw = {"tricks": [1, 1, 11, 0], "hearts": [4, 4, 5, 0], "queens": [1, 1, 2, 0],
           "gentlemen": [1, 0, 7, 0], "king_of_hearts": 2, "positions": [2, 2]}
    found = problems(S4, raw)
    assert {"hearts.0", "hearts.1"} <= set(found)
    S4.validate(dict(raw, hearts=[4, 3, 6, 0]))  # seat 1: 3 hearts and a queen fit
