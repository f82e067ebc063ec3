"""``GET /healthz``, for a container's or a monitor's health check: ``200 {"status":
"ok"}``, or ``503`` with ``"unavailable"`` (the database file is gone or cannot be read),
``"disk_full"`` (less than :data:`DISK_MIN` free, or a small file cannot be written there)
or ``"read_only"`` (the folder or the database cannot be written). Each answer looks
again; none opens a session or is kept by a cache."""
from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

from flask import Blueprint, current_app, jsonify

from ...domain import reads
from ...domain.errors import DISK_FULL, READ_ONLY, write_fault
from ..db import get_db

bp = Blueprint("health", __name__)

#: Less free space than this where the database lives is a full disk: SQLite needs room
#: for new pages and its write-ahead log, a PDF for its file.
DISK_MIN = 1024 * 1024


def _readable() -> bool:
    path = current_app.config["DATABASE"]
    # a database file removed under a running server: its connections read the removed copy
    if path != ":memory:" and not Path(path).is_file():
        return False
    try:
        reads.count_games(get_db())
    except (sqlite3.Error, OSError):
        return False
    return True


def _write_fault() -> str | None:
    """What keeps the database's folder from taking a write (None: nothing)."""
    path = current_app.config["DATABASE"]
    if path == ":memory:":
        return None
    folder = Path(path).parent
    try:
        if shutil.disk_usage(folder).free < DISK_MIN:
            return DISK_FULL
    except OSError:
        return None
    if not os.access(path, os.W_OK):
        return READ_ONLY
    probe = folder / f".healthz-{os.getpid()}"
    try:
        with open(probe, "wb") as f:
            f.write(b"\0" * 4096)
            f.flush()
            os.fsync(f.fileno())
    except OSError as e:
        return write_fault(e) or READ_ONLY  # (a folder this user may not write)
    finally:
        probe.unlink(missing_ok=True)
    return None


@bp.get("/healthz")
def healthz():
    status = (_write_fault() or "ok") if _readable() else "unavailable"
    return jsonify({"status": status}), 200 if status == "ok" else 503, \
        {"Cache-Control": "no-store"}
