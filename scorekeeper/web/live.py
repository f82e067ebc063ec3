"""The live table: ``GET /games/<gid>/events`` tells a game's page when the game changes.

A Server-Sent Events stream (``text/event-stream``): one ``version`` event per change,
its ``id:`` the game's version, so that a browser reconnecting after a missed change
(its ``Last-Event-ID``) is told at once, plus a comment line every
``LIVE_HEARTBEAT_SECONDS`` (15 s) that keeps the connection open and finds phones that
are gone. A stream ends after ``LIVE_STREAM_SECONDS`` (about 5 minutes) and the browser's
EventSource opens a new one by itself; an unknown game is a 404; a game deleted while
watched gets a ``gone`` event and the stream ends. A tournament's game whose round is
over gets a ``round`` event (``data: {"round": n, "spread": s}``, no ``id:``, so
``Last-Event-ID`` stays the game's version) when the director draws round ``n``, and at
once on opening if that round is already drawn: its phones then show where each player
sits now (:func:`..views.tournaments.next_round`), each after a random wait of up to
``s`` seconds (:func:`round_spread`: every phone of the round hears it in the same
instant, and 4,000 fetches in one second would fill the server's core).

How a change is learnt: the domain's events (:mod:`..domain.bus`) say which game or
tournament changed and its new version (a deal, a correction, an undo, a signature, a
deletion; a tournament's game moving its tournament), and the watchers of this process
wake that game's streams alone, at once, with no query. What no event of this process
tells (a write by another process, ``kierki games delete``) one *watcher* thread per
process finds: it reads the versions of every watched game in one small query
(:func:`..domain.reads.versions`) every ``LIVE_POLL_SECONDS`` (0.25 s), however many
phones watch, and only while a stream is open.

A stream costs a waiting thread or greenlet: ``kierki serve`` runs the app under gevent
(see ``cli.py``), where that is a greenlet of a few kilobytes.
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

#: The round change's spread (:func:`round_spread`): the seconds per table of the finished
#: round over which its phones' fetches are spread, and the least and most of them.
ROUND_SPREAD_PER_TABLE = 0.015
ROUND_SPREAD_MIN = 1.0
ROUND_SPREAD_MAX = 30.0


def round_spread(tables: int) -> float:
    """Over how many seconds the phones of a finished round of ``tables`` tables spread
    their fetches of where their players sit now (static/live.js waits a random part of
    it; so does bench/club.py's phone): about 270 phones a second (67 tables of four),
    which ``bench/next_round.py`` puts near a tenth of a core, so that the round's burst
    leaves room for every other page; at least 1 s (up to 67 tables), at most 30 s (2,000
    tables: every phone still has half of its minute to reach its new table).

    >>> round_spread(10), round_spread(150), round_spread(1000), round_spread(5000)
    (1.0, 2.2, 15.0, 30.0)
    """
    return round(min(ROUND_SPREAD_MAX, max(ROUND_SPREAD_MIN, tables * ROUND_SPREAD_PER_TABLE)),
                 1)


class Watcher:
    """One per app and process: the versions of the games that open streams watch."""

    def __init__(self, database: str, interval: float) -> None:
        self.database = database
        self.interval = interval
        self._lock = threading.Lock()
        #: One condition per watched game (all on the one lock): a change wakes the streams
        #: of that game alone, not every open stream of the club (600 phones, 150 tables).
        self._changed: dict[str, threading.Condition] = {}
        self._poke = threading.Event()
        self._streams: Counter[str] = Counter()
        self._versions: dict[str, int] = {}
        #: The round drawn after a watched game's own (its tournament moved on): told once.
        self._rounds: dict[str, int] = {}
        #: Its spread (:func:`round_spread`), by game.
        self._spreads: dict[str, float] = {}
        self._thread: threading.Thread | None = None

    def watch(self, gid: str, version: int) -> None:
        """A stream follows ``gid``, whose version it has just read."""
        with self._lock:
            if not self._streams[gid]:
                self._versions[gid] = version
                self._changed[gid] = threading.Condition(self._lock)
            self._streams[gid] += 1
            self._start()

    def _start(self) -> None:
        """Start the polling thread unless it runs (call with the lock held)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="live-watcher",
                                            daemon=True)
            self._thread.start()

    def unwatch(self, gid: str) -> None:
        with self._lock:
            self._streams[gid] -= 1
            if self._streams[gid] <= 0:
                del self._streams[gid]
                self._versions.pop(gid, None)
                self._rounds.pop(gid, None)
                self._spreads.pop(gid, None)
                self._changed.pop(gid, None)

    def poke(self) -> None:
        """Something was written here that no event says the version of: look now rather
        than at the next interval."""
        self._poke.set()

    def moved(self, key: str, version: int) -> None:
        """Game or tournament ``key`` is now at ``version`` (``GONE``: deleted), as an event
        said: its streams wake, no query asked."""
        with self._lock:
            seen = self._versions.get(key)
            if seen is None or seen == GONE or (version != GONE and version <= seen):
                return
            self._versions[key] = version
            self._changed[key].notify_all()

    def drawn(self, gid: str, number: int, spread: float = ROUND_SPREAD_MIN) -> None:
        """Round ``number`` of game ``gid``'s tournament is drawn (the game's round is
        over): its streams wake and tell their phones (to spread their fetches over
        ``spread`` seconds)."""
        with self._lock:
            if gid in self._changed and number > self._rounds.get(gid, 0):
                self._rounds[gid] = number
                self._spreads[gid] = spread
                self._changed[gid].notify_all()

    def spread(self, gid: str) -> float:
        """The spread of the round last drawn after game ``gid``'s (:meth:`drawn`)."""
        with self._lock:
            return self._spreads.get(gid, ROUND_SPREAD_MIN)

    def wait(self, gid: str, seen: int, timeout: float, round_seen: int = 0) -> tuple[int, int]:
        """The game's version once it is past ``seen`` (``GONE`` if deleted) or a later
        round of its tournament is drawn than ``round_seen``, with that round; or ``seen``
        and ``round_seen`` again after ``timeout`` seconds."""
        def moved() -> bool:
            v = self._versions.get(gid, seen)
            return v == GONE or v > seen or self._rounds.get(gid, 0) > round_seen
        with self._lock:
            self._start()  # after a failure that ended it
            changed = self._changed.get(gid)
            if changed is not None:
                changed.wait_for(moved, timeout)
            return self._versions.get(gid, seen), max(round_seen, self._rounds.get(gid, 0))

    def _run(self) -> None:
        db = None
        try:
            while True:
                self._poke.wait(self.interval)
                self._poke.clear()
                with self._lock:
                    gids = list(self._streams)
                    if not gids:
                        self._thread = None
                        return
                try:
                    if db is None:
                        db = database.connect(self.database)
                    found = reads.versions(db, gids)
                except sqlite3.Error:
                    if db is not None:
                        db.close()
                    db = None
                    time.sleep(self.interval)  # a damaged or missing file: try again later
                    continue
                with self._lock:
                    for gid in gids:
                        if gid in self._versions:
                            now = found.get(gid, GONE)
                            if now != self._versions[gid]:
                                self._versions[gid] = now
                                self._changed[gid].notify_all()
        except BaseException:
            with self._lock:
                self._thread = None
            raise
        finally:
            if db is not None:
                db.close()


