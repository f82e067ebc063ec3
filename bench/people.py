"""People's pages against stored games: does a player page cost the same with 10,000
finished games on the server as with 10? (Issue 25: it cost 2.06 s with 1,000 games and
67 s with 2,000 games and 4,000 names when every page replayed every game.)

Run (with the package installed, e.g. in .venv):  python bench/people.py [--games N]

Seeds two temporary instances, one with ``--small`` finished games (10) and one with
``--games`` (10,000): Kierki for 3, 4 and 5 players and Tybet, ~20 regulars and a few
thousand names that play once; one table of four regulars plays an evening of four
games every few days (a quarter of all games), the other games draw their people at
random. Games are written by the store's own write (``game_writes.import_game``, the one that
also keeps each finished game's figures), several hundred to a transaction (one
:func:`.transaction.writes` around them), with the store's clock set to each
game's evening so that evenings form as they would have.

Then times, through the Flask test client (one process, as the server's one worker),
the median of ``--repeat`` requests (after one to warm up) of: a game page, a regular's
player page, the players page, ``/api/players``, the busiest table's page, one of its
evenings, and the standings of a tournament of eight regulars (one round, both tables
finished), and (issue 36) the club's season table page, its ``GET
/api/clubs/home/season`` (the season's nights with every player's rating) and a player's
season history. The home club counts its casual games for the ratings, so every Kierki
game seeded is rated (the backfill rates each as it finished, one at a time, as the
in-write handler does). It also times the write that finishes a game (its last deal:
the figures, the running totals and the ratings of its players kept in that write),
the median of ``--repeat`` games of four regulars.

Prints each time and its ratio to the game page, for both instances, then the growth of
every page and of the finishing write (its time at ``--games`` over its time at
``--small``, nothing kept between requests) and exits 1 if any grew above
``--max-growth`` (1.5, issues 34 and 36: every page that sums history, and a rated
game's finish, cost the same at 10,000 finished games as at 10). The ratings' own share
of a regulars' finish is printed beside it, not held to the bound (see ``finishing``).
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
from typing import Any

from scorekeeper import create_app
from scorekeeper.common.lru import LRU
from scorekeeper.domain import service
from scorekeeper.families import registry
from scorekeeper.families.kierki.rules.examples import plausible_results
from scorekeeper.storage import connection, game_writes, rating_reads, transaction

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
    clock = connection.now
    jobs: list[tuple[Any, ...]] = []
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
            jobs.append((family, snapshot, names, settings, results, at))
            if len(jobs) == BATCH or i == games - 1:
                _import_all(db, jobs)
                jobs = []
    finally:
        connection.now = clock


@transaction.writes
def _import_all(db, jobs):
    """Each game of ``jobs`` by ``game_writes.import_game`` (unwrapped: they share this
    one transaction), with the store's clock at the game's time."""
    for family, snapshot, names, settings, results, at in jobs:
        connection.now = lambda at=at: at
        game_writes.import_game.__wrapped__(db, family, snapshot, names, settings, results,
                                            [], True, created_at=at)


def instance(games: int, rng: random.Random, folder: Path):
    app = create_app({"DATABASE": str(folder / "kierki.sqlite"), "SECRET_KEY": "bench",
                      "MAX_GAMES": 10**6, "SYNCHRONOUS": "NORMAL"})
    db = connection.connect(app.config["DATABASE"])
    db.execute("PRAGMA synchronous = OFF")  # seeding only
    from scorekeeper.domain import clubs
    clubs.change(db, clubs.load(db, connection.HOME_CLUB), casual_rated=True)  # all rated
    t0 = time.perf_counter()
    seed(db, games, rng)
    service.backfill_figures(db)  # the store keeps figures the domain makes: each game replayed once
    seconds = time.perf_counter() - t0
    db.close()
    return app, seconds


def reopen(folder: Path):
    """The app over a database seeded by an earlier run (``--data``)."""
    return create_app({"DATABASE": str(folder / "kierki.sqlite"), "SECRET_KEY": "bench",
                       "MAX_GAMES": 10**6, "SYNCHRONOUS": "NORMAL"}), 0.0


def tournament(app) -> str:
    """A tournament of eight regulars, its first round played to the end; its id."""
    from scorekeeper.domain import tournaments
    db = connection.connect(app.config["DATABASE"])
    try:
        t = tournaments.create(db, "Bench", "\n".join(REGULARS[:8]), 1,
                               {"4": "standard-4"}, seed="bench")
        rules = registry.find("standard-4")[1]
        for table in t.rounds[0]:
            game = service.load(db, table.game_id)
            for number, raw in enumerate(plausible_results(rules), start=1):
                game = service.enter_deal(db, game, number, raw, game.version)
            assert game.state.finished
        return t.id
    finally:
        db.close()


def _pages(app, tid: str) -> dict[str, str]:
    """The address of each page timed, found through the app's own answers."""
    db = connection.connect(app.config["DATABASE"])
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
            "table page": f"/tables/{club}", "evening page": f"/evenings/{first or eid}",
            "tournament": f"/tournaments/{tid}", "season page": "/clubs/home/season",
            "season API": "/api/clubs/home/season",
            "season player": f"/clubs/home/season/players/{ids[CLUB[0]]}"}


