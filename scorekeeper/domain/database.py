"""The database the app works on, as the layers above see it: a connection opened with
the app's settings, the schema brought up to date, and those settings. The web asks
here; only the domain and the storage name the storage."""
from __future__ import annotations

from ..storage.connection import BUSY_TIMEOUT_MS, SYNCHRONOUS, connect, migrate
from ..storage.rate_counts import uri_beside as limits_uri  # and the sqlite:// scheme

__all__ = ["BUSY_TIMEOUT_MS", "SYNCHRONOUS", "connect", "init_db", "limits_uri"]


def init_db(path: str, timeout_ms: int = BUSY_TIMEOUT_MS) -> None:
    """Create the database at ``path`` or bring it up to the current schema (migrations
    are idempotent)."""
    db = connect(path, timeout_ms)
    try:
        migrate(db)
    finally:
        db.close()
