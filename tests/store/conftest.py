"""The store's tests: each a migrated database file of its own, ``s.sqlite`` in the
test's folder (a test that opens a second connection to it names it so)."""
import pytest

from scorekeeper.storage import connection


@pytest.fixture
def db(tmp_path):
    db = connection.connect(str(tmp_path / "s.sqlite"))
    connection.migrate(db)
    yield db
    db.close()
