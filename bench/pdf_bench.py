"""Benchmark: the 12-deal PDF score sheet against WeasyPrint's bare one-page table.

Run (with the package installed, e.g. in .venv):  python bench/pdf_bench.py [--rounds N]

All three are timed in the same run on the same machine, so the ratios mean
something where absolute seconds do not:
  baseline  WeasyPrint rendering a plain one-page HTML table of the same size
  sheet     the app's finished 12-deal sheet, first render (cache cleared)
  cached    the same sheet requested again (served from the cache's file)
Baseline and sheet alternate within each round, so a busy neighbour on a shared machine
slows both alike; the ratio printed is the median of the per-round ratios.
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
from scorekeeper.domain import service
from scorekeeper.families.kierki.rules import get_ruleset
from scorekeeper.families.kierki.rules.examples import plausible_results
from scorekeeper.outputs import pdf
from scorekeeper.web.db import get_db


def bare_table() -> str:
    rows = "".join(
        f"<tr><td>{n}</td><td>Deal name {n}</td><td>Dealer</td>"
        + "".join(f"<td>{-20 * n}<br>{-200 * n}</td>" for _ in range(4)) + "<td>ok</td></tr>"
        for n in range(1, 13))
    return ("<html><head><style>@page{size:A4;margin:12mm} table{width:100%;"
            "border-collapse:collapse} td{border:1px solid #999;padding:4px}</style></head>"
            f"<body><h1>Score sheet</h1><table>{rows}</table></body></html>")


def timed(fn) -> float:
    gc.collect()  # each call starts from the same clean heap
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def median_time(fn, rounds: int) -> float:
    return statistics.median(timed(fn) for _ in range(rounds))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    rounds = parser.parse_args().rounds
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": f"{tmp}/bench.sqlite", "SECRET_KEY": "bench",
                          "TESTING": True, "PDF_CACHE_DIR": f"{tmp}/sheets"})
        with app.app_context():
            db = get_db()
            gid = service.create_game(db, "standard-4", ["Ala", "Bożena", "Czesław", "Żaneta"], 0)
            for number, raw in enumerate(plausible_results(get_ruleset("standard-4")), start=1):
                service.enter_deal(db, service.load(db, gid), number, raw, number)
        client = app.test_client()
        url = f"/games/{gid}/sheet.pdf"
        html = bare_table()
        HTML(string=html).write_pdf()  # warm up fonts and imports for both
        client.get(url)

        def first_render():
            pdf.cache.clear()
            assert client.get(url).status_code == 200

        baselines, sheets = [], []
        for _ in range(rounds):  # alternating, so both see the same machine
            baselines.append(timed(lambda: HTML(string=html).write_pdf()))
            sheets.append(timed(first_render))
        baseline, sheet = statistics.median(baselines), statistics.median(sheets)
        ratio = statistics.median(s / b for s, b in zip(sheets, baselines))
        client.get(url)
        cached = median_time(lambda: client.get(url), rounds * 5)

    print(f"baseline (bare one-page table): {baseline * 1000:8.1f} ms")
    print(f"sheet, first render:            {sheet * 1000:8.1f} ms")
    print(f"sheet, cached repeat:           {cached * 1000:8.1f} ms")
    print(f"sheet / baseline = {ratio:.2f}  (target <= 1.5; median of {rounds} rounds)")
    print(f"cached / first   = {cached / sheet:.3f} (target <= 0.05)")


if __name__ == "__main__":
    main()
