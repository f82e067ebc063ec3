"""A season table as a club's manager checks it by hand: it adds up the nights, best N
of M keeps each player's best nights only, a better line never ranks below a worse one,
equal lines share a rank, and places give the night's winner the most."""
from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.season import NightLine, night, season
from scorekeeper.rules.standings import Seat


@st.composite
def nights(draw):
    """Up to 6 nights of zero-sum games of 3 to 5 players out of 10."""
    out = []
    for _ in range(draw(st.integers(0, 6))):
        games = []
        for _ in range(draw(st.integers(1, 4))):
            size = draw(st.integers(3, 5))
            players = draw(st.permutations(range(1, 11)))[:size]
            totals = draw(st.lists(st.integers(-60, 60), min_size=size - 1,
                                   max_size=size - 1))
            totals.append(-sum(totals))
            games.append([Seat(p, t) for p, t in zip(players, totals, strict=True)])
        out.append(games)
    return out


@given(nights(), st.sampled_from(["points", "places"]),
       st.one_of(st.none(), st.integers(1, 6)))
def test_a_season_adds_its_nights_up(games, scoring, best):
    lines = [night(g) for g in games]
    table = season(lines, scoring, best)
    players = {s.player for g in games for game in g for s in game}
    assert sorted(r.player for r in table) == sorted(players)
    for row in table:
        mine = [line for n in lines for line in n if line.player == row.player]
        scores = sorted((line.scored(scoring) for line in mine), reverse=True)
        assert row.nights == len(mine)
        assert row.points == sum(scores[:best] if best else scores)
        assert row.counted == (min(best, len(mine)) if best else len(mine))
        assert row.games == sum(line.games for line in mine)
        assert row.wins == sum(line.wins for line in mine)
    if scoring == "points" and best is None:
        assert sum(r.points for r in table) == 0  # zero-sum games: a zero-sum season
    for above, below in pairwise(table):
        assert (above.points, above.wins) >= (below.points, below.wins)
        assert (above.rank == below.rank) == ((above.points, above.wins)
                                              == (below.points, below.wins))
    if table:
        assert table[0].rank == 1


@given(nights())
def test_a_nights_places_share_ties_and_add_up(games):
    for g in games:
        lines = night(g)
        n = len(lines)
        assert all(line.field == n for line in lines)
        # shared places still cover 1 … n, so the place points add up to 1 + … + n
        assert sum(line.place for line in lines) == Fraction(n * (n + 1), 2)
        assert sum(line.place_points for line in lines) == Fraction(n * (n + 1), 2)
        best = min(lines, key=lambda line: line.place)
        assert all(best.place_points >= line.place_points for line in lines)


def test_best_two_of_three_drops_the_worst_night():
    def line(player, points):
        return NightLine(player, Fraction(points), Fraction(1), 2, 1, 0)
    table = season([[line(1, 10), line(2, 5)], [line(1, -30), line(2, 5)],
                    [line(1, 10), line(2, 5)]], "points", best=2)
    assert [(r.player, r.points, r.nights, r.counted) for r in table] == [
        (1, 20, 3, 2), (2, 10, 3, 2)]
    everything = season([[line(1, 10), line(2, 5)], [line(1, -30), line(2, 5)],
                         [line(1, 10), line(2, 5)]], "points")
    assert [(r.player, r.points) for r in everything] == [(2, 15), (1, -10)]


def test_a_scoring_it_does_not_know_is_refused():
    with pytest.raises(ValueError):
        season([], "elo")
