"""Benchmark: a club night at once (issue 27, item 8): a tournament of many tables, every
phone following its table live and three projectors following the tournament, against
``kierki serve`` pinned to one core (a Raspberry Pi's budget).

Run (with the package installed, e.g. in .venv):  python bench/club.py [--tables 150]

For each step it writes a fresh temporary database with a tournament of ``--tables``
tables of four (standard-4, four players a table, seeded draw), made with
``domain.tournaments.create`` before the server starts, then starts ``kierki serve``
under ``taskset -c 0`` with a known ``SECRET_KEY`` (each game's API token is then
``access.token(gid, secret)``) and a connection limit that fits every phone. The client is
this process, one asyncio loop, pinned to the other cores (``sched_setaffinity``); it
raises its own file limit. It then:

* opens each table's game page on four phones (each keeps its session cookie and one
  keep-alive connection for pages, as a browser does), notes the server's RSS, opens the
  four phones' event streams (``GET /games/<gid>/events``) and three projectors'
  (``GET /tournaments/<tid>/events``), and notes the RSS again: the difference divided
  by the streams is the memory an open stream costs;
* has every table save its next deal every 2 s (``--interval``; ``PUT /api/games/<gid>/deals/<n>`` with
  the game's token, ``{"result", "version"}``; results from ``plausible_results``, which
  fit any first dealer), the tables staggered evenly over the 2 s;
* each phone does what ``static/live.js`` does: an event with a version newer than its
  page's fetches the game's live fragment, ``GET /games/<gid>?part=live&since=<its
  version>`` (``fetch(url, {cache: "no-store", credentials: "same-origin"})``: the cookie,
  ``Cache-Control: no-cache``, no ``If-None-Match``), and the whole page ``GET
  /games/<gid>`` only when the fragment says it cannot show the change (``data-whole``: the
  game over); on a checkout without the fragment, the whole page each time; at most one
  fetch in flight (an event during one asks for one more after it);
* each projector does what ``static/tournament.js`` does: on an event, fetches
  ``GET /tournaments/<tid>/screen?part=live`` (else ``/screen``), one in flight at most,
  two starts at least 0.5 s apart (its ``data-min-gap``).
  Where neither page exists on this checkout it measures the event's arrival and says so.

The saves begin, ``--warmup`` seconds (4) pass, then ``--seconds`` (18) are measured and
3 s more are left for the last events and fetches. A standard-4 game has 12 deals: at one
every 2 s a table finishes after 24 s and then stops saving, so the default run (4 + 18 s)
measures tables that are all still playing; a longer ``--seconds`` measures fewer saves.

Printed per step: saves per second served (and offered), p50/p95/max of save → every
phone of that table told (from sending the PUT to the last of its four phones receiving
an event of that version or later) and of save → every projector updated (from sending
the PUT to the end of each projector's first fetch begun after the PUT's answer came
back, so certainly showing it), p95 page time (phones', projectors'), errors (answers
not 2xx, streams refused or dropped, exceptions, saves never told within the 3 s), the
server's memory per open stream, the processor time both sides used per second of the
measured run (so that one can see the client was not the bottleneck), how long the
server waited for its core (other programs on core 0: then the figures are not the
app's alone), and the server's processor time a save (with its events and fetches), so
what one core of its own would serve. Targets:
p95 save → projector ≤ 1 s, p95 page ≤ 100 ms, 0 errors. Then the tables are doubled
(each step a fresh server and database) until a target breaks or ``--max-tables`` is
passed, and the last line says where.

``--interval S`` makes it a save per table every ``S`` seconds (default 2; a real table
saves a deal every few minutes, so ``--interval 20`` is still about ten times its pace).
Each step's server is given ``--stream-limit`` for every phone's and projector's stream
twice over (a phone that moves to a new table leaves its old stream open on the server
until the next heartbeat finds it closed, as a browser does), and the printed line
"memory" is the server's RSS growth from opening every stream, divided by the streams.

``--round-change`` ends round 1 with the measured run: before the server starts, each
table's game is played (through the domain) up to the deals the table will save in the
run, so that its last save of the run is its game's last deal. Then the director draws
round 2 (``POST /api/tournaments/<tid>/rounds`` with the director's token) and every
phone does what its page does: its game's stream brings a ``round`` event, it fetches
``/games/<gid>/next-round`` (where the table's players sit now) after a random part of
the event's ``spread`` (the server scales it to the round's tables: 30 s at 1,000), as
live.js waits, takes its own seat's player's link and, at a moment drawn evenly over ``--follow-within`` seconds (60:
people tap at their own pace), loads the new table's game page and opens that game's
stream: it is then at its new table. Each new table saves a deal every ``--interval`` s
once its four phones are there, its first at a random moment within one interval (a deal
takes that long to play). Printed: the draw's time, when every phone was told,
how many phones reached their new table and when the last did, the phones' and
projectors' p95 page from the draw until then (the fragment and the new page apart),
the round 2 saves and the server's share of its core; the p95 page ≤ 100 ms and every
phone at its new table are targets. Without ``--round-change`` the run is as before.

``--print`` has the director print during the measured run (issue 32, item 6): 1 s into
it, round 1's sheet (seat plan and every table's card with its QR code,
``/tournaments/<tid>/rounds/1/sheet.pdf`` with the director's token) and then the results
PDF, one after the other on one connection; each one's status and time is printed, and
the pages' and projectors' figures are then those of a club night with its sheets being
printed (rendered by the server's PDF worker, which ``taskset`` pins to core 0 with it);
a line compares the phones' p95 page while the PDFs were on their way with the rest of
the measured run ("pages suffered" when it is above 100 ms and 1.5 times the rest).
``--events-only`` has the phones and projectors fetch nothing (what the saves and the
streams cost without the pages); ``--profile FILE`` runs the server under cProfile over
the measured run (pstats files ``FILE.<tables>``); ``CLUB_DUMP=file.json`` writes every
save's and fetch's timing there for a closer look.

Measured on a 2-core AMD EPYC machine (nproc 2, shared with other work): server on
core 0, client on core 1; the results are in docs/production.md ("Club night").
"""
from __future__ import annotations

import argparse
import asyncio
import bisect
import gzip
import json
import math
import os
import random
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

