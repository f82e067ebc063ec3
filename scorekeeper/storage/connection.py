"""What every part of the storage shares: the connection, the one way a write runs
(:func:`writes`), one value read or its not-found error, the clock, the home club, the
rights a change is made by, and new ids and codes."""
from __future__ import annotations

import contextlib
import logging
import os
import secrets
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import orjson
from sqlite_utils import Database

from ..common import collation
from ..rules.errors import N_
from . import migrations

log = logging.getLogger(__name__)


#: How long a write waits for another's lock before it fails (the app's ``BUSY_TIMEOUT_MS``).
BUSY_TIMEOUT_MS = 10_000

#: The club every server has: where everything made without naming a club goes (and,
#: by migration 0013, everything made before there were clubs). Its name is empty.
HOME_CLUB = "home"

#: Who made a change: the table (a phone of the game, or its API token), the
#: tournament's director, or the host.
RIGHTS = ("table", "director", "host")

def check_right(by: str) -> None:
    if by not in RIGHTS:
        raise ValueError(f"no such right: {by!r}")


#: How SQLite makes a commit durable: ``FULL`` (the default) waits until the commit is on
#: the disk, so an answered write survives a power cut; ``NORMAL`` leaves that to the
#: system (the last writes before a power cut may be lost; the database stays intact).
SYNCHRONOUS = ("FULL", "NORMAL")

#: Letters and digits that cannot be mistaken for each other when read aloud or typed.
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
#: A new game's code: 32⁸ codes, shown as two groups of four (``K7QM 2XRT``).
CODE_LENGTH = 8
#: The lengths a typed code may have: older games have six.
CODE_LENGTHS = (6, 8)

#: What the domain does inside a game's write, in its transaction, after the store's own
#: rows: called with the connection and the game's id.
Then = Callable[[Database, str], Any] | None


def sort_keys(name: str) -> tuple[bytes, bytes]:
    """A name's collation key in English and in Polish (:func:`.collation.key`) as bytes
    SQLite compares in the key's order, so ``order by sort_pl, name, id`` is
    :func:`.collation.by_name`'s order."""
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


def one_value(db: Database, sql: str, key: Any, missing: type[Exception]) -> Any:
    """The one value ``sql`` selects for ``key``; ``missing(key)`` if no row has it."""
    row = db.conn.execute(sql, [key]).fetchone()
    if row is None:
        raise missing(key)
    return row[0]


def now() -> str:
    """The time now, to the second, as ISO text."""
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def owner_only(path: str | os.PathLike[str]) -> None:
    """The database and its WAL files readable by this server's user alone: they hold
    every name, score and join code."""
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.chmod(f"{os.fspath(path)}{suffix}", 0o600)


def connect(path: str, busy_timeout_ms: int = BUSY_TIMEOUT_MS,
            synchronous: str = "FULL") -> Database:
    """Open the database with foreign keys, a wait for busy writers and the durability
    asked for: what is per connection (the WAL is the file's own, set by :func:`migrate`).

    The connection never opens a transaction by itself (``isolation_level=None``): the only
    transactions are :func:`.transaction.writes`' (and the migrations' own).
    """
    mode = str(synchronous).upper()
    if mode not in SYNCHRONOUS:
        raise ValueError(f"synchronous must be one of {', '.join(SYNCHRONOUS)}, not {mode!r}")
    conn = sqlite3.connect(str(path), timeout=busy_timeout_ms / 1000, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute(f"PRAGMA synchronous = {mode}")
    return Database(conn, recursive_triggers=False, execute_plugins=False)


class StoreError(Exception):
    """Base of storage errors."""


class Busy(StoreError):
    """Another connection held the write lock for the whole busy timeout; nothing of this
    write was stored."""

    retry_after = 2  # seconds a client is told to wait before it tries again
    #: What the user is told (a message id: the web layer translates it).
    message = N_("The server is busy with another write; nothing was saved. Try again in a moment.")


def migrate(db: Database) -> None:
    """The file its owner's alone and in WAL mode (both kept by the file), and the schema
    brought up to date (:mod:`.migrations`)."""
    path = db.conn.execute("PRAGMA database_list").fetchone()[2]
    if path:  # (an in-memory database has none)
        owner_only(path)  # before the WAL files exist: SQLite gives them the file's mode
    db.conn.execute("PRAGMA journal_mode = WAL")
    migrations.apply(db)


def _packed(value: Any) -> str | None:
    """The parts of a figure or of a total as compact JSON in one column; NULL for none."""
    return orjson.dumps(value).decode() if value else None


def new_join_code() -> str:
    """A short code to join a game from another phone, such as ``K7QM2XRT``."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_id() -> str:
    """An unguessable game id for URLs (96 random bits) that never starts with "-", so
    that ``kierki games delete ID`` cannot mistake it for an option."""
    while (gid := secrets.token_urlsafe(12)).startswith("-"):
        pass
    return gid
