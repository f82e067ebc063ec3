"""A tournament round drawn: who sits at which table, in which seat, who deals first.

A round is reproducible from its seed, number, players and the meetings before it alone
(``random.Random(f"{seed}:{number}")``, every input sorted first). Round 1 is a seeded
shuffle. A later round is the tables of least *cost*: over every pair seated together,
``(4**m - 1) // 3`` where ``m`` is how often the pair met before, so one pair meeting a third
time costs more than three pairs meeting a second time. The search seats the players with
the most meetings first, then swaps players between tables (tabu search) with restarts,
until nobody meets again or its bounded work (:data:`WORK`) is spent. While the tables are
few (:data:`LOOKAHEAD`) a round without repeats is kept only if the next round can have
none either, when such a round is found (16 players at tables of four then meet nobody
twice in 5 rounds). ``bench/draw.py`` measures what it guarantees.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate, combinations, permutations

from .errors import N_, InvalidInput, Problem

#: The table sizes a Kierki ruleset can be for.
SIZES = frozenset({3, 4, 5})
#: The search's bound: pair look-ups over all its restarts.
WORK = 1_500_000
#: What one step of the search costs beside its look-ups, in look-ups.
STEP = 30
#: While a round has at most this many tables, a round with no repeat is kept only if the
#: round after it can have none either (when some such round is found).
LOOKAHEAD = 6


@dataclass(frozen=True)
class Table:
    """One table of a round: its players' entry numbers in seat order and the first dealer."""

    players: tuple[int, ...]   # players' entry numbers, in seat order (seat 0 first)
    first_dealer: int          # seat index of the first dealer, 0 <= first_dealer < len(players)