SECRET = "bench-club-secret-key"
PERIOD = 2.0          # seconds between a table's saves (--interval)
DEALS = 12            # a standard-4 game
FOLLOW_WITHIN = 60.0  # s: --round-change, phones tap their new table within this
#: s: a phone waits a random part of the round event's "spread" before fetching next-round
#: (static/live.js's roundWait): ROUND_JITTER when the event says none, at most
#: ROUND_SPREAD_MAX.
ROUND_JITTER = 1.0
ROUND_SPREAD_MAX = 30.0
#: The server ends a stream after 4-5 minutes (live.STREAM_SECONDS, shortened at random by
#: up to a fifth) and the browser opens another: a stream that lived this long ended so.
STREAM_LIFE = 0.8 * 300 - 5
GRACE = 3.0           # seconds left after the measured run for the last events
PHONES = 4            # a table of four
PROJECTORS = 3
TARGET_PROJECTOR = 1.0   # s, p95 save → projector
#: static/tournament.js's least time between a projector's fetches (screen.html's default).
PROJECTOR_GAP = 0.5
TARGET_PAGE = 0.100      # s, p95 page
PRINT_AFTER = 1.0        # s into the measured run, --print: the director prints
FULL = 0.9               # the server's core this busy (with what others took): full
PROFILED = r"""
import cProfile, signal, sys
from scorekeeper import cli
cli.patch()
import gevent
profile = cProfile.Profile()
def begin():
    profile.enable()
def end():
    profile.disable()
    profile.dump_stats(sys.argv[1])
gevent.signal_handler(signal.SIGUSR2, begin)
gevent.signal_handler(signal.SIGUSR1, end)
sys.exit(cli.main(sys.argv[2:]))
"""
BROWSER = ("Accept-Encoding: gzip, deflate, br, zstd\r\n"
           "Accept-Language: pl-PL,pl;q=0.9,en;q=0.8\r\n"
           "User-Agent: Mozilla/5.0 (Linux; Android 14) bench-club\r\n")


def cpu_seconds(pid: int) -> float:
    """The processor time a server has used so far (user and system), from /proc: the
    process and its children (gunicorn's master and its workers)."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        children = []
    return sum(_cpu_of(p) for p in (pid, *map(int, children)))


def _cpu_of(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def waited_seconds(pid: int) -> float:
    """How long the process's main thread (gevent's hub: every request) has waited for a
    processor while ready to run (/proc/<pid>/schedstat): other programs on its core."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return float("nan")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def machine() -> str:
    model = "unknown processor"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores, {model}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


# --- the tournament ----------------------------------------------------------------------

@dataclass
class Fixture:
    tid: str
    games: list[str]               # one per table, in table order
    versions: dict[str, int]       # each game's version before its first deal in the run
    tokens: dict[str, str]
    results: list[dict]            # standard-4's deals 1..12
    director: str = ""             # the director's token (the round sheet is theirs)
    #: Deals each table entered before the run (``--round-change``: so that its last deal
    #: is the last it saves in the measured run, and the round is over at its end).
    played: dict[str, int] = field(default_factory=dict)


def saves_in_run(tables: int, interval: float, run: float) -> list[int]:
    """How many saves each table makes in ``run`` seconds (its first at ``interval`` ×
    its index / ``tables``), at most a game's 12 deals."""
    return [min(DEALS, max(0, math.ceil((run - interval * i / tables) / interval)))
            for i in range(tables)]


def make_tournament(instance: Path, tables: int, left: list[int] | None = None) -> Fixture:
    """A tournament of ``tables`` tables of four, written before the server starts; with
    ``left`` (deals each table is to save in the run), each round 1 game is played up to
    its last ``left[i]`` deals first."""
    os.environ["KIERKI_INSTANCE"] = str(instance)
    from scorekeeper import create_app
    from scorekeeper.domain import tournaments
    from scorekeeper.families.kierki.rules import get_ruleset
    from scorekeeper.families.kierki.rules.examples import plausible_results
    from scorekeeper.storage import game_reads
    from scorekeeper.web import access
    from scorekeeper.web.db import get_db

    app = create_app({"DATABASE": str(instance / "kierki.sqlite"), "SECRET_KEY": SECRET,
                      "MAX_GAMES": 1_000_000})
    names = [f"Gracz {i:04d}" for i in range(1, PHONES * tables + 1)]
    with app.app_context():
        db = get_db()
        t = tournaments.create(db, "Klub czwartkowy", names, 3, {"4": "standard-4"},
                               seed="club-bench")
        games = [table.game_id for table in t.rounds[0]]
        results = plausible_results(get_ruleset("standard-4"))
        played = {}
        if left is not None:
            from scorekeeper.domain import service
            for gid, n in zip(games, left, strict=True):
                game = service.load(db, gid)
                for number in range(1, DEALS - n + 1):
                    game = service.enter_deal(db, game, number, results[number - 1],
                                              game.version)
                played[gid] = DEALS - n
        versions = {g: game_reads.game_version(db, g) for g in games}
    return Fixture(t.id, games, versions, {g: access.token(g, SECRET) for g in games},
                   results, access.tournament_token(t.id, SECRET), played)


# --- HTTP over asyncio ---------------------------------------------------------------------

class Failed(Exception):
    pass


async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[bytes, bytes]]:
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head[9:12])
    headers: dict[bytes, bytes] = {}
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name:
            headers[name.strip().lower()] = value.strip()
    return status, headers


async def read_body(reader: asyncio.StreamReader, headers: dict[bytes, bytes]) -> bytes:
    if b"chunked" in headers.get(b"transfer-encoding", b"").lower():
        parts = []
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            parts.append(await reader.readexactly(size + 2))
            if size == 0:
                return b"".join(parts)
    length = int(headers.get(b"content-length", b"0"))
    return await reader.readexactly(length) if length else b""


class Connection:
    """One keep-alive HTTP/1.1 connection, one request at a time."""

    def __init__(self, port: int):
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, raw: bytes) -> tuple[int, dict[bytes, bytes], bytes]:
        for attempt in (1, 2):  # a kept connection the server closed: one new one
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1",
                                                                         self.port)
            reader, writer = self.reader, self.writer
            try:
                writer.write(raw)
                status, headers = await read_head(reader)
                body = await read_body(reader, headers)
                if headers.get(b"connection", b"").lower() == b"close":
                    self.close()
                return status, headers, body
            except (OSError, asyncio.IncompleteReadError):
                self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


