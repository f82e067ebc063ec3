"""Load: a club evening at once against the production server (``kierki serve``, gevent).

Run (with the package installed, e.g. in .venv):  python bench/load.py [--clients N]

Starts ``python -m scorekeeper.cli serve`` in a subprocess on a free loopback port with
a temporary instance folder (its own database), with the server's default settings
unless ``--connection-limit`` and the like are given. Then ``--clients`` threads (50)
start together, each a phone playing ``--games`` standard-4 games (1) through the API:
create the game, then for each of its 12 deals PUT the result and GET the game's page.
Every request is timed. Beside each game ``--watchers`` other phones (1) keep its live
table open (``GET /games/<gid>/events``), and the time from each answered PUT to the
event that tells them is timed too. Bounded: at most clients x games x 25 requests,
clients stop starting requests after ``--max-seconds``, and every stream is closed when
its game is over.

Prints one line each: requests per second, p50/p95 latency, errors (answers other than
2xx/3xx, and exceptions), then the same latencies per kind of request, the events'
delays, and what the database holds afterwards.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from scorekeeper.families.kierki.rules import get_ruleset
from scorekeeper.families.kierki.rules.examples import plausible_results

RESULTS = plausible_results(get_ruleset("standard-4"))
SERVER_FLAGS = ("connection_limit", "channel_timeout")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(instance: Path, log: Path, flags: list[str]) -> tuple[subprocess.Popen, int]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("KIERKI_")}
    env.update(KIERKI_INSTANCE=str(instance), KIERKI_SECRET_KEY="bench")
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "scorekeeper.cli", "serve", "--host", "127.0.0.1",
             "--port", str(port), *flags], env=env, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 90  # a start on a machine busy with other work
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit(f"the server exited:\n{log.read_text(errors='replace')}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            conn.request("GET", "/api/rulesets")
            conn.getresponse().read()
            conn.close()
            return proc, port
        except OSError:
            time.sleep(0.05)
    proc.kill()
    sys.exit("the server did not answer within 90 s")


class Watcher(threading.Thread):
    """A phone with the game's page open: reads its event stream, notes when each
    version arrived."""

    def __init__(self, port: int, gid: str):
        super().__init__(daemon=True)
        self.arrived: dict[int, float] = {}
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=60)
        self.sock.sendall(f"GET /games/{gid}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          f"Accept: text/event-stream\r\n\r\n".encode())
        self.lines = self.sock.makefile("rb")
        status = self.lines.readline()
        assert status.split()[1] == b"200", status

    def run(self) -> None:
        try:
            for line in self.lines:  # chunk sizes and event lines alike: only "id:" counts
                if line.startswith(b"id: "):
                    self.arrived[int(line[4:])] = time.perf_counter()
        except (OSError, ValueError):
            pass  # closed by stop()

    def stop(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.join(5)
        self.lines.close()
        self.sock.close()


class Phone:
    """One client on one keep-alive connection (as a phone's browser keeps one)."""

    def __init__(self, port: int, timings: list[tuple[str, float, int | None]],
                 lock: threading.Lock, watchers: int = 0,
                 delays: list[float] | None = None):
        self.port = port
        self.timings = timings
        self.lock = lock
        self.conn: http.client.HTTPConnection | None = None
        self.watchers = watchers
        self.delays = delays if delays is not None else []

    def request(self, kind: str, method: str, url: str, body=None,
                token: str | None = None) -> tuple[int | None, bytes]:
        """(status, body); status None when the request raised (timed all the same)."""
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        start = time.perf_counter()
        status, data = None, b""
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            self.conn.request(method, url, json.dumps(body) if body is not None else None,
                              headers)
            response = self.conn.getresponse()
            status, data = response.status, response.read()
        except (OSError, http.client.HTTPException):
            if self.conn is not None:
                self.conn.close()
            self.conn = None
        with self.lock:
            self.timings.append((kind, time.perf_counter() - start, status))
        return status, data

    def play(self, games: int, stop_at: float) -> None:
        for g in range(games):
            if time.monotonic() >= stop_at:
                return
            status, body = self.request("create", "POST", "/api/games", {
                "ruleset": "standard-4", "players": [f"Ala{g}", "Bożena", "Czesław", "Żaneta"],
                "first_dealer": 0})
            if status != 201:
                continue
            game = json.loads(body)
            gid, version = game["id"], game["version"]
            watching = [Watcher(self.port, gid) for _ in range(self.watchers)]
            for w in watching:
                w.start()
            answered: dict[int, float] = {}
            try:
                for number, result in enumerate(RESULTS, start=1):
                    if time.monotonic() >= stop_at:
                        return
                    status, body = self.request(
                        "deal", "PUT", f"/api/games/{gid}/deals/{number}",
                        {"version": version, "result": result}, token=game["token"])
                    if status != 200:
                        break
                    version = json.loads(body)["version"]
                    answered[version] = time.perf_counter()
                    self.request("page", "GET", f"/games/{gid}")
                deadline = time.monotonic() + 5  # the last events, 5 s at most
                while time.monotonic() < deadline and any(
                        max(w.arrived, default=0) < version for w in watching):
                    time.sleep(0.05)
            finally:
                for w in watching:
                    w.stop()
                with self.lock:  # a version is told by its event or a later one's
                    self.delays.extend(
                        min((a for u, a in w.arrived.items() if u >= v), default=float("inf"))
                        - t for w in watching for v, t in answered.items())
        if self.conn is not None:
            self.conn.close()


def server_cpu(pid: int) -> float | None:
    """Seconds of CPU the server has used (Linux: /proc), None elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def percentile(values: list[float], p: float) -> float:
    if len(values) < 2:
        return values[0] if values else 0.0
    return statistics.quantiles(values, n=100, method="inclusive")[int(p) - 1]


def ms(values: list[float]) -> str:
    return (f"p50 {percentile(values, 50) * 1000:.1f} ms, "
            f"p95 {percentile(values, 95) * 1000:.1f} ms, max {max(values) * 1000:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--games", type=int, default=1, help="games per client")
    parser.add_argument("--max-seconds", type=float, default=120.0)
    parser.add_argument("--watchers", type=int, default=1,
                        help="phones following each game's event stream")
    for flag in SERVER_FLAGS:
        parser.add_argument("--" + flag.replace("_", "-"), type=int,
                            help="passed to kierki serve (default: its own)")
    args = parser.parse_args()
    flags = [x for flag in SERVER_FLAGS if getattr(args, flag) is not None
             for x in ("--" + flag.replace("_", "-"), str(getattr(args, flag)))]

    with tempfile.TemporaryDirectory() as tmp:
        instance, log = Path(tmp) / "instance", Path(tmp) / "server.log"
        proc, port = start_server(instance, log, flags)
        timings: list[tuple[str, float, int | None]] = []
        delays: list[float] = []
        lock = threading.Lock()
        barrier = threading.Barrier(args.clients + 1)
        stop_at = 0.0

        def client() -> None:
            barrier.wait()
            Phone(port, timings, lock, args.watchers, delays).play(args.games, stop_at)

        threads = [threading.Thread(target=client) for _ in range(args.clients)]
        try:
            for t in threads:
                t.start()
            stop_at = time.monotonic() + args.max_seconds
            start = time.perf_counter()
            barrier.wait()
            for t in threads:
                t.join()
            elapsed = time.perf_counter() - start
        finally:
            cpu = server_cpu(proc.pid)
            proc.terminate()
            proc.wait(10)
        db = sqlite3.connect(instance / "kierki.sqlite")
        games, deals = (db.execute(f"select count(*) from {t}").fetchone()[0]
                        for t in ("games", "deals"))
        integrity = db.execute("pragma integrity_check").fetchone()[0]
        db.close()
        server_log = log.read_text(errors="replace")

    latencies = [t for _, t, _ in timings]
    refused = sum(1 for _, _, s in timings if s is not None and not 200 <= s < 400)
    raised = sum(1 for _, _, s in timings if s is None)
    print(f"requests: {len(timings)} in {elapsed:.2f} s = {len(timings) / elapsed:.1f} req/s "
          f"({args.clients} clients x {args.games} standard-4 game(s), server "
          f"{' '.join(flags) or 'defaults'})")
    print(f"latency: {ms(latencies)}")
    if cpu is not None:
        print(f"server CPU: {cpu:.2f} s (start-up included)")
    print(f"errors: {refused} answers not 2xx/3xx, {raised} exceptions")
    by_kind = "; ".join(f"{kind} ({len(vals)}) {ms(vals)}" for kind in ("create", "deal", "page")
                        if (vals := [t for k, t, _ in timings if k == kind]))
    print(f"by kind: {by_kind}")
    if delays:
        missed = sum(1 for d in delays if d == float("inf"))
        print(f"events: {len(delays) - missed} of {len(delays)} deals told to "
              f"{args.watchers} watcher(s) per game; delay after the PUT's answer "
              f"{ms([d for d in delays if d != float('inf')] or [0.0])}")
    print(f"database: {games} games, {deals} deals, integrity {integrity}; server log: "
          f"{server_log.count('Traceback')} tracebacks")
    if "Traceback" in server_log:
        print(server_log[server_log.index("Traceback"):][:3000], file=sys.stderr)


if __name__ == "__main__":
    main()