def table_sizes(count: int, sizes: Collection[int]) -> list[int]:
    """How ``count`` players sit at tables of ``sizes`` (among 3, 4, 5): as many tables of
    four as possible, then the fewest tables of three or five (three first on a tie),
    largest first; ``InvalidInput`` when it cannot be done.

    >>> table_sizes(14, {3, 4, 5}), table_sizes(13, {3, 4, 5}), table_sizes(13, {3, 4})
    ([4, 4, 3, 3], [5, 4, 4], [4, 3, 3, 3])
    >>> table_sizes(15, {3, 5}), table_sizes(11, {3, 5}), table_sizes(9, {3})
    ([5, 5, 5], [5, 3, 3], [3, 3, 3])
    >>> table_sizes(5, {4})
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.InvalidInput: 5 players cannot sit at tables of 4.
    """
    allowed = frozenset(sizes)
    if not allowed or not allowed <= SIZES:
        raise ValueError(f"table sizes must be among 3, 4 and 5, not {sorted(allowed)}")
    fours_at_most = count // 4 if 4 in allowed else 0
    for fours in range(fours_at_most, -1, -1):
        rest = count - 4 * fours
        fits = [(threes, fives) for fives in range(rest // 5 if 5 in allowed else 0, -1, -1)
                for threes, left in [divmod(rest - 5 * fives, 3)]
                if not left and (not threes or 3 in allowed)]
        if fits and count > 0:
            threes, fives = min(fits, key=sum)  # the fewest tables
            return [5] * fives + [4] * fours + [3] * threes
    raise InvalidInput([Problem("players", N_("%(count)s players cannot sit at tables of "
                                              "%(sizes)s."),
                                {"count": count, "sizes": ", ".join(map(str, sorted(allowed)))})])


def meetings(rounds: Iterable[Iterable[Sequence[int]]]) -> Counter[frozenset[int]]:
    """How many times each pair of players sat at one table in the given rounds
    (each round a list of tables, each table a sequence of entry numbers).

    >>> met = meetings([[(1, 2, 3), (4, 5, 6)], [(1, 2, 4), (3, 5, 6)]])
    >>> met[frozenset({1, 2})], met[frozenset({5, 6})], met[frozenset({1, 4})], met[frozenset({1, 5})]
    (2, 2, 1, 0)
    """
    return Counter(frozenset(pair) for tables in rounds for table in tables
                   for pair in combinations(table, 2))


def cost_of(met: int) -> int:
    """What seating a pair together costs when it met ``met`` times before.

    >>> [cost_of(m) for m in range(5)]
    [0, 1, 5, 21, 85]
    """
    return (4 ** met - 1) // 3


def draw_round(players: Sequence[int], sizes: Collection[int], seed: str, number: int,
               met: Mapping[frozenset[int], int] | None = None) -> list[Table]:
    """Round ``number``'s tables for the active ``players``, largest first, seats and first
    dealer drawn, as few pairs as the search finds meeting again (``met``: the meetings
    before).

    >>> [t.players for t in draw_round([1, 2, 3, 4, 5, 6, 7], {3, 4}, "club", 1)]
    [(3, 2, 4, 6), (1, 5, 7)]
    """
    ordered = sorted(players)
    if len(set(ordered)) != len(ordered):
        raise ValueError("a player is seated once a round")
    shape = table_sizes(len(ordered), sizes)
    rng = random.Random(f"{seed}:{number}")
    index = {p: i for i, p in enumerate(ordered)}
    times: list[dict[int, int]] = [{} for _ in ordered]   # who met whom how often, by index
    for pair, count in sorted(((tuple(sorted(k)), v) for k, v in (met or {}).items()
                               if v > 0 and len(k) == 2 and k <= index.keys())):
        a, b = index[pair[0]], index[pair[1]]
        times[a][b] = times[b][a] = count
    if not any(times):
        order = list(range(len(ordered)))
        rng.shuffle(order)
        groups = [order[end - size:end] for size, end in zip(shape, accumulate(shape))]
    else:
        groups = _best(times, shape, rng)
    tables = []
    for group in groups:
        seats = [ordered[i] for i in group]
        rng.shuffle(seats)
        tables.append(Table(tuple(seats), rng.randrange(len(seats))))
    return tables


def repeats(tables: Iterable[Sequence[int]], met: Mapping[frozenset[int], int]) -> int:
    """How many pairs seated together in ``tables`` met before.

    >>> repeats([(1, 2, 3)], {frozenset({1, 2}): 2, frozenset({4, 5}): 1})
    1
    """
    return sum(1 for t in tables for pair in combinations(t, 2) if met.get(frozenset(pair), 0))


# --- the search ------------------------------------------------------------------------------

def _best(times: list[dict[int, int]], shape: list[int], rng: random.Random) -> list[list[int]]:
    """The least costly tables the bounded search finds; while the tables are few, a round
    with no repeat after which the next round can have none either, if one is found."""
    weights = [{b: cost_of(m) for b, m in row.items()} for row in times]
    budget = [WORK]
    cost, groups = _search(weights, shape, rng, budget)
    if cost or len(shape) > LOOKAHEAD:
        return groups
    first = groups
    while budget[0] > 0:
        ahead = [dict(w) for w in weights]
        for a, b in (pair for group in groups for pair in permutations(group, 2)):
            ahead[a][b] = cost_of(times[a].get(b, 0) + 1)
        spend = [min(WORK // 40, budget[0])]
        budget[0] -= spend[0]
        if _search(ahead, shape, rng, spend)[0] == 0:
            return groups
        cost, groups = _search(weights, shape, rng, budget)
        if cost:
            break
    return first


def _search(weights: list[dict[int, int]], shape: list[int], rng: random.Random,
            budget: list[int]) -> tuple[int, list[list[int]]]:
    """Greedy seeding, then tabu search by swaps, with restarts; ``budget[0]`` is spent."""
    n = len(weights)
    best_cost, best = -1, [[]]
    stall_limit = 20 + 4 * n
    while True:
        tables, pos = _greedy(weights, shape, rng)
        budget[0] -= STEP + 2 * n
        own = [sum(weights[p].get(x, 0) for x in tables[pos[p]]) for p in range(n)]
        cost = sum(own) // 2
        if best_cost < 0 or cost < best_cost:
            best_cost, best = cost, [list(t) for t in tables]
        tabu = [0] * n
        step = stall = 0
        while cost and len(tables) > 1 and stall < stall_limit and budget[0] > 0:
            step, stall = step + 1, stall + 1
            budget[0] -= STEP + n + len(tables)
            p = rng.choice([p for p in range(n) if own[p]])
            here, mine = pos[p], tables[pos[p]]
            toward = [0] * len(tables)
            for x, w in weights[p].items():
                toward[pos[x]] += w
            pick, pick_delta, ties = None, 0, 0
            for t, other in enumerate(tables):
                if t == here:
                    continue
                budget[0] -= len(other) * len(mine)
                for q in other:
                    wq = weights[q]
                    delta = (toward[t] + sum(wq.get(x, 0) for x in mine)
                             - 2 * wq.get(p, 0) - own[p] - own[q])
                    if tabu[q] > step and cost + delta >= best_cost:
                        continue
                    if pick is None or delta < pick_delta:
                        pick, pick_delta, ties = q, delta, 1
                    elif delta == pick_delta:
                        ties += 1
                        if rng.randrange(ties) == 0:
                            pick = q
            if pick is None:
                continue
            q, there = pick, pos[pick]
            mine[mine.index(p)] = q
            tables[there][tables[there].index(q)] = p
            pos[p], pos[q] = there, here
            for t in (here, there):
                for a in tables[t]:
                    own[a] = sum(weights[a].get(x, 0) for x in tables[t])
            cost += pick_delta
            tabu[p] = tabu[q] = step + 3 + rng.randrange(8)
            if cost < best_cost:
                best_cost, best, stall = cost, [list(t) for t in tables], 0
        if best_cost == 0 or len(tables) == 1 or budget[0] <= 0:
            return best_cost, best


def _greedy(weights: list[dict[int, int]], shape: list[int],
            rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """Players with the most meetings first, each at an open table where they meet nobody
    again if there is one (the tables taken in turn), else where they meet the least."""
    n = len(weights)
    order = list(range(n))
    rng.shuffle(order)
    order.sort(key=lambda p: -sum(weights[p].values()))
    tables: list[list[int]] = [[] for _ in shape]
    pos = [-1] * n
    open_tables = list(range(len(shape)))
    rng.shuffle(open_tables)
    for turn, p in enumerate(order):
        clash: Counter[int] = Counter()
        for x, w in weights[p].items():
            if pos[x] >= 0:
                clash[pos[x]] += w
        turned = (open_tables[(turn + k) % len(open_tables)] for k in range(len(open_tables)))
        chosen = next((t for t in turned if t not in clash), None)
        if chosen is None:
            chosen = min(open_tables, key=lambda t: clash[t])
        tables[chosen].append(p)
        pos[p] = chosen
        if len(tables[chosen]) == shape[chosen]:
            open_tables.remove(chosen)
    return tables, pos
