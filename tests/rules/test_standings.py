"""A tournament's standings as a director checks them by hand: zero-sum games give
zero-sum standings, a better line never ranks below a worse one, equal lines share a rank,
and ranking by places hands every table the same points whatever its size."""
from fractions import Fraction
from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.standings import Seat, place_points, standings


@st.composite
def zero_sum_games(draw):
    """Games of 3 to 5 players out of 12, each summing to zero as a Kierki game does."""
    games = []
    for _ in range(draw(st.integers(0, 8))):
        size = draw(st.integers(3, 5))
        players = draw(st.permutations(range(1, 13)))[:size]
        totals = draw(st.lists(st.integers(-200, 200), min_size=size - 1, max_size=size - 1))
        totals.append(-sum(totals))
        games.append([Seat(p, t) for p, t in zip(players, totals, strict=True)])
    return games


@given(zero_sum_games(), st.sampled_from(["points", "places"]))
def test_standings_add_up_and_rank_in_order(games, scoring):
    rows = standings(games, range(1, 13), scoring)
    assert sorted(r.player for r in rows) == list(range(1, 13))
    assert sum(r.games for r in rows) == sum(len(g) for g in games)
    if scoring == "points":
        assert sum(r.points for r in rows) == 0
    else:
        assert sum(r.points for r in rows) == sum(
            sum(place_points([s.total for s in g])) for g in games)
    for above, below in pairwise(rows):
        line = (above.points, above.wins, above.best if above.best is not None else -10**9)
        under = (below.points, below.wins, below.best if below.best is not None else -10**9)
        assert line >= under
        assert (above.rank == below.rank) == (line == under)


def test_ties_break_by_table_wins_then_best_game():
    games = [[Seat(1, 40), Seat(9, -40)],
             [Seat(2, 20), Seat(9, -20)], [Seat(2, 20), Seat(9, -20)],
             [Seat(3, 100), Seat(10, -100)], [Seat(3, -60), Seat(11, 60)],
             [Seat(4, 40), Seat(5, 40), Seat(6, -80)]]
    rows = standings(games, range(1, 12))
    top = [(r.player, int(r.points), r.wins, r.best, r.rank) for r in rows[:6]]
    assert top == [(11, 60, 1, 60, 1),
                   (2, 40, 2, 20, 2),      # 40 points, two table wins
                   (3, 40, 1, 100, 3),     # 40 points, one win, the best game
                   (1, 40, 1, 40, 4), (4, 40, 1, 40, 4), (5, 40, 1, 40, 4)]  # shared
    assert (rows[-1].player, rows[-1].rank) == (10, 11)  # -100: last


def test_places_give_every_table_three_to_zero():
    assert place_points([10, 0, -10]) == [3, Fraction(3, 2), 0]
    assert place_points([4, 3, 2, 1]) == [3, 2, 1, 0]
    assert place_points([4, 3, 2, 1, 0]) == [3, Fraction(9, 4), Fraction(3, 2), Fraction(3, 4), 0]
    assert sum(place_points([5, 5, 5, 5])) == 6  # all tied: each the average, 1½


def reference(games, players, scoring):
    """The standings as worked out before issue 34 (every sum a fraction, the order
    compared on fractions): what the faster ones must equal, line for line."""
    from scorekeeper.rules.standings import Standing
    points = {p: Fraction(0) for p in players}
    wins, played, best = dict.fromkeys(points, 0), dict.fromkeys(points, 0), dict.fromkeys(points)
    for seats in games:
        totals = [s.total for s in seats]
        by_place = place_points(totals) if scoring == "places" else None
        for i, seat in enumerate(seats):
            p = seat.player
            points[p] += by_place[i] if by_place is not None else seat.total
            wins[p] += seat.total == max(totals)
            played[p] += 1
            best[p] = seat.total if best[p] is None else max(best[p], seat.total)

    def key(p):
        return points[p], wins[p], float("-inf") if best[p] is None else best[p]

    order = sorted(points, key=lambda p: (tuple(-k for k in key(p)), p))
    rows = []
    for i, p in enumerate(order):
        rank = rows[-1].rank if rows and key(order[i - 1]) == key(p) else i + 1
        rows.append(Standing(p, points[p], wins[p], played[p], best[p], rank))
    return rows


@given(zero_sum_games(), st.sampled_from(["points", "places"]))
def test_standings_equal_the_plain_fractions_computation(games, scoring):
    assert standings(games, range(1, 13), scoring) == reference(games, range(1, 13), scoring)
