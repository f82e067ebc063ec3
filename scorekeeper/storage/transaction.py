"""The one write helper: a storage write runs whole in one ``BEGIN IMMEDIATE … COMMIT``."""
from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable
from typing import Any, TypeVar

from sqlite_utils import Database

from .connection import Busy, StoreError

T = TypeVar("T")


def _is_busy(error: sqlite3.OperationalError) -> bool:
    """SQLITE_BUSY or SQLITE_LOCKED, extended codes included (BUSY_SNAPSHOT, …)."""
    code = getattr(error, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def writes(fn: Callable[..., T]) -> Callable[..., T]:
    """Make ``fn(db, ...)`` a write: the one way the app changes rows (the migrations and
    a restore excepted). It runs whole in one ``BEGIN IMMEDIATE … COMMIT`` or not at all:
    any exception rolls it back and reaches the caller.

    ``BEGIN IMMEDIATE`` takes the write lock before the write reads anything, waiting up
    to the busy timeout (then :class:`Busy`); a deferred ``BEGIN`` would fail at once with
    ``database is locked`` when another write committed between its read and its write."""
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
