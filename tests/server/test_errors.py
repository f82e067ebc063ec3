"""The production server's errors, seen from a client and from its log: a body over the
limit is read to its end and answered by the app's own page (never a connection reset);
a server error is logged with its traceback; the server's own answers to a broken request
carry the same security headers as the app's."""
import json
import socket
import sqlite3

import pytest

from scorekeeper.web.hardening import SECURITY_HEADERS
from tests.server.serving import request, start_server

LIMIT = 2 * 1024 * 1024  # the app's MAX_CONTENT_LENGTH


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("errors")
    proc, port = start_server(folder / "instance", folder / "server.log")
    yield port, folder
    proc.terminate()
    proc.wait(10)


def exchange(port: int, head: bytes, body: bytes = b"") -> tuple[int, dict[str, str], bytes]:
    """Send a whole request (headers, then all of its body), then read the answer to its
    end: what a simple client does. A reset connection fails the test."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(head)
        s.sendall(body)
        s.shutdown(socket.SHUT_WR)
        raw = b""
        while chunk := s.recv(65536):
            raw += chunk
    while raw.startswith(b"HTTP/1.1 100 "):  # "go on" (Expect: 100-continue): the answer next
        raw = raw.partition(b"\r\n\r\n")[2]
    top, _, rest = raw.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers, rest


def post_head(path: str, length: int, *extra: str) -> bytes:
    lines = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {length}",
             "Connection: close", *extra]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def assert_hardened(headers: dict[str, str]) -> None:
    for name, value in SECURITY_HEADERS.items():
        assert headers.get(name.lower()) == value, name
    assert headers.get("server", "gunicorn") == "gunicorn"  # no version told


@pytest.mark.parametrize("lang, words", [("en", "at most 2 MB"), ("pl", "najwyżej 2 MB")])
def test_a_body_over_the_limit_is_read_and_answered_by_the_apps_page(server, lang, words):
    port, _ = server
    body = b"x" * (3 * 1024 * 1024)
    status, headers, page = exchange(port, post_head(
        "/games/new", len(body), "Content-Type: application/x-www-form-urlencoded",
        f"Accept-Language: {lang}"), body)
    assert status == 413
    assert headers["content-type"].startswith("text/html")
    text = page.decode()
    assert words in text and "</html>" in text  # the app's page, whole
    assert_hardened(headers)


def test_a_body_over_the_limit_under_the_api_is_json(server):
    port, _ = server
    body = b" " * (3 * 1024 * 1024)
    status, headers, answer = exchange(port, post_head(
        "/api/games", len(body), "Content-Type: application/json", "Accept-Language: pl"),
        body)
    assert status == 413
    assert headers["content-type"] == "application/json"
    assert "2 MB" in json.loads(answer)["error"]
    assert_hardened(headers)


def test_a_body_only_announced_is_refused_without_waiting_for_it(server):
    """A client that asks first (Expect: 100-continue) is answered at once."""
    port, _ = server
    status, headers, answer = exchange(port, post_head(
        "/api/games", 50 * LIMIT, "Content-Type: application/json",
        "Expect: 100-continue"))
    assert status == 413 and b"2 MB" in answer
    assert_hardened(headers)


def test_a_server_error_is_logged_with_its_traceback(server):
    port, folder = server
    status, _, body = request(port, "POST", "/api/games", {
        "ruleset": "standard-4", "players": ["A", "B", "C", "D"], "first_dealer": 0})
    assert status == 201
    gid = json.loads(body)["id"]
    with sqlite3.connect(folder / "instance" / "kierki.sqlite") as db:  # a damaged row
        db.execute("update games set ruleset = '{', version = version + 1 where id = ?",
                   [gid])
    status, headers, page = request(port, "GET", f"/games/{gid}")
    assert status == 500 and b"Traceback" not in page  # logged, never shown
    assert headers["Content-Security-Policy"] == SECURITY_HEADERS["Content-Security-Policy"]
    log = (folder / "server.log").read_text(errors="replace")
    assert f"Exception on /games/{gid} [GET]" in log
    assert "Traceback (most recent call last)" in log and "JSONDecodeError" in log


def test_a_server_error_of_a_deal_put_is_logged_and_answered_by_the_server(server):
    """The deal PUT's router leaves only refusals to Flask: a bug or a damaged game is an
    error, answered 500 with the security headers and logged with its traceback, never
    retried quietly. (Here the router's kept game is older than the damaged row, so the
    router's version check hands the PUT to Flask, which reads the row and fails: Flask
    logs it; a bug in the router itself is the server's to log.)"""
    port, folder = server
    status, _, body = request(port, "POST", "/api/games", {
        "ruleset": "standard-4", "players": ["A", "B", "C", "D"], "first_dealer": 0})
    made = json.loads(body)
    with sqlite3.connect(folder / "instance" / "kierki.sqlite") as db:  # a damaged row
        db.execute("update games set settings = '[', version = version + 1 where id = ?",
                   [made["id"]])
    status, headers, page = request(port, "PUT", f"/api/games/{made['id']}/deals/1",
                                    {"version": 2, "result": {"tricks": [13, 0, 0, 0]}},
                                    token=made["token"])
    assert status == 500 and b"Traceback" not in page
    assert headers["Content-Security-Policy"] == SECURITY_HEADERS["Content-Security-Policy"]
    log = (folder / "server.log").read_text(errors="replace")
    assert "Traceback (most recent call last)" in log
    assert "JSONDecodeError" in log  # the server's or Flask's line, with the traceback


@pytest.mark.parametrize("head, status", [
    (b"NONSENSE\r\n\r\n", 400),
    (b"GET /" + b"a" * 10_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
    (b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 70_000 + b"\r\n\r\n", 400),
    (b"GET / HTTP/1.1\r\nHost: x\r\n" + b"X-Many: 1\r\n" * 150 + b"\r\n", 400),
])
def test_the_servers_own_answers_carry_the_security_headers(server, head, status):
    port, folder = server
    got, headers, _ = exchange(port, head)
    assert got == status
    assert_hardened(headers)
    assert "strict-transport-security" not in headers  # plain HTTP: never (see
    #                                                   test_held_connections for https)
    assert "Traceback" not in (folder / "server.log").read_text(errors="replace") \
        .split("JSONDecodeError")[-1]  # a client's mistake is not the server's error
