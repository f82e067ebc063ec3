"""Settling an evening by place when players tie (issue 25).

What a player at the table checks: in every game the money adds up to zero, two (or
more) players on the same total pay or receive the same, and a player outside the tie
gets what their own place is worth, as if nobody had tied.
"""
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.domain.evenings import owed
from scorekeeper.rules.places import above_middle, places, shared_places

STAKE = 100  # cents a place


def _settle(games):
    """What ``owed`` gives for an evening of ``games`` (each a list of totals, player i at
    seat i), rows built the way the evening's standings build them."""
    n = len(games[0])
    rows = [{"id": i, "places": [], "above": []} for i in range(n)]
    for totals in games:
        for seat, (place, above) in enumerate(zip(places(totals), above_middle(totals))):
            rows[seat]["places"].append((place, n))
            rows[seat]["above"].append(above)
    return owed(rows, STAKE, "place")


@pytest.mark.parametrize(("totals", "expected"), [
    # three players
    ([100, 0, 0], [100, -50, -50]),            # two tied for 2nd and 3rd: place 2.5 each
    ([50, 50, -100], [50, 50, -100]),          # two tied for 1st: place 1.5 each
    ([0, 0, 0], [0, 0, 0]),                    # all three tied
    # four players
    ([120, -40, -40, -40], [150, -50, -50, -50]),    # three tied for 2nd-4th: place 3
    ([120, -40, -40, -200], [150, 0, 0, -150]),      # two tied for 2nd and 3rd
    ([120, 120, -40, -200], [100, 100, -50, -150]),  # two tied for 1st
    ([10, 10, 10, -30], [50, 50, 50, -150]),         # three tied for 1st
    ([0, 0, 0, 0], [0, 0, 0, 0]),                    # all four tied
    # five players
    ([300, 0, 0, -100, -200], [200, 50, 50, -100, -200]),  # two tied for 2nd and 3rd
    ([300, 0, 0, 0, -300], [200, 0, 0, 0, -200]),          # three tied for 2nd-4th
    ([5, 5, 5, 5, 5], [0, 0, 0, 0, 0]),                    # all five tied
])
def test_one_game_with_a_tie_sums_to_zero_and_ties_share(totals, expected):
    amounts = _settle([totals])
    assert [amounts[i] for i in range(len(totals))] == expected
    assert sum(amounts.values()) == 0
    # nobody outside a tie pays for it: the first (untied) place gets its full worth
    best = max(totals)
    if totals.count(best) == 1:
        assert amounts[totals.index(best)] == STAKE * (len(totals) - 1) // 2


def test_two_tied_for_second_share_place_two_and_a_half():
    assert shared_places([120, -40, -40, -200]) == [1, Fraction(5, 2), Fraction(5, 2), 4]
    assert places([120, -40, -40, -200]) == [1, 2, 2, 4]  # what the standings show


@given(st.integers(3, 5).flatmap(lambda n: st.lists(
    st.lists(st.integers(-3, 3), min_size=n, max_size=n), min_size=1, max_size=4)))
def test_every_game_sums_to_zero_and_tied_players_get_the_same(games):
    for totals in games:
        above = above_middle(totals)
        assert sum(above) == 0
        for a, b in zip(totals, above):
            for c, d in zip(totals, above):
                if a == c:
                    assert b == d
                elif a > c:
                    assert b > d
        amounts = _settle([totals])
        assert sum(amounts.values()) == 0
        assert amounts == {i: int(v * STAKE) for i, v in enumerate(above)}
    assert sum(_settle(games).values()) == 0