def get(path: str, cookie: str = "", accept: str = "*/*", extra: str = "") -> bytes:
    return (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: {accept}\r\n{BROWSER}"
            + (f"Cookie: {cookie}\r\n" if cookie else "") + extra + "\r\n").encode()


NO_CACHE = "Cache-Control: no-cache\r\nPragma: no-cache\r\n"  # fetch(..., {cache: "no-store"})


def cookie_of(headers: dict[bytes, bytes], old: str) -> str:
    value = headers.get(b"set-cookie")
    return value.split(b";")[0].decode() if value else old


# --- the club --------------------------------------------------------------------------------

@dataclass
class Tally:
    errors: dict[str, int] = field(default_factory=dict)
    measuring: bool = False
    renewed: int = 0  # streams that ended at the end of their life and were opened again
    parts: int = 0  # phones' fetches answered by the live fragment
    whole: int = 0  # fragments that sent the phone on to the whole page

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


class Follower:
    """A page with an event stream: a phone on its game, or a projector on the
    tournament. Refreshes as live.js and tournament.js do: one fetch in flight, one more
    if an event came meanwhile."""

    def __init__(self, port: int, stream: str, page: str | None, tally: Tally,
                 min_gap: float = 0.0):
        self.port, self.stream_path, self.page, self.tally = port, stream, page, tally
        #: The least time between two fetches' starts (tournament.js's data-min-gap: a
        #: projector 0.5 s; live.js on a game page has none).
        self.min_gap = min_gap
        self.last_began = -1e9
        self.cookie = ""
        self.known = 0
        self.latest = 0
        self.arrivals: list[tuple[int, float]] = []       # (version, when received)
        self.fetches: list[tuple[float, float]] = []      # (began, ended) of good ones
        self.page_times: list[tuple[float, float]] = []   # (began, seconds)
        #: A phone whose server has the game's live fragment (``?part=live``, issue 34):
        #: it fetches that, and the whole page only when the fragment says so.
        self.live = False
        self.conn = Connection(port)
        self.moving_conn = Connection(port)  # the round change's fetches (a browser has six)
        self.busy = False
        self.again = False
        self.stopped = False
        self.writer: asyncio.StreamWriter | None = None
        self.opened = asyncio.Event()
        self.task: asyncio.Task | None = None
        #: --round-change: a phone's seat at its table (which link of the next-round
        #: fragment is its player's), when it is to tap it (seconds after it shows), the
        #: stream being changed for the new table's, when the round event came and when
        #: the phone was at its new table (its page loaded, its stream open).
        self.seat = 0
        self.tap_after = 0.0
        self.switching = False
        self.moving = False
        self.round_heard = 0.0
        self.round_spread = ROUND_JITTER  # s, the round event's (round_spread)
        self.arrived = 0.0
        self.new_game = ""
        self.on_arrival = None
        self.round_pages: list[tuple[str, float]] = []  # ("next-round" | "new page", s)
        self.old_arrivals: list[tuple[int, float]] | None = None  # round 1's game's

    async def open_page(self) -> None:
        """The page as first opened (its cookie and version)."""
        if self.page is None:
            return
        status, headers, _ = await self.conn.request(get(self.page, self.cookie))
        if status != 200:
            self.tally.error(f"page {status}")
        self.cookie = cookie_of(headers, self.cookie)

    async def follow(self) -> None:
        """The event stream, reconnected as EventSource does when it ends by itself."""
        while not self.stopped:
            try:
                reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
                last = f"Last-Event-ID: {self.latest}\r\n" if self.latest else ""
                self.writer.write(get(self.stream_path, self.cookie, "text/event-stream",
                                      "Cache-Control: no-cache\r\n" + last))
                status, headers = await read_head(reader)
                if status != 200:
                    self.tally.error(f"stream {status}")
                    return
                began = time.perf_counter()
                await self._events(reader, b"chunked" in headers.get(
                    b"transfer-encoding", b"").lower())
                if self.switching:  # the page went to its new table: its stream now
                    self.switching = False
                    continue
                if time.perf_counter() - began >= STREAM_LIFE:
                    self.tally.renewed += 1  # its life is over: EventSource opens another
                elif not self.stopped:
                    self.tally.error("stream ended")  # before its life was over
            except (OSError, asyncio.IncompleteReadError, ValueError):
                if self.switching:
                    self.switching = False
                    continue
                if not self.stopped:
                    self.tally.error("stream dropped")
                    return
            finally:
                if self.writer is not None:
                    self.writer.close()

    async def _events(self, reader: asyncio.StreamReader, chunked: bool) -> None:
        buffer = b""
        while True:
            if chunked:
                size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
                data = await reader.readexactly(size + 2)
                if size == 0:
                    return
                buffer += data[:-2]
            else:
                data = await reader.read(65536)
                if not data:
                    return
                buffer += data
            while b"\n\n" in buffer:
                event, buffer = buffer.split(b"\n\n", 1)
                self._event(event)

    def _event(self, event: bytes) -> None:
        version = None
        for line in event.split(b"\n"):
            if line.startswith(b"id: "):
                version = int(line[4:])
            elif line == b"event: round":  # the director drew the next round (live.js)
                if not self.moving and self.page is not None:
                    self.moving = True
                    self.round_heard = time.perf_counter()
                    self.round_spread = round_spread(event)
                    asyncio.get_running_loop().create_task(self.move())
                return
        if version is None:
            self.opened.set()  # ": up to date", or the retry line alone
            return
        now = time.perf_counter()
        self.arrivals.append((version, now))
        self.latest = max(self.latest, version)
        if not self.opened.is_set():
            self.known = version  # the page was opened at this version
            self.opened.set()
            return
        if version > self.known:
            self.refresh()

    def refresh(self) -> None:
        if self.page is None:  # nothing to fetch: the event's arrival is the update
            self.known = self.latest
            now = self.arrivals[-1][1]
            self.fetches.append((now, now))
            return
        if self.busy:
            self.again = True
            return
        self.busy = True
        asyncio.get_running_loop().create_task(self._fetch())

    async def _fetch(self) -> None:
        try:
            while True:
                wait = self.last_began + self.min_gap - time.perf_counter()
                if wait > 0:
                    await asyncio.sleep(wait)
                self.again = False
                target = self.latest
                began = self.last_began = time.perf_counter()
                try:
                    if self.live:  # live.js: the live fragment, since the page's version
                        status, headers, body = await self.conn.request(get(
                            f"{self.page}?part=live&since={self.known}", self.cookie,
                            extra=NO_CACHE))
                        if headers.get(b"content-encoding", b"").lower() == b"gzip":
                            body = gzip.decompress(body)
                        if status == 200 and b"data-whole" in body:
                            self.page_times.append((began, time.perf_counter() - began))
                            self.tally.whole += 1  # what the fragment cannot show: the page
                            began = time.perf_counter()
                            status, headers, _ = await self.conn.request(
                                get(self.page, self.cookie, extra=NO_CACHE))
                        else:
                            self.tally.parts += 1
                    else:
                        status, headers, _ = await self.conn.request(
                            get(self.page, self.cookie, extra=NO_CACHE))
                except (OSError, asyncio.IncompleteReadError) as e:
                    if not self.stopped:  # not the end of the run closing it
                        self.tally.error(f"fetch {type(e).__name__}")
                    return
                ended = time.perf_counter()
                self.cookie = cookie_of(headers, self.cookie)
                self.page_times.append((began, ended - began))
                if 200 <= status < 300:
                    self.fetches.append((began, ended))
                    self.known = max(self.known, target)
                else:
                    self.tally.error(f"fetch {status}")
                if not self.again or self.stopped:
                    return
        finally:
            self.busy = False

    async def timed(self, path: str, extra: str = "") -> tuple[int, bytes]:
        """A page or fragment fetched on the phone's page connection, timed as a page."""
        began = time.perf_counter()
        try:
            status, headers, body = await self.moving_conn.request(get(path, self.cookie,
                                                                       extra=extra))
        except (OSError, asyncio.IncompleteReadError) as e:
            if not self.stopped:
                self.tally.error(f"round change {type(e).__name__}")
            return 0, b""
        self.page_times.append((began, time.perf_counter() - began))
        self.round_pages.append(("next-round" if path.endswith("/next-round") else "new page",
                                 time.perf_counter() - began))
        self.cookie = cookie_of(headers, self.cookie)
        if not 200 <= status < 300:
            self.tally.error(f"round change {status}")
        if headers.get(b"content-encoding", b"").lower() == b"gzip":
            body = gzip.decompress(body)
        return status, body

    async def move(self) -> None:
        """What live.js does on a ``round`` event, then the player's tap: wait a random
        part of the event's spread (:func:`round_spread`), fetch where the table's players
        sit now (``/games/<gid>/next-round``), take this seat's player's link, and after
        ``tap_after`` s load the new table's game page and follow it."""
        await asyncio.sleep(random.random() * self.round_spread)  # live.js's roundWait
        status, body = await self.timed(self.page + "/next-round", NO_CACHE)
        links = [re.search(rb'href="(/games/[^"]+)"', item) for item in
                 re.findall(rb"<li data-player=\"\d+\">(.*?)</li>", body, re.DOTALL)]
        if status != 200 or self.seat >= len(links) or links[self.seat] is None:
            self.tally.error("round change: no new table shown")
            return
        self.new_game = links[self.seat].group(1).decode()
        await asyncio.sleep(max(0.0, self.round_heard + self.tap_after - time.perf_counter()))
        if self.stopped:
            return
        status, _ = await self.timed(self.new_game)  # the tap: a navigation
        if status != 200:
            return
        self.page, self.stream_path = self.new_game, self.new_game + "/events"
        self.known = self.latest = 0
        self.old_arrivals, self.arrivals = self.arrivals, []
        self.opened = asyncio.Event()
        self.switching = True
        if self.writer is not None:
            self.writer.close()  # the old page's stream ends; follow() opens the new one
        await self.opened.wait()
        self.arrived = time.perf_counter()
        if self.on_arrival is not None:
            self.on_arrival()

    def stop(self) -> None:
        self.stopped = True
        if self.writer is not None:
            self.writer.close()
        self.conn.close()
        self.moving_conn.close()


