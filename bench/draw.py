"""The tournament draw: how long a round takes to draw, and how many pairs meet again.

Run:  python bench/draw.py [--seeds N] [--rounds R] [--sizes 3,4,5] [COUNT ...]

For each player count (12, 16, 100, 600 and 1,000 unless given) and each of ``--seeds``
seeds (3), draws ``--rounds`` rounds (5) one after another as a tournament does, each from
the meetings of the rounds before, on this one core. Prints one line per count: the slowest
round's draw time, the median round's, and per round the most pairs that met again over the
seeds (what the draw guarantees is in the docstring of ``scorekeeper/rules/draw.py``).
"""
from __future__ import annotations

import argparse
import statistics
import time

from scorekeeper.rules.draw import draw_round, meetings, repeats, table_sizes


def tournament(count: int, sizes: set[int], seed: str, rounds: int):
    """Each round's draw time and repeated pairs."""
    players, past, times, again = list(range(1, count + 1)), [], [], []
    for number in range(1, rounds + 1):
        met = meetings(past)
        start = time.perf_counter()
        tables = draw_round(players, sizes, seed, number, met)
        times.append(time.perf_counter() - start)
        seated = [t.players for t in tables]
        again.append(repeats(seated, met))
        past.append(seated)
    return times, again


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("counts", nargs="*", type=int, default=[12, 16, 100, 600, 1000])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sizes", default="3,4,5")
    args = parser.parse_args()
    sizes = {int(s) for s in args.sizes.split(",")}
    print(f"tables of {sorted(sizes)}, {args.rounds} rounds, {args.seeds} seeds")
    for count in args.counts:
        times, worst = [], [0] * args.rounds
        for s in range(args.seeds):
            took, again = tournament(count, sizes, f"bench-{s}", args.rounds)
            times += took
            worst = [max(w, a) for w, a in zip(worst, again)]
        shape = table_sizes(count, sizes)
        print(f"{count:5} players ({len(shape)} tables): draw max {max(times) * 1000:7.1f} ms, "
              f"median {statistics.median(times) * 1000:6.1f} ms; "
              f"pairs meeting again by round (most over seeds): {worst}")


if __name__ == "__main__":
    main()
