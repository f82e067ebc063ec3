"""The rate limits' counts in their SQLite file: fixed windows that end, shared by every
connection to the file, refused storage errors as the ``limits`` library expects."""
import os
import stat

from limits import RateLimitItemPerMinute
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter

from scorekeeper.storage import rate_counts


def test_a_count_lasts_its_window_and_is_shared_by_every_connection(tmp_path, monkeypatch):
    now = [1_000_000.0]
    monkeypatch.setattr(rate_counts.time, "time", lambda: now[0])
    uri = rate_counts.uri_beside(str(tmp_path / "kierki.sqlite"))
    one, two = storage_from_string(uri), storage_from_string(uri)
    assert isinstance(one, rate_counts.SQLiteStorage) and one.check()
    assert one.incr("k", 60) == 1 and two.incr("k", 60) == 2 and one.get("k") == 2
    assert two.get_expiry("k") == now[0] + 60
    now[0] += 59.9
    assert two.incr("k", 60, amount=3) == 5  # still the first window
    now[0] += 0.2
    assert one.get("k") == 0 and one.get_expiry("k") == now[0]  # the window is over
    assert two.incr("k", 60) == 1  # a new window from this hit
    assert two.get_expiry("k") == now[0] + 60
    two.clear("k")
    assert one.get("k") == 0
    one.incr("a", 60)
    one.incr("b", 60)
    assert two.reset() == 2 and one.get("a") == 0


def test_the_limiter_refuses_past_its_limit_and_the_file_is_the_owners_alone(tmp_path):
    uri = rate_counts.uri_beside(str(tmp_path / "kierki.sqlite"))
    limiter = FixedWindowRateLimiter(storage_from_string(uri))
    item = RateLimitItemPerMinute(3)
    assert [limiter.hit(item, "phone") for _ in range(4)] == [True, True, True, False]
    assert limiter.hit(item, "another")
    mode = stat.S_IMODE(os.stat(tmp_path / rate_counts.FILE).st_mode)
    assert mode == 0o600


def test_an_in_memory_database_counts_in_memory():
    assert rate_counts.uri_beside(":memory:") == "memory://"
