"""Group commit (commits.py): writes of many greenlets in one transaction, each one
stored or refused on its own, as if committed one by one.

The greenlets here are gevent's, as under ``kierki serve`` (no monkey-patching is
needed for them to run at once: each waits for its batch).
"""
import sqlite3

import gevent
import pytest

from scorekeeper.families.kierki.rules import get_ruleset
from scorekeeper.families.kierki.rules.examples import plausible_results
from scorekeeper.storage import connection, game_reads, game_writes
from scorekeeper.storage.commits import Busy, Committer
from scorekeeper.storage.pool import Pool

RESULTS = plausible_results(get_ruleset("standard-4"))


@pytest.fixture
def pool(tmp_path):
    path = str(tmp_path / "k.sqlite")
    connection.migrate(connection.connect(path))
    pool = Pool(path, 5000)
    pool.commit_in_groups()
    yield pool
    pool.close()


def games(pool, n):
    db = pool.take()
    try:
        return [game_writes.create_game(db, "kierki", {"id": "standard-4"},
                                  [f"P{i}-{s}" for s in range(4)], {"first_dealer": 0})
                for i in range(n)]
    finally:
        pool.give(db)


def enter(pool, gid, number, result, version):
    db = pool.take()
    try:
        return game_writes.record_deal(db, gid, number, result, version, False)
    finally:
        pool.give(db)


def test_writes_at_once_share_commits_and_each_is_stored(pool):
    ids = games(pool, 20)
    before = pool.committer.batches
    jobs = [gevent.spawn(enter, pool, gid, 1, RESULTS[0], 1) for gid in ids]
    gevent.joinall(jobs, raise_error=True)
    assert [j.value for j in jobs] == [2] * 20  # each got its new version
    assert pool.committer.batches - before < 20  # fewer commits than writes
    other = connection.connect(pool.path)  # another connection, as another process reads
    for gid in ids:
        game = game_reads.load_game(other, gid)
        assert game.version == 2 and game.results == [RESULTS[0]]


def test_two_phones_one_deal_in_one_batch_one_wins(pool):
    """The same deal at the same version, twice in one batch: the first is stored, the
    second hears of the conflict, and the game moved on by one version only."""
    [gid] = games(pool, 1)
    [other] = games(pool, 1)
    first = gevent.spawn(enter, pool, gid, 1, RESULTS[0], 1)
    second = gevent.spawn(enter, pool, gid, 1, {**RESULTS[0], "tricks": [0, 13, 0, 0]}, 1)
    bystander = gevent.spawn(enter, pool, other, 1, RESULTS[0], 1)
    batches = pool.committer.batches
    gevent.joinall([first, second, bystander])
    assert pool.committer.batches == batches + 1  # all three in one commit
    assert first.value == 2 and bystander.value == 2
    assert isinstance(second.exception, game_writes.VersionConflict)
    assert second.exception.current_version == 2
    db = connection.connect(pool.path)
    assert game_reads.load_game(db, gid).results == [RESULTS[0]]
    assert game_reads.load_game(db, gid).version == 2
    assert game_reads.load_game(db, other).version == 2


def test_a_write_that_fails_rolls_back_alone(pool):
    """A game deleted meanwhile, a bug: that write's request hears of it, nothing of it
    is stored, and the others of its batch are."""
    [gid, gone] = games(pool, 2)

    def broken(db):
        db.execute("update games set version = 99 where id = ?", [gid])
        raise RuntimeError("a bug half-way through a write")

    jobs = [gevent.spawn(enter, pool, "no-such-game", 1, RESULTS[0], 1),
            gevent.spawn(pool.committer.run, None, broken),
            gevent.spawn(enter, pool, gid, 1, RESULTS[0], 1),
            gevent.spawn(enter, pool, gone, 1, RESULTS[0], 1)]
    gevent.joinall(jobs)
    assert isinstance(jobs[0].exception, game_reads.GameNotFound)
    assert isinstance(jobs[1].exception, RuntimeError)
    assert jobs[2].value == 2 and jobs[3].value == 2
    db = connection.connect(pool.path)
    assert game_reads.game_version(db, gid) == 2  # not 99: the broken write left nothing


