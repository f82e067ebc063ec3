"""``GET /healthz``: whether this server can read its database, for a container's or a
monitor's health check.

It takes a connection the way every request does (its own, on ``g``) and counts the games:
``200 {"status": "ok"}``, or ``503 {"status": "unavailable"}`` when the database file is
gone or cannot be read. It opens no session (no cookie is set), is never kept by a cache
(``no-store``) and says nothing about the games themselves.
"""
from __future__ import annotations

import sqlite3
from pathlib import Path

from flask import Blueprint, current_app, jsonify

from ...domain import reads
from ..db import get_db

bp = Blueprint("health", __name__)


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


@bp.get("/healthz")
def healthz():
    ok = _readable()
    response = jsonify({"status": "ok" if ok else "unavailable"})
    response.status_code = 200 if ok else 503
    response.headers["Cache-Control"] = "no-store"
    return response
