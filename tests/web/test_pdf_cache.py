"""The PDF cache is files under the instance folder: shared by every worker process and
kept across restarts, keyed by game, version, language and layout, bounded in size, never
serving a partial file; one ETag per distinct body."""
import os
import threading
from pathlib import Path

import pytest
from werkzeug.http import generate_etag as digest

from scorekeeper import create_app
from scorekeeper.families.kierki.rules import get_ruleset
from scorekeeper.outputs import pdf
from tests.fixtures import new_game, post_deal, results_for, state


def make_app(instance: Path, **config):
    """An app on this instance folder's database and sheets, as each worker has one."""
    instance.mkdir(parents=True, exist_ok=True)
    return create_app({"DATABASE": str(instance / "kierki.sqlite"), "SECRET_KEY": "test",
                       "TESTING": True, "WTF_CSRF_ENABLED": False,
                       "PDF_CACHE_DIR": str(instance / "sheets"), **config})


@pytest.fixture
def instance(tmp_path):
    return tmp_path / "instance"


@pytest.fixture
def app(instance):
    return make_app(instance)


@pytest.fixture
def renders(monkeypatch):
    """Counts WeasyPrint renders in this process."""
    calls = []
    real = pdf.render
    monkeypatch.setattr(pdf, "render", lambda *a, **k: calls.append(1) or real(*a, **k))
    return calls


def sheets(instance: Path) -> list[Path]:
    return sorted((instance / "sheets").glob("*.pdf"))


def play(app, client, deals=2):
    gid = new_game(client)
    for number, raw in enumerate(results_for(get_ruleset("standard-4"))[:deals], start=1):
        post_deal(client, gid, number, state(app, gid).version, raw)
    return gid


def test_another_worker_serves_the_file_without_rendering(app, client, instance, renders):
    gid = play(app, client)
    first = client.get(f"/games/{gid}/sheet.pdf")
    assert first.status_code == 200 and len(renders) == 1
    assert len(sheets(instance)) == 1
    other = make_app(instance).test_client()  # another worker, or the server restarted
    again = other.get(f"/games/{gid}/sheet.pdf")
    assert again.status_code == 200 and len(renders) == 1
    assert again.data == first.data and again.headers["ETag"] == first.headers["ETag"]
    assert again.headers["Cache-Control"] == "no-cache"
    assert again.headers["Content-Disposition"] == first.headers["Content-Disposition"]
    blank = client.get("/rules/standard-4/blank.pdf")
    assert blank.status_code == 200 and len(renders) == 2
    assert other.get("/rules/standard-4/blank.pdf").data == blank.data and len(renders) == 2


def test_a_new_deal_changes_the_key_and_the_body(app, client, instance, renders):
    gid = play(app, client)
    before = client.get(f"/games/{gid}/sheet.pdf")
    post_deal(client, gid, 3, state(app, gid).version, results_for(get_ruleset("standard-4"))[2])
    after = client.get(f"/games/{gid}/sheet.pdf")
    assert len(renders) == 2 and after.data != before.data
    assert after.headers["ETag"] != before.headers["ETag"]
    assert len(sheets(instance)) == 2  # the old version's file ages out under the bound


def test_the_language_is_part_of_the_key(app, client, instance, renders):
    gid = play(app, client)
    en = client.get(f"/games/{gid}/sheet.pdf", headers={"Accept-Language": "en"})
    pl = client.get(f"/games/{gid}/sheet.pdf", headers={"Accept-Language": "pl"})
    assert len(renders) == 2 and en.data != pl.data
    assert en.headers["ETag"] != pl.headers["ETag"]
    again = client.get(f"/games/{gid}/sheet.pdf", headers={"Accept-Language": "pl"})
    assert again.data == pl.data and len(renders) == 2
    assert len(sheets(instance)) == 2


def test_the_layout_version_is_part_of_the_key(app, client, instance, renders, monkeypatch):
    from scorekeeper.web.views import files
    gid = play(app, client)
    client.get(f"/games/{gid}/sheet.pdf")
    monkeypatch.setattr(files, "layout_version", lambda *parts: "9.9.9+newtemplates")
    client.get(f"/games/{gid}/sheet.pdf")
    assert len(renders) == 2
    assert any("9.9.9" in p.name for p in sheets(instance))


