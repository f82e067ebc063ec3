"""The request's database connection on Flask's ``g`` (as flaskr's ``db`` module keeps
it): opened on the request's first use, closed when the request ends; the ``init-db``
command."""
from __future__ import annotations

import click
from flask import Flask, current_app, g
from sqlite_utils import Database

from ..domain import database
from ..domain.database import init_db


def open_db(app: Flask) -> Database:
    """A new connection to ``app``'s database with its settings; the caller closes it."""
    return database.connect(app.config["DATABASE"], busy_timeout_ms(app),
                            synchronous=str(app.config.get("SYNCHRONOUS", "FULL")))


def get_db() -> Database:
    """This request's connection (opened on first use)."""
    if "db" not in g:
        g.db = open_db(current_app)
    return g.db


def busy_timeout_ms(app: Flask) -> int:
    """How long a write waits for another's lock: ``BUSY_TIMEOUT_MS`` (env
    ``KIERKI_BUSY_TIMEOUT_MS``), 10 s unless set."""
    return int(app.config.get("BUSY_TIMEOUT_MS", database.BUSY_TIMEOUT_MS))


def close_db(exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()


@click.command("init-db")
def init_db_command() -> None:
    """Create the database or bring it up to the current schema."""
    init_db(current_app.config["DATABASE"], busy_timeout_ms(current_app))
    click.echo(f"Database ready: {current_app.config['DATABASE']}")


def init_app(app: Flask) -> None:
    mode = str(app.config.get("SYNCHRONOUS", "FULL")).upper()
    if mode not in database.SYNCHRONOUS:  # KIERKI_SYNCHRONOUS: refused at start, not per request
        raise ValueError(f"SYNCHRONOUS must be one of {', '.join(database.SYNCHRONOUS)}, "
                         f"not {mode!r}")
    app.config["SYNCHRONOUS"] = mode
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)
    # migrations are idempotent; a fresh install just works
    init_db(app.config["DATABASE"], busy_timeout_ms(app))
    # One connection held open, idle, for the app's life (no transaction, no read lock:
    # it holds nothing another connection or process waits for). While any connection
    # is open SQLite keeps the write-ahead log; the last one's close would checkpoint the
    # log into the database and delete it, on every request that found no other open.
    app.extensions["kierki_wal_held"] = open_db(app)
