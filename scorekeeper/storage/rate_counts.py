"""The rate limits' counts in a SQLite file of their own beside the database, as the
``sqlite://`` storage of the ``limits`` library (Flask-Limiter's): every server process
on an instance counts a client's requests together, and a restart forgets nothing.

Fixed windows: a key's count starts at its first hit and lasts ``expiry`` seconds; an
expired count is deleted by the next hit of any key. The file is apart from the games'
so that a flood of wrong guesses never waits for, or holds up, a deal's write.
"""
from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, ClassVar

from limits.storage import Storage

from .connection import owner_only

SCHEME = "sqlite"
FILE = "limits.sqlite"


def uri_beside(database: str) -> str:
    """The counts' address for the database at ``database``: a file beside it, or in
    memory for an in-memory database (a test's)."""
    if str(database) == ":memory:":
        return "memory://"
    return f"{SCHEME}:///{Path(database).resolve().with_name(FILE)}"


class SQLiteStorage(Storage):
    """``sqlite:///<path>``: one connection per process, used under a lock."""

    STORAGE_SCHEME: ClassVar[list[str]] = [SCHEME]

    def __init__(self, uri: str, wrap_exceptions: bool = False, **options: Any) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        path = uri.split("://", 1)[1]
        self._lock = threading.Lock()
        Path(path).touch(mode=0o600)  # addresses and device ids: the server user's alone,
        owner_only(path)  # before the WAL files exist (SQLite gives them the file's mode)
        self._conn = sqlite3.connect(path, timeout=5, isolation_level=None,
                                     check_same_thread=False)
        for statement in ("pragma journal_mode = wal", "pragma synchronous = normal",
                          ("create table if not exists counts (key text primary key, "
                           "count integer not null, expires real not null)"),
                          "create index if not exists counts_expires on counts (expires)"):
            self._conn.execute(statement)

    @property
    def base_exceptions(self) -> type[Exception]:
        return sqlite3.Error

    def _one(self, sql: str, *params: object) -> Any:
        with self._lock:
            row = self._conn.execute(sql, params).fetchone()
        return row[0] if row else None

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        now = time.time()
        with self._lock:
            self._conn.execute("delete from counts where expires <= ?", [now])
            return int(self._conn.execute(
                "insert into counts values (?, ?, ?) on conflict (key) do update set "
                "count = count + excluded.count returning count",
                [key, amount, now + expiry]).fetchone()[0])

    def get(self, key: str) -> int:
        return int(self._one("select count from counts where key = ? and expires > ?",
                             key, time.time()) or 0)

    def get_expiry(self, key: str) -> float:
        now = time.time()
        return float(self._one("select expires from counts where key = ? and expires > ?",
                               key, now) or now)

    def check(self) -> bool:
        try:
            return self._one("select 1") == 1
        except sqlite3.Error:
            return False

    def reset(self) -> int | None:
        with self._lock:
            return self._conn.execute("delete from counts").rowcount

    def clear(self, key: str) -> None:
        with self._lock:
            self._conn.execute("delete from counts where key = ?", [key])