def finishing(apps: dict[int, Any], repeat: int) -> dict[int, tuple[float, float]]:
    """Per instance, the least of ``repeat`` finishing writes (a game's last deal, with
    its figures, running totals and ratings kept in it; the least, not the median: a
    write's own cost, where a median of a few milliseconds of disk and commit on a shared
    machine moved by 0.7–1.6x from run to run), the instances taken in turn (so a busy
    moment of the machine falls on both alike): the whole write for four players
    new to the server (each time others), and the ratings' own share of it
    (``ratings.keep``, the in-write handler's body) for a game of the four regulars, who
    have thousands of rated games each. (The regulars' whole write is not the measure:
    the seeded games are dated up to 2032, so a game finished now lands before their last
    one and the running totals count their wins in a row again, issue 34's path for an
    earlier game.)"""
    from scorekeeper.domain import ratings
    from scorekeeper.storage import connection
    rules = registry.find("standard-4")[1]
    results = plausible_results(rules)
    keep = ratings.keep
    spent: list[float] = []

    def timed_keep(*args, **kwargs):
        t0 = time.perf_counter()
        keep(*args, **kwargs)
        spent.append(time.perf_counter() - t0)

    def finish(db, names: list[str]) -> float:
        gid = service.create_game(db, "standard-4", names, 0)
        game = service.load(db, gid)
        for number, raw in enumerate(results[:-1], start=1):
            game = service.enter_deal(db, game, number, raw, game.version)
        t0 = time.perf_counter()
        game = service.enter_deal(db, game, len(results), results[-1], game.version)
        took = time.perf_counter() - t0
        rated = rating_reads.rated_game(db, gid)
        assert game.state.finished and rated is not None and rated.counted, "not rated"
        return took

    dbs = {n: connection.connect(app.config["DATABASE"]) for n, app in apps.items()}
    whole: dict[int, list[float]] = {n: [] for n in apps}
    rating: dict[int, list[float]] = {n: [] for n in apps}
    run = time.time_ns()
    try:
        ratings.keep = timed_keep
        for i in range(repeat):
            for n, db in dbs.items():
                whole[n].append(finish(db, [f"Nowy {run}-{i}-{seat}" for seat in range(4)]))
                spent.clear()
                finish(db, CLUB)
                rating[n].append(spent[-1])
        return {n: (min(whole[n]), min(rating[n])) for n in apps}
    finally:
        ratings.keep = keep
        for db in dbs.values():
            db.close()