def test_a_commit_that_fails_stores_none_of_its_batch(pool, monkeypatch):
    [a, b] = games(pool, 2)
    real = Committer._commit

    def full_disk(self, jobs):
        outcomes = real.__get__(self)(jobs[:0])  # opens the connection, commits nothing
        assert outcomes == []
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(Committer, "_commit", full_disk)
    jobs = [gevent.spawn(enter, pool, gid, 1, RESULTS[0], 1) for gid in (a, b)]
    gevent.joinall(jobs)
    assert all("disk is full" in str(j.exception) for j in jobs)
    monkeypatch.undo()
    db = connection.connect(pool.path)
    assert game_reads.game_version(db, a) == 1 == game_reads.game_version(db, b)
    assert enter(pool, a, 1, RESULTS[0], 1) == 2  # and the next batch goes on


def test_without_gathering_each_write_is_a_batch_of_one_on_its_own_connection(tmp_path):
    """The tests, the command line and a threaded server commit through the same
    committer, one write per batch, on the caller's connection."""
    path = str(tmp_path / "k.sqlite")
    connection.migrate(connection.connect(path))
    pool = Pool(path, 5000)
    db = pool.take()
    told = []
    pool.committer.listeners.append(lambda: told.append(1))
    gid = game_writes.create_game(db, "kierki", {"id": "standard-4"}, list("ABCD"),
                            {"first_dealer": 0})
    assert game_writes.record_deal(db, gid, 1, RESULTS[0], 1, False) == 2
    with pytest.raises(game_writes.VersionConflict):
        game_writes.record_deal(db, gid, 1, RESULTS[0], 1, False)
    assert not db.conn.in_transaction
    assert (pool.committer.batches, pool.committer.writes) == (3, 3)
    assert len(told) == 2  # the refused write told nobody
    pool.give(db)
    pool.close()


def test_a_batch_of_one_that_fails_half_way_leaves_nothing(tmp_path):
    """A write alone in its batch (it has no savepoint of its own) that fails after a
    statement: its caller hears why, nothing of it is stored, the connection is free."""
    path = str(tmp_path / "k.sqlite")
    connection.migrate(connection.connect(path))
    pool = Pool(path, 5000)
    db = pool.take()
    gid = game_writes.create_game(db, "kierki", {"id": "standard-4"}, list("ABCD"),
                            {"first_dealer": 0})

    def broken(wdb):
        wdb.execute("update games set version = 99 where id = ?", [gid])
        raise RuntimeError("a bug half-way through a write")

    with pytest.raises(RuntimeError, match="half-way"):
        pool.committer.run(db, broken)
    assert not db.conn.in_transaction
    assert game_reads.game_version(connection.connect(path), gid) == 1
    assert game_writes.record_deal(db, gid, 1, RESULTS[0], 1, False) == 2
    pool.give(db)
    pool.close()


HOLD_THE_LOCK = ("import sqlite3, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None); "
                 "c.execute('BEGIN IMMEDIATE'); print('held', flush=True); sys.stdin.readline()")


def _lock_held_by_another_process(path):
    """Another process takes the write lock and holds it until told to stop."""
    import subprocess
    import sys
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_THE_LOCK, path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        text=True)
    assert holder.stdout.readline().strip() == "held"
    return holder


@pytest.mark.parametrize("gathered", [False, True])
def test_a_write_that_cannot_get_the_lock_is_busy_and_stores_nothing(tmp_path, gathered):
    path = str(tmp_path / "k.sqlite")
    connection.migrate(connection.connect(path))
    pool = Pool(path, 300)
    if gathered:
        pool.commit_in_groups()
    [gid] = games(pool, 1)
    holder = _lock_held_by_another_process(path)
    try:
        job = gevent.spawn(enter, pool, gid, 1, RESULTS[0], 1)
        job.join(timeout=30)
        assert isinstance(job.exception, Busy)
    finally:
        holder.communicate("\n", timeout=30)
    assert game_reads.game_version(connection.connect(path), gid) == 1
    assert enter(pool, gid, 1, RESULTS[0], 1) == 2  # the lock is free again: stored
    pool.close()


