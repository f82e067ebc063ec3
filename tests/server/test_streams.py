"""Many open live tables against ``kierki serve``: 60 phones keep a game's event stream
open (each a connection the server holds), and the pages and the API still answer at
once; a deal saved then reaches all 60 streams. Loopback only, bounded: 60 sockets, a
few dozen requests. Nothing is timed (bench/server.py measures): each answer and event
is waited for with a generous timeout, so a busy machine is slow, not failing."""
import http.client
import json
import socket
import time

from tests.server.serving import request, start_server

STREAMS = 60
PATIENCE = 30.0  # seconds any answer or event is waited for: a starved server fails


class Stream:
    """One phone's EventSource, read line by line from a plain socket."""

    def __init__(self, port: int, gid: str):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=PATIENCE)
        self.sock.sendall(f"GET /games/{gid}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
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

        for url in [f"/games/{gid}", f"/api/games/{gid}", "/", f"/games/{gid}/version"] * 5:
            status, _, _ = request(port, "GET", url, timeout=PATIENCE)
            assert status == 200, url

        status, _, _ = request(port, "PUT", f"/api/games/{gid}/deals/1",
                               {"version": 1, "result": {"tricks": [13, 0, 0, 0]}},
                               token=game["token"], timeout=PATIENCE)
        assert status == 200
        assert [s.next_version() for s in streams] == [2] * STREAMS
    finally:
        for s in streams:
            s.close()
        proc.terminate()
        proc.wait(10)


def test_idle_connections_close_and_streams_stay(tmp_path):
    """``--channel-timeout 1``: a kept-alive connection with no request is closed (once it
    is idle: it answers a second request first); an event stream (the server writes, the
    phone only reads) is not."""
    proc, port = start_server(tmp_path / "instance", tmp_path / "server.log",
                              "--channel-timeout", "1")
    try:
        status, _, body = request(port, "POST", "/api/games", {
            "ruleset": "standard-4", "players": ["A", "B", "C", "D"], "first_dealer": 0})
        game = json.loads(body)
        stream = Stream(port, game["id"])
        assert stream.status() == 200 and stream.next_version() == 1
        idle = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE)
        for _ in range(2):  # kept alive: a second request on it is answered
            idle.request("GET", f"/games/{game['id']}/version")
            answer = idle.getresponse()
            assert answer.status == 200 and answer.read()
        while idle.sock.recv(65536):  # b"" once the server closes it, idle (else a timeout)
            pass
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
