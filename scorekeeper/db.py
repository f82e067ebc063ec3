"""One sqlite-utils Database per request on ``g``; the ``init-db`` command."""
from __future__ import annotations

import click
from flask import Flask, current_app, g
from sqlite_utils import Database

from . import store


def get_db() -> Database:
    if "db" not in g:
        g.db = store.connect(current_app.config["DATABASE"], busy_timeout_ms(current_app))
    return g.db


def busy_timeout_ms(app: Flask) -> int:
    """How long a write waits for another's lock: ``BUSY_TIMEOUT_MS`` (env
    ``KIERKI_BUSY_TIMEOUT_MS``), 10 s unless set."""
    return int(app.config.get("BUSY_TIMEOUT_MS", store.BUSY_TIMEOUT_MS))


def close_db(exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()


def init_db(path: str, timeout_ms: int = store.BUSY_TIMEOUT_MS) -> None:
    db = store.connect(path, timeout_ms)
    try:
        store.migrate(db)
    finally:
        db.close()


@click.command("init-db")
def init_db_command() -> None:
    """Create the database or bring it up to the current schema."""
    init_db(current_app.config["DATABASE"], busy_timeout_ms(current_app))
    click.echo(f"Database ready: {current_app.config['DATABASE']}")


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)
    # migrations are idempotent; a fresh install just works
    init_db(app.config["DATABASE"], busy_timeout_ms(app))
