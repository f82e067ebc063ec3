"""PDF score sheets and the blank sheet: text, one page, cache, file names.

Each test's app keeps its PDF cache in its own folder (tests/conftest.py); the cache
itself is tested in test_pdf_cache.py."""
import os
import shutil
import subprocess

import pytest
from werkzeug.http import generate_etag as digest

from scorekeeper.families.kierki.rules import get_ruleset
from scorekeeper.outputs import pdf
from tests.fixtures import new_game, post_deal, results_for, state

POPPLER = shutil.which("pdftotext") and shutil.which("pdfinfo")


@pytest.fixture
def poppler():
    if not POPPLER:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("pdftotext/pdfinfo missing under CI (apt-get install poppler-utils)")
        pytest.skip("poppler-utils not installed")


def pdf_text(data: bytes, tmp_path) -> str:
    path = tmp_path / "sheet.pdf"
    path.write_bytes(data)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True,
                          capture_output=True, text=True).stdout


def pages(data: bytes, tmp_path) -> int:
    path = tmp_path / "p.pdf"
    path.write_bytes(data)
    info = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True, text=True)
    return int(next(line.split()[1] for line in info.stdout.splitlines()
                    if line.startswith("Pages:")))


def play(app, client, ruleset, players, upto=None):
    gid = new_game(client, ruleset, players)
    for number, raw in enumerate(results_for(get_ruleset(ruleset))[:upto], start=1):
        post_deal(client, gid, number, state(app, gid).version, raw)
    return gid


def test_finished_four_player_sheet(app, client, tmp_path, poppler):
    players = ["Ala", "Bożena", "Czesław", "Żaneta"]
    gid = play(app, client, "standard-4", players)
    r = client.get(f"/games/{gid}/sheet.pdf")
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    assert "kierki-Ala-Bozena-Czeslaw-Zaneta-" in r.headers["Content-Disposition"]
    assert "filename*=UTF-8''kierki-Ala-Bo%C5%BCena" in r.headers["Content-Disposition"]
    text = pdf_text(r.data, tmp_path)
    for word in players + ["No tricks", "No hearts", "No queens", "No kings and jacks",
                           "No king of hearts", "No 7th and last trick", "Robber", "Trumps",
                           "Loteryjka", "Bożena wins!", "Final sum 0, as these rules say it must be ✓"]:
        assert word in text, word
    totals = state(app, gid).state.totals
    total_line = next(line for line in text.splitlines() if line.strip().startswith("Total"))
    shown = [int(t.replace("−", "-").replace("+", "")) for t in total_line.split()[1:5]]
    assert shown == totals
    assert "K♥ Ala" in text and "♠" in text  # the deal's detail at a glance
    assert pages(r.data, tmp_path) == 1


def test_unfinished_three_player_sheet_in_polish(app, client, tmp_path, poppler):
    gid = play(app, client, "standard-3", ["Ola", "Piotr", "Rysiek"], upto=7)
    r = client.get(f"/games/{gid}/sheet.pdf", headers={"Accept-Language": "pl"})
    text = pdf_text(r.data, tmp_path)
    assert "NIEDOKOŃCZONA: 7 Z 11 ROZDAŃ" in text.upper()
    for word in ["Ola", "Piotr", "Rysiek", "Bez lew", "Rozbójnik", "Rozgrywka atutowa", "Loteryjka"]:
        assert word in text
    assert pages(r.data, tmp_path) == 1


@pytest.mark.parametrize("ruleset_id", ["standard-4", "standard-3", "kurnik-3", "seed001-4"])
def test_blank_sheet_has_every_deal(client, tmp_path, poppler, ruleset_id):
    r = client.get(f"/rules/{ruleset_id}/blank.pdf")
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    text = pdf_text(r.data, tmp_path)
    rs = get_ruleset(ruleset_id)
    rows = [line for line in text.splitlines() if line.strip()[:2].strip().isdigit()]
    assert len(rows) >= len(rs.schedule)
    from scorekeeper.families.kierki.words import CONTRACT_NAMES
    for key in rs.schedule:
        assert CONTRACT_NAMES[key].message in text  # the English name
    assert str(rs.contract(rs.schedule[0]).expected_sum).replace("-", "−") in text
    assert pages(r.data, tmp_path) == 1


def test_pdf_is_cached_per_version_with_etag(app, client, monkeypatch):
    gid = play(app, client, "standard-4", ["A", "B", "C", "D"], upto=2)
    calls = []
    real = pdf.render
    monkeypatch.setattr(pdf, "render", lambda *a, **k: calls.append(1) or real(*a, **k))
    first = client.get(f"/games/{gid}/sheet.pdf")
    again = client.get(f"/games/{gid}/sheet.pdf")
    assert len(calls) == 1 and first.data == again.data
    etag = first.headers["ETag"]
    assert etag.strip('"') == digest(first.data)  # from the body: one ETag per body
    assert client.get(f"/games/{gid}/sheet.pdf",
                      headers={"If-None-Match": etag}).status_code == 304
    post_deal(client, gid, 3, state(app, gid).version, {"queens": [4, 0, 0, 0]})
    changed = client.get(f"/games/{gid}/sheet.pdf", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag and len(calls) == 2


def test_sheet_buttons_on_the_game_page(client):
    gid = new_game(client)
    page = client.get(f"/games/{gid}").text
    for href in (f"/games/{gid}/sheet.pdf", f"/games/{gid}/sheet", f"/games/{gid}/export.csv",
                 f"/games/{gid}/export.json"):
        assert f'href="{href}"' in page
    assert client.get(f"/games/{gid}/sheet").status_code == 200
    assert client.get("/games/nope/sheet.pdf").status_code == 404
    assert client.get("/rules/nope/blank.pdf").status_code == 404
