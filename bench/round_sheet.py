"""Benchmark: a 600-player tournament's round sheet and results PDF against WeasyPrint's bare
pages of the same count.

Run (with the package installed, e.g. in .venv):  python bench/round_sheet.py [--rounds N]
[--players N]

Timed in the same run on the same machine, so the ratios mean something where absolute
seconds do not:
  baseline  WeasyPrint rendering the same content as plain bordered tables (the seat plan
            as one table, each card a small table), no styles, no QR codes
  sheet     GET /tournaments/<id>/rounds/1/sheet.pdf, first render (cache cleared): 7 pages
            of seat plan by surname, 11 by table, 38 of table cards with their QR codes
  cached    the same sheet requested again (served from the cache's file)
  results   GET /tournaments/<id>/results.pdf with round 1 being played
Baseline and the renders alternate within each round, so a busy neighbour slows both alike;
the ratios printed are the medians of the per-round ratios.
Targets: sheet <= 1.5 x baseline; cached <= 5 % of sheet.
"""
from __future__ import annotations

import argparse
import gc
import statistics
import tempfile
import time

from weasyprint import HTML

from scorekeeper import create_app
from scorekeeper.outputs import pdf

PLAYERS = 600


def bare_pages(tables: int, players: int) -> str:
    """The same content, unstyled: the seat plan as a two-column table, the players by
    table as another, each card a table of its players and its code (no QR code), four a
    page."""
    plan = "".join(f"<tr><td>Gracz {i}</td><td>→ table {i // 4 + 1}, seat {i % 4 + 1}</td></tr>"
                   for i in range(players))
    cards = "".join(f'<table style="break-before:{"page" if i % 4 == 0 else "auto"}">'
                    f"<tr><th>Table {i + 1}</th></tr>"
                    + "".join(f"<tr><td>Seat {s}</td><td>Gracz {4 * i + s}</td></tr>"
                              for s in range(1, 5))
                    + "<tr><td>ABCDEF</td></tr></table>"
                    for i in range(tables))
    by_table = "".join(f"<tr><th>Table {i + 1}</th></tr>"
                       + "".join(f"<tr><td>{s}</td><td>Gracz {4 * i + s}</td></tr>"
                                 for s in range(1, 5)) for i in range(tables))
    return ("<html><head><style>@page{size:A4;margin:12mm} td{border:1px solid #999}"
            f"</style></head><body><table>{plan}</table><table>{by_table}</table>{cards}"
            "</body></html>")


def timed(fn) -> float:
    gc.collect()
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--players", type=int, default=PLAYERS,
                        help="the tournament's players (tables of four)")
    args = parser.parse_args()
    rounds, players = args.rounds, args.players
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": f"{tmp}/bench.sqlite", "SECRET_KEY": "bench",
                          "TESTING": True, "PDF_CACHE_DIR": f"{tmp}/sheets",
                          "RATELIMIT_ENABLED": False})
        client = app.test_client()
        made = client.post("/api/tournaments", json={
            "name": "Turniej ♥ w Łodzi", "players": [f"Gracz {i}" for i in range(players)],
            "rounds": 3, "rulesets": {"4": "standard-4"}, "seed": "bench"}).get_json()
        tid, auth = made["id"], {"Authorization": f"Bearer {made['token']}"}
        url = f"/tournaments/{tid}/rounds/1/sheet.pdf"
        bare = bare_pages(len(made["round"]["tables"]), players)

        def sheet():
            pdf.cache.clear()
            assert client.get(url, headers=auth).status_code == 200

        def results():
            pdf.cache.clear()
            assert client.get(f"/tournaments/{tid}/results.pdf").status_code == 200

        sheet()  # fonts and stylesheet parsed once, as in a running server
        ratios, cached, result_ratios, seconds = [], [], [], []
        for _ in range(rounds):
            base = timed(lambda: HTML(string=bare).write_pdf())
            first = timed(sheet)
            again = timed(lambda: client.get(url, headers=auth))
            res = timed(results)
            ratios.append(first / base)
            cached.append(again / first)
            result_ratios.append(res / base)
            seconds.append((base, first, res))
        base, first, res = (statistics.median(s[i] for s in seconds) for i in range(3))
        print(f"baseline {base:.2f} s · sheet {first:.2f} s · results {res:.2f} s "
              f"(medians of {rounds})")
        print(f"sheet / baseline   {statistics.median(ratios):.2f}  (target <= 1.5)")
        print(f"cached / sheet     {statistics.median(cached):.3f} (target <= 0.05)")
        print(f"results / baseline {statistics.median(result_ratios):.2f}")


if __name__ == "__main__":
    main()
