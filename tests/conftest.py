import os

import pytest
from hypothesis import settings

from scorekeeper import create_app


@pytest.fixture
def app(tmp_path):
    return create_app({"DATABASE": str(tmp_path / "test.sqlite"), "SECRET_KEY": "test",
                       "TESTING": True, "WTF_CSRF_ENABLED": False,
                       "PDF_CACHE_DIR": str(tmp_path / "sheets")})


@pytest.fixture(autouse=True)
def fresh_caches():
    """Each test starts with nothing kept in memory (as after a restart)."""
    from scorekeeper.common.lru import LRU
    LRU.clear_every()
    yield
    LRU.clear_every()


@pytest.fixture
def client(app):
    return app.test_client()


# Property tests explore new examples on every local run; under CI they replay a fixed
# sequence, so a run's verdict does not depend on chance.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
    settings.load_profile("ci")
