"""People's pages against stored games: does a player page cost the same with 10,000
finished games on the server as with 10? (Issue 25: it cost 2.06 s with 1,000 games and
67 s with 2,000 games and 4,000 names when every page replayed every game.)

Run (with the package installed, e.g. in .venv):  python bench/people.py [--games N]

Seeds two temporary instances, one with ``--small`` finished games (10) and one with
``--games`` (10,000): Kierki for 3, 4 and 5 players and Tybet, ~20 regulars and a few
thousand names that play once; one table of four regulars plays an evening of four
games every few days (a quarter of all games), the other games draw their people at
random. Games are written by the store's own write (``store.import_game``, the one that
also keeps each finished game's figures), several hundred to a transaction through
:func:`.commits.commit` (the group commit's path), with the store's clock set to each
game's evening so that evenings form as they would have.

Then times, through the Flask test client (one process, as the server's one worker),
the median of ``--repeat`` requests (after one to warm up) of: a game page, a regular's
player page, the players page, ``/api/players``, the busiest table's page and one of its
evenings. Prints each time and its ratio to the game page, for both instances, and
whether a player page stays within 5x a game page.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from scorekeeper import create_app
from scorekeeper.domain import service
from scorekeeper.families import registry
from scorekeeper.families.kierki.rules.examples import plausible_results
from scorekeeper.storage import commits, store
from scorekeeper.web import caches

#: Tybet to 21: the pairs (seats 0 and 2 against 1 and 3) win 29 to 4.
PLAIN = {"declarations": [[], [], [], []], "aces": [3, 1], "honours": [11, 9], "last": 0}
SWEEP = {"declarations": [[], [], [], []], "aces": [4, 0], "honours": [20, 0], "last": 0}
#: (ruleset, share of the random games).
MIX = [("standard-4", 4), ("kurnik-3", 2), ("zdanowicz-5", 1), ("tybet-21", 2)]
REGULARS = ["Ala", "Bartek", "Celina", "Darek", "Ewa", "Franek", "Grażyna", "Henryk",
            "Iza", "Jacek", "Kasia", "Łukasz", "Małgorzata", "Norbert", "Ola", "Piotr",
            "Renata", "Sławek", "Tomek", "Żaneta"]
CLUB = REGULARS[:4]
BATCH = 500
START = datetime(2019, 1, 1, 19, 0, tzinfo=UTC)


def _template(ruleset_id: str) -> tuple[str, dict, dict, list[dict], int]:
    """(family, snapshot, settings, results, players) of one finished game of ``ruleset_id``,
    checked as an import is (the family folds it and must find it finished)."""
    family, rules = registry.find(ruleset_id)
    raw = [PLAIN, SWEEP, SWEEP] if family.key == "tybet" else plausible_results(rules)
    settings = {"first_dealer": 0, **family.settings(rules, {})}
    state = family.fold(rules, settings, raw)
    assert state.finished, ruleset_id
    return (family.key, rules.snapshot(), settings, [s.result for s in state.scored],
            rules.players)


def seed(db, games: int, rng: random.Random) -> None:
    """``games`` finished games: a quarter the club's evenings, the rest at random."""
    templates = {rid: _template(rid) for rid, _ in MIX}
    weighted = [rid for rid, share in MIX for _ in range(share)]
    one_offs = iter(f"Gość {i}" for i in range(1, 10**6))
    clock = store._now
    jobs: list[commits._Job] = []
    when = START
    try:
        for i in range(games):
            if i % 4 == 0:
                when = START + timedelta(days=2 * (i // 4))
            club = i % 16 < 4  # every fourth evening is the club's
            rid = "standard-4" if club else rng.choice(weighted)
            family, snapshot, settings, results, players = templates[rid]
            if club:
                names = CLUB[i % 4:] + CLUB[:i % 4]
            else:
                regulars = rng.sample(REGULARS[4:], players)
                names = [next(one_offs) if rng.random() < 0.08 else n for n in regulars]
            at = (when + timedelta(hours=i % 4)).isoformat()
            jobs.append(commits._Job(_import_at, (family, snapshot, names, settings,
                                                  results, at), {}))
            if len(jobs) == BATCH or i == games - 1:
                for ok, value in commits.commit(db, jobs):
                    if not ok:
                        raise value
                jobs = []
    finally:
        store._now = clock


def _import_at(db, family, snapshot, names, settings, results, at):
    """``store.import_game`` (unwrapped: the batch commits it) with the store's clock at
    the game's time."""
    store._now = lambda: at
    return store.import_game.__wrapped__(db, family, snapshot, names, settings, results,
                                         [], True, created_at=at)


def instance(games: int, rng: random.Random, folder: Path):
    app = create_app({"DATABASE": str(folder / "kierki.sqlite"), "SECRET_KEY": "bench",
                      "MAX_GAMES": 10**6, "SYNCHRONOUS": "NORMAL"})
    db = store.connect(app.config["DATABASE"])
    db.execute("PRAGMA synchronous = OFF")  # seeding only
    t0 = time.perf_counter()
    seed(db, games, rng)
    service.backfill_figures(db)  # the store keeps figures the domain makes: each game replayed once
    seconds = time.perf_counter() - t0
    db.close()
    return app, seconds


def _pages(app) -> dict[str, str]:
    """The address of each page timed, found through the app's own answers."""
    db = store.connect(app.config["DATABASE"])
    try:
        ids = dict(db.execute("select name, id from people").fetchall())
        club = "-".join(str(p) for p in sorted(ids[n] for n in CLUB))
        game, eid = db.execute("select id, evening_id from games where table_key = ? "
                               "order by created_at desc limit 1", [club]).fetchone()
        first = db.execute("select evening_id from games where table_key = ? and "
                           "created_at = (select max(created_at) from games where "
                           "table_key = ? and created_at like '%T19:%')",
                           [club, club]).fetchone()[0]
    finally:
        db.close()
    return {"game page": f"/games/{game}", "player page": f"/players/{ids[CLUB[0]]}",
            "players page": "/players", "/api/players": "/api/players",
            "table page": f"/tables/{club}", "evening page": f"/evenings/{first or eid}"}


def timed(client, url: str, repeat: int, cold: bool) -> float:
    """The median time of ``url``; ``cold``: with nothing kept between requests (every
    LRU of the process emptied before each, as after a restart), so that each page does
    its whole work: a game page loads and replays its game, a player page sums."""
    answer = client.get(url)
    if answer.status_code != 200:
        sys.exit(f"{url}: {answer.status_code}")
    times = []
    for _ in range(repeat):
        if cold:
            caches.clear()
        t0 = time.perf_counter()
        answer = client.get(url)
        times.append(time.perf_counter() - t0)
        assert answer.status_code == 200, url
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--small", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--seed", type=int, default=25)
    args = parser.parse_args(argv)
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for games in (args.small, args.games):
            folder = Path(tmp) / str(games)
            folder.mkdir()
            app, seconds = instance(games, random.Random(args.seed), folder)
            db = store.connect(app.config["DATABASE"])
            people = db.execute("select count(*) from people").fetchone()[0]
            db.close()
            print(f"{games} finished games, {people} people: seeded in {seconds:.1f} s")
            client = app.test_client()
            for cold in (True, False):
                results[games, cold] = {name: timed(client, url, args.repeat, cold)
                                        for name, url in _pages(app).items()}
    for cold, title in ((True, "nothing kept between requests (each page does its work)"),
                        (False, "as served (what the server keeps between requests kept)")):
        small, big = results[args.small, cold], results[args.games, cold]
        print(f"\n{title}\n{'page':<14} {args.small:>7} games {args.games:>7} games"
              f"   x game page   x same page at {args.small}")
        for name in big:
            print(f"{name:<14} {small[name] * 1000:>9.1f} ms {big[name] * 1000:>9.1f} ms"
                  f"   {big[name] / big['game page']:>10.1f}"
                  f"   {big[name] / small[name]:>14.1f}")
    cold = results[args.games, True]
    ratio = cold["player page"] / cold["game page"]
    verdict = "within" if ratio <= 5 else "NOT within"
    print(f"\nplayer page at {args.games} games, nothing kept: {ratio:.1f}x a game page "
          f"({verdict} 5x)")
    return 0 if ratio <= 5 else 1


if __name__ == "__main__":
    sys.exit(main())