def round_spread(event: bytes) -> float:
    """The seconds over which static/live.js's roundWait spreads its fetch on a ``round``
    event (``event``: its lines): the ``spread`` it carries (``ROUND_JITTER`` when it
    carries none), at most ``ROUND_SPREAD_MAX``; the phone waits a random part of it."""
    spread = 0.0
    for line in event.split(b"\n"):
        if line.startswith(b"data:"):
            try:
                spread = float(json.loads(line[5:]).get("spread") or 0.0)
            except (ValueError, TypeError, AttributeError):
                spread = 0.0
    return min(spread if spread > 0 else ROUND_JITTER, ROUND_SPREAD_MAX)


@dataclass
class Save:
    table: int
    sent: float
    answered: float
    version: int


async def table_saves(port: int, index: int, gid: str, token: str, version: int | None,
                      results: list[dict], first: float, stop: float, saves: list[Save],
                      tally: Tally, interval: float = PERIOD, played: int = 0) -> None:
    """A table's phone entering a deal every ``interval`` seconds from ``first`` on, from
    deal ``played`` + 1 (``version`` None: read first, as the API's client would)."""
    conn = Connection(port)
    try:
        if version is None:
            status, headers, answer = await conn.request(
                (f"GET /api/games/{gid} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: "
                 f"application/json\r\n{BROWSER}Authorization: Bearer {token}\r\n\r\n"
                 ).encode())
            if status != 200:
                tally.error(f"save: read {status}")
                return
            if headers.get(b"content-encoding", b"").lower() == b"gzip":  # BROWSER asks for it
                answer = gzip.decompress(answer)
            version = json.loads(answer)["version"]
        for number, result in enumerate(results[played:], start=played + 1):
            at = first + (number - played - 1) * interval
            if at >= stop:
                return
            await asyncio.sleep(max(0.0, at - time.perf_counter()))
            body = json.dumps({"version": version, "result": result}).encode()
            raw = (f"PUT /api/games/{gid}/deals/{number} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                   f"Accept: application/json\r\n{BROWSER}Authorization: Bearer {token}\r\n"
                   f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
                   ).encode() + body
            sent = time.perf_counter()
            try:
                status, _, answer = await conn.request(raw)
            except (OSError, asyncio.IncompleteReadError) as e:
                tally.error(f"save {type(e).__name__}")
                return
            answered = time.perf_counter()
            if status != 200:
                tally.error(f"save {status}")
                return
            version = json.loads(answer)["version"]
            saves.append(Save(index, sent, answered, version))
    finally:
        conn.close()


