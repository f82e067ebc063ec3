"""A tournament's round drawn (issue 27): what a director and the players check.

Everyone active sits once, at tables of the sizes the count allows; the draw is the same
when drawn again; and the players meet as few of the people they met before as can be.
"""
import gettext
from itertools import combinations
from math import comb
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scorekeeper
from scorekeeper.rules.draw import Table, draw_round, meetings, repeats, table_sizes
from scorekeeper.rules.errors import InvalidInput

LOCALES = Path(scorekeeper.__file__).parent / "translations"
SOME = settings(max_examples=40, deadline=None)


def tournament(players, sizes, seed, rounds):
    """Every round drawn from the rounds before; each round's tables and its repeated pairs."""
    past, again = [], []
    for number in range(1, rounds + 1):
        met = meetings(past)
        tables = draw_round(players, sizes, seed, number, met)
        assert_seated(tables, players, sizes)
        seated = [t.players for t in tables]
        again.append(repeats(seated, met))
        past.append(seated)
    return past, again


def assert_seated(tables, players, sizes):
    seated = [p for t in tables for p in t.players]
    assert sorted(seated) == sorted(players)
    assert [len(t.players) for t in tables] == table_sizes(len(players), sizes)
    assert all(isinstance(t, Table) and 0 <= t.first_dealer < len(t.players) for t in tables)


# --- table sizes -----------------------------------------------------------------------------

@pytest.mark.parametrize("count, sizes, expected", [
    (14, {3, 4, 5}, [4, 4, 3, 3]),
    (13, {3, 4, 5}, [5, 4, 4]),
    (13, {3, 4}, [4, 3, 3, 3]),
    (12, {4}, [4, 4, 4]),
    (17, {4, 5}, [5, 4, 4, 4]),
    (15, {3, 5}, [5, 5, 5]),
    (11, {3, 5}, [5, 3, 3]),
    (9, {3}, [3, 3, 3]),
    (1000, {3, 4, 5}, [4] * 250),
    (1001, {3, 4}, [4] * 248 + [3] * 3),
])
def test_tables_of_four_where_possible(count, sizes, expected):
    assert table_sizes(count, sizes) == expected


def _splits(count, sizes):
    """Every way to write ``count`` as a sum of ``sizes``, as sorted lists (brute force)."""
    if count == 0:
        return [[]]
    return [sorted([s, *rest], reverse=True) for s in sizes if s <= count
            for rest in _splits(count - s, sizes) if not rest or s >= rest[0]]


@given(st.integers(0, 40), st.sets(st.sampled_from([3, 4, 5]), min_size=1))
def test_table_sizes_are_the_best_split_or_none_exists(count, sizes):
    splits = [s for s in _splits(count, sizes) if s]
    if not splits:
        with pytest.raises(InvalidInput):
            table_sizes(count, sizes)
        return
    got = table_sizes(count, sizes)
    best = min(splits, key=lambda s: (-s.count(4), len(s) - s.count(4), -s.count(3)))
    assert got == best and sum(got) == count and got == sorted(got, reverse=True)


def test_an_impossible_count_is_refused_in_english_and_polish():
    with pytest.raises(InvalidInput) as e:
        table_sizes(5, {4})
    (problem,) = e.value.problems
    assert problem.field == "players"
    assert problem.text() == "5 players cannot sit at tables of 4."
    polish = gettext.translation("messages", LOCALES, ["pl"]).gettext
    assert problem.text(polish) == \
        "Nie da się rozsadzić tylu graczy (5) przy stołach o tej liczbie miejsc: 4."
    with pytest.raises(InvalidInput) as e:
        table_sizes(7, {4, 5})
    assert e.value.problems[0].text() == "7 players cannot sit at tables of 4, 5."


# --- meetings --------------------------------------------------------------------------------

def test_meetings_count_each_pair_once_a_round():
    met = meetings([[[1, 2, 3, 4], [5, 6, 7]], [[1, 2, 5], [3, 4, 6, 7]]])
    assert met[frozenset({1, 2})] == 2 and met[frozenset({6, 7})] == 2
    assert met[frozenset({1, 5})] == 1 and met[frozenset({1, 6})] == 0
    assert sum(met.values()) == 6 + 3 + 3 + 6


# --- every round -----------------------------------------------------------------------------

#: From 22 players on every round here has a draw with no repeat (found in milliseconds);
#: fewer players are drawn below, where the search spends its whole bounded work.
players_ = st.lists(st.integers(1, 10_000), min_size=22, max_size=80, unique=True)


@SOME
@given(players_, st.sampled_from([{3, 4, 5}, {3, 4}, {4, 5}]), st.text(max_size=8),
       st.integers(1, 4), st.randoms(use_true_random=False))