def timed(clients: dict[int, Any], urls: dict[int, str], repeat: int, cold: bool
          ) -> dict[int, float]:
    """The median time of each instance's ``url``, the instances' requests taken in turn
    (so a busy moment of the machine falls on both alike); ``cold``: with nothing kept
    between requests (every LRU of the process emptied before each, as after a restart),
    so that each page does its whole work: a game page loads and replays its game, a
    player page reads its totals."""
    for n, client in clients.items():
        answer = client.get(urls[n])
        if answer.status_code != 200:
            sys.exit(f"{urls[n]}: {answer.status_code}")
    times: dict[int, list[float]] = {n: [] for n in clients}
    for _ in range(repeat):
        for n, client in clients.items():
            if cold:
                LRU.clear_every()
            t0 = time.perf_counter()
            answer = client.get(urls[n])
            times[n].append(time.perf_counter() - t0)
            assert answer.status_code == 200, urls[n]
    return {n: statistics.median(t) for n, t in times.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--small", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--max-growth", type=float, default=1.5,
                        help="the most a page may cost at --games over --small (1.5)")
    parser.add_argument("--data", type=Path, default=None,
                        help="keep the seeded databases in this folder, and use the ones "
                             "there on the next run (the same --games, --small and --seed)")
    args = parser.parse_args(argv)
    results: dict[tuple[int, bool], dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        clients, pages = {}, {}
        for games in (args.small, args.games):
            folder = (args.data or Path(tmp)) / f"{games}-{args.seed}"
            kept = (folder / "kierki.sqlite").exists() and (folder / "tournament").exists()
            folder.mkdir(parents=True, exist_ok=True)
            if kept:
                app, seconds = reopen(folder)
            else:
                app, seconds = instance(games, random.Random(args.seed), folder)
                (folder / "tournament").write_text(tournament(app))
            db = connection.connect(app.config["DATABASE"])
            people = db.execute("select count(*) from people").fetchone()[0]
            db.close()
            print(f"{games} finished games, {people} people: "
                  + ("kept from an earlier run" if kept else f"seeded in {seconds:.1f} s"))
            clients[games] = app.test_client()
            pages[games] = _pages(app, (folder / "tournament").read_text())
        writes = finishing({n: c.application for n, c in clients.items()}, 3 * args.repeat)
        for cold in (True, False):
            for name in pages[args.games]:
                times = timed(clients, {n: p[name] for n, p in pages.items()}, args.repeat,
                              cold)
                for n, t in times.items():
                    results.setdefault((n, cold), {})[name] = t
    for cold, title in ((True, "nothing kept between requests (each page does its work)"),
                        (False, "as served (what the server keeps between requests kept)")):
        small, big = results[args.small, cold], results[args.games, cold]
        print(f"\n{title}\n{'page':<14} {args.small:>7} games {args.games:>7} games"
              f"   x game page   x same page at {args.small}")
        for name in big:
            print(f"{name:<14} {small[name] * 1000:>9.1f} ms {big[name] * 1000:>9.1f} ms"
                  f"   {big[name] / big['game page']:>10.1f}"
                  f"   {big[name] / small[name]:>14.1f}")
    for n in (args.small, args.games):
        print(f"\nat {n} games, the least of {3 * args.repeat}: the write that finishes a "
              f"rated game {writes[n][0] * 1000:.1f} ms; the ratings' share of a regulars' "
              f"game's finish "
              f"{writes[n][1] * 1000:.2f} ms")
        results[n, True]["finish (write)"] = writes[n][0]
    print(f"the ratings' share at {args.games} over {args.small} games: "
          f"{writes[args.games][1] / writes[args.small][1]:.2f}x (not held to "
          f"--max-growth: a few hundred microseconds of statements that each touch the "
          f"same rows by index, where a primary-key read of the larger file alone takes "
          f"twice as long; the whole write above is)")
    cold = results[args.games, True]
    ratio = cold["player page"] / cold["game page"]
    verdict = "within" if ratio <= 5 else "NOT within"
    print(f"\nplayer page at {args.games} games, nothing kept: {ratio:.1f}x a game page "
          f"({verdict} 5x)")
    small = results[args.small, True]
    print(f"\ngrowth, nothing kept: each page at {args.games} games over the same page at "
          f"{args.small} (at most {args.max_growth}x)")
    over = []
    for name in cold:
        growth = cold[name] / small[name]
        ok = growth <= args.max_growth
        over += [] if ok else [name]
        print(f"{name:<14} {growth:>6.2f}x  {'ok' if ok else 'ABOVE'}")
    if over:
        print(f"above {args.max_growth}x: {', '.join(over)}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