async def director_draws(port: int, fx: Fixture, tally: Tally) -> tuple[int, list[str], float]:
    """The director draws round 2 (the API, with the director's token): its status, the
    new games in table order, and how long the draw took."""
    conn = Connection(port)
    body = json.dumps({"number": 2}).encode()
    sent = time.perf_counter()
    try:
        status, _, answer = await conn.request(
            (f"POST /api/tournaments/{fx.tid}/rounds HTTP/1.1\r\nHost: 127.0.0.1\r\n"
             f"Accept: application/json\r\n{BROWSER}Authorization: Bearer {fx.director}\r\n"
             f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
             ).encode() + body)
    except (OSError, asyncio.IncompleteReadError) as e:
        tally.error(f"draw {type(e).__name__}")
        return 0, [], time.perf_counter() - sent
    finally:
        conn.close()
    took = time.perf_counter() - sent
    if status != 201:
        tally.error(f"draw {status}: {answer[:200]!r}")
        return status, [], took
    return status, [t["game"] for t in json.loads(answer)["tables"]], took


async def director_prints(port: int, fx: Fixture, at: float, tally: Tally,
                          printed: list[tuple[str, int, float, int]],
                          when: list[float] | None = None) -> None:
    """``--print``: at ``at`` the director prints round 1's sheet (seat plan and table
    cards), then the results, one after the other, as a browser opens a PDF."""
    await asyncio.sleep(max(0.0, at - time.perf_counter()))
    conn = Connection(port)
    try:
        for what, path in (("round sheet", f"/tournaments/{fx.tid}/rounds/1/sheet.pdf"),
                           ("results", f"/tournaments/{fx.tid}/results.pdf")):
            sent = time.perf_counter()
            try:
                status, _, body = await conn.request(get(
                    path, accept="application/pdf",
                    extra=f"Authorization: Bearer {fx.director}\r\n"))
            except (OSError, asyncio.IncompleteReadError) as e:
                tally.error(f"print {type(e).__name__}")
                return
            printed.append((what, status, time.perf_counter() - sent, len(body)))
            if when is not None:
                when[:] = [when[0] if when else sent, time.perf_counter()]
            if status != 200 or not body.startswith(b"%PDF-"):
                tally.error(f"print {status}")
    finally:
        conn.close()


def told_at(follower: Follower, version: int) -> float:
    """When the follower first received an event of ``version`` or later (of its round 1
    game: a phone that moved to round 2 keeps those apart)."""
    arrivals = follower.old_arrivals if follower.old_arrivals is not None else follower.arrivals
    return min((t for v, t in arrivals if v >= version), default=float("inf"))


def updated_at(fetches: list[tuple[float, float]], starts: list[float], after: float) -> float:
    """The end of the first good fetch begun at ``after`` or later."""
    i = bisect.bisect_left(starts, after)
    return fetches[i][1] if i < len(fetches) else float("inf")


@dataclass
class Step:
    tables: int
    lines: list[str]
    broken: list[str]


@dataclass
class Change:
    lines: list[str]
    broken: list[str]


async def round_change(port: int, pid: int, fx: Fixture, phones: list[list[Follower]],
                       projectors: list[Follower], tally: Tally,
                       args: argparse.Namespace) -> Change:
    """``--round-change``: round 1 is over (each table's last deal was its last save of the
    measured run); the director draws round 2 and every phone follows as a player's would:
    its game page hears the ``round`` event and fetches where its table's players sit now
    (live.js), the player taps their new table at a moment spread evenly over
    ``--follow-within`` seconds (people do not all tap at once), the new game page loads
    and its stream opens: the phone is at its new table. Each new table starts playing
    once its four phones are there and saves a deal every ``--interval`` s, its first at a
    random moment within one interval of sitting down (a deal takes that long to play; the
    tables' moments spread as in round 1). Measured: the draw, how many phones were told and
    when, the pages (phones', projectors') from the draw until the last phone is there, how
    long that took, the server's processor."""
    everyone = [p for table in phones for p in table]
    rng = random.Random(34)
    for table in phones:
        for seat, p in enumerate(table):
            p.seat, p.tap_after = seat, rng.uniform(0.0, args.follow_within)
    done = asyncio.Event()
    seated: dict[str, int] = {}
    ready: dict[str, asyncio.Event] = {}
    count = [0]

    def arrived_one(p: Follower) -> None:
        count[0] += 1
        seated[p.new_game] = seated.get(p.new_game, 0) + 1
        gid = p.new_game.rsplit("/", 1)[-1]
        if gid in ready and seated[p.new_game] >= PHONES:
            ready[gid].set()
        if count[0] == len(everyone):
            done.set()

    for p in everyone:
        p.on_arrival = (lambda p=p: arrived_one(p))
    cpu_before, waited_before = cpu_seconds(pid), waited_seconds(pid)
    began = time.perf_counter()
    status, games, took = await director_draws(port, fx, tally)
    saves: list[Save] = []
    deadline = began + args.follow_within + 30.0
    from scorekeeper.web import access  # the new games' tokens: HMACs under the bench's key

    first_deal = {gid: rng.uniform(0.0, args.interval) for gid in games}

    async def table_plays(index: int, gid: str) -> None:
        await ready[gid].wait()
        await table_saves(port, index, gid, access.token(gid, SECRET), None, fx.results,
                          time.perf_counter() + first_deal[gid], deadline, saves, tally,
                          args.interval)

    for gid in games:
        ready[gid] = asyncio.Event()
    for key, n in seated.items():  # a phone quicker than the draw's answer (none, surely)
        gid = key.rsplit("/", 1)[-1]
        if gid in ready and n >= PHONES:
            ready[gid].set()
    players = [asyncio.get_running_loop().create_task(table_plays(i, gid))
               for i, gid in enumerate(games)]
    try:
        await asyncio.wait_for(done.wait(), max(1.0, deadline - time.perf_counter()))
    except TimeoutError:
        pass
    ended = time.perf_counter()
    cpu = cpu_seconds(pid) - cpu_before
    waited = waited_seconds(pid) - waited_before
    for task in players:
        task.cancel()
    for failed in await asyncio.gather(*players, return_exceptions=True):
        if isinstance(failed, Exception):  # a round 2 table that stopped saving: say why
            tally.error(f"round 2 table {type(failed).__name__}")
    heard = [p.round_heard - began for p in everyone if p.round_heard]
    at = [p.arrived - began for p in everyone if p.arrived]
    missing = len(everyone) - len(at)
    if missing:
        tally.errors["phones not at their new table"] = missing
    pages = [d for p in everyone for b, d in p.page_times if began <= b < ended]
    fragments = [d for p in everyone for k, d in p.round_pages if k == "next-round"]
    new_pages = [d for p in everyone for k, d in p.round_pages if k == "new page"]
    shown = [d for pr in projectors for b, d in pr.page_times if began <= b < ended]
    span = max(ended - began, 1e-9)

    def ms(values: list[float], q: float = 0.95) -> str:
        return f"{percentile(values, q) * 1000:.0f} ms" if values else "-"

    lines = [
        (f"round change (--round-change): round 2 drawn by the director's API in "
         f"{took:.1f} s ({status}, {len(games)} tables); {len(heard)} of {len(everyone)} "
         f"phones told, within {max(heard, default=float('nan')):.1f} s (p95 {ms(heard)}), "
         f"their fetches "
         f"spread over {max((p.round_spread for p in everyone if p.round_heard), default=0):g} s; "
         f"{len(at)} of {len(everyone)} phones at their new table (taps spread over "
         f"{args.follow_within:g} s), the last {max(at, default=float('nan')):.1f} s after "
         f"the draw"),
        (f"round change pages: phones' p95 {ms(pages)} ({len(pages)} fetches: where the "
         f"table's players sit now p95 {ms(fragments)}, the new game page p95 "
         f"{ms(new_pages)}), projectors' p95 {ms(shown)} ({len(shown)}); round 2 saves "
         f"{len(saves)} ({len(saves) / span:.1f}/s); server {cpu / span:.0%} of its core, "
         f"waited for it {waited / span:.0%}"),
    ]
    broken = []
    worst = max(percentile(pages, 0.95) if pages else 0.0,
                percentile(shown, 0.95) if shown else 0.0)
    if not worst <= TARGET_PAGE:
        broken.append(f"p95 page during the round change {worst * 1000:.0f} ms > "
                      f"{TARGET_PAGE * 1000:.0f} ms")
    if missing:
        broken.append(f"{missing} phones not at their new table within "
                      f"{deadline - began:.0f} s")
    return Change(lines, broken)


