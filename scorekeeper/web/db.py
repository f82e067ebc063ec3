"""The request's database connection on Flask's ``g`` (as flaskr keeps it): opened on the
request's first use, closed when the request ends; the ``init-db`` command."""
from __future__ import annotations

import click
from flask import Flask, current_app, g
from sqlite_utils import Database

from ..domain import database
from ..domain.database import init_db


def _open(app: Flask) -> Database:
    return database.connect(app.config["DATABASE"], _timeout(app), app.config["SYNCHRONOUS"])


def _timeout(app: Flask) -> int:
    return int(app.config.get("BUSY_TIMEOUT_MS", database.BUSY_TIMEOUT_MS))


def get_db() -> Database:
    """This request's connection (opened on first use)."""
    if "db" not in g:
        g.db = _open(current_app)
    return g.db


def close_db(exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()


@click.command("init-db")
def init_db_command() -> None:
    """Create the database or bring it up to the current schema."""
    init_db(current_app.config["DATABASE"], _timeout(current_app))
    click.echo(f"Database ready: {current_app.config['DATABASE']}")


def init_app(app: Flask) -> None:
    mode = str(app.config.get("SYNCHRONOUS", "FULL")).upper()
    if mode not in database.SYNCHRONOUS:  # refused at start, not per request
        raise ValueError(f"SYNCHRONOUS must be one of {', '.join(database.SYNCHRONOUS)}, "
                         f"not {mode!r}")
    app.config["SYNCHRONOUS"] = mode
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)
    init_db(app.config["DATABASE"], _timeout(app))  # idempotent: a fresh install just works
    # One idle connection held for the app's life (it holds no lock): the last
    # connection's close would checkpoint the write-ahead log and delete it, on every
    # request that found no other open.
    app.extensions["kierki_wal_held"] = _open(app)
