"""The request's database connection (``web/db.py``): one per request, opened on first
use, closed when the request ends; every write on one connection is read at once on
another."""
import sqlite3

import pytest

from scorekeeper.web.db import get_db


def test_a_request_opens_one_connection_and_closes_it_at_its_end(app):
    with app.app_context():
        db = get_db()
        assert get_db() is db
        assert db.execute("select count(*) from games").fetchone() == (0,)
    with pytest.raises(sqlite3.ProgrammingError):  # closed with the request
        db.conn.execute("select 1")


def test_a_write_of_one_request_is_read_at_once_by_the_next(app, client):
    with app.app_context():
        first = get_db()
    with app.app_context():
        second = get_db()
        assert second is not first
    answer = client.post("/api/games", json={"ruleset": "standard-4",
                                             "players": ["A", "B", "C", "D"],
                                             "first_dealer": 0})
    assert answer.status_code == 201
    with app.app_context():
        assert get_db().execute("select count(*) from games").fetchone() == (1,)
