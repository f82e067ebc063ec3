"""The store's tests: each a migrated database file of its own, ``s.sqlite`` in the
test's folder (a test that opens a second connection to it names it so)."""
import pytest

from scorekeeper.storage import store


@pytest.fixture
def db(tmp_path):
    db = store.connect(str(tmp_path / "s.sqlite"))
    store.migrate(db)
    yield db
    db.close()