async def club(port: int, pid: int, fx: Fixture, projector_page: str | None,
               args: argparse.Namespace) -> Step:
    tally = Tally()
    fetching = not args.events_only
    phones = [[Follower(port, f"/games/{gid}/events", f"/games/{gid}" if fetching else None,
                        tally) for _ in range(PHONES)] for gid in fx.games]
    projectors = [Follower(port, f"/tournaments/{fx.tid}/events",
                           projector_page if fetching else None, tally, PROJECTOR_GAP)
                  for _ in range(PROJECTORS)]
    everyone = [p for table in phones for p in table] + projectors
    if fetching and fx.games and has_live_part(port, fx.games[0]):
        for f in (p for table in phones for p in table):
            f.live = True
    gate = asyncio.Semaphore(64)

    async def opening(f: Follower) -> None:
        async with gate:
            await f.open_page()

    await asyncio.gather(*(opening(f) for f in everyone))
    await asyncio.sleep(0.5)
    rss_before = rss_kib(pid)
    for f in everyone:
        f.task = asyncio.get_running_loop().create_task(f.follow())
        await asyncio.sleep(0)  # let it connect in turn, as phones come in
    try:
        await asyncio.wait_for(asyncio.gather(*(f.opened.wait() for f in everyone)), 60)
    except TimeoutError:
        tally.error("stream not opened within 60 s")
    await asyncio.sleep(1.0)
    rss_after = rss_kib(pid)
    streams = len(everyone)

    start = time.perf_counter() + 0.5
    window = (start + args.warmup, start + args.warmup + args.seconds)
    saves: list[Save] = []
    interval = args.interval
    savers = [asyncio.get_running_loop().create_task(table_saves(
        port, i, gid, fx.tokens[gid], fx.versions[gid], fx.results,
        start + interval * i / len(fx.games), window[1], saves, tally, interval,
        fx.played.get(gid, 0))) for i, gid in enumerate(fx.games)]
    printed: list[tuple[str, int, float, int]] = []
    printing: list[float] = []  # when the director's prints began and ended
    printer = (asyncio.get_running_loop().create_task(
        director_prints(port, fx, window[0] + PRINT_AFTER, tally, printed, printing))
        if args.print else None)
    await asyncio.sleep(max(0.0, window[0] - time.perf_counter()))
    if args.profile:
        os.kill(pid, signal.SIGUSR2)
    cpu_server, cpu_client = cpu_seconds(pid), sum(os.times()[:2])
    waited = waited_seconds(pid)
    await asyncio.sleep(max(0.0, window[1] - time.perf_counter()))
    cpu_server = cpu_seconds(pid) - cpu_server
    waited = waited_seconds(pid) - waited
    if args.profile:
        os.kill(pid, signal.SIGUSR1)
    load = os.getloadavg()[0]
    cpu_client = sum(os.times()[:2]) - cpu_client
    await asyncio.gather(*savers, *([printer] if printer else []))
    await asyncio.sleep(GRACE)
    change = await round_change(port, pid, fx, phones, projectors, tally, args) \
        if args.round_change else None
    for f in everyone:
        f.stop()
    await asyncio.gather(*(f.task for f in everyone if f.task), return_exceptions=True)

    # --- what the run measured ---
    measured = [s for s in saves if window[0] <= s.sent < window[1]]
    told, shown = [], []
    for s in measured:
        told.append(max(told_at(p, s.version) for p in phones[s.table]) - s.sent)
    for pr in projectors:
        pr.fetches.sort()
    starts = [[b for b, _ in pr.fetches] for pr in projectors]
    for s in measured:
        shown.append(max(updated_at(pr.fetches, st, s.answered)
                         for pr, st in zip(projectors, starts, strict=True)) - s.sent)
    never_told = sum(1 for x in told if x == float("inf"))
    never_shown = sum(1 for x in shown if x == float("inf"))
    if never_told:
        tally.errors["saves not told to every phone"] = never_told
    if never_shown:
        tally.errors["saves not shown on every projector"] = never_shown
    phone_pages = [d for table in phones for p in table for b, d in p.page_times
                   if window[0] <= b < window[1]]
    if printing:  # the pages begun while the director's PDFs were on their way, and the rest
        during = [d for table in phones for p in table for b, d in p.page_times
                  if window[0] <= b < window[1] and printing[0] <= b < printing[1]]
        other = [d for table in phones for p in table for b, d in p.page_times
                 if window[0] <= b < window[1] and not printing[0] <= b < printing[1]]
    projector_pages = [d for pr in projectors for b, d in pr.page_times
                       if window[0] <= b < window[1]]
    errors = sum(tally.errors.values())
    per_save = cpu_server / len(measured) if measured else 0.0
    busy = (cpu_server + waited) / args.seconds  # its share, and what others took of it
    if os.environ.get("CLUB_DUMP"):  # every timing, for a closer look
        Path(os.environ["CLUB_DUMP"]).write_text(json.dumps({
            "start": start, "saves": [[s.table, s.sent - start, s.answered - s.sent, s.version]
                                      for s in saves],
            "pages": sorted([b - start, d] for table in phones for p in table
                            for b, d in p.page_times),
            "projectors": [{"fetches": [[b - start, d] for b, d in pr.page_times],
                            "events": [[v, t - start] for v, t in pr.arrivals]}
                           for pr in projectors]}))

    def ms3(values: list[float]) -> str:
        good = [v for v in values if v != float("inf")]
        return (f"p50 {percentile(good, 0.5) * 1000:.0f} ms, p95 "
                f"{percentile(values, 0.95) * 1000:.0f} ms, max {max(values) * 1000:.0f} ms"
                if values else "none")

    p95_shown = percentile(shown, 0.95)
    p95_page = max([percentile(x, 0.95) for x in (phone_pages, projector_pages) if x]
                   or [0.0])
    what = ("events only, no page fetched (--events-only)" if not fetching
            else "projector fetch " + projector_page if projector_page
            else "no projector page on this checkout: its event's arrival")
    lines = [
        (f"tables {len(fx.games)}: {len(fx.games) * PHONES} phones, {PROJECTORS} projectors "
        f"({what}); {args.seconds:g} s measured after {args.warmup:g} s"),
        (f"saves: {len(measured) / args.seconds:.1f}/s served "
        f"({len(fx.games) / interval:.1f}/s offered, one a table every {interval:g} s), "
        f"answered "
        f"p95 {percentile([s.answered - s.sent for s in measured], 0.95) * 1000:.0f} ms"),
        f"save → every phone of the table told: {ms3(told)}",
        f"save → every projector updated: {ms3(shown)}",
        f"page: phones' p95 {percentile(phone_pages, 0.95) * 1000:.0f} ms "
        f"({len(phone_pages)} fetches"
        + (f"; {tally.parts} live fragments, {tally.whole} sent on to the whole page"
           if tally.parts or tally.whole else "") + "), projectors' p95 "
        + (f"{percentile(projector_pages, 0.95) * 1000:.0f} ms ({len(projector_pages)})"
           if projector_pages else "-"),
        *([("print (--print): " + ", ".join(
            f"{what} {status} in {took:.1f} s ({size // 1024} KiB)"
            for what, status, took, size in printed) if printed else
            "print (--print): nothing printed")] if args.print else []),
        *([f"pages while printing ({printing[1] - printing[0]:.1f} s, of it "
           f"{max(0.0, min(printing[1], window[1]) - max(printing[0], window[0])):.1f} s "
           f"measured): phones' p95 {percentile(during, 0.95) * 1000:.0f} ms ({len(during)} "
           f"fetches), the rest of the measured run "
           + (f"{percentile(other, 0.95) * 1000:.0f} ms ({len(other)}): " + (
               "pages suffered" if during and percentile(during, 0.95) > max(
                   TARGET_PAGE, 1.5 * percentile(other, 0.95)) else "pages did not suffer")
              if other else "none: the PDFs took all of it")]
          if printing else []),
        *(change.lines if change else []),
        f"errors: {errors}" + (" (" + ", ".join(f"{k}: {v}" for k, v in
                                                 sorted(tally.errors.items())) + ")"
                               if errors else ""),
        *([f"streams renewed at the end of their 4-5 minutes' life: {tally.renewed}"]
          if tally.renewed else []),
        (f"memory: {(rss_after - rss_before) / streams:.1f} KiB a stream "
        f"({streams} streams: RSS {rss_before / 1024:.0f} → {rss_after / 1024:.0f} MiB)"),
        (f"processor: server {cpu_server / args.seconds:.0%} of its core, client "
         f"{cpu_client / args.seconds:.0%} of one; the server waited for its core "
         f"{waited / args.seconds:.0%} of the time (load average {load:.1f})"),
        (f"cost: {per_save * 1000:.1f} ms of the server's processor a save, with its "
         f"events and fetches: " + (
             f"a core of its own would serve about {1 / per_save:.0f} saves/s, "
             f"{interval / per_save:.0f} tables at one save every {interval:g} s"
             if busy < FULL else
             "its core was full, so phones' fetches merged (fewer than one a save each) "
             "and a save cost less than it does below")
         if per_save else "cost: no save measured"),
    ]
    broken = []
    if not p95_shown <= TARGET_PROJECTOR:
        broken.append(f"p95 save → projector {p95_shown * 1000:.0f} ms > "
                      f"{TARGET_PROJECTOR * 1000:.0f} ms")
    if not p95_page <= TARGET_PAGE:
        broken.append(f"p95 page {p95_page * 1000:.0f} ms > {TARGET_PAGE * 1000:.0f} ms")
    if change:
        broken.extend(change.broken)
    if errors:
        broken.append(f"{errors} errors")
    return Step(len(fx.games), lines, broken)


