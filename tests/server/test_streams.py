"""Many open live tables against ``kierki serve``: 60 phones keep a game's event stream
open (each a connection the server holds), and the pages and the API still answer at
once; a deal saved then reaches all 60 streams. Loopback only, bounded: 60 sockets, a
few dozen requests, a few seconds."""
import json
import socket
import time

from tests.server.serving import request, start_server

STREAMS = 60
QUICK = 1.0  # seconds: a request answered slower than this means the server is starved


class Stream:
    """One phone's EventSource, read line by line from a plain socket."""

    def __init__(self, port: int, gid: str):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.sock.sendall(f"GET /games/{gid}/events HTTP/1.1\r\nHost: phone\r\n"
                          f"Accept: text/event-stream\r\n\r\n".encode())
        self.lines = self.sock.makefile("rb")

    def status(self) -> int:
        return int(self.lines.readline().split()[1])

    def next_version(self) -> int:
        """The version of the next ``version`` event (chunk sizes and comments skipped)."""
        while line := self.lines.readline():
            if line.startswith(b"data: "):
                return json.loads(line[6:])["version"]
        raise EOFError("the stream ended")

    def close(self) -> None:
        self.lines.close()
        self.sock.close()


def test_sixty_open_streams_do_not_starve_the_server(tmp_path):
    proc, port = start_server(tmp_path / "instance", tmp_path / "server.log")
    streams: list[Stream] = []
    try:
        status, _, body = request(port, "POST", "/api/games", {
            "ruleset": "standard-4", "players": ["A", "B", "C", "D"], "first_dealer": 0})
        assert status == 201
        game = json.loads(body)
        gid = game["id"]
        for _ in range(STREAMS):
            streams.append(Stream(port, gid))
        assert [s.status() for s in streams] == [200] * STREAMS
        assert [s.next_version() for s in streams] == [1] * STREAMS  # all 60 are open

        slowest = 0.0
        for url in [f"/games/{gid}", f"/api/games/{gid}", "/", f"/games/{gid}/version"] * 5:
            started = time.monotonic()
            status, _, _ = request(port, "GET", url, timeout=QUICK * 5)
            slowest = max(slowest, time.monotonic() - started)
            assert status == 200, url
        print(f"\nslowest of 20 requests with {STREAMS} streams open: {slowest * 1000:.0f} ms")
        assert slowest < QUICK

        started = time.monotonic()
        status, _, _ = request(port, "PUT", f"/api/games/{gid}/deals/1",
                               {"version": 1, "result": {"tricks": [13, 0, 0, 0]}},
                               token=game["token"])
        assert status == 200
        assert [s.next_version() for s in streams] == [2] * STREAMS
        told = time.monotonic() - started
        print(f"a deal reached all {STREAMS} streams {told * 1000:.0f} ms after it was sent")
        assert told < 2.0
    finally:
        for s in streams:
            s.close()
        proc.terminate()
        proc.wait(10)


def test_idle_connections_close_and_streams_stay(tmp_path):
    """``--channel-timeout 1``: a kept-alive connection with no request is closed after a
    second; an event stream (the server writes, the phone only reads) is not."""
    proc, port = start_server(tmp_path / "instance", tmp_path / "server.log",
                              "--channel-timeout", "1")
    try:
        status, _, body = request(port, "POST", "/api/games", {
            "ruleset": "standard-4", "players": ["A", "B", "C", "D"], "first_dealer": 0})
        game = json.loads(body)
        stream = Stream(port, game["id"])
        assert stream.status() == 200 and stream.next_version() == 1
        idle = socket.create_connection(("127.0.0.1", port), timeout=5)
        idle.sendall(b"GET /api/rulesets HTTP/1.1\r\nHost: phone\r\n\r\n")
        idle.recv(65536)  # answered; now idle
        started = time.monotonic()
        while idle.recv(65536):  # b"" once the server closes it
            pass
        assert 0.5 < time.monotonic() - started < 4
        idle.close()
        time.sleep(1.5)  # the stream has been idle longer than the timeout
        status, _, _ = request(port, "PUT", f"/api/games/{game['id']}/deals/1",
                               {"version": 1, "result": {"tricks": [13, 0, 0, 0]}},
                               token=game["token"])
        assert status == 200 and stream.next_version() == 2
        stream.close()
    finally:
        proc.terminate()
        proc.wait(10)