def test_while_another_process_holds_the_lock_other_greenlets_are_served(tmp_path):
    """A gathered write waits for the lock by sleeping its greenlet: the loop goes on."""
    path = str(tmp_path / "k.sqlite")
    connection.migrate(connection.connect(path))
    pool = Pool(path, 2000)
    pool.commit_in_groups()
    [gid] = games(pool, 1)
    holder = _lock_held_by_another_process(path)
    ticks = []

    def ticker():
        while len(ticks) < 5:
            ticks.append(game_reads.game_version(connection.connect(path), gid))
            gevent.sleep(0.01)

    try:
        writer = gevent.spawn(enter, pool, gid, 1, RESULTS[0], 1)
        reader = gevent.spawn(ticker)
        reader.join(timeout=30)
        assert ticks == [1] * 5 and not writer.ready()  # read five times while it waited
    finally:
        holder.communicate("\n", timeout=30)
    writer.join(timeout=30)
    assert writer.value == 2
    pool.close()


def test_checkpoints_copy_the_log_into_the_file_on_a_thread_of_their_own(
        pool, tmp_path, monkeypatch):
    """The committer's own connection never checkpoints (that would stop every request
    for the copy and its wait for the disk); a thread does, every few batches, and what
    the writes stored reaches the database file itself."""
    import shutil
    import sqlite3

    from scorekeeper.storage import commits

    monkeypatch.setattr(commits, "CHECKPOINT_EVERY", 1)
    ids = games(pool, 10)
    for number, result in enumerate(RESULTS[:3], start=1):
        jobs = [gevent.spawn(enter, pool, gid, number, result, number) for gid in ids]
        gevent.joinall(jobs, raise_error=True)
    committer = pool.committer
    committer._checkpointing.wait()
    assert committer.checkpoints >= 1
    assert committer._db.conn.execute("PRAGMA wal_autocheckpoint").fetchone() == (0,)

    def in_the_file_alone() -> int:
        """Deals in a copy of the database file without its log."""
        alone = tmp_path / "alone.sqlite"
        shutil.copy(pool.path, alone)
        copy = sqlite3.connect(alone)
        try:
            return copy.execute("select count(*) from deals").fetchone()[0]
        finally:
            copy.close()
            alone.unlink()

    assert in_the_file_alone() >= 10  # a checkpoint ran while the deals were entered
    committer._checkpoint_soon()  # the next one (none is under way now) takes the rest
    committer._checkpointing.wait()
    assert in_the_file_alone() == 30


def test_a_listener_that_fails_leaves_the_writes_stored_and_said_so(pool, caplog):
    """Listeners hear of a commit after it: their failure is logged, and the writes,
    which are stored, are answered as stored."""
    [a, b] = games(pool, 2)

    def broken():
        raise RuntimeError("a listener's bug")

    pool.committer.listeners.append(broken)
    jobs = [gevent.spawn(enter, pool, gid, 1, RESULTS[0], 1) for gid in (a, b)]
    gevent.joinall(jobs)
    assert [j.value for j in jobs] == [2, 2]
    assert "a listener of the committed writes failed" in caplog.text
    db = connection.connect(pool.path)
    assert game_reads.game_version(db, a) == 2 == game_reads.game_version(db, b)


@pytest.mark.parametrize("code, busy", [(5, True), (6, True), (517, True), (261, True),
                                        (1, False), (None, False)])
def test_busy_is_known_by_its_extended_codes_too(code, busy):
    import sqlite3

    from scorekeeper.storage import commits

    error = sqlite3.OperationalError("database is locked")
    if code is not None:
        error.sqlite_errorcode = code
    assert commits._is_busy(error) is busy
