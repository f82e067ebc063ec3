"""Benchmark: the app's pages under its production server, as a share of a Flask
hello-world served by the same server (gunicorn's gevent worker) with the same settings,
in the same run.

Run (with the package installed, e.g. in .venv):  python bench/server.py [--rounds 3]

It starts ``kierki serve`` on a temporary database (a finished standard-4 game, a fresh
one, and games to enter deals into) and a hello-world Flask app in the same server with
``kierki serve``'s settings, on two loopback ports. Then, for each page and each round,
it drives hello-world and the page one after the other with the same client for the
same time, and prints the page's requests per second as a share of hello-world's:

    game-page: 0.64 of hello-world (rounds 0.63 0.64 0.66; median of 3)

Pages: ``game-page`` (a finished 4-player game, as a phone that has the game open
reloads it), ``fresh-game-page`` (deal 1 of a new game), ``api-read``
(``GET /api/games/<id>``), ``front-page`` (the list of this browser's games),
``deal-put`` (``PUT /api/games/<id>/deals/<n>``, every client entering the next deal
of its own games; each answered write waits for the disk, see ``deal-put-normal``, the
same against a server started with ``KIERKI_SYNCHRONOUS=normal``), ``game-page-304`` (the game page asked again with its ETag, as the
live table's reload does when nothing changed). The requests carry what a phone sends:
its session cookie, ``Accept-Encoding: gzip``. Then the game page's latency at 1 and at
50 clients, p50 and p95, next to hello-world's, and how much p95 grows from 1 to 50.

The client is wrk (https://github.com/wg/wrk) when it is installed, else a Python
client (one process, asyncio, keep-alive connections); the PUTs always use the Python
client, and are compared with hello-world under the same Python client. Targets (median
of three rounds): game page >= 0.3, API read >= 0.3, deal PUT >= 0.2, the game page's
p95 growth from 1 to 50 clients no worse than hello-world's own.
The numbers move by some per cent from run to run on a shared machine: the ratios are
what to read.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

TARGETS = {"game-page": 0.3, "api-read": 0.3, "deal-put": 0.2}
SECRET = "bench-secret-key"
HELLO = r'''
import sys
import argparse
from flask import Flask
from scorekeeper import cli

app = Flask("hello")

@app.get("/")
def hello():
    return "Hello, World!"

port = int(sys.argv[1])
ns = argparse.Namespace(host="127.0.0.1", port=port)
settings = cli.server_settings(ns, app, environ={})
print("ready", flush=True)
cli.run(lambda: app, settings)
'''


def cpu_seconds(pid: int) -> float:
    """The processor time a server has used so far (user and system), from /proc: the
    process and its children (gunicorn's master and its workers)."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        children = []
    return _cpu_of(pid) + sum(_cpu_of(int(c)) for c in children)


def _cpu_of(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url: str, proc: subprocess.Popen, seconds: float = 120) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise SystemExit(f"the server stopped: {proc.returncode}")
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"no answer from {url}")


@dataclass
class Fixture:
    finished: str
    fresh: str
    feed: list[str]           # games to enter deals into, one list per client later
    results: list[dict]       # deal 1..12 of standard-4, in order
    tokens: dict[str, str]


def make_games(instance: Path, feed_games: int) -> Fixture:
    """The games, written straight into the database before the server starts."""
    os.environ["KIERKI_INSTANCE"] = str(instance)
    from scorekeeper import create_app
    from scorekeeper.domain import service
    from scorekeeper.families.kierki.rules import get_ruleset
    from scorekeeper.families.kierki.rules.examples import plausible_results
    from scorekeeper.web import access
    from scorekeeper.web.db import get_db

    app = create_app({"DATABASE": str(instance / "kierki.sqlite"), "SECRET_KEY": SECRET,
                      "MAX_GAMES": 1_000_000})
    results = plausible_results(get_ruleset("standard-4"))
    names = ["Ala", "Bożena", "Czesław", "Żaneta"]
    with app.test_request_context():
        db = get_db()
        finished = service.create_game(db, "standard-4", names, 0)
        for number, raw in enumerate(results, start=1):
            service.enter_deal(db, service.load(db, finished), number, raw, number)
        fresh = service.create_game(db, "standard-4", names, 1)
        with db.conn:
            feed = [service.create_game(db, "standard-4", names, 2) for _ in range(feed_games)]
        tokens = {gid: access.token(gid) for gid in feed}
    return Fixture(finished, fresh, feed, results, tokens)


