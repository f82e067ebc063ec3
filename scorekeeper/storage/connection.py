"""What every part of the storage shares: the connection (WAL, foreign keys, the
wait for a busy writer), the one way a write runs (:func:`writes`), the clock, the home
club, the rights a change is made by, and new ids and codes.
"""
from __future__ import annotations

import functools
import logging
import os
import secrets
import sqlite3
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

import orjson
from sqlite_utils import Database

from ..common import collation
from ..rules.errors import N_
from . import migrations

log = logging.getLogger(__name__)


T = TypeVar("T")


BUSY_TIMEOUT_MS = 10_000
"""How long a write waits for another's lock before it fails (the app's ``BUSY_TIMEOUT_MS``)."""


#: The club every server has: the home club, into which migration 0013 puts
#: every person, game and tournament made before there were clubs, and where everything
#: made without naming a club goes. Its name is empty (the pages call it this server's).
HOME_CLUB = "home"




#: Who made a change: the table (a phone that created or joined the game, or its API
#: token), the tournament's director, or the host.
RIGHTS = ("table", "director", "host")


def sort_keys(name: str) -> tuple[bytes, bytes]:
    """A name's collation key in English and in Polish (:func:`.collation.key`), each as
    bytes whose order is the key's order: SQLite compares blobs byte by byte, so
    ``order by sort_pl, name, id`` is exactly :func:`.collation.by_name`'s order (the
    name, NFC as every name is kept, breaks ties as it does there)."""
    return tuple(b"".join(w.to_bytes(3, "big") for w in collation.key(name, lang)[0])
                 for lang in ("en", "pl"))  # type: ignore[return-value]


def _free_code(db: Database) -> str:
    """A join code no game and no club has (a typed code is looked up as either)."""
    while True:
        code = new_join_code()
        if not db.conn.execute("select 1 from games where join_code = ? union all "
                               "select 1 from clubs where invite_code = ?",
                               [code, code]).fetchone():
            return code


def now() -> str:
    """The time now, to the second, as ISO text (written once per second: a busy table's
    writes ask for it a few times each)."""
    second = int(time.time())
    if second != _clock[0]:
        _clock[:] = [second, datetime.fromtimestamp(second, UTC).isoformat()]
    return _clock[1]


_clock: list[Any] = [None, ""]


#: How SQLite makes a commit durable: ``FULL`` (the default) waits until the commit is on
#: the disk (an fsync per write: an answered write survives a power cut); ``NORMAL``
#: leaves that to the system (the last writes before a power cut, not a crash of the
#: server, may be lost; the database stays intact either way).
SYNCHRONOUS = ("FULL", "NORMAL")


def owner_only(path: str | os.PathLike[str]) -> None:
    """The database and its WAL files readable by this server's user alone: they hold
    every name, score and join code (a database made by an older version was 0644)."""
    for suffix in ("", "-wal", "-shm"):
        try:
            os.chmod(f"{os.fspath(path)}{suffix}", 0o600)
        except FileNotFoundError:
            pass


def connect(path: str, busy_timeout_ms: int = BUSY_TIMEOUT_MS,
            synchronous: str = "FULL") -> Database:
    """Open the database with WAL, foreign keys and a wait for busy writers.

    The wait is set when the connection opens, before its first statement, and the
    connection never opens a transaction by itself (``isolation_level=None``): the only
    transactions are :func:`writes`' (and the migrations' own, and sqlite-utils' short
    read savepoints).
    """
    conn = sqlite3.connect(str(path), timeout=busy_timeout_ms / 1000, isolation_level=None)
    db = Database(conn)
    if str(path) != ":memory:":
        owner_only(path)
        db.enable_wal()  # SQLite gives the -wal and -shm files the database's mode
    db.execute("PRAGMA foreign_keys = ON")
    db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
    mode = str(synchronous).upper()
    if mode not in SYNCHRONOUS:
        raise ValueError(f"synchronous must be one of {', '.join(SYNCHRONOUS)}, not {mode!r}")
    db.execute(f"PRAGMA synchronous = {mode}")  # FULL: a write answered is a write on disk
    return db


#: What a client that met :class:`Busy` is told to wait before it tries again, seconds.
RETRY_AFTER = 2


class StoreError(Exception):
    """Base of storage errors."""


class Busy(StoreError):
    """Another connection held the database's write lock for the whole busy timeout;
    nothing of this write was stored."""

    retry_after = RETRY_AFTER
    #: What the user is told (a message id: the web layer translates it).
    message = N_("The server is busy with another write; nothing was saved. "
                 "Try again in a moment.")


def _is_busy(error: sqlite3.OperationalError) -> bool:
    """SQLITE_BUSY or SQLITE_LOCKED, extended codes included (BUSY_SNAPSHOT, …)."""
    code = getattr(error, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def writes(fn: Callable[..., T]) -> Callable[..., T]:
    """Make ``fn(db, ...)`` a write: the one way the app changes rows (the migrations and
    a restore excepted). It runs whole in one ``BEGIN IMMEDIATE … COMMIT`` on ``db``'s
    connection, or not at all: any exception rolls it back and reaches the caller.

    ``BEGIN IMMEDIATE`` takes SQLite's one write lock before the write reads anything,
    waiting up to the connection's ``busy_timeout`` for another connection's write
    (then :class:`Busy`). A deferred ``BEGIN`` would read first and then try to become
    the writer, and that fails at once with ``database is locked`` when another write
    committed meanwhile, whatever the timeout."""
    @functools.wraps(fn)
    def write(db: Database, *args: Any, **kwargs: Any) -> T:
        conn = db.conn
        if conn.in_transaction:
            raise StoreError("a transaction is already open on this connection")
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as e:
            if _is_busy(e):
                raise Busy() from e
            raise
        try:
            value = fn(db, *args, **kwargs)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        return value
    return write


def migrate(db: Database) -> None:
    """The schema brought up to date (:mod:`.migrations`)."""
    migrations.apply(db)


#: What the domain does inside a game's write, in its transaction, after the store's own
#: rows (its handlers: the figures, the tournament's version): called with the connection
#: and the game's id.
Then = Callable[[Database, str], Any] | None


def _packed(value: Any) -> str | None:
    """The parts of a figure or of a total, kept whole in one column (migration 0016), as
    compact JSON; none (NULL) when there are none."""
    return orjson.dumps(value).decode() if value else None


#: Letters and digits that cannot be mistaken for each other when read aloud or typed.
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


#: A new game's code: 32⁸ ≈ 1.1 × 10¹² of them, so that a guesser at the limit one
#: address may reach (``web/limits.py``) needs centuries to find one of a thousand live
#: games. Shown as two groups of four (``K7QM 2XRT``).
CODE_LENGTH = 8


#: The lengths a typed code may have: older games have six.
CODE_LENGTHS = (6, 8)


def new_join_code() -> str:
    """A short code to join a game from another phone, such as ``K7QM2XRT``."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_id() -> str:
    """An unguessable game id for URLs (96 random bits) that never starts with "-", so
    that ``kierki games delete ID`` cannot mistake it for an option."""
    while (gid := secrets.token_urlsafe(12)).startswith("-"):
        pass
    return gid