def test_etag_follows_the_body_and_a_match_answers_304_without_rendering(
        app, client, renders):
    gid = play(app, client)
    first = client.get(f"/games/{gid}/sheet.pdf")
    etag = first.headers["ETag"]
    assert etag.strip('"') == digest(first.data)
    not_modified = client.get(f"/games/{gid}/sheet.pdf", headers={"If-None-Match": etag})
    assert not_modified.status_code == 304 and not not_modified.data
    assert not_modified.headers["ETag"] == etag and len(renders) == 1
    assert not_modified.headers["Cache-Control"] == "no-cache"
    stale = client.get(f"/games/{gid}/sheet.pdf", headers={"If-None-Match": '"pdf-old"'})
    assert stale.status_code == 200 and stale.data == first.data and len(renders) == 1
    blank = client.get("/rules/standard-4/blank.pdf")
    assert blank.headers["ETag"] != etag
    assert client.get("/rules/standard-4/blank.pdf", headers={
        "If-None-Match": blank.headers["ETag"]}).status_code == 304
    assert len(renders) == 2


@pytest.mark.parametrize("damage", [
    lambda body: body[: len(body) // 2],  # cut short
    lambda body: b"",  # empty
    lambda body: b"<html>not a pdf</html>",
])
def test_a_partial_or_corrupted_file_is_not_served(app, client, instance, renders, damage):
    gid = play(app, client)
    good = client.get(f"/games/{gid}/sheet.pdf").data
    path, = sheets(instance)
    path.write_bytes(damage(good))
    again = client.get(f"/games/{gid}/sheet.pdf")
    assert again.status_code == 200 and again.data == good and len(renders) == 2
    assert path.read_bytes() == good  # rendered again and put back whole


def test_the_size_bound_evicts_the_least_recently_served(tmp_path):
    cache = pdf.SheetCache(tmp_path / "sheets", max_bytes=2500)
    body = b"%PDF-1.7\n" + b"x" * 1000 + b"\n%%EOF\n"
    cache.put(body, "game", "a", "v1")
    cache.put(body, "game", "b", "v1")
    old = cache.path("game", "a", "v1")
    os.utime(old, (1, 1))
    os.utime(cache.path("game", "b", "v1"), (2, 2))
    assert cache.get("game", "a", "v1") == body  # a hit makes it the most recent
    cache.put(body, "game", "c", "v1")  # three files do not fit in 2500 bytes
    assert cache.get("game", "b", "v1") is None
    assert cache.get("game", "a", "v1") == body and cache.get("game", "c", "v1") == body
    assert sum(p.stat().st_size for p in (tmp_path / "sheets").glob("*.pdf")) <= 2500


def test_the_bound_comes_from_the_config(instance, renders):
    app = make_app(instance, PDF_CACHE_BYTES=1)  # smaller than any sheet: nothing is kept
    client = app.test_client()
    gid = new_game(client)
    client.get(f"/games/{gid}/sheet.pdf")
    client.get(f"/games/{gid}/sheet.pdf")
    assert len(renders) == 2 and sheets(instance) == []


def test_writes_are_atomic_and_leave_no_temporary_files(tmp_path, monkeypatch):
    cache = pdf.SheetCache(tmp_path, max_bytes=10**6)
    body = b"%PDF-1.7\nwhole\n%%EOF\n"
    cache.put(body, "k")

    def fail(src, dst):
        raise OSError("disk full")
    monkeypatch.setattr(pdf.os, "replace", fail)
    with pytest.raises(OSError):
        cache.put(b"%PDF-1.7\nnew\n%%EOF\n", "k")
    assert cache.get("k") == body  # the old file is whole, the failed write left nothing
    assert [p.name for p in tmp_path.iterdir()] == [cache.path("k").name]


def test_two_processes_writing_the_same_sheet_at_once(tmp_path):
    """Many writers of one key (threads stand in for processes: the file system is the
    same): every reader sees a whole file, and no temporary file is left."""
    cache = pdf.SheetCache(tmp_path, max_bytes=10**6)
    bodies = [b"%PDF-1.7\n" + bytes([65 + i]) * 50_000 + b"\n%%EOF\n" for i in range(4)]
    seen = []

    def write(body):
        for _ in range(20):
            cache.put(body, "game", "g", "v1")
            seen.append(cache.get("game", "g", "v1"))
    threads = [threading.Thread(target=write, args=(b,)) for b in bodies]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(s in bodies for s in seen)
    assert [p.name for p in tmp_path.iterdir()] == [cache.path("game", "g", "v1").name]


def test_a_deleted_game_is_not_served_from_the_cache(app, client, instance, renders):
    gid = play(app, client)
    assert client.get(f"/games/{gid}/sheet.pdf").status_code == 200
    version = state(app, gid).version
    r = client.post(f"/games/{gid}/delete", data={"version": version})
    assert r.status_code in (302, 303)
    assert len(sheets(instance)) == 1  # still on disk, aging out under the bound
    assert client.get(f"/games/{gid}/sheet.pdf").status_code == 404
    assert make_app(instance).test_client().get(f"/games/{gid}/sheet.pdf").status_code == 404