# --- the server ----------------------------------------------------------------------------------

def start_server(instance: Path, port: int, connections: int, log: Path,
                 profile: str = "", pdf_workers: int | None = None,
                 streams: int | None = None, workers: int = 1) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KIERKI_")}
    env.update(KIERKI_INSTANCE=str(instance), KIERKI_SECRET_KEY=SECRET,
               KIERKI_MAX_GAMES="1000000", KIERKI_WORKERS=str(workers))
    if pdf_workers is not None:
        env["KIERKI_PDF_WORKERS"] = str(pdf_workers)
    pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    run = ["-c", PROFILED, profile] if profile else ["-m", "scorekeeper.cli"]
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [*pin, sys.executable, *run, "serve", "--host", "127.0.0.1",
             "--port", str(port), "--connection-limit", str(connections),
             *(["--stream-limit", str(streams)] if streams else [])],
            env=env, stdout=out, stderr=subprocess.STDOUT)
    end = time.monotonic() + 30
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise SystemExit(f"the server stopped:\n{log.read_text(errors='replace')}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rulesets", timeout=1).read()
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not answer within 30 s")


def has_live_part(port: int, gid: str) -> bool:
    """Whether this checkout's game page has its live fragment (``?part=live``): an
    older one answers the whole page to that address."""
    try:
        body = urllib.request.urlopen(
            f"http://127.0.0.1:{port}/games/{gid}?part=live", timeout=10).read()
    except OSError:
        return False
    return b"data-frame" in body and b"<html" not in body


