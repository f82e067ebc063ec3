"""The production server's own limits, seen from a client: a body announced over 2 MiB is
refused by the server before the app runs (413, the connection closed), a body of
exactly 2 MiB reaches the app, and a chunked body (no length announced) is cut by the
app's own limit."""
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


def post_chunked(port, chunks: list[bytes]):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("POST", "/api/games", body=iter(chunks),
                     headers={"Content-Type": "application/json"}, encode_chunked=True)
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
        assert body == b"Request body too large.\n"  # the server's answer, not the app's
        spaces = [b" " * (LIMIT - len(game))]
        status, _ = post_chunked(port, [game] + spaces)  # chunked, no length: the same
        assert status == 201
        status, body = post_chunked(port, [game] + spaces + [b" "])
        assert status == 413 and body == b"Request body too large.\n"
    finally:
        proc.terminate()
        proc.wait(10)
