"""The production server's own limits, seen from a client: a body over 2 MiB is refused
by waitress before the app reads it (413), a body of exactly 2 MiB reaches the app."""
import http.client
import json

from tests.server.serving import start_server

LIMIT = 2 * 1024 * 1024  # the app's MAX_CONTENT_LENGTH


def post(port, body: bytes, length: int | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.putrequest("POST", "/api/games")
        conn.putheader("Content-Type", "application/json")
        conn.putheader("Content-Length", str(len(body) if length is None else length))
        conn.endheaders(body)
        r = conn.getresponse()
        return r.status, r.read()
    finally:
        conn.close()


def test_the_body_limit_is_the_apps(tmp_path):
    proc, port = start_server(tmp_path / "instance", tmp_path / "server.log")
    try:
        game = json.dumps({"ruleset": "standard-4", "players": ["A", "B", "C", "D"],
                           "first_dealer": 0}).encode()
        status, _ = post(port, game + b" " * (LIMIT - len(game)))
        assert status == 201  # exactly the limit: the app reads it and creates the game
        status, body = post(port, b"", length=LIMIT + 1)  # only announced: never sent
        assert status == 413
        assert b"exceeds max_body" in body  # waitress' answer (plain text), not the app's
    finally:
        proc.terminate()
        proc.wait(10)
