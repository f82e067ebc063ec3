"""A database copied whole and brought back (``kierki backup``, ``kierki restore``).

A copy is made by SQLite's online backup (one read snapshot: writers go on), with the
server's secret key in a table of the copy (:data:`SECRET_TABLE`); brought back, that
table is dropped (and vacuumed out of its free pages) before the copy replaces the live
database in one transaction."""
from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

#: The table a backup keeps the server's secret key in: in the copy, so that a backup is
#: one file. The live database never holds it.
SECRET_TABLE = "kierki_backup_secret"

#: What makes a live database worth keeping: a restore over any of it needs ``--force``.
KEPT = ("games", "people", "tournaments", "rulesets")


def write_copy(live: sqlite3.Connection, part: Path, secret: str) -> tuple[str, int]:
    """``live`` copied into the file ``part`` (a self-contained file, no ``-wal``) with
    ``secret`` in :data:`SECRET_TABLE`: the copy's integrity check and its games."""
    with closing(sqlite3.connect(part, isolation_level=None)) as copy:
        live.backup(copy)
        copy.execute("PRAGMA journal_mode = DELETE")
        with copy:
            copy.execute("begin")
            copy.execute(f"create table {SECRET_TABLE} (secret_key text not null)")
            copy.execute(f"insert into {SECRET_TABLE} values (?)", [secret])
        return (copy.execute("PRAGMA integrity_check").fetchone()[0],
                copy.execute("select count(*) from games").fetchone()[0])


def _counts(db: sqlite3.Connection, tables: set[str]) -> dict[str, int]:
    return {t: db.execute(f"select count(*) from {t}").fetchone()[0] for t in KEPT if t in tables}


def kept_rows(db: sqlite3.Connection) -> dict[str, int]:
    """The rows of each :data:`KEPT` table that has any."""
    return {t: n for t, n in _counts(db, _tables(db)).items() if n}


@dataclass(frozen=True)
class Backup:
    """What a backup file holds, read without changing it."""

    check: str  #: SQLite's integrity check: ``ok``
    tables: frozenset[str]
    secret: str | None  #: the server's secret key kept in it (None: made before that)
    counts: dict[str, int]  #: rows per :data:`KEPT` table


def read(source: Path) -> Backup:
    """The backup at ``source``, opened read-only (``sqlite3.DatabaseError`` if it is no
    database)."""
    with closing(_read_only(source)) as db:
        check = db.execute("PRAGMA integrity_check").fetchone()[0]
        tables = _tables(db)
        secret = db.execute(f"select secret_key from {SECRET_TABLE}").fetchone()[0] \
            if SECRET_TABLE in tables else None
        return Backup(check, frozenset(tables), secret, _counts(db, tables))


def bring_back(source: Path, part: Path, live: sqlite3.Connection) -> None:
    """The backup at ``source`` into the live database, in one transaction (whole or
    unchanged), without its secret: copied into ``part`` first, its secret dropped and
    vacuumed out there."""
    with closing(sqlite3.connect(part, isolation_level=None)) as copy:
        with closing(_read_only(source)) as read_from:
            read_from.backup(copy)
        copy.execute(f"drop table if exists {SECRET_TABLE}")
        copy.execute("vacuum")  # nor in its free pages
        copy.backup(live)


def _read_only(source: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)


def _tables(db: sqlite3.Connection) -> set[str]:
    return {row[0] for row in db.execute("select name from sqlite_master where type='table'")}
