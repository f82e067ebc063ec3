"""The domain's events (issue 33): what each write of the service raises, through the one
bus, and the reactions in their one home each: a finished game's figures made from the
state the service holds (equal to a replay's), the tournament's version, the live table."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.common.lru import LRU
from scorekeeper.domain import figures, people, service, tournaments
from scorekeeper.domain.events import (
    DealCorrected,
    DealRecorded,
    DealUndone,
    GameCreated,
    GameDeleted,
    GameFinished,
    GameSigned,
    PersonRenamed,
    RoundDrawn,
    TournamentChanged,
    TournamentClosed,
    TournamentReopened,
)
from scorekeeper.storage import connection, figure_reads, game_reads, people_reads, tournament_reads
from tests.fixtures import recorded
from tests.store.test_tournaments import FOUR, TWELVE, bad_evening_for, finish

NAMES = ["Ala", "Bolek", "Cela", "Darek"]


def kinds(events):
    return [type(e).__name__ for e in events]


def test_a_deal_is_one_event_with_the_new_version(db):
    gid = service.create_game(db, "standard-4", NAMES, 0)
    game = service.load(db, gid)
    with recorded() as seen:
        after = service.enter_deal(db, game, 1, bad_evening_for("standard-4", 0)[0], 1)
    assert seen == [DealRecorded(gid, 2, 1)]
    assert seen[0].game is after and after.version == 2



def test_a_finishing_deal_finishes_the_game_and_keeps_its_figures_in_the_same_write(db):
    gid = service.create_game(db, "standard-4", NAMES, 0)
    results = bad_evening_for("standard-4", 0)
    game = service.load(db, gid)
    for number, raw in enumerate(results[:-1], start=1):
        game = service.enter_deal(db, game, number, raw, game.version)
    assert _figures(db, gid) == ([], [])
    with recorded() as seen:
        game = service.enter_deal(db, game, len(results), results[-1], game.version)
    assert kinds(seen) == ["DealRecorded", "GameFinished"]
    assert seen[1] == GameFinished(gid, game.version)
    assert _figures(db, gid) == _replayed(db, gid)


def test_a_correction_and_an_undo(db):
    gid = service.create_game(db, "standard-4", NAMES, 0)
    game = finish(db, gid)
    with recorded() as seen:
        raw = bad_evening_for("standard-4", 1)[0]
        game = service.enter_deal(db, game, 1, raw, game.version, by="table")
    assert seen == [DealCorrected(gid, game.version, 1, "table")]
    assert game.state.finished and _figures(db, gid) == _replayed(db, gid)
    with recorded() as seen:
        game = service.undo_last(db, game, game.version)
    assert seen == [DealUndone(gid, game.version, len(game.stored.results) + 1, "table")]
    assert _figures(db, gid) == ([], [])  # unfinished again: no figures


def test_signing_renaming_and_deleting(db):
    gid = service.create_game(db, "standard-4", NAMES, 0)
    game = finish(db, gid)
    with recorded() as seen:
        game = service.sign(db, game, 2, game.version)
    assert seen == [GameSigned(gid, game.version, 2, "table")]
    pid = {r["name"]: r["id"] for r in people_reads.people(db)}["Ala"]
    with recorded() as seen:
        people.rename(db, pid, "Alicja")
    assert seen == [PersonRenamed(pid, (gid,))]
    game = service.load(db, gid)
    with recorded() as seen:
        service.delete_game(db, game, game.version)
    assert seen == [GameDeleted(gid, service.GONE)]


def test_creating_and_importing_games(db):
    with recorded() as seen:
        gid = service.create_game(db, "standard-4", NAMES, 0)
    assert seen == [GameCreated(gid, 1)]
    game = finish(db, gid)
    with recorded() as seen:
        new = service.import_game(db, "kierki", game.rules.snapshot(), NAMES,
                                  {"first_dealer": 0}, game.stored.results, lambda n: [], None)
    assert kinds(seen) == ["GameCreated", "GameFinished"]
    assert _figures(db, new) == _replayed(db, new)


def test_a_refused_write_raises_nothing(db):
    gid = service.create_game(db, "standard-4", NAMES, 0)
    game = service.load(db, gid)
    with recorded() as seen, pytest.raises(service.Conflict):
        service.enter_deal(db, game, 1, bad_evening_for("standard-4", 0)[0], 7)
    assert seen == []


def test_a_write_to_a_closed_tournaments_game_raises_nothing(db):
    t = tournaments.create(db, "Klub", TWELVE, 2, FOUR)
    tournaments.close(db, t.id, confirm_unsigned=True)
    game = service.load(db, t.rounds[0][0].game_id)
    with recorded() as seen, pytest.raises(service.Frozen):
        service.enter_deal(db, game, 1, bad_evening_for("standard-4", 0)[0], game.version)
    assert seen == []
    assert service.load(db, game.id).recorded == 0


def test_a_tournament_game_moves_its_tournament_by_one_handler(db):
    t = tournaments.create(db, "Klub", TWELVE, 2, FOUR)
    game = service.load(db, t.rounds[0][0].game_id)
    before = tournament_reads.tournament_version(db, t.id)
    with recorded() as seen:
        service.enter_deal(db, game, 1, bad_evening_for("standard-4", 0)[0], game.version)
    assert seen[1:] == [TournamentChanged(t.id, before + 1)]
    assert tournament_reads.tournament_version(db, t.id) == before + 1
    for table in t.rounds[0]:
        finish(db, table.game_id)
    with recorded() as seen:
        tournaments.draw_next(db, t.id)
        tournaments.close(db, t.id, confirm_unsigned=True)
        tournaments.reopen(db, t.id)
    # the round drawn names the games of the round before (their phones are told)
    assert seen == [RoundDrawn(t.id, None, 2, tuple(tb.game_id for tb in t.rounds[0])),
                    TournamentClosed(t.id), TournamentReopened(t.id)]


def test_a_handler_that_fails_in_the_write_stores_nothing(db, monkeypatch):
    """The figures are part of the deal's write: if they cannot be made, the deal is not
    stored either (never a finished game without figures)."""
    gid = service.create_game(db, "standard-4", NAMES, 0)
    results = bad_evening_for("standard-4", 0)
    game = service.load(db, gid)
    for number, raw in enumerate(results[:-1], start=1):
        game = service.enter_deal(db, game, number, raw, game.version)

    def broken(game):
        raise RuntimeError("no figures")
    monkeypatch.setattr(figures, "rows", broken)
    with pytest.raises(RuntimeError):
        service.enter_deal(db, game, len(results), results[-1], game.version)
    assert game_reads.game_version(db, gid) == game.version
    assert not game_reads.load_game(db, gid).finished


def _figures(db, gid):
    rows = [tuple(r) for r in db.conn.execute(
        "select seat, side, sides, total, place, won from figures where game_id = ? "
        "order by seat", [gid])]
    parts = sorted(((seat, *p) for seat, text in db.conn.execute(
        "select seat, parts from figures where game_id = ?", [gid])
        for p in figure_reads.seat_parts(text)), key=lambda p: (p[0], p[1] != "kind", p[3]))
    return rows, parts


def _replayed(db, gid):
    """The figures of a fresh load, its state replayed from the stored results."""
    LRU.clear_every()
    rows, parts = figures.rows(service.load(db, gid))
    return sorted(rows), sorted(parts, key=lambda p: (p[0], p[1] != "kind", p[3]))


KIERKI = ["standard-4", "standard-3", "kurnik-3", "kurnik-4", "seed001-4-robber",
          "seed002-4", "zdanowicz-5"]


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rules=st.sampled_from(KIERKI), loser=st.integers(0, 4), dealer=st.integers(0, 4),
       corrected=st.integers(0, 4))
def test_the_figures_kept_are_a_replays(db, rules, loser, dealer, corrected):
    """Whatever the ruleset, the first dealer, the loser and a correction of some deal
    after the end: the rows the handler wrote are the rows a fresh replay makes."""
    n = service.registry.find(rules)[1].players
    gid = service.create_game(db, rules, [f"P{i}" for i in range(n)], dealer % n)
    game = service.load(db, gid)
    results = bad_evening_for(rules, loser % n)
    for number, raw in enumerate(results, start=1):
        game = service.enter_deal(db, game, number, raw, game.version)
    if corrected:
        game = service.enter_deal(db, game, corrected, bad_evening_for(rules, 0)[corrected - 1],
                                  game.version)
    assert _figures(db, gid) == _replayed(db, gid)


def test_the_app_fills_the_figures_an_older_database_lacks_when_it_starts(tmp_path):
    """Migration 0007 leaves the figures of games finished before it to the domain: the
    app's start makes them (each such game replayed once), and a second start finds none
    missing."""
    from scorekeeper import create_app
    path = str(tmp_path / "old.sqlite")
    db = connection.connect(path)
    connection.migrate(db)
    gid = service.create_game(db, "standard-4", NAMES, 0)
    finish(db, gid)
    with db.conn:  # as migration 0007 leaves a game finished before it
        db.execute("delete from figures")
    assert figure_reads.finished_without_figures(db) == [gid]
    create_app({"DATABASE": path, "SECRET_KEY": "x", "TESTING": True})
    assert figure_reads.finished_without_figures(db) == []
    assert _figures(db, gid) == _replayed(db, gid)
    assert service.backfill_figures(db) == 0
    db.close()
