"""The live table: ``GET /games/<gid>/events`` (and a tournament's) tells a page when
what it shows changes, as Server-Sent Events.

One ``version`` event per change, its ``id:`` the version (a reconnecting browser's
``Last-Event-ID`` is told at once what it missed), a comment line every heartbeat, a
``gone`` event for a deleted game, and a ``round`` event when the director draws the next
round after a game's. A stream ends after ``LIVE_STREAM_SECONDS`` and the browser opens a
new one. This process's writes wake their game's streams at once through the domain's
events (:mod:`..domain.bus`); another process's are found by one watcher thread per
process, which reads every watched game's version, and the rounds drawn in the watched
games' tournaments, each ``LIVE_POLL_SECONDS`` while a stream is open. Under ``kierki serve`` (gevent) a stream
costs a greenlet.
"""
from __future__ import annotations

import json
import random
import sqlite3
import threading
import time
import weakref
from collections import Counter
from collections.abc import Iterator

from flask import Blueprint, Flask, Response, current_app, request
from flask_babel import gettext

from ..domain import bus, database, reads
from ..domain.events import Event, GameEvent, RoundDrawn, TournamentEvent
from .db import get_db

bp = Blueprint("live", __name__)

POLL_SECONDS = 0.25
HEARTBEAT_SECONDS = 15.0
STREAM_SECONDS = 300.0
RETRY_MS = 1000  # how long the browser waits before it reconnects

#: What the watcher notes for a game that no longer exists.
GONE = -1

#: A finished round's phones spread their fetches of where they sit now over this many
#: seconds per table of the round (static/live.js waits a random part), within the bounds.
ROUND_SPREAD_PER_TABLE = 0.03
ROUND_SPREAD_MIN = 1.0
ROUND_SPREAD_MAX = 30.0
#: Streams one process keeps open at once (``LIVE_STREAM_LIMIT``); past it 503, and the
#: page polls instead, told to wait about as long as open streams take to end.
STREAM_LIMIT = 8000
STREAM_RETRY_SECONDS = 60


def round_spread(tables: int) -> float:
    """The spread of a finished round of ``tables`` tables: about 130 phones a second."""
    return round(min(ROUND_SPREAD_MAX, max(ROUND_SPREAD_MIN, tables * ROUND_SPREAD_PER_TABLE)), 1)