#: Run in another checkout (``--compare``), with that checkout first on the path: its
#: games made by its own code, the fixture printed as JSON.
MAKE_THERE = r"""
import dataclasses, json, runpy, sys
made = runpy.run_path(sys.argv[1])["make_games"](__import__("pathlib").Path(sys.argv[2]),
                                                 int(sys.argv[3]))
print(json.dumps(dataclasses.asdict(made)))
"""


def compare_games(checkout: Path, instance: Path, feed_games: int) -> Fixture:
    """The games of :func:`make_games` in a database of ``instance``, made by the code of
    ``checkout`` (whose migrations may stop before this checkout's)."""
    instance.mkdir()
    made = subprocess.run(
        [sys.executable, "-c", MAKE_THERE, __file__, str(instance), str(feed_games)],
        env={**os.environ, "PYTHONPATH": str(checkout), "KIERKI_INSTANCE": str(instance)},
        cwd=checkout, check=True, capture_output=True, text=True)
    return Fixture(**json.loads(made.stdout.strip().splitlines()[-1]))


def session_cookie(base: str, games: list[str]) -> str:
    """The cookie a phone has after opening these games (the front page lists them)."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    for gid in games:
        opener.open(f"{base}/games/{gid}").read()
    jar = opener.handlers[[type(h).__name__ for h in opener.handlers]
                          .index("HTTPCookieProcessor")].cookiejar
    return "; ".join(f"{c.name}={c.value}" for c in jar)


# --- clients ---------------------------------------------------------------------------

@dataclass
class Run:
    rps: float
    p50: float  # ms
    p95: float
    errors: int
    took: float = 0.0      # s
    server_us: float = float("nan")  # the server's processor time per request, µs
    client_busy: float = float("nan")  # the client's processor time per second of the run


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def _read_response(reader: asyncio.StreamReader) -> int:
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head[9:12])
    length = 0
    chunked = False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        name = name.strip().lower()
        if name == b"content-length":
            length = int(value)
        elif name == b"transfer-encoding" and b"chunked" in value.lower():
            chunked = True
    if chunked:
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            await reader.readexactly(size + 2)
            if size == 0:
                break
    elif length:
        await reader.readexactly(length)
    return status


async def _drive(port: int, requests, clients: int, seconds: float) -> Run:
    """``requests(i)`` yields the raw requests of client ``i``, one after the other."""
    latencies: list[float] = []
    errors = 0
    end = time.perf_counter() + seconds

    async def client(i: int) -> None:
        nonlocal errors
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        for raw in requests(i):
            if time.perf_counter() >= end:
                break
            start = time.perf_counter()
            writer.write(raw)
            status = await _read_response(reader)
            latencies.append(time.perf_counter() - start)
            if status >= 400:
                errors += 1
        writer.close()

    started = time.perf_counter()
    await asyncio.gather(*(client(i) for i in range(clients)))
    took = time.perf_counter() - started
    return Run(len(latencies) / took, percentile(latencies, 0.5) * 1000,
               percentile(latencies, 0.95) * 1000, errors, took)


def get_request(path: str, cookie: str = "", extra: str = "") -> bytes:
    return (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: gzip\r\n"
            f"Accept-Language: pl,en;q=0.8\r\n"
            + (f"Cookie: {cookie}\r\n" if cookie else "") + extra + "\r\n").encode()


def python_get(port: int, raw: bytes, clients: int, seconds: float) -> Run:
    def forever(_i):
        while True:
            yield raw
    return asyncio.run(_drive(port, forever, clients, seconds))


WRK_SCRIPT = r'''
wrk.headers["Accept-Encoding"] = "gzip"
wrk.headers["Accept-Language"] = "pl,en;q=0.8"
local cookie = os.getenv("BENCH_COOKIE")
if cookie and cookie ~= "" then wrk.headers["Cookie"] = cookie end
local etag = os.getenv("BENCH_ETAG")
if etag and etag ~= "" then wrk.headers["If-None-Match"] = etag end
errors = 0
function response(status, headers, body)
  if status >= 400 then errors = errors + 1 end
end
function done(summary, latency, requests)
  io.write(string.format('{"requests": %d, "us": %d, "p50": %f, "p95": %f, "bad": %d}\n',
    summary.requests, summary.duration, latency:percentile(50) / 1000,
    latency:percentile(95) / 1000,
    summary.errors.status + summary.errors.connect + summary.errors.read
    + summary.errors.write + summary.errors.timeout))
end
'''


def wrk_get(port: int, path: str, clients: int, seconds: float, cookie: str,
            etag: str, script: Path) -> Run:
    env = {**os.environ, "BENCH_COOKIE": cookie, "BENCH_ETAG": etag}
    out = subprocess.run(
        ["wrk", "-t1", f"-c{clients}", f"-d{max(1, round(seconds))}s", "-s", str(script),
         f"http://127.0.0.1:{port}{path}"], capture_output=True, text=True, env=env,
        check=True).stdout
    line = next(x for x in out.splitlines() if x.startswith("{"))
    data = json.loads(line)
    return Run(data["requests"] / (data["us"] / 1e6), data["p50"], data["p95"], data["bad"],
               data["us"] / 1e6)


def on(pid: int, measure: Callable[[], Run]) -> Run:
    """``measure()``, with the processor time the server ``pid`` spent per request."""
    before, client = cpu_seconds(pid), _own_cpu()
    run = measure()
    spent = cpu_seconds(pid) - before
    run.server_us = spent / max(1, run.rps * run.took) * 1e6
    run.client_busy = (_own_cpu() - client) / max(run.took, 1e-9)
    return run


def _own_cpu() -> float:
    """Processor time of this process and its finished children (wrk)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


