"""One sqlite-utils Database per request on ``g``, lent by the app's pool
(:mod:`..domain.database`); the ``init-db`` command."""
from __future__ import annotations

import click
from flask import Flask, current_app, g
from sqlite_utils import Database

from ..domain import database
from ..domain.database import Pool, init_db


def pool_of(app: Flask) -> Pool:
    """The connection pool of this app's database (one per file and settings)."""
    key = (app.config["DATABASE"], busy_timeout_ms(app),
           str(app.config.get("SYNCHRONOUS", "FULL")))
    pools: dict[tuple[str, int, str], Pool] = app.extensions.setdefault("kierki_db_pools", {})
    pool = pools.get(key)
    if pool is None:
        pool = pools.setdefault(key, Pool(*key))
    return pool


def get_db() -> Database:
    if "db" not in g:
        pool = pool_of(current_app)
        g.db, g.db_pool = pool.take(), pool
    return g.db


def busy_timeout_ms(app: Flask) -> int:
    """How long a write waits for another's lock: ``BUSY_TIMEOUT_MS`` (env
    ``KIERKI_BUSY_TIMEOUT_MS``), 10 s unless set."""
    return int(app.config.get("BUSY_TIMEOUT_MS", database.BUSY_TIMEOUT_MS))


def close_db(exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        g.pop("db_pool").give(db)


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
