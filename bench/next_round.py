"""What the round change's burst costs the server, in process (issue 34, item 2).

A tournament of ``--tables`` tables of four, made as ``bench/club.py`` makes it
(``make_tournament``) with every round 1 game played to its end, kept under
``--cache`` so that a second run starts at once; each run works on a copy. The director
draws round 2 (the domain's ``draw_next``), then every phone of round 1 asks its old
game's ``/games/<gid>/next-round`` (what ``static/live.js`` fetches on the stream's
``round`` event), four per table, in a random order, through Flask's test client. Printed:
the draw, the first answer (what the first phone of the round pays), and the total,
mean, p95 and max of the 4,000 answers, each checked to name its seat's new table.

    .venv/bin/python bench/next_round.py --tables 1000

No server, no network: the view's and Flask's cost (the phones ask
for gzip, as bench/club.py's do), on this process's core.
"""
from __future__ import annotations

import argparse
import gzip
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import club  # bench/club.py: the same tournament


def base(cache: Path, tables: int) -> Path:
    """The finished round 1 of ``tables`` tables, made once and kept."""
    folder = cache / f"tables-{tables}"
    if (folder / "kierki.sqlite").exists():
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    began = time.perf_counter()
    club.make_tournament(folder, tables, [0] * tables)
    print(f"made {tables} finished tables in {time.perf_counter() - began:.1f} s "
          f"(kept in {folder})")
    return folder


def text(answer) -> str:
    data = answer.get_data()
    if answer.headers.get("Content-Encoding") == "gzip":
        data = gzip.decompress(data)
    return data.decode()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--cache", type=Path,
                        default=Path(tempfile.gettempdir()) / "kierki-next-round")
    parser.add_argument("--lang", default="pl-PL,pl;q=0.9,en;q=0.8",
                        help="the phones' Accept-Language (bench/club.py's)")
    args = parser.parse_args()

    kept = base(args.cache, args.tables)
    work = Path(tempfile.mkdtemp(prefix="next-round-"))
    try:
        for name in os.listdir(kept):
            if name.startswith("kierki.sqlite"):
                shutil.copy(kept / name, work / name)
        os.environ["KIERKI_INSTANCE"] = str(work)
        from scorekeeper import create_app
        from scorekeeper.domain import tournaments
        from scorekeeper.web.db import get_db

        app = create_app({"DATABASE": str(work / "kierki.sqlite"), "SECRET_KEY": club.SECRET,
                          "MAX_GAMES": 1_000_000})
        with app.app_context():
            db = get_db()
            tid = db.conn.execute("select id from tournaments").fetchone()[0]
            t = tournaments.load(db, tid)
            old = [(table.game_id, list(table.seats)) for table in t.rounds[0]]
            began = time.perf_counter()
            t = tournaments.draw_next(db, tid, 2)
            drawn = time.perf_counter() - began
            where = {n: table.game_id for table in t.rounds[1] for n in table.seats}

        asks = [(gid, seat, numbers[seat]) for gid, numbers in old
                for seat in range(len(numbers))]
        random.Random(34).shuffle(asks)
        client = app.test_client()
        headers = {"Accept-Language": args.lang, "Accept-Encoding": "gzip, deflate, br, zstd",
                   "Cache-Control": "no-cache", "Pragma": "no-cache"}  # bench/club.py's
        times = []
        firsts = []
        wrong = 0
        seen = set()
        for gid, seat, number in asks:
            firsts.append(gid not in seen)
            seen.add(gid)
            began = time.perf_counter()
            answer = client.get(f"/games/{gid}/next-round", headers=headers)
            times.append(time.perf_counter() - began)
            links = [re.search(r'href="/games/([^"]+)"', item) for item in re.findall(
                r'<li data-player="\d+">(.*?)</li>', text(answer), re.DOTALL)]
            if answer.status_code != 200 or seat >= len(links) or links[seat] is None \
                    or links[seat].group(1) != where[number]:
                wrong += 1
        ordered = sorted(times)
        total = sum(times)
        first = [d for d, f in zip(times, firsts, strict=True) if f]
        again = [d for d, f in zip(times, firsts, strict=True) if not f]
        floor = []  # the least a GET costs here: a game's polled version (one indexed row)
        for gid, _, _ in asks:
            began = time.perf_counter()
            client.get(f"/games/{gid}/version", headers=headers)
            floor.append(time.perf_counter() - began)
        print(f"{args.tables} tables, {len(times)} next-round answers ({args.lang}): "
              f"draw {drawn * 1000:.0f} ms; first answer {times[0] * 1000:.1f} ms; "
              f"all {total:.2f} s, mean {statistics.mean(times) * 1000:.2f} ms, "
              f"p95 {ordered[int(0.95 * (len(ordered) - 1))] * 1000:.2f} ms, "
              f"max {ordered[-1] * 1000:.1f} ms; wrong {wrong}")
        print(f"  a game's first answer mean {statistics.mean(first) * 1000:.2f} ms "
              f"({len(first)}), its table's other phones' {statistics.mean(again) * 1000:.2f} ms "
              f"({len(again)}); the floor (4,000 GETs of /games/<gid>/version) "
              f"{sum(floor):.2f} s, mean {statistics.mean(floor) * 1000:.2f} ms")
        return 1 if wrong else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