# --- the benchmark ---------------------------------------------------------------------

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=3.0, help="per page, per round")
    parser.add_argument("--clients", type=int, default=20,
                        help="concurrent keep-alive connections for the throughput runs")
    parser.add_argument("--python-client", action="store_true",
                        help="use the Python client even where wrk is installed")
    parser.add_argument("--compare", default="", metavar="CHECKOUT",
                        help="also measure the deal PUTs served by another checkout of this "
                             "project (e.g. a git worktree of the previous commit), "
                             "interleaved round by round with this one's")
    parser.add_argument("--only", default="",
                        help="comma-separated measurements to run (e.g. deal-put,latency); "
                             "all when empty")
    args = parser.parse_args()
    use_wrk = bool(shutil.which("wrk")) and not args.python_client

    tmp = Path(tempfile.mkdtemp(prefix="kierki-bench-"))
    procs: list[subprocess.Popen] = []
    try:
        # Enough games for every PUT: a deal PUT takes a few ms at the least.
        servers = 3 if args.compare else 2
        feed_games = servers * int(args.rounds * args.seconds * 12000 / 12) + args.clients * 4
        fx = make_games(tmp, feed_games)
        app_port, hello_port, normal_port = free_port(), free_port(), free_port()
        env = {**os.environ, "KIERKI_INSTANCE": str(tmp), "KIERKI_SECRET_KEY": SECRET,
               "KIERKI_MAX_GAMES": "1000000"}
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "scorekeeper.cli", "serve", "--host", "127.0.0.1",
             "--port", str(app_port)], env=env, stdout=subprocess.DEVNULL))
        procs.append(subprocess.Popen([sys.executable, "-c", HELLO, str(hello_port)],
                                      env=env, stdout=subprocess.DEVNULL))
        # the same app and database, with commits left to the system (no fsync per write)
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "scorekeeper.cli", "serve", "--host", "127.0.0.1",
             "--port", str(normal_port)], env={**env, "KIERKI_SYNCHRONOUS": "normal"},
            stdout=subprocess.DEVNULL))
        base = f"http://127.0.0.1:{app_port}"
        app_pid, hello_pid = procs[0].pid, procs[1].pid
        wait_for(base + "/", procs[0])
        wait_for(f"http://127.0.0.1:{hello_port}/", procs[1])
        wait_for(f"http://127.0.0.1:{normal_port}/", procs[2])
        compare_port, other = free_port(), fx
        if args.compare:  # the same games served by another checkout's code, in a database
            # that code made (its schema may be older than this one's)
            other = compare_games(Path(args.compare).resolve(), tmp / "compare",
                                  feed_games // servers + args.clients * 4)
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "scorekeeper.cli", "serve", "--host", "127.0.0.1",
                 "--port", str(compare_port)],
                env={**env, "PYTHONPATH": str(Path(args.compare).resolve()),
                     "KIERKI_INSTANCE": str(tmp / "compare")},
                cwd=args.compare, stdout=subprocess.DEVNULL))
            wait_for(f"http://127.0.0.1:{compare_port}/", procs[3])
        cookie = session_cookie(base, [fx.fresh, fx.finished])
        page = f"/games/{fx.finished}"
        etag = urllib.request.urlopen(urllib.request.Request(
            base + page, headers={"Cookie": cookie, "Accept-Language": "pl,en;q=0.8",
                                  "Host": "127.0.0.1"})  # as the clients below send it
        ).headers.get("ETag") or ""
        script = tmp / "bench.lua"
        script.write_text(WRK_SCRIPT)

        def get(port: int, path: str, clients: int, with_etag: bool = False) -> Run:
            tag = etag if with_etag else ""
            if port == hello_port:
                path, ck, tag = "/", "", ""
            else:
                ck = cookie
            if use_wrk:
                return wrk_get(port, path, clients, args.seconds, ck, tag, script)
            extra = f"If-None-Match: {tag}\r\n" if tag else ""
            return python_get(port, get_request(path, ck, extra), clients, args.seconds)

        feeds = {id(fx): iter(fx.feed), id(other): iter(other.feed)}

        def put_run(clients: int, port: int = app_port) -> Run:
            games = other if port == compare_port else fx
            feed = feeds[id(games)]

            def deals(_i):
                while True:
                    gid = next(feed)
                    for number, result in enumerate(games.results, start=1):
                        body = json.dumps({"version": number, "result": result}).encode()
                        yield (f"PUT /api/games/{gid}/deals/{number} HTTP/1.1\r\n"
                               f"Host: 127.0.0.1\r\nAccept-Encoding: gzip\r\n"
                               f"Authorization: Bearer {games.tokens[gid]}\r\n"
                               f"Content-Type: application/json\r\n"
                               f"Content-Length: {len(body)}\r\n\r\n").encode() + body
            return asyncio.run(_drive(port, deals, clients, args.seconds))

        hello_raw = get_request("/")
        pages = [
            ("game-page", lambda c: get(app_port, page, c)),
            ("fresh-game-page", lambda c: get(app_port, f"/games/{fx.fresh}", c)),
            ("api-read", lambda c: get(app_port, f"/api/games/{fx.finished}", c)),
            ("front-page", lambda c: get(app_port, "/", c)),
            ("game-page-304", lambda c: get(app_port, page, c, with_etag=True)),
        ]
        client_name = "wrk" if use_wrk else "python"
        print(f"# client: {client_name} (PUTs: python), {args.clients} connections, "
              f"{args.seconds:g} s per page per round, {args.rounds} rounds; "
              f"game page ETag {'present' if etag else 'absent'}", flush=True)
        # warm up both servers (imports, template compilation, caches)
        get(hello_port, "/", 4)
        for _, fn in pages:
            fn(4)
        only = {x.strip() for x in args.only.split(",") if x.strip()}

        def wanted(name: str) -> bool:
            return not only or name in only

        for name, fn in pages:
            if not wanted(name):
                continue
            ratios, cpu = [], []
            bad = 0
            for _ in range(args.rounds):
                hello = on(hello_pid, lambda: get(hello_port, "/", args.clients))
                run = on(app_pid, lambda fn=fn: fn(args.clients))
                bad += run.errors + hello.errors
                ratios.append(run.rps / hello.rps)
                cpu.append((run.server_us, hello.server_us, run.client_busy,
                            hello.client_busy))
            report(name, ratios, bad, run.rps, hello.rps, cpu)
        puts = [("deal-put", app_port, app_pid,
                 f"python client both; fsync {fsync_ms():.2f} ms here"),
                ("deal-put-normal", normal_port, procs[2].pid,
                 "KIERKI_SYNCHRONOUS=normal: no fsync per write")]
        if args.compare:
            puts.append((f"deal-put@{args.compare}", compare_port, procs[3].pid,
                         "the same, served by that checkout's code"))
        puts = [x for x in puts if wanted(x[0].partition("@")[0])]
        # each round drives every configuration once, each after its own hello-world run
        measured: dict[str, list[tuple[float, Run, Run]]] = {x[0]: [] for x in puts}
        for _ in range(args.rounds):
            for name, port, pid, _note in puts:
                hello = on(hello_pid, lambda: python_get(hello_port, hello_raw, args.clients,
                                                         args.seconds))
                run = on(pid, lambda port=port: put_run(args.clients, port))
                measured[name].append((run.rps / hello.rps, run, hello))
        for name, _port, _pid, note in puts:
            rows = measured[name]
            run, hello = rows[-1][1], rows[-1][2]
            report(name,
                   [r[0] for r in rows], sum(r[1].errors + r[2].errors for r in rows),
                   run.rps, hello.rps,
                   [(r[1].server_us, r[2].server_us, r[1].client_busy, r[2].client_busy)
                    for r in rows], note=note)
        if not wanted("latency"):
            return

        print("# latency of the game page and of hello-world, ms (median of the rounds)")
        rows = {}
        for clients in (1, 50):
            h, g = [], []
            for _ in range(args.rounds):
                h.append(get(hello_port, "/", clients))
                g.append(get(app_port, page, clients))
            rows[clients] = (h, g)
            for label, runs in (("hello-world", h), ("game-page", g)):
                p50 = statistics.median(r.p50 for r in runs)
                p95 = statistics.median(r.p95 for r in runs)
                print(f"latency {label} at {clients:2d} client(s): p50 {p50:7.2f}  "
                      f"p95 {p95:7.2f}")
        growth = {}
        for i, label in enumerate(("hello-world", "game-page")):
            one = statistics.median(r.p95 for r in rows[1][i])
            fifty = statistics.median(r.p95 for r in rows[50][i])
            growth[label] = fifty / one
        ok = growth["game-page"] <= growth["hello-world"]
        print(f"p95-growth: game-page x{growth['game-page']:.1f} from 1 to 50 clients, "
              f"hello-world x{growth['hello-world']:.1f} "
              f"({'meets' if ok else 'misses'} the target: no worse than hello-world)")
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)


