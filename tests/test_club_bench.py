"""``bench/club.py`` at its smallest (3 tables, 2 s, the director printing; then with a
save every 0.5 s and a round change): it runs against the real server and
prints every line a director's host reads, with no error. Its figures are not asserted
(timing belongs in bench/); that every phone and projector was told is (an untold save is
an error). Linux only: the bench reads the server's memory and times from /proc."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(),
                                reason="the bench reads /proc")


def test_a_small_club_night_prints_its_figures_and_no_error():
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "club.py"), "--tables", "3", "--max-tables",
         "3", "--seconds", "2", "--warmup", "1", "--print"],
        capture_output=True, text=True, timeout=120, cwd=ROOT, check=True).stdout
    for start in ("# machine:", "tables 3: 12 phones, 3 projectors", "saves:",
                  "save → every phone of the table told: p50",
                  "save → every projector updated: p50", "page: phones' p95", "memory:",
                  "processor:", "cost:"):
        assert any(line.startswith(start) for line in out.splitlines()), (start, out)
    assert "print (--print): round sheet 200 in" in out and ", results 200 in" in out, out
    assert "errors: 0\n" in out, out
    assert "saves: 0.0/s" not in out, out  # the tables did save


def test_a_round_change_moves_every_phone_to_its_new_table_and_says_so():
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "club.py"), "--tables", "3", "--max-tables",
         "3", "--seconds", "2", "--warmup", "1", "--interval", "0.5", "--round-change",
         "--follow-within", "2", "--print"],
        capture_output=True, text=True, timeout=180, cwd=ROOT, check=True).stdout
    assert "(6.0/s offered, one a table every 0.5 s)" in out, out
    # round 1 ended with the run, round 2 was drawn, and all twelve phones followed
    assert "round 2 drawn by the director's API in " in out and "(201, 3 tables)" in out, out
    assert "12 of 12 phones told, within " in out, out
    assert "12 of 12 phones at their new table (taps spread over 2 s)" in out, out
    # each phone waited a random part of the spread its round event said (3 tables: 1 s)
    assert "their fetches spread over 1 s;" in out, out
    assert any(line.startswith("round change pages: phones' p95 ") for line in
               out.splitlines()), out
    assert "pages while printing (" in out, out
    assert "errors: 0\n" in out, out
    assert any(line.startswith("memory: ") and " KiB a stream " in line
               for line in out.splitlines()), out


def test_two_server_processes_move_every_phone_at_a_round_change():
    """The same round change on ``--workers 2``: a phone following a finished table on the
    process that did not draw the round hears it from the database."""
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "club.py"), "--tables", "3", "--max-tables",
         "3", "--seconds", "2", "--warmup", "1", "--interval", "0.5", "--round-change",
         "--follow-within", "2", "--workers", "2"],
        capture_output=True, text=True, timeout=180, cwd=ROOT, check=True).stdout
    assert "12 of 12 phones told, within " in out, out
    assert "12 of 12 phones at their new table" in out, out
    assert "errors: 0\n" in out, out
