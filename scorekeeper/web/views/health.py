"""``GET /healthz``: whether this server can read its database and save, for a container's
or a monitor's health check.

It takes a connection the way every request does (its own, on ``g``) and counts the games,
then asks the database's folder whether a write fits: ``200 {"status": "ok"}``, or ``503``
with ``"unavailable"`` (the database file is gone or cannot be read), ``"disk_full"``
(less than :data:`DISK_MIN` free, or a small file cannot be written there) or
``"read_only"`` (the folder or the database cannot be written). Nothing is kept between
requests: each answer looks again, so it is ``ok`` as soon as room is made. It opens no
session (no cookie is set), is never kept by a cache (``no-store``) and says nothing about
the games themselves.
"""
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
    # A database file removed under a running server: its open connections would go on
    # reading the removed copy, and a new one would make an empty file. Neither is healthy.
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
    status = "ok" if _readable() else "unavailable"
    if status == "ok":
        status = _write_fault() or "ok"
    response = jsonify({"status": status})
    response.status_code = 200 if status == "ok" else 503
    response.headers["Cache-Control"] = "no-store"
    return response