_create = threading.Lock()


def watcher(app: Flask) -> Watcher:
    w = app.extensions.get("live")
    if w is None:
        with _create:
            w = app.extensions.get("live")
            if w is None:
                w = app.extensions["live"] = Watcher(
                    app.config["DATABASE"], float(app.config.get("LIVE_POLL_SECONDS",
                                                                 POLL_SECONDS)))
                _watchers.add(w)
    return w


#: Every app's watcher in this process (weakly: an app gone takes its watcher with it).
_watchers: weakref.WeakSet[Watcher] = weakref.WeakSet()


def heard(event: Event) -> None:
    """The bus's subscriber: a game's or tournament's event wakes its streams in every
    app of this process; an event that names no version (a rename, a tournament's own
    write) has the watchers look now."""
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
           spread: float = ROUND_SPREAD_MIN) -> Iterator[str]:
    """The stream's text: the current version at once (unless the browser says it has it)
    and the later round drawn (``drawn``, if any, its fetches spread over ``spread`` s),
    then one event per change and a comment line at every heartbeat, until ``life``
    seconds have passed."""
    w.watch(gid, version)
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
                yield _round(number, w.spread(gid))
            if now > sent:
                sent = now
                yield _event(now)
            elif not moved_on and end - time.monotonic() > 0:
                yield ": still here\n\n"
    finally:
        w.unwatch(gid)


