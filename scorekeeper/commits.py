"""Group commit: the writes of many requests in one transaction, one wait for the disk.

With ``SYNCHRONOUS=FULL`` every commit waits until it is on the disk (an fsync: about
0.2 ms on this project's test machine, several milliseconds on a Raspberry Pi's SD
card). Under ``kierki serve`` all requests share one thread (gevent), so a write that
waits for the disk stops every other phone's request with it; with a commit per write,
a busy table pays that wait once per deal entered, and the statements that open and
close a transaction too.

A :class:`Committer` gathers the writes instead. A request hands its write over and
its greenlet sleeps; the committer's greenlet runs when the requests that were ready
have had their turn (those that reached their own write meanwhile hand theirs over
too) and commits them all in one ``BEGIN IMMEDIATE`` transaction, each write in a
``SAVEPOINT`` of its own: a refused write (a version conflict, a game that is gone)
rolls back alone and its request gets its own exception; the others are committed
together, with one wait for the disk. Each request is answered only after the commit
that holds its write, so "a write answered is a write on disk" still holds; a failed
commit (a full disk) fails every write of its batch, and none of them is stored.

Writes within a batch run in the order they were handed over, each seeing the ones
before it, exactly as if they had been committed one by one: two phones entering the
same deal in one batch get one success and one conflict.

Why not a thread of its own for the commits, so that the disk wait stops nobody: tried
and measured (``bench/server.py``, deal-put). The thread's statements and the requests'
Python code take turns on the interpreter's lock, and a request then cost 0.97 ms of
processor against 0.75 ms here, for fewer deals entered per second (1150 against 1300).

Checkpoints (SQLite copying the write-ahead log back into the database file, with a
wait for the disk of its own) do not run inside a batch's commit either, where SQLite
would start one every thousand pages written and stop every request for 5 to 40 ms
(hundreds on an SD card): the committer's connection does none, and every
:data:`CHECKPOINT_EVERY` batches one of gevent's real threads runs a passive checkpoint
on a connection of its own, which lets the writes and reads go on meanwhile (SQLite
lets go of the interpreter's lock while it copies).

Only :mod:`.store` hands writes over (its functions decorated ``@writes``), and only
when the connection a request holds carries a committer (``db.committer``), which the
gevent server sets on its pool (:func:`.cli.serve`). Everywhere else (the tests, the
command line, a WSGI server without gevent) a write commits on the request's own
connection as before.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlite_utils import Database

#: Batches between two checkpoints (a batch writes a few pages per deal in it).
CHECKPOINT_EVERY = 16


@dataclass(slots=True)
class _Job:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    done: Any = field(default=None)  # gevent.event.AsyncResult


class Committer:
    """Writes handed over by greenlets, committed in batches by one greenlet.

    ``connect()`` opens the connection the batches are written with (once, at the
    first write). ``batches`` and ``writes`` count what was committed or refused, for the
    tests and the benchmark.
    """

    def __init__(self, connect: Callable[[], Database]) -> None:
        from gevent.event import Event

        self._connect = connect
        self._db: Database | None = None
        self._waiting: list[_Job] = []
        import gevent
        from gevent.event import AsyncResult

        self._spawn, self._result = gevent.spawn, AsyncResult
        self._checkpoints = gevent.get_hub().threadpool
        self._checkpointing: Any = None  # the checkpoint under way, if one is
        self._checkpoint_db: Database | None = None
        self.checkpoints = 0
        self._wake = Event()
        self._loop: Any = None
        self.batches = 0
        self.writes = 0

    def run(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``fn(db, *args, **kwargs)`` in the next batch; its value, or its exception."""
        job = _Job(fn, args, kwargs, self._result())
        self._waiting.append(job)
        if self._loop is None or self._loop.dead:
            self._loop = self._spawn(self._batches)
        self._wake.set()
        return job.done.get()

    def _batches(self) -> None:
        """The greenlet that commits each batch and answers its writers."""
        while True:
            self._wake.wait()
            self._wake.clear()
            while self._waiting:
                jobs, self._waiting = self._waiting, []
                try:
                    outcomes = self._commit(jobs)
                except Exception as e:  # noqa: BLE001 - the transaction failed: none stored, each writer hears why
                    outcomes = [(False, e)] * len(jobs)
                self.batches += 1
                self.writes += len(jobs)
                if self.batches % CHECKPOINT_EVERY == 0:
                    self._checkpoint_soon()
                for job, (ok, value) in zip(jobs, outcomes, strict=True):
                    if ok:
                        job.done.set(value)
                    else:
                        job.done.set_exception(value)

    def _commit(self, jobs: list[_Job]) -> list[tuple[bool, Any]]:
        """One transaction, a savepoint per write, one commit."""
        if self._db is None:
            self._db = self._connect()
            self._db.conn.execute("PRAGMA wal_autocheckpoint = 0")  # see _checkpoint_soon
        db = self._db.conn  # the driver's own: no sqlite-utils parsing per statement
        outcomes: list[tuple[bool, Any]] = []
        db.execute("BEGIN IMMEDIATE")  # waits up to busy_timeout for another process
        try:
            for job in jobs:
                db.execute("SAVEPOINT kierki_write")
                try:
                    value = job.fn(self._db, *job.args, **job.kwargs)
                except Exception as e:  # noqa: BLE001 - this write is refused, its request hears why
                    db.execute("ROLLBACK TO kierki_write")
                    db.execute("RELEASE kierki_write")
                    outcomes.append((False, e))
                else:
                    db.execute("RELEASE kierki_write")
                    outcomes.append((True, value))
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        return outcomes

    def _checkpoint_soon(self) -> None:
        """A passive checkpoint on a real thread, unless one is still under way."""
        if self._checkpointing is None or self._checkpointing.ready():
            self._checkpointing = self._checkpoints.spawn(self._checkpoint)

    def _checkpoint(self) -> None:
        """Copy what the log holds into the database file, as far as no reader needs the
        older pages (``PASSIVE``: no writer or reader waits for it)."""
        if self._checkpoint_db is None:
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