def fsync_ms(rounds: int = 100) -> float:
    """What one fsync costs on this machine's disk (a FULL commit waits for one)."""
    with tempfile.NamedTemporaryFile(dir=tempfile.gettempdir()) as f:
        start = time.perf_counter()
        for _ in range(rounds):
            f.write(b"x" * 4096)
            f.flush()
            os.fsync(f.fileno())
        return (time.perf_counter() - start) / rounds * 1000


def report(name, ratios, bad, rps, hello_rps, cpu, note="") -> None:
    median = statistics.median(ratios)
    page_us = statistics.median(c[0] for c in cpu)
    hello_us = statistics.median(c[1] for c in cpu)
    busy = max(max(c[2], c[3]) for c in cpu)
    note = (f"server processor {page_us:.0f} vs {hello_us:.0f} µs a request; "
            f"client busy up to {busy:.0%}"
            + (f"; {note}" if note else ""))
    target = TARGETS.get(name)
    verdict = ("" if target is None else
               f"; target {target}: {'met' if median >= target else 'MISSED'}")
    extra = f"; {note}" if note else ""
    print(f"{name}: {median:.2f} of hello-world (rounds "
          f"{' '.join(f'{r:.2f}' for r in ratios)}; median of {len(ratios)}; last "
          f"{rps:.0f} vs {hello_rps:.0f} req/s; {bad} errors{extra}{verdict})", flush=True)


if __name__ == "__main__":
    main()
