"""Every bench in ``bench/`` runs at a tiny size and prints its figures, so that a change
that breaks one is seen here (``bench/club.py``: tests/test_club_bench.py; ``bench/taps.py``
drives a browser: its own test). Nothing is asserted of the figures themselves: speed is
measured by the benches, at their real sizes, never by a test."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"

NUMBER = r"-?\d[\d,]*(?:\.\d+)?"

#: Each bench: its tiny arguments, and the lines it must print (regular expressions, each
#: matched by a line of its output, in this order).
BENCHES = {
    "draw.py": (["--seeds", "1", "--rounds", "2", "12"], [
        r"^tables of \[3, 4, 5\], 2 rounds, 1 seeds$",
        (rf"^\s+12 players \(3 tables\): draw max\s+{NUMBER} ms, median\s+{NUMBER} ms; "
         r"pairs meeting again by round \(most over seeds\): \[\d+, \d+\]$")]),
    "load.py": (["--clients", "2", "--games", "1"], [
        rf"^requests: 50 in {NUMBER} s = {NUMBER} req/s \(2 clients x 1 standard-4 game",
        rf"^latency: p50 {NUMBER} ms, p95 {NUMBER} ms, max {NUMBER} ms$",
        r"^errors: 0 answers not 2xx/3xx, 0 exceptions$",
        rf"^by kind: create \(2\) p50 {NUMBER} ms.*; deal \(24\) .*; page \(24\) ",
        r"^events: 24 of 24 deals told to 1 watcher",
        r"^database: 2 games, 24 deals, integrity ok; server log: 0 tracebacks$"]),
    "next_round.py": (["--tables", "2", "--cache", "{tmp}"], [
        rf"^made 2 finished tables in {NUMBER} s",
        (rf"^2 tables, 8 next-round answers .*: draw {NUMBER} ms; first answer {NUMBER} ms; "
         rf"all {NUMBER} s, mean {NUMBER} ms, p95 {NUMBER} ms, max {NUMBER} ms; wrong 0$"),
        rf"^  a game's first answer mean {NUMBER} ms"]),
    "pdf_bench.py": (["--rounds", "1"], [
        rf"^baseline \(bare one-page table\):\s+{NUMBER} ms$",
        rf"^sheet, first render:\s+{NUMBER} ms$",
        rf"^sheet, cached repeat:\s+{NUMBER} ms$",
        rf"^sheet / baseline = {NUMBER}  \(target <= 1.5; median of 1 rounds\)$",
        rf"^cached / first   = {NUMBER} \(target <= 0.05\)$"]),
    "people.py": (["--games", "12", "--small", "10", "--repeat", "1"], [
        r"^10 finished games, \d+ people: seeded in",
        r"^12 finished games, \d+ people: seeded in",
        r"^page\s+10 games\s+12 games\s+x game page\s+x same page at 10$",
        *(rf"^{re.escape(page)}\s+{NUMBER} ms\s+{NUMBER} ms\s+{NUMBER}\s+{NUMBER}$"
          for page in ("game page", "player page", "players page", "/api/players",
                       "table page", "evening page", "tournament", "season page",
                       "season API", "season player")),
        r"^at 12 games, the least of 3: the write that finishes a rated game",
        r"^growth, nothing kept: each page at 12 games over the same page at 10",
        rf"^game page\s+{NUMBER}x\s+(ok|ABOVE)$"]),
    "round_sheet.py": (["--rounds", "1", "--players", "16"], [
        rf"^baseline {NUMBER} s · sheet {NUMBER} s · results {NUMBER} s \(medians of 1\)$",
        rf"^sheet / baseline\s+{NUMBER}  \(target <= 1.5\)$",
        rf"^cached / sheet\s+{NUMBER} \(target <= 0.05\)$",
        rf"^results / baseline {NUMBER}$"]),
    "server.py": (["--rounds", "1", "--seconds", "0.2", "--clients", "2",
                   "--python-client"], [
        r"^# client: python \(PUTs: python\), 2 connections, 0.2 s per page per round",
        *(rf"^{page}: {NUMBER} of hello-world \(rounds {NUMBER}; median of 1; last "
          rf"{NUMBER} vs {NUMBER} req/s; 0 errors"
          for page in ("game-page", "fresh-game-page", "api-read", "front-page",
                       "game-page-304", "deal-put", "deal-put-normal")),
        rf"^latency game-page at  1 client\(s\): p50\s+{NUMBER}  p95\s+{NUMBER}$",
        rf"^latency game-page at 50 client\(s\): p50\s+{NUMBER}  p95\s+{NUMBER}$",
        r"^p95-growth: game-page x"]),
}

#: Benches whose exit status says whether a target was met (1: missed), which at a tiny
#: size says nothing: for them a run that printed every figure and no traceback counts.
VERDICTS = {"people.py"}


def test_every_bench_has_its_tiny_run():
    """A new bench cannot be left out: each script is run here or by its own test."""
    own_tests = {"club.py", "taps.py"}
    assert {p.name for p in BENCH.glob("*.py")} == set(BENCHES) | own_tests


@pytest.mark.parametrize("name", sorted(BENCHES))
def test_a_bench_at_a_tiny_size_prints_its_figures(name, tmp_path):
    arguments, wanted = BENCHES[name]
    run = subprocess.run(
        [sys.executable, str(BENCH / name), *(a.format(tmp=tmp_path) for a in arguments)],
        capture_output=True, text=True, timeout=180, cwd=tmp_path, check=False)
    assert "Traceback" not in run.stderr, run.stderr
    assert run.returncode in ((0, 1) if name in VERDICTS else (0,)), run.stderr
    lines = run.stdout.splitlines()
    at = 0
    for pattern in wanted:
        found = next((i for i in range(at, len(lines)) if re.search(pattern, lines[i])), None)
        assert found is not None, (pattern, run.stdout)
        at = found + 1