def test_everyone_sits_once_and_the_same_inputs_draw_the_same(players, sizes, seed, rounds,
                                                              rnd):
    past, _ = tournament(players, sizes, seed, rounds)
    met = meetings(past)
    tables = draw_round(players, sizes, seed, rounds + 1, met)
    assert_seated(tables, players, sizes)
    shuffled = list(players)
    rnd.shuffle(shuffled)
    items = list(met.items())
    rnd.shuffle(items)
    assert draw_round(shuffled, sizes, seed, rounds + 1, dict(items)) == tables


@pytest.mark.parametrize("count", [12, 16, 100])
def test_another_seed_draws_another_first_round(count):
    def first(seed):
        return {frozenset(t.players) for t in draw_round(range(count), {3, 4, 5}, seed, 1)}
    assert first("club night") == first("club night")
    assert len({frozenset(first(f"seed {i}")) for i in range(5)}) == 5


def test_seats_and_first_dealers_are_drawn_too():
    tables = [t for i in range(10) for t in draw_round(range(100), {4}, f"s{i}", 1)]
    assert {t.first_dealer for t in tables} == {0, 1, 2, 3}
    assert len({t.players[0] for t in tables}) > 50   # not always the lowest entry number


# --- as few repeats as can be ----------------------------------------------------------------

@pytest.mark.parametrize("seed", ["a", "b", "c", "d", "e"])
def test_16_players_meet_nobody_twice_in_5_rounds(seed):
    past, again = tournament(range(1, 17), {4}, seed, 5)
    assert again == [0, 0, 0, 0, 0]
    assert max(meetings(past).values()) == 1 and len(meetings(past)) == 120   # all 16·15/2


def least_in_round_2(shape):
    """The fewest pairs that can meet again in round 2: each first-round table's players
    spread as evenly as can be over the round's tables (pigeonhole)."""
    k, least = len(shape), 0
    for size in shape:
        per_table, more = divmod(size, k)
        least += more * comb(per_table + 1, 2) + (k - more) * comb(per_table, 2)
    return least


@pytest.mark.parametrize("seed", ["a", "b", "c"])
def test_the_least_repeats_the_counting_allows_in_round_2(seed):
    # 12 at three tables of four: each first table's four sit at three tables, one pair each
    assert tournament(range(12), {3, 4, 5}, seed, 2)[1] == [0, 3]
    # 13 at (5, 4, 4): a table of five spread over three repeats 2 pairs, a four 1
    assert tournament(range(13), {3, 4, 5}, seed, 2)[1] == [0, 4]
    # 14 at (4, 4, 3, 3): a seat for everyone away from their first table's players
    assert tournament(range(14), {3, 4, 5}, seed, 2)[1] == [0, 0]


@pytest.mark.parametrize("sizes", [{3, 4, 5}, {3, 4}, {4, 5}, {4}])
def test_round_2_always_repeats_the_least_the_counting_allows(sizes):
    for count in range(8, 25):
        try:
            shape = table_sizes(count, sizes)
        except InvalidInput:
            continue
        assert tournament(range(count), sizes, "club", 2)[1] == [0, least_in_round_2(shape)], \
            count


@pytest.mark.parametrize("count, sizes, rounds", [
    # 3 rounds whenever there are as many tables as the largest table has players
    (14, {3, 4, 5}, 3), (16, {4}, 3), (20, {4, 5}, 3), (22, {4, 5}, 3), (9, {3, 4}, 3),
    # 4 rounds from 13 players at tables of three and four, 14 with fives (but 17)
    (13, {3, 4}, 4), (14, {3, 4}, 4), (15, {3, 4, 5}, 4), (18, {3, 4, 5}, 4),
    # 5 rounds: 16 at tables of four; from 21 at tables of three and four, 22 with fives
    # too, 24 at tables of four only, 28 whatever the sizes
    (21, {3, 4}, 5), (22, {3, 4, 5}, 5), (24, {4}, 5), (28, {4, 5}, 5), (29, {4, 5}, 5),
    (40, {4, 5}, 5), (100, {3, 4, 5}, 5), (1000, {3, 4, 5}, 5),
])
def test_nobody_meets_twice_in_the_first_rounds_when_there_are_enough(count, sizes, rounds):
    assert tournament(range(count), sizes, "club", rounds)[1] == [0] * rounds


def test_a_withdrawal_and_a_late_arrival_between_rounds():
    past, _ = tournament(range(1, 17), {4}, "club", 2)
    players = [p for p in range(1, 17) if p != 3] + [17]
    met = meetings(past)
    tables = draw_round(players, {4}, "club", 3, met)
    assert_seated(tables, players, {4})
    assert repeats([t.players for t in tables], met) == 0


def test_a_pair_meeting_a_third_time_is_worse_than_three_pairs_a_second_time():
    # 8 players at two tables of four, round after round: the draw spreads the repeats
    past, again = tournament(range(8), {4}, "club", 4)
    counts = meetings(past)
    assert again == [0, 4, 8, 12]
    assert max(counts.values()) - min(counts[frozenset(p)] for p in combinations(range(8), 2)) \
        <= 2
