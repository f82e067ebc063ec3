"""Open connections to one database file, lent to one request at a time.

Opening a connection costs more than most requests' own work (the file, WAL mode and
three pragmas: about 0.4 ms, four times a whole hello-world request), so connections
are kept open and lent to one request at a time. A connection never holds a transaction
between requests (every write commits or rolls back before it returns, and reads run in
autocommit mode), so each request reads the database as it is now, whoever wrote it.
Every write of the pool's connections goes to its committer (:mod:`.commits`).
"""
from __future__ import annotations

from sqlite_utils import Database

from . import connection
from .commits import Committer

#: Idle connections a pool keeps; more requests at once open more, closed after use.
#: Under the gevent server every request waiting for its group commit holds one, so a
#: busy table's evening (tens of phones) finds its connections open.
POOL_SIZE = 32


class Pool:
    """Open connections to one database file, lent out one request at a time."""

    def __init__(self, path: str, timeout_ms: int, synchronous: str = "FULL",
                 size: int = POOL_SIZE):
        self.path, self.timeout_ms, self.size = path, timeout_ms, size
        self.synchronous = synchronous
        self._idle: list[Database] = []
        #: Where the writes of this pool's connections go (:mod:`.commits`): a batch of
        #: one on the request's own connection, until :meth:`commit_in_groups`.
        self.committer = Committer(self.connect, timeout_ms / 1000)

    def take(self) -> Database:
        try:
            db = self._idle.pop()  # one step, whole under the interpreter's lock: no lock of ours
        except IndexError:
            db = self.connect()
        db.committer = self.committer  # type: ignore[attr-defined]
        return db

    def connect(self) -> Database:
        """A new connection to this pool's database, with its settings."""
        return connection.connect(self.path, self.timeout_ms, shared=True,
                             synchronous=self.synchronous)

    def commit_in_groups(self) -> None:
        """From now on, hand this pool's writes to a group committer (:mod:`.commits`):
        for a gevent server, where a write must not stop every request while it waits
        for the disk."""
        self.committer.gather()

    def give(self, db: Database) -> None:
        if db.conn.in_transaction:  # cannot happen after a store write; never lend it on
            db.conn.rollback()
        if len(self._idle) < self.size:  # two threads at once may keep one more: harmless
            self._idle.append(db)
            return
        db.close()

    def close(self) -> None:
        idle, self._idle = self._idle, []
        for db in idle:
            db.close()
        self.committer.close()
