"""``kierki serve`` as the host runs it: a subprocess on a free loopback port."""
from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(instance: Path, log: Path, *flags: str,
                 env: dict[str, str] | None = None) -> tuple[subprocess.Popen, int]:
    """``python -m scorekeeper.cli serve`` on loopback, with ``env``'s ``KIERKI_``
    settings and no others; returns once it answers."""
    port = free_port()
    given = env or {}
    env = {k: v for k, v in os.environ.items() if not k.startswith("KIERKI_")}
    env.update(KIERKI_INSTANCE=str(instance), KIERKI_SECRET_KEY="x", PYTHONUNBUFFERED="1")
    env.update(given)
    with log.open("ab") as out:  # a file, not a pipe nobody reads: the server never blocks
        proc = subprocess.Popen(
            [sys.executable, "-m", "scorekeeper.cli", "serve", "--host", "127.0.0.1",
             "--port", str(port), *flags], cwd=ROOT, env=env, stdout=out,
            stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60  # generous: a busy machine starts slowly
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"the server exited: {log.read_text(errors='replace')}")
        try:
            status, headers, _ = request(port, "GET", "/api/rulesets", timeout=1)
        except OSError:
            time.sleep(0.05)
            continue
        assert status == 200
        assert headers.get("Server") == "gunicorn"  # the server's name, never its version
        return proc, port
    proc.kill()
    pytest.fail("the server did not answer within 60 s")


def request(port, method, url, body=None, timeout=30.0, token=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        conn.request(method, url, body=json.dumps(body) if body is not None else None,
                     headers=headers)
        r = conn.getresponse()
        return r.status, dict(r.getheaders()), r.read()
    finally:
        conn.close()
