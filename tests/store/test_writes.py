"""The one write helper (``transaction.writes``): each write runs whole in one
``BEGIN IMMEDIATE … COMMIT`` on its caller's connection, or not at all (the version
checks, the wait for the lock and ``Busy`` are in ``test_store.py``)."""
import sqlite3

import pytest

from scorekeeper.families.kierki.rules import get_ruleset
from scorekeeper.families.kierki.rules.examples import plausible_results
from scorekeeper.storage import connection, game_reads, game_writes, transaction

RESULTS = plausible_results(get_ruleset("standard-4"))


@pytest.fixture
def path(tmp_path):
    path = str(tmp_path / "k.sqlite")
    db = connection.connect(path)
    connection.migrate(db)
    db.close()
    return path


def _game(db):
    return game_writes.create_game(db, "kierki", {"id": "standard-4"}, list("ABCD"),
                                   {"first_dealer": 0})


class _FailingCommit:
    """A connection whose ``COMMIT`` fails as on a full disk."""

    def __init__(self, conn):
        self._conn = conn

    def execute(self, sql, *args):
        if sql == "COMMIT":
            raise sqlite3.OperationalError("database or disk is full")
        return self._conn.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self._conn, name)


def test_a_commit_that_fails_stores_nothing(path):
    db = connection.connect(path)
    gid = _game(db)
    real = db.conn
    db.conn = _FailingCommit(real)
    with pytest.raises(sqlite3.OperationalError, match="full"):
        game_writes.record_deal(db, gid, 1, RESULTS[0], 1, False)
    db.conn = real
    assert not real.in_transaction
    assert game_reads.load_game(connection.connect(path), gid).results == []


@pytest.mark.parametrize("code, busy", [(5, True), (6, True), (517, True), (261, True),
                                        (1, False), (None, False)])
def test_busy_is_known_by_its_extended_codes_too(code, busy):
    error = sqlite3.OperationalError("database is locked")
    if code is not None:
        error.sqlite_errorcode = code
    assert transaction._is_busy(error) is busy
