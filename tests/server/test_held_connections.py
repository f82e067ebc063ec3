"""Strangers holding connections cannot stop the pages (issue 26): against a real
``kierki serve``, 1,000 sockets that each send a request line and one header and never
finish, plus 1,000 event streams (the stream budget lowered to 300: the 700 past it are
answered 503 with ``Retry-After``), and a page still answers. A request whose headers are
trickled a line at a time is closed once ``--channel-timeout`` is over.

Nothing is timed: every answer is waited for with a generous timeout (the page's 10 s),
and the page's time is printed."""
import json
import select
import socket
import time

import pytest

from scorekeeper import cli
from tests.server.serving import request, start_server

IDLE = 1000
STREAMS = 1000
CAP = 300  # the stream budget in this test (1,500 by default)
PATIENCE = 30.0  # seconds any answer is waited for: a starved server fails


def _room_for(sockets: int) -> None:
    """This process opens some 2,000 sockets: raise its open-files limit as the server
    does at start (many systems allow 1024)."""
    import resource

    cli.raise_file_limit(sockets)
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert soft == resource.RLIM_INFINITY or soft >= sockets + 64, \
        f"the open-files limit ({soft}) is too low for this test; raise the hard limit"


def _head(sock: socket.socket) -> tuple[int, dict[str, str]]:
    """An answer's status and headers, read byte by byte (the body is left unread)."""
    raw = b""
    while not raw.endswith(b"\r\n\r\n"):
        byte = sock.recv(1)
        if not byte:
            raise EOFError(f"closed after {raw!r}")
        raw += byte
    lines = raw.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        if line:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers


def _until(sock: socket.socket, mark: bytes) -> None:
    seen = b""
    while mark not in seen:
        chunk = sock.recv(4096)
        if not chunk:
            raise EOFError(f"closed before {mark!r}: {seen!r}")
        seen += chunk


def _new_game(port: int) -> dict:
    status, _, body = request(port, "POST", "/api/games", {
        "ruleset": "standard-4", "players": ["A", "B", "C", "D"], "first_dealer": 0})
    assert status == 201
    return json.loads(body)


def _closed(sock: socket.socket) -> bool:
    """The server has closed the connection (what it sent before is read and dropped)."""
    try:
        while chunk := sock.recv(65536):
            del chunk
    except ConnectionResetError:
        pass
    return True


def test_a_page_answers_while_strangers_hold_sockets_and_streams(tmp_path):
    _room_for(IDLE + STREAMS)
    proc, port = start_server(tmp_path / "instance", tmp_path / "server.log",
                              "--stream-limit", str(CAP))
    held: list[socket.socket] = []
    try:
        game = _new_game(port)
        gid = game["id"]
        for _ in range(IDLE):  # a request line and one header, never the blank line
            s = socket.create_connection(("127.0.0.1", port), timeout=PATIENCE)
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            held.append(s)
        streams = []
        for _ in range(STREAMS):
            s = socket.create_connection(("127.0.0.1", port), timeout=PATIENCE)
            s.sendall(f"GET /games/{gid}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      f"Accept: text/event-stream\r\n\r\n".encode())
            streams.append(s)
            held.append(s)
        answers = [_head(s) for s in streams]
        statuses = [status for status, _ in answers]
        assert statuses.count(200) == CAP and statuses.count(503) == STREAMS - CAP
        refused = [headers for status, headers in answers if status == 503]
        assert all(int(h["retry-after"]) > 0 for h in refused)
        assert all(h["content-type"].startswith("text/plain") for h in refused)
        open_streams = [s for s, (status, _) in zip(streams, answers) if status == 200]
        for s in open_streams:  # each is live: its first event comes
            _until(s, b"event: version\n")

        started = time.monotonic()
        status, _, body = request(port, "GET", "/", timeout=10)
        took = time.monotonic() - started
        print(f"\nGET / with {IDLE} unfinished requests and {STREAMS} streams held "
              f"({CAP} open, {STREAMS - CAP} refused 503): {status} in {took * 1000:.0f} ms")
        assert status == 200 and b"<html" in body
        status, _, _ = request(port, "GET", f"/games/{gid}", timeout=10)
        assert status == 200
        status, _, _ = request(port, "PUT", f"/api/games/{gid}/deals/1",
                               {"version": 1, "result": {"tricks": [13, 0, 0, 0]}},
                               token=game["token"], timeout=10)
        assert status == 200  # a table still saves its deal
    finally:
        for s in held:
            s.close()
        proc.terminate()
        proc.wait(10)


@pytest.fixture(scope="module")
def strict(tmp_path_factory):
    """A server with a 2-second channel timeout, known by an https address."""
    folder = tmp_path_factory.mktemp("deadline")
    proc, port = start_server(folder / "instance", folder / "server.log",
                              "--channel-timeout", "2",
                              env={"KIERKI_PUBLIC_URL": "https://127.0.0.1"})
    yield port
    proc.terminate()
    proc.wait(10)


def _trickle(port: int, head: bytes, drip: bytes) -> tuple[int, bytes]:
    """Send ``head``, then ``drip`` every 0.5 s for up to 30 s (fifteen times the
    timeout) until the server answers or closes: how many drips went, and the answer
    (b"" if none came)."""
    with socket.create_connection(("127.0.0.1", port), timeout=PATIENCE) as s:
        s.sendall(head)
        for sent in range(60):
            if select.select([s], [], [], 0.5)[0]:
                try:
                    answer = s.recv(65536)
                except ConnectionResetError:
                    return sent, b""
                assert _closed(s)
                return sent, answer
            try:
                s.sendall(drip)
            except OSError:  # closed without an answer
                return sent, b""
    return 60, b""


def test_headers_trickled_a_line_at_a_time_are_cut_off(strict):
    sent, answer = _trickle(strict, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n",
                            b"X-Slow: one more line\r\n")
    print(f"\nheader lines trickled before the server closed: {sent}")
    assert sent < 60 and answer == b""  # closed at the timeout, not held for ever


@pytest.mark.parametrize("head, status", [
    (b"NONSENSE\r\n\r\n", 400),
    (b"GET /" + b"a" * 10_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
])
def test_an_https_servers_own_answers_keep_to_https(strict, head, status):
    """Known by an https address (``KIERKI_PUBLIC_URL``), the server's own 400 and 414
    carry ``Strict-Transport-Security`` as the app's pages do."""
    with socket.create_connection(("127.0.0.1", strict), timeout=PATIENCE) as s:
        s.sendall(head)
        got, headers = _head(s)
    assert got == status
    assert headers["strict-transport-security"] == "max-age=31536000"
