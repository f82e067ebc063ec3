"""Storage: migrations, one transaction per write, version checks, snapshots, history."""
import json
import sqlite3

import pytest

from scorekeeper.domain import service
from scorekeeper.families.kierki import family as kierki_family
from scorekeeper.families.kierki.rules import rulesets as rulesets_module
from scorekeeper.storage import (
    connection,
    game_reads,
    game_writes,
    migrations,
    people_reads,
)
from scorekeeper.storage.connection import Busy


def new(db):
    return service.create_game(db, "standard-4", ["Ala", "Bolek", "Cela", "Darek"], 0)


def test_wal_and_migrations_are_idempotent_and_keep_data(db, tmp_path):
    assert db.execute("pragma journal_mode").fetchone()[0] == "wal"
    gid = new(db)
    connection.migrate(db)  # again: nothing lost
    assert service.load(db, gid).players == ["Ala", "Bolek", "Cela", "Darek"]
    applied = [r["name"] for r in db.query("select name from _sqlite_migrations")]
    assert applied == ["0001_initial", "0002_family", "0003_join_code", "0004_rulesets",
                       "0005_settings", "0006_people", "0007_figures",
                       "0008_one_name_per_person", "0009_tournaments", "0010_rights",
                       "0011_figure_totals", "0012_rematches", "0013_clubs",
                       "0014_ratings_seasons", "0015_lean_figure_parts",
                       "0016_packed_parts", "0017_unread_index",
                       "0018_club_members", "0019_game_totals"]


def test_a_stale_version_is_refused_and_nothing_changes(db):
    gid = new(db)
    service.enter_deal(db, service.load(db, gid), 1, {"tricks": [13, 0, 0, 0]}, 1)
    with pytest.raises(service.Conflict):
        service.enter_deal(db, service.load(db, gid), 1, {"tricks": [0, 13, 0, 0]}, 1)
    with pytest.raises(service.Conflict):
        service.enter_deal(db, service.load(db, gid), 2, {"hearts": [0, 13, 0, 0]}, 1)
    game = service.load(db, gid)
    assert game.version == 2 and game.state.totals == [-260, 0, 0, 0]


def test_store_level_race_loser_gets_version_conflict(db):
    gid = new(db)
    game_writes.record_deal(db, gid, 1, {"tricks": [13, 0, 0, 0]}, 1, False)
    with pytest.raises(game_writes.VersionConflict) as e:
        game_writes.record_deal(db, gid, 1, {"tricks": [0, 13, 0, 0]}, 1, False)
    assert e.value.current_version == 2
    rows = list(db.query("select result from deals where game_id = ?", [gid]))
    assert [json.loads(r["result"])["tricks"] for r in rows] == [[13, 0, 0, 0]]


def test_a_failed_write_leaves_no_half_change(db, monkeypatch):
    gid = new(db)

    def broken(*args, **kwargs):
        raise sqlite3.OperationalError("disk on fire")

    monkeypatch.setattr(game_writes, "_text", broken)
    with pytest.raises(sqlite3.OperationalError):
        game_writes.record_deal(db, gid, 1, {"tricks": [13, 0, 0, 0]}, 1, False)
    assert service.load(db, gid).version == 1  # the version bump was rolled back


def test_a_game_keeps_its_ruleset_snapshot(db, monkeypatch):
    gid = new(db)
    original = rulesets_module.get_ruleset("standard-4").snapshot()
    changed = json.loads(json.dumps(original))
    changed["contracts"]["no_tricks"]["points"] = -999
    monkeypatch.setattr(kierki_family, "registry",
                        lambda: {"standard-4": rulesets_module.from_data(changed)})
    game = service.enter_deal(db, service.load(db, gid), 1, {"tricks": [1, 0, 0, 12]}, 1)
    assert game.state.scored[0].points == [-20, 0, 0, -240]
    later = new(db)  # a game started after the change plays the changed rules
    assert service.enter_deal(db, service.load(db, later), 1, {"tricks": [1, 0, 0, 12]}, 1) \
        .state.scored[0].points == [-999, 0, 0, -999 * 12]


def test_edits_and_undo_are_kept_in_history(db):
    gid = new(db)
    service.enter_deal(db, service.load(db, gid), 1, {"tricks": [13, 0, 0, 0]}, 1)
    service.enter_deal(db, service.load(db, gid), 1, {"tricks": [0, 13, 0, 0]}, 2)
    service.undo_last(db, service.load(db, gid), 3)
    history = game_reads.deal_history(db, gid, 1)
    assert [(h["action"], h["result"]["tricks"]) for h in history] == \
        [("edit", [13, 0, 0, 0]), ("undo", [0, 13, 0, 0])]


def test_ids_are_unguessable_and_delete_removes_everything(db):
    ids = {new(db) for _ in range(20)}
    assert len(ids) == 20 and all(len(i) >= 16 for i in ids)
    gid = ids.pop()
    service.enter_deal(db, service.load(db, gid), 1, {"tricks": [13, 0, 0, 0]}, 1)
    with pytest.raises(service.Conflict):  # a stale page cannot delete the game
        service.delete_game(db, service.load(db, gid), 1)
    service.delete_game(db, service.load(db, gid), 2)
    with pytest.raises(game_reads.GameNotFound):
        service.load(db, gid)
    for table in ("players", "deals", "deal_history"):
        assert db.execute(f"select count(*) from {table} where game_id = ?", [gid]).fetchone()[0] == 0


