"""The production server's own limits, seen from a client: a body over 2 MiB is answered
413 by the app's own answer without the app reading it (the connection closed; a client
that asks first, Expect: 100-continue, is answered before it sends), a body of exactly
2 MiB reaches the app, and a chunked body (no length announced) is held to the same
limit. tests/server/test_errors.py sends whole bodies over the limit."""
import http.client
import json

from tests.server.serving import start_server

LIMIT = 2 * 1024 * 1024  # the app's MAX_CONTENT_LENGTH


def post(port, body: bytes, length: int | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.putrequest("POST", "/api/games")
        conn.putheader("Content-Type", "application/json")
        conn.putheader("Content-Length", str(len(body) if length is None else length))
        if length is not None:  # only announced: the client waits to be told to send it
            conn.putheader("Expect", "100-continue")
        conn.endheaders(body)
        r = conn.getresponse()
        return r.status, r.read()
    finally:
        conn.close()


def post_chunked(port, chunks: list[bytes]):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
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
        assert "2 MB" in json.loads(body)["error"]  # the app's answer
        spaces = [b" " * (LIMIT - len(game))]
        status, _ = post_chunked(port, [game] + spaces)  # chunked, no length: the same
        assert status == 201
        status, body = post_chunked(port, [game] + spaces + [b" "])
        assert status == 413 and "2 MB" in json.loads(body)["error"]
    finally:
        proc.terminate()
        proc.wait(10)
