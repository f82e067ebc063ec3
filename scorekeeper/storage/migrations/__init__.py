"""The schema's migrations, one file each, applied in the order of their names. A file
once released is never changed: a database that applied it keeps what it did."""
from __future__ import annotations

import importlib
from pathlib import Path

from sqlite_utils import Database, Migrations

#: The migration set's name in ``_sqlite_migrations``.
SET = "scorekeeper"


def apply(db: Database, stop_before: str | None = None) -> None:
    """Every migration ``db`` lacks, in order (those from ``stop_before`` on left out):
    each file's ``migrate`` under the file's name."""
    found = Migrations(SET)
    for path in sorted(Path(__file__).parent.glob("[0-9][0-9][0-9][0-9]_*.py")):
        found(name=path.stem)(importlib.import_module(f"{__name__}.{path.stem}").migrate)
    found.apply(db, stop_before=stop_before)
