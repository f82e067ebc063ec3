"""The one way a write commits: a batch of writes in one transaction, a savepoint each
(a batch of one needs none: its refusal rolls the whole transaction back).

Every write of the app is a function of :mod:`.store` decorated ``@writes``; the
decorator hands it to a :class:`Committer`, which runs it inside ``BEGIN IMMEDIATE …
COMMIT`` in a ``SAVEPOINT`` of its own (:func:`commit`). A refused write (a version
conflict, a game that is gone, a bug) rolls back alone and its caller gets its own
exception; the others of its batch are committed. A failed commit (a full disk) fails
every write of its batch, and none of them is stored. Writes within a batch run in the
order they were handed over, each seeing the ones before it, exactly as if committed
one by one: two phones entering the same deal in one batch get one success and one
conflict.

Two ways to gather a batch, one way to commit it:

* **A batch of one** (the default: the tests, the command line, any WSGI server): the
  write runs on the caller's own connection and commits before the call returns. A
  thread waiting for another process's write lock waits in SQLite, up to the
  connection's ``busy_timeout``.
* **Group commit** (:meth:`Committer.gather`, which ``kierki serve`` calls: gevent, all
  requests on one thread). With ``SYNCHRONOUS=FULL`` every commit waits until it is on
  the disk (an fsync: 0.1–0.3 ms here, several milliseconds on a Raspberry Pi's SD
  card), and under gevent that wait stops every other phone's request. A request hands
  its write over and its greenlet sleeps; the committer's greenlet runs when the
  requests that were ready have had their turn and commits all their writes together,
  with one wait for the disk, on a connection of its own. Each request is answered only
  after the commit that holds its write: "a write answered is a write on disk" holds.
  While another process holds the write lock, the committer waits for it by sleeping
  its greenlet (its connection's ``busy_timeout`` is 0: SQLite's own wait would stop
  the whole loop), so every other request is served meanwhile.

Either way a write that cannot get the lock within the busy timeout raises :class:`Busy`
(answered once, ``503`` with ``Retry-After``), and every commit that stored a write tells
the committer's listeners (the live table, :mod:`.live`) once.

Why not a thread of its own for the commits, so that the disk wait stops nobody: tried
and measured (``bench/server.py``, deal-put). The thread's statements and the requests'
Python code take turns on the interpreter's lock, and a request then cost 0.97 ms of
processor against 0.75 ms here, for fewer deals entered per second (1150 against 1300).

Checkpoints (SQLite copying the write-ahead log back into the database file, with a
wait for the disk of its own) do not run inside a group commit either, where SQLite
would start one every thousand pages written and stop every request for 5 to 40 ms:
the committer's connection does none, and every :data:`CHECKPOINT_EVERY` batches one of
gevent's real threads runs a passive checkpoint on a connection of its own.
"""
from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlite_utils import Database

from ..rules.errors import N_

log = logging.getLogger(__name__)

#: Batches between two checkpoints (a batch writes a few pages per deal in it).
CHECKPOINT_EVERY = 16

#: What a client that met :class:`Busy` is told to wait before it tries again, seconds.
RETRY_AFTER = 2


class StoreError(Exception):
    """Base of storage errors."""


class Busy(StoreError):
    """Another process held the database's write lock for the whole busy timeout; nothing
    of this write was stored."""

    retry_after = RETRY_AFTER
    #: What the user is told (a message id: the web layer translates it).
    message = N_("The server is busy with another write; nothing was saved. "
                 "Try again in a moment.")