def projector_path(port: int, tid: str) -> str | None:
    """The projector's live part if this checkout has it, else its page, else None."""
    for path in (f"/tournaments/{tid}/screen?part=live", f"/tournaments/{tid}/screen"):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10).read()
            return path
        except urllib.error.HTTPError as e:
            if e.code != 404:
                return path  # it exists; the run will count what it answers
        except OSError:
            return None
    return None


def step(tables: int, args: argparse.Namespace) -> Step:
    tmp = Path(tempfile.mkdtemp(prefix="kierki-club-"))
    proc = None
    try:
        fx = make_tournament(tmp, tables, saves_in_run(
            tables, args.interval, args.warmup + args.seconds) if args.round_change else None)
        port = free_port()
        # every phone: its stream and a connection for pages; each table's saving phone;
        # the projectors likewise; and room to spare
        connections = 2 * (PHONES * tables + PROJECTORS) + tables + 64
        # every phone's and projector's stream, and as many again: at a round change a
        # phone's old stream stays open on the server until its next write finds it
        # closed (the heartbeat, 15 s), as a browser's does
        streams = 2 * (PHONES * tables + PROJECTORS) + 64
        log = tmp / "server.log"
        profile = f"{args.profile}.{tables}" if args.profile else ""
        proc = start_server(tmp, port, connections, log, profile, args.pdf_workers, streams,
                            args.workers)
        page = projector_path(port, fx.tid)
        result = asyncio.run(club(port, proc.pid, fx, page, args))
        if profile:
            time.sleep(1.0)  # the server writes it
            result.lines.append(f"profile of the measured run: {profile}")
        tracebacks = log.read_text(errors="replace").count("Traceback")
        if tracebacks:
            result.lines.append(f"server log: {tracebacks} tracebacks")
            result.broken.append(f"{tracebacks} tracebacks")
        return result
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(10)
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=150, help="tables of the first step")
    parser.add_argument("--max-tables", type=int, default=1200,
                        help="no step beyond this many tables")
    parser.add_argument("--seconds", type=float, default=18.0, help="measured, per step")
    parser.add_argument("--warmup", type=float, default=4.0,
                        help="seconds of saves before the measured run")
    parser.add_argument("--interval", type=float, default=PERIOD, metavar="S",
                        help="a save per table every S seconds (default 2)")
    parser.add_argument("--round-change", action="store_true",
                        help="round 1 ends with the measured run (each table's games played "
                             "up to the deals it saves in it), then the director draws round "
                             "2 and every phone follows to its new table")
    parser.add_argument("--follow-within", type=float, default=FOLLOW_WITHIN, metavar="S",
                        help="--round-change: the players tap their new table at moments "
                             f"spread over S seconds (default {FOLLOW_WITHIN:g})")
    parser.add_argument("--events-only", action="store_true",
                        help="phones and projectors fetch no page, only hear the events "
                             "(to tell the pages' cost from the rest)")
    parser.add_argument("--print", action="store_true",
                        help="the director prints round 1's sheet and then the results "
                             f"(PDFs) from {PRINT_AFTER:g} s into the measured run")
    parser.add_argument("--pdf-workers", type=int, default=None, metavar="N",
                        help="the server's KIERKI_PDF_WORKERS (default: its own, 1); 0 "
                             "renders PDFs in the server's process, as before issue 32")
    parser.add_argument("--workers", type=int, default=1, metavar="N",
                        help="the server's processes (kierki serve --workers), all pinned "
                             "to the one core")
    parser.add_argument("--profile", default="", metavar="FILE",
                        help="profile the server (cProfile) over each measured run, into "
                             "FILE.<tables> (pstats); slows it down")
    args = parser.parse_args()
    if args.tables < 2:
        parser.error("a tournament needs at least 8 players: --tables 2 or more")
    if args.interval <= 0:
        parser.error("--interval is a number of seconds above 0")
    if args.round_change and args.events_only:
        parser.error("--round-change needs the phones' pages: not with --events-only")

    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    cores = os.cpu_count() or 1
    pinned = shutil.which("taskset") and cores > 1
    if pinned:
        os.sched_setaffinity(0, set(range(1, cores)))
    print(f"# machine: {machine()}; server "
          + (f"pinned to core 0 (taskset -c 0), client to cores 1-{cores - 1}" if pinned
             else "and client unpinned (no taskset, or one core)")
          + f"; file limit {hard}", flush=True)

    tables = args.tables
    while True:
        if 2 * PHONES * tables + tables > hard - 256:
            print(f"# {tables} tables need more files than this process may open ({hard})")
            break
        result = step(tables, args)
        for line in result.lines:
            print(line, flush=True)
        if result.broken:
            print(f"# targets broken at {tables} tables: {'; '.join(result.broken)}",
                  flush=True)
            return
        print(f"# targets met at {tables} tables", flush=True)
        if tables * 2 > args.max_tables:
            break
        tables *= 2
    print(f"# targets met up to {tables} tables (--max-tables {args.max_tables})")


if __name__ == "__main__":
    main()