#: Streams one process keeps open at once (``kierki serve --stream-limit``, which sets
#: ``LIVE_STREAM_LIMIT``); one more is answered 503 and its page polls instead.
STREAM_LIMIT = 8000
#: What a refused stream is told to wait: about the time open streams take to end by
#: themselves (``LIVE_STREAM_SECONDS``) is when places come free.
STREAM_RETRY_SECONDS = 60


class StreamBudget:
    """The open streams of one app in this process, counted so that there are never more
    than its limit: :meth:`hold` takes a place (or says there is none) when a stream is
    admitted, and the body it returns gives it back, once, when the server closes it
    (or drops it unstarted)."""

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
    """A stream's body that holds a place of a :class:`StreamBudget` until it is closed."""

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

    __del__ = close  # never handed to the server (an error on the way): still given back


def budget(app: Flask) -> StreamBudget:
    with _create:
        return app.extensions.setdefault("live-budget", StreamBudget())


@bp.get("/tournaments/<tid>/events")
def tournament_events(tid: str):
    """A tournament's changes, its games' saves among them (the store bumps a tournament's
    version with each of its games'): the projector's and the players' pages follow it."""
    return answer(tid, reads.tournament_version(get_db(), tid))  # not found: 404


@bp.get("/games/<gid>/events", endpoint="events")
def game_events(gid: str):
    """The game's changes as Server-Sent Events (see the module's docstring); a game of a
    tournament that has drawn a later round says so at once (one indexed row, and its
    round's tables counted by index for the spread: a server started again has every
    phone of the round open its stream in the same second)."""
    db = get_db()
    version = reads.game_version(db, gid)  # GameNotFound: 404
    of = reads.table_of_game(db, gid)
    if of and of.latest > of.round:
        return answer(gid, version, of.latest, round_spread(
            reads.round_tables(db, of.tournament_id, of.round)))
    return answer(gid, version)


def answer(gid: str, version: int, drawn: int = 0, spread: float = ROUND_SPREAD_MIN):
    """The stream of a game or tournament ``gid`` now at ``version``, while this process
    has fewer than ``LIVE_STREAM_LIMIT`` open; past it 503 with ``Retry-After``
    (``static/live.js`` then asks for the version every few seconds), so that streams
    never take the connections pages need (``kierki serve`` sizes its pool for both)."""
    try:
        last_seen: int | None = int(request.headers.get("Last-Event-ID", ""))
    except ValueError:
        last_seen = None
    config = current_app.config
    life = float(config.get("LIVE_STREAM_SECONDS", STREAM_SECONDS))
    life *= random.uniform(0.8, 1.0)  # phones that came together do not all reconnect together
    body = budget(current_app).hold(
        int(config.get("LIVE_STREAM_LIMIT", STREAM_LIMIT)),
        stream(watcher(current_app), gid, version, last_seen,
               float(config.get("LIVE_HEARTBEAT_SECONDS", HEARTBEAT_SECONDS)), life, drawn,
               spread))
    if body is None:
        return Response(gettext("Too many phones are following games on this server just "
                                "now; this page will look for changes every few seconds "
                                "instead."),
                        503, mimetype="text/plain", headers={
                            "Retry-After": str(STREAM_RETRY_SECONDS),
                            "Cache-Control": "no-store"})
    return Response(body, mimetype="text/event-stream", headers={
        "Cache-Control": "no-store",
        "X-Accel-Buffering": "no",  # a reverse proxy (nginx) passes each event on at once
    })


def init_app(app: Flask) -> None:
    """The stream's route; every event the domain publishes reaches the watchers
    (:func:`heard`, subscribed once per process)."""
    app.register_blueprint(bp)
    with _create:
        if not _subscribed:
            bus.subscribe(Event, heard)
            _subscribed.append(heard)


_subscribed: list[object] = []
