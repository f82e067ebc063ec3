"""The PDF render queue (``outputs/renders.py``) without a server: a worker process renders
the same sheet as the app's own process would, concurrent requests of one key share one
render (and its failure), a full queue refuses at once, and the app answers that 503 with
``Retry-After`` in the user's language. ``tests/server/test_pdf_workers.py`` does it all
against a real ``kierki serve``."""
import threading
import time

import pytest

from scorekeeper import create_app
from scorekeeper.outputs import pdf, renders
from tests.web.test_pdf_cache import make_app, play


@pytest.fixture
def slow(monkeypatch):
    """In-process renders that take a moment and are counted."""
    calls = []

    def render(html, base_url, stylesheet=None):
        calls.append(html)
        time.sleep(0.3)
        if "broken" in html:
            raise RuntimeError("the render failed")
        return b"%PDF-1.7 " + html.encode() + b" %%EOF"

    monkeypatch.setattr(pdf, "render", render)
    return calls


def ask(queue, cache, key, html, out, workers=0, limit=8):
    try:
        out.append(queue.render(cache, key, lambda: renders.Job(html, "/"), workers, limit))
    except Exception as e:  # noqa: BLE001 - what the asker got
        out.append(e)


def test_a_worker_process_renders_the_same_sheet_as_the_app_would(tmp_path):
    here = make_app(tmp_path / "here")
    client = here.test_client()
    gid = play(here, client)
    expected = client.get(f"/games/{gid}/sheet.pdf")
    there = make_app(tmp_path / "here", PDF_WORKERS=1, PDF_CACHE_DIR=str(tmp_path / "other"))
    try:
        got = there.test_client().get(f"/games/{gid}/sheet.pdf")
    finally:
        renders.renders.shutdown()
    assert got.status_code == 200 and got.data == expected.data
    assert sorted(p.name for p in (tmp_path / "other").iterdir()) == \
        sorted(p.name for p in (tmp_path / "here" / "sheets").iterdir())  # no file left over


def test_the_workers_start_warm_with_the_sheets_files(app):
    """At the server's start each worker renders a tiny document with the sheets' style
    sheet (its fonts), so the first sheet comes as fast as the next."""
    static = app.static_folder.rstrip("/") + "/"
    queue = renders.Renders()
    try:
        warmed = queue.start(1, static, static + "sheet.css")
        assert len(warmed) == 1 and warmed[0].result(timeout=120) is True
    finally:
        queue.shutdown()
    assert renders.Renders().start(0, static) == []  # no workers: nothing to warm


def test_concurrent_requests_of_one_key_share_one_render(tmp_path, slow):
    queue, cache, out = renders.Renders(), pdf.SheetCache(tmp_path, 10**6), []
    askers = [threading.Thread(target=ask, args=(queue, cache, ("k", 1), "one", out))
              for _ in range(4)]
    for a in askers:
        a.start()
    for a in askers:
        a.join()
    assert slow == ["one"] and out == [b"%PDF-1.7 one %%EOF"] * 4
    assert queue.waiting() == 0
    assert queue.render(cache, ("k", 1), lambda: 1 / 0, 0, 0) == out[0]  # the kept file


def test_a_failed_render_fails_everyone_waiting_for_it_and_is_tried_again_later(
        tmp_path, slow):
    queue, cache, out = renders.Renders(), pdf.SheetCache(tmp_path, 10**6), []
    askers = [threading.Thread(target=ask, args=(queue, cache, ("k",), "broken", out))
              for _ in range(3)]
    for a in askers:
        a.start()
    for a in askers:
        a.join()
    assert len(slow) == 1 and all(isinstance(e, RuntimeError) for e in out)
    assert queue.waiting() == 0 and cache.get("k") is None
    ask(queue, cache, ("k",), "fixed", out)
    assert out[-1] == b"%PDF-1.7 fixed %%EOF"


def test_past_the_queue_a_new_render_is_refused_but_a_shared_one_is_not(tmp_path, slow):
    queue, cache = renders.Renders(), pdf.SheetCache(tmp_path, 10**6)
    first, shared, other = [], [], []
    running = threading.Thread(target=ask, args=(queue, cache, ("a",), "a", first, 0, 0))
    running.start()
    while queue.waiting() == 0:
        time.sleep(0.01)
    ask(queue, cache, ("b",), "b", other, 0, 0)  # one worker's worth in flight, no queue
    ask(queue, cache, ("a",), "a", shared, 0, 0)
    running.join()
    assert isinstance(other[0], renders.Full) and 1 <= other[0].retry_after <= 120
    assert first == shared == [b"%PDF-1.7 a %%EOF"] and slow == ["a"]
    ask(queue, cache, ("b",), "b", other, 0, 0)  # the queue moved on
    assert other[-1] == b"%PDF-1.7 b %%EOF"


def test_a_full_queue_is_answered_503_with_retry_after_in_the_users_language(
        app, client, monkeypatch):
    def full(*args, **kwargs):
        raise renders.Full(7)

    monkeypatch.setattr(renders.renders, "render", full)
    answer = client.get("/rules/standard-4/blank.pdf", headers={"Accept-Language": "pl"})
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "7"
    assert "Właśnie drukuje się wiele arkuszy" in answer.get_data(as_text=True)
    english = client.get("/rules/standard-4/blank.pdf", headers={"Accept-Language": "en"})
    assert "Many sheets are being printed just now" in english.get_data(as_text=True)


def test_the_settings_default_to_one_worker_and_refuse_a_negative_count(tmp_path,
                                                                        monkeypatch):
    monkeypatch.setenv("KIERKI_INSTANCE", str(tmp_path))
    monkeypatch.setenv("KIERKI_SECRET_KEY", "x")
    assert renders.settings(create_app().config) == (1, 8)  # as kierki serve makes it
    monkeypatch.setenv("KIERKI_PDF_WORKERS", "3")
    monkeypatch.setenv("KIERKI_PDF_QUEUE", "2")
    assert renders.settings(create_app().config) == (3, 2)
    assert renders.settings(make_app(tmp_path / "t").config) == (0, 8)  # tests: in process
    with pytest.raises(ValueError):
        make_app(tmp_path / "t", PDF_WORKERS=-1)
