"""No stranger can stall the server with a PDF (issue 32, item 6): a real ``kierki serve``
renders a big tournament's PDFs in its worker process while it goes on answering
``/healthz`` and a game page; two requests of one version share one render; and past the
queue one more render is refused 503 with ``Retry-After`` in the asker's language."""
import json
import re
import threading
import time

import pytest

from tests.server.serving import request, start_server

#: A club's big night: its results and round sheet take seconds of a core to render.
PLAYERS = [f"Gracz {i:04d}" for i in range(1, 601)]


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    """One server (one worker, room for one more render waiting) and a 600-player
    tournament, made through the API as a club's program makes it."""
    tmp = tmp_path_factory.mktemp("pdf-workers")
    log = tmp / "server.log"
    proc, port = start_server(tmp / "instance", log,
                              env={"KIERKI_PDF_WORKERS": "1", "KIERKI_PDF_QUEUE": "1"})
    try:
        status, _, body = request(port, "POST", "/api/tournaments", body={
            "name": "Klub", "players": PLAYERS, "rounds": 3,
            "rulesets": {"4": "standard-4"}, "seed": "pdf"}, timeout=120)
        assert status == 201, body
        made = json.loads(body)
        yield port, made, log
    finally:
        proc.terminate()
        proc.wait(10)


class Asked(threading.Thread):
    """One request on a thread of its own; ``done`` is when its answer was read."""

    def __init__(self, port, url, headers=None):
        super().__init__(daemon=True)
        self.port, self.url, self.headers = port, url, headers or {}
        self.done = None
        self.answer = None

    def run(self):
        import http.client
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        try:
            conn.request("GET", self.url, headers=self.headers)
            r = conn.getresponse()
            self.answer = (r.status, dict(r.getheaders()), r.read())
        finally:
            conn.close()
            self.done = time.monotonic()


def renders(log, what):
    return len(re.findall(rf"PDF rendered in .* a worker\): {what}",
                          log.read_text(errors="replace")))


def director(made):
    return {"Authorization": f"Bearer {made['token']}"}


def test_the_server_answers_while_a_big_pdf_renders(club):
    port, made, log = club
    game = made["round"]["tables"][0]["game"]
    results = Asked(port, f"/tournaments/{made['id']}/results.pdf")
    results.start()
    time.sleep(1.0)  # the request is in: its HTML made, the worker rendering
    answered = []
    for _ in range(3):
        for url in ("/healthz", f"/games/{game}"):
            asked = Asked(port, url)
            asked.run()  # here, one after the other
            assert asked.answer[0] == 200, url
            answered.append(asked.done)
    assert results.done is None  # all six answered while the PDF was still rendering
    results.join(120)
    status, headers, body = results.answer
    assert status == 200 and body.startswith(b"%PDF-") and headers["Content-Type"] == \
        "application/pdf"
    assert max(answered) < results.done
    assert renders(log, "results") == 1


def test_two_requests_of_one_version_share_one_render(club):
    port, made, log = club
    url = f"/tournaments/{made['id']}/rounds/1/sheet.pdf"
    before = renders(log, "round")
    first, second = Asked(port, url, director(made)), Asked(port, url, director(made))
    first.start()
    time.sleep(0.3)
    second.start()
    first.join(120), second.join(120)
    assert first.answer[0] == second.answer[0] == 200
    assert first.answer[2] == second.answer[2] and first.answer[2].startswith(b"%PDF-")
    assert renders(log, "round") == before + 1
    again = Asked(port, url, director(made))
    again.run()  # the kept file
    assert again.answer[2] == first.answer[2] and renders(log, "round") == before + 1


def test_past_the_queue_one_more_render_is_refused_503_in_the_askers_language(club):
    """One worker and a queue of one: two renders in flight, a third is refused at once
    (and a request for a render already in flight is never refused)."""
    port, made, log = club
    polish = {"Accept-Language": "pl"}
    running = Asked(port, f"/tournaments/{made['id']}/results.pdf", polish)
    waiting = Asked(port, f"/tournaments/{made['id']}/rounds/1/sheet.pdf",
                    {**director(made), **polish})
    running.start()
    time.sleep(1.0)
    waiting.start()
    time.sleep(1.0)
    game = made["round"]["tables"][1]["game"]
    refused = Asked(port, f"/games/{game}/sheet.pdf", polish)
    refused.run()
    shared = Asked(port, f"/tournaments/{made['id']}/results.pdf", polish)
    shared.start()  # the same render as the first: it waits for it
    assert running.done is None and waiting.done is None  # both still in flight
    status, headers, body = refused.answer
    assert status == 503
    assert int(headers["Retry-After"]) >= 1
    assert "Właśnie drukuje się wiele arkuszy" in body.decode()
    for asked in (running, waiting, shared):
        asked.join(120)
        assert asked.answer[0] == 200 and asked.answer[2].startswith(b"%PDF-")
    assert shared.answer[2] == running.answer[2]
    english = Asked(port, f"/games/{game}/sheet.pdf")  # the queue moved: rendered now
    english.run()
    assert english.answer[0] == 200
    assert "PDF queue full" in log.read_text(errors="replace")