class Watcher:
    """One per app and process: the versions of the games that open streams watch, each
    game with a condition of its own, so that a change wakes that game's streams alone."""

    def __init__(self, database: str, interval: float) -> None:
        self.database, self.interval = database, interval
        self._lock = threading.Lock()
        self._changed: dict[str, threading.Condition] = {}
        self._poke = threading.Event()
        self._streams: Counter[str] = Counter()
        self._versions: dict[str, int] = {}
        #: The round drawn after a watched game's own, and its spread.
        self._rounds: dict[str, tuple[int, float]] = {}
        #: A watched tournament game's tournament and round.
        self._tables: dict[str, tuple[str, int]] = {}
        self._thread: threading.Thread | None = None

    def watch(self, gid: str, version: int, table: tuple[str, int] | None = None) -> None:
        """Follow game ``gid`` from ``version``; ``table``: its tournament and round, when
        it is a tournament's game (the poll then sees the next round drawn)."""
        with self._lock:
            if not self._streams[gid]:
                self._versions[gid] = version
                self._changed[gid] = threading.Condition(self._lock)
                if table:
                    self._tables[gid] = table
            self._streams[gid] += 1
            self._start()

    def _start(self) -> None:
        """Start the polling thread unless it runs (the lock held)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="live-watcher", daemon=True)
            self._thread.start()

    def unwatch(self, gid: str) -> None:
        with self._lock:
            self._streams[gid] -= 1
            if self._streams[gid] <= 0:
                del self._streams[gid], self._changed[gid]
                self._versions.pop(gid, None)
                self._rounds.pop(gid, None)
                self._tables.pop(gid, None)

    def poke(self) -> None:
        """Something changed that no event gives the version of: poll now."""
        self._poke.set()

    def moved(self, key: str, version: int) -> None:
        """Game or tournament ``key`` is now at ``version`` (``GONE``: deleted)."""
        with self._lock:
            seen = self._versions.get(key)
            if seen is None or seen == GONE or (version != GONE and version <= seen):
                return
            self._versions[key] = version
            self._changed[key].notify_all()

    def drawn(self, gid: str, number: int, spread: float = ROUND_SPREAD_MIN) -> None:
        """Round ``number`` of game ``gid``'s tournament is drawn after the game's."""
        with self._lock:
            self._draw(gid, number, spread)

    def _draw(self, gid: str, number: int, spread: float) -> None:
        """:meth:`drawn`, the lock held."""
        if gid in self._changed and number > self.next_round(gid)[0]:
            self._rounds[gid] = (number, spread)
            self._changed[gid].notify_all()

    def next_round(self, gid: str) -> tuple[int, float]:
        """The round last drawn after game ``gid``'s (0: none) and its spread."""
        return self._rounds.get(gid, (0, ROUND_SPREAD_MIN))

    def wait(self, gid: str, seen: int, timeout: float, round_seen: int = 0) -> tuple[int, int]:
        """(the game's version, the round drawn after it) once either moves past ``seen``
        and ``round_seen`` (or the game is ``GONE``), or after ``timeout`` seconds."""
        def moved() -> bool:
            v = self._versions.get(gid, seen)
            return v == GONE or v > seen or self.next_round(gid)[0] > round_seen
        with self._lock:
            self._start()  # after a failure that ended it
            changed = self._changed.get(gid)
            if changed is not None:
                changed.wait_for(moved, timeout)
            return self._versions.get(gid, seen), max(round_seen, self.next_round(gid)[0])

    def _run(self) -> None:
        db = None
        try:
            while True:
                self._poke.wait(self.interval)
                self._poke.clear()
                with self._lock:
                    gids = list(self._streams)
                    tables = dict(self._tables)
                    if not gids:
                        self._thread = None
                        return
                try:
                    if db is None:
                        db = database.connect(self.database)
                    found = reads.versions(db, gids)
                    sizes = reads.round_sizes(db, sorted({tid for tid, _ in tables.values()}))
                except sqlite3.Error:
                    if db is not None:
                        db.close()
                    db = None
                    time.sleep(self.interval)  # a damaged or missing file: try again later
                    continue
                with self._lock:
                    for gid in gids:
                        now = found.get(gid, GONE)
                        if gid in self._versions and now != self._versions[gid]:
                            self._versions[gid] = now
                            self._changed[gid].notify_all()
                    for gid, (tid, number) in tables.items():  # a round drawn elsewhere
                        rounds = sizes.get(tid, {})
                        if rounds and max(rounds) > number:
                            self._draw(gid, max(rounds), round_spread(rounds.get(number, 0)))
        except BaseException:
            with self._lock:
                self._thread = None
            raise
        finally:
            if db is not None:
                db.close()


_create = threading.Lock()
#: Every app's watcher in this process (weakly: an app gone takes its watcher with it).
_watchers: weakref.WeakSet[Watcher] = weakref.WeakSet()
_subscribed: list[object] = []


def watcher(app: Flask) -> Watcher:
    with _create:
        if "live" not in app.extensions:
            app.extensions["live"] = Watcher(
                app.config["DATABASE"], float(app.config.get("LIVE_POLL_SECONDS", POLL_SECONDS)))
            _watchers.add(app.extensions["live"])
        return app.extensions["live"]


def heard(event: Event) -> None:
    """The bus's subscriber: an event wakes its game's or tournament's streams in every
    app of this process; one that names no version has the watchers poll now."""
    for w in list(_watchers):
        if isinstance(event, RoundDrawn):
            spread = round_spread(len(event.previous))
            for gid in event.previous:
                w.drawn(gid, event.number, spread)
        if isinstance(event, GameEvent):
            w.moved(event.gid, event.version)
        elif isinstance(event, TournamentEvent) and event.version is not None:
            w.moved(event.tid, event.version)
        else:
            w.poke()


def _event(version: int) -> str:
    return f"id: {version}\nevent: version\ndata: {json.dumps({'version': version})}\n\n"


def _round(number: int, spread: float) -> str:
    return f"event: round\ndata: {json.dumps({'round': number, 'spread': spread})}\n\n"