def test_two_phones_at_the_same_moment_one_wins(tmp_path):
    import threading

    path = str(tmp_path / "race.sqlite")
    setup = connection.connect(path)
    connection.migrate(setup)
    gid = new(setup)
    setup.close()
    barrier = threading.Barrier(8)
    outcomes: list[str] = []

    def phone(seat: int) -> None:
        db = connection.connect(path)
        tricks = [0, 0, 0, 0]
        tricks[seat % 4] = 13
        barrier.wait()
        try:
            service.enter_deal(db, service.load(db, gid), 1, {"tricks": tricks}, 1)
            outcomes.append("saved")
        except service.Conflict:
            outcomes.append("told")
        finally:
            db.close()

    threads = [threading.Thread(target=phone, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["saved"] + ["told"] * 7
    check = connection.connect(path)
    game = service.load(check, gid)
    check.close()
    assert game.version == 2 and len(game.state.scored) == 1
    assert sorted(game.state.scored[0].points) == [-260, 0, 0, 0]


def test_the_connection_opens_no_transaction_by_itself(db):
    assert db.conn.isolation_level is None  # the driver never sends a BEGIN of its own
    assert db.execute("pragma busy_timeout").fetchone()[0] == connection.BUSY_TIMEOUT_MS
    assert db.execute("pragma synchronous").fetchone()[0] == 2  # FULL
    gid = new(db)
    assert not db.conn.in_transaction
    service.enter_deal(db, service.load(db, gid), 1, {"tricks": [13, 0, 0, 0]}, 1)
    assert not db.conn.in_transaction


def test_the_app_sets_the_busy_timeout(tmp_path):
    from scorekeeper import create_app
    from scorekeeper.web.db import get_db

    app = create_app({"DATABASE": str(tmp_path / "t.sqlite"), "SECRET_KEY": "x",
                      "TESTING": True, "BUSY_TIMEOUT_MS": 1234})
    with app.app_context():
        assert get_db().execute("pragma busy_timeout").fetchone()[0] == 1234


def test_a_write_waits_for_the_write_lock_then_succeeds(db, tmp_path):
    import threading

    gid = new(db)
    holder = sqlite3.connect(str(tmp_path / "s.sqlite"), isolation_level=None)
    holder.execute("begin immediate")  # another writer holds the lock
    done: list[object] = []

    def write():
        other = connection.connect(str(tmp_path / "s.sqlite"))
        try:
            done.append(game_writes.record_deal(other, gid, 1, {"tricks": [13, 0, 0, 0]}, 1, False))
        except sqlite3.OperationalError as e:  # pragma: no cover - what this test is for
            done.append(e)
        finally:
            other.close()

    thread = threading.Thread(target=write)
    thread.start()
    thread.join(0.3)  # still waiting for the lock (or it failed at once, as a deferred BEGIN may)
    holder.execute("commit")
    holder.close()
    thread.join(10)
    assert done == [2]


def test_a_write_that_cannot_get_the_lock_fails_cleanly(tmp_path):
    path = str(tmp_path / "s.sqlite")
    setup = connection.connect(path)
    connection.migrate(setup)
    gid = new(setup)
    impatient = connection.connect(path, busy_timeout_ms=50)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("begin immediate")
    with pytest.raises(Busy):
        game_writes.record_deal(impatient, gid, 1, {"tricks": [13, 0, 0, 0]}, 1, False)
    assert not impatient.conn.in_transaction  # nothing half-open is left behind
    holder.execute("commit")
    holder.close()
    assert game_writes.record_deal(impatient, gid, 1, {"tricks": [13, 0, 0, 0]}, 1, False) == 2
    impatient.close()
    setup.close()


def test_writes_do_not_nest(db):
    gid = new(db)
    db.execute("begin")
    with pytest.raises(connection.StoreError):
        game_writes.record_deal(db, gid, 1, {"tricks": [13, 0, 0, 0]}, 1, False)
    db.execute("rollback")
    assert service.load(db, gid).version == 1


def test_durability_is_full_unless_the_host_chooses_normal(tmp_path):
    import pytest

    from scorekeeper import create_app
    from scorekeeper.web.db import get_db

    def mode(**config):
        app = create_app({"DATABASE": str(tmp_path / "d.sqlite"), "SECRET_KEY": "t", **config})
        with app.app_context():
            return get_db().execute("pragma synchronous").fetchone()[0]

    assert mode() == 2  # FULL: every answered write is on the disk
    assert mode(SYNCHRONOUS="normal") == 1
    with pytest.raises(ValueError, match="SYNCHRONOUS"):
        mode(SYNCHRONOUS="off")  # never: a power cut could corrupt the file


def test_games_stored_before_people_are_linked_to_people(tmp_path):
    """Migration 0006: every seat of every stored game gets its person; the same name in
    another case or with an invisible character is the same person."""
    db = connection.connect(str(tmp_path / "old.sqlite"))
    migrations.apply(db, stop_before="0006_people")
    for gid, names, when in (("g1", ["Ala", "Bolek", "Cela"], "2026-01-01T20:00:00+00:00"),
                             ("g2", ["ALA", "Bo\u200blek", "Darek"],
                              "2026-01-08T20:00:00+00:00")):
        db.execute("insert into games (id, family, ruleset_id, ruleset, settings, version, "
                   "finished, created_at, updated_at, join_code) values (?, 'kierki', "
                   "'standard-3', '{}', '{}', 1, 0, ?, ?, ?)", [gid, when, when, gid.upper()])
        for seat, name in enumerate(names):
            db.execute("insert into players (game_id, seat, name) values (?, ?, ?)",
                       [gid, seat, name])
    db.conn.commit()
    connection.migrate(db)
    people = {r["name"]: r["games"] for r in people_reads.people(db)}
    assert people == {"Ala": 2, "Bolek": 2, "Cela": 1, "Darek": 1}
    seats = {r["id"]: r["people"] for r in people_reads.seatings(db)}
    assert seats["g1"][:2] == seats["g2"][:2]
    db.close()