def _is_busy(error: sqlite3.OperationalError) -> bool:
    """SQLITE_BUSY or SQLITE_LOCKED, extended codes included (BUSY_SNAPSHOT, …)."""
    code = getattr(error, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


@dataclass(slots=True)
class _Job:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    done: Any = field(default=None)  # gevent.event.AsyncResult, when gathered


def commit(db: Database, jobs: list[_Job],
           begin: Callable[[sqlite3.Connection], None] | None = None
           ) -> list[tuple[bool, Any]]:
    """One transaction, a savepoint per write (none for a batch of one), one commit; each
    write's value or error.

    ``begin`` takes the write lock (default: ``BEGIN IMMEDIATE``, waiting as long as the
    connection's ``busy_timeout``); it raises :class:`Busy` when it cannot."""
    conn = db.conn  # the driver's own: no sqlite-utils parsing per statement
    if conn.in_transaction:
        raise StoreError("a transaction is already open on this connection")
    try:
        (begin or _begin_waiting)(conn)
    except sqlite3.OperationalError as e:
        if _is_busy(e):
            raise Busy() from e
        raise
    if len(jobs) == 1:
        return [_alone(conn, db, jobs[0])]
    outcomes: list[tuple[bool, Any]] = []
    try:
        for job in jobs:
            conn.execute("SAVEPOINT kierki_write")
            try:
                value = job.fn(db, *job.args, **job.kwargs)
            except Exception as e:  # noqa: BLE001 - this write is refused, its caller hears why
                conn.execute("ROLLBACK TO kierki_write")
                conn.execute("RELEASE kierki_write")
                outcomes.append((False, e))
            else:
                conn.execute("RELEASE kierki_write")
                outcomes.append((True, value))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return outcomes


def _alone(conn: sqlite3.Connection, db: Database, job: _Job) -> tuple[bool, Any]:
    """A batch of one, in the transaction :func:`commit` began: no savepoint, as nothing
    else of the transaction is to be kept when it is refused (two statements less for
    each write: the command line's, the tests', any write that found nobody to share its
    commit with)."""
    try:
        try:
            value = job.fn(db, *job.args, **job.kwargs)
        except Exception as e:  # noqa: BLE001 - this write is refused, its caller hears why
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            return False, e
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return True, value


def _begin_waiting(conn: sqlite3.Connection) -> None:
    conn.execute("BEGIN IMMEDIATE")  # SQLite waits up to busy_timeout for the lock


class Committer:
    """Where every write of a database goes (see the module's text).

    ``connect()`` opens the connection group commits are written with (needed only by
    :meth:`gather`); ``timeout_s`` is how long a write waits for another process's lock.
    ``batches`` and ``writes`` count what was committed or refused, for the tests and
    the benchmark; ``listeners`` are called after each commit that stored a write.
    """

    def __init__(self, connect: Callable[[], Database] | None = None,
                 timeout_s: float = 10.0) -> None:
        self._connect = connect
        self.timeout_s = timeout_s
        self.listeners: list[Callable[[], None]] = []
        self.batches = 0
        self.writes = 0
        self.checkpoints = 0
        self._gathering = False
        self._db: Database | None = None
        self._checkpoint_db: Database | None = None
        self._checkpointing: Any = None  # the checkpoint under way, if one is
        self._waiting: list[_Job] = []
        self._loop: Any = None

    def gather(self) -> None:
        """From now on, gather the writes of gevent's greenlets into group commits."""
        if self._gathering:
            return
        if self._connect is None:
            raise ValueError("a committer that gathers writes needs a connection of its own")
        import gevent
        from gevent.event import AsyncResult, Event

        self._spawn, self._result, self._sleep = gevent.spawn, AsyncResult, gevent.sleep
        self._checkpoints = gevent.get_hub().threadpool
        self._wake = Event()
        self._gathering = True

    def run(self, db: Database, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``fn(db, *args, **kwargs)`` committed (in the next batch, when gathering: on the
        committer's connection); its value, or its exception."""
        if not self._gathering:
            [(ok, value)] = self._batch(db, [_Job(fn, args, kwargs)])
            if ok:
                return value
            raise value
        job = _Job(fn, args, kwargs, self._result())
        self._waiting.append(job)
        if self._loop is None or self._loop.dead:
            self._loop = self._spawn(self._batches)
        self._wake.set()
        return job.done.get()

    def _batch(self, db: Database, jobs: list[_Job],
               begin: Callable[[sqlite3.Connection], None] | None = None
               ) -> list[tuple[bool, Any]]:
        outcomes = commit(db, jobs, begin)
        self.batches += 1
        self.writes += len(jobs)
        if any(ok for ok, _ in outcomes):
            for listener in self.listeners:
                try:
                    listener()
                except Exception:  # the writes are stored: their callers hear so
                    log.exception("a listener of the committed writes failed")
        return outcomes

    def _batches(self) -> None:
        """The greenlet that commits each gathered batch and answers its writers."""
        while True:
            self._wake.wait()
            self._wake.clear()
            while self._waiting:
                jobs, self._waiting = self._waiting, []
                try:
                    outcomes = self._commit(jobs)
                except Exception as e:  # noqa: BLE001 - the transaction failed: none stored, each writer hears why
                    outcomes = [(False, e)] * len(jobs)
                if self.batches % CHECKPOINT_EVERY == 0:
                    self._checkpoint_soon()
                for job, (ok, value) in zip(jobs, outcomes, strict=True):
                    if ok:
                        job.done.set(value)
                    else:
                        job.done.set_exception(value)

    def _commit(self, jobs: list[_Job]) -> list[tuple[bool, Any]]:
        """A gathered batch on the committer's own connection."""
        if self._db is None:
            assert self._connect is not None
            self._db = self._connect()
            self._db.conn.execute("PRAGMA wal_autocheckpoint = 0")  # see _checkpoint_soon
            self._db.conn.execute("PRAGMA busy_timeout = 0")  # see _begin_sleeping
        return self._batch(self._db, jobs, self._begin_sleeping)

    def _begin_sleeping(self, conn: sqlite3.Connection) -> None:
        """``BEGIN IMMEDIATE``, waiting for another process's lock by sleeping this
        greenlet (SQLite's own wait would stop every request of the loop)."""
        deadline = time.monotonic() + self.timeout_s
        pause = 0.002
        while True:
            try:
                conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as e:
                if not _is_busy(e) or time.monotonic() + pause > deadline:
                    raise
            self._sleep(pause)
            pause = min(pause * 2, 0.05)

    def _checkpoint_soon(self) -> None:
        """A passive checkpoint on a real thread, unless one is still under way."""
        if self._checkpointing is None or self._checkpointing.ready():
            self._checkpointing = self._checkpoints.spawn(self._checkpoint)

    def _checkpoint(self) -> None:
        """Copy what the log holds into the database file, as far as no reader needs the
        older pages (``PASSIVE``: no writer or reader waits for it)."""
        if self._checkpoint_db is None:
            assert self._connect is not None
            self._checkpoint_db = self._connect()
        self._checkpoint_db.conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        self.checkpoints += 1

    def close(self) -> None:
        if self._loop is not None:
            self._loop.kill()
        if self._checkpointing is not None:
            self._checkpointing.wait()
        for db in (self._db, self._checkpoint_db):
            if db is not None:
                db.close()
        self._db = self._checkpoint_db = None
