"""Who uses an instance folder now: every ``kierki serve`` holds a shared lock on a file in
it for as long as it runs, and ``kierki restore`` takes the lock alone, so a restore never
replaces a database a running server has open, and no server starts while a restore runs.

The lock is ``flock(2)`` on ``<instance>/server.lock``: the system lets it go when the
process ends, however it ends, and any number of servers on one folder share it."""
from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO

LOCK_FILE = "server.lock"


class InUse(Exception):
    """The instance's lock is held the other way (a server runs, or a restore does)."""


def _take(instance: str | os.PathLike[str], how: int) -> IO[bytes]:
    f = os.fdopen(os.open(Path(instance) / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600), "r+b")
    try:
        fcntl.flock(f.fileno(), how | fcntl.LOCK_NB)
    except BlockingIOError:
        f.close()
        raise InUse(str(instance)) from None
    return f


def hold(instance: str | os.PathLike[str]) -> IO[bytes]:
    """The instance's lock shared with every other server (``kierki serve``), as an open
    file; ``SystemExit`` with the reason while a restore runs."""
    try:
        return _take(instance, fcntl.LOCK_SH)
    except InUse:
        raise SystemExit(f"Refused: a restore is replacing the database in {instance}; "
                         "start the server when it has finished.") from None


def alone(instance: str | os.PathLike[str]) -> IO[bytes]:
    """The instance's lock for this process alone (``kierki restore``), as an open file
    to close when done; :class:`InUse` while any server uses the instance."""
    return _take(instance, fcntl.LOCK_EX)