def stream(w: Watcher, gid: str, version: int, last_seen: int | None,
           heartbeat: float, life: float, drawn: int = 0,
           spread: float = ROUND_SPREAD_MIN,
           table: tuple[str, int] | None = None) -> Iterator[str]:
    """The stream's text: the version at once (unless the browser has it) and the round
    drawn after the game's (``drawn``), then each change and a comment every heartbeat,
    for ``life`` seconds; ``table``: the game's tournament and round, if it has one."""
    w.watch(gid, version, table)
    try:
        yield f"retry: {RETRY_MS}\n"
        yield _event(version) if last_seen != version else ": up to date\n\n"
        if drawn:
            yield _round(drawn, spread)
        sent, told = version, drawn
        end = time.monotonic() + life
        while (left := end - time.monotonic()) > 0:
            now, number = w.wait(gid, sent, min(heartbeat, left), told)
            if now == GONE:
                yield "event: gone\ndata: {}\n\n"
                return
            moved_on = number > told
            if moved_on:
                told = number
                yield _round(number, w.next_round(gid)[1])
            if now > sent:
                sent = now
                yield _event(now)
            elif not moved_on and end - time.monotonic() > 0:
                yield ": still here\n\n"
    finally:
        w.unwatch(gid)


class StreamBudget:
    """The open streams of one app in this process, never more than its limit: a stream
    admitted takes a place (:meth:`hold`), and gives it back once when it is closed."""

    def __init__(self) -> None:
        self.open = 0
        self._lock = threading.Lock()

    def hold(self, limit: int, body: Iterator[str]) -> Iterator[str] | None:
        with self._lock:
            if self.open >= limit:
                return None
            self.open += 1
        return _Held(self, body)

    def _give_back(self) -> None:
        with self._lock:
            self.open -= 1


class _Held:
    """A stream's body that holds its place until it is closed (or collected unstarted,
    which a generator's ``finally`` would not see)."""

    def __init__(self, budget: StreamBudget, body: Iterator[str]) -> None:
        self.budget, self.body, self.held = budget, body, True

    def __iter__(self) -> _Held:
        return self

    def __next__(self) -> str:
        return next(self.body)

    def close(self) -> None:
        if self.held:
            self.held = False
            try:
                self.body.close()  # type: ignore[attr-defined]
            finally:
                self.budget._give_back()

    __del__ = close


def budget(app: Flask) -> StreamBudget:
    with _create:
        return app.extensions.setdefault("live-budget", StreamBudget())


@bp.get("/tournaments/<tid>/events")
def tournament_events(tid: str):
    """A tournament's changes, its games' saves among them: the projector follows it."""
    return answer(tid, reads.tournament_version(get_db(), tid))  # not found: 404


@bp.get("/games/<gid>/events", endpoint="events")
def game_events(gid: str):
    """A game's changes; a tournament's game whose round is over says so at once."""
    db = get_db()
    version = reads.game_version(db, gid)  # GameNotFound: 404
    of = reads.table_of_game(db, gid)
    if of is None:
        return answer(gid, version)
    table = (of.tournament_id, of.round)
    if of.latest > of.round:
        tables = reads.round_sizes(db, [of.tournament_id])[of.tournament_id][of.round]
        return answer(gid, version, of.latest, round_spread(tables), table)
    return answer(gid, version, table=table)


def answer(gid: str, version: int, drawn: int = 0, spread: float = ROUND_SPREAD_MIN,
           table: tuple[str, int] | None = None):
    """The stream of game or tournament ``gid``, now at ``version``; 503 with
    ``Retry-After`` past the process's ``LIVE_STREAM_LIMIT`` (static/live.js then polls),
    so that streams never take the connections pages need."""
    config = current_app.config
    # phones that came together reconnect apart
    life = float(config.get("LIVE_STREAM_SECONDS", STREAM_SECONDS)) * random.uniform(0.8, 1.0)
    body = budget(current_app).hold(int(config.get("LIVE_STREAM_LIMIT", STREAM_LIMIT)), stream(
        watcher(current_app), gid, version, request.headers.get("Last-Event-ID", type=int),
        float(config.get("LIVE_HEARTBEAT_SECONDS", HEARTBEAT_SECONDS)), life, drawn, spread,
        table))
    if body is None:
        return Response(gettext("Too many phones are following games on this server just now; "
                                "this page will look for changes every few seconds instead."),
                        503, mimetype="text/plain", headers={
                            "Retry-After": str(STREAM_RETRY_SECONDS), "Cache-Control": "no-store"})
    # X-Accel-Buffering: a reverse proxy (nginx) passes each event on at once
    return Response(body, mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def init_app(app: Flask) -> None:
    """The streams' routes; the domain's events reach the watchers (subscribed once)."""
    app.register_blueprint(bp)
    with _create:
        if not _subscribed:
            bus.subscribe(Event, heard)
            _subscribed.append(heard)
