"""A game is read afresh by every call and its history replayed at most once: nothing of
a game is kept between requests, so another process's write is seen at once."""
from scorekeeper.domain import service
from scorekeeper.families.kierki.rules import get_ruleset
from scorekeeper.families.kierki.rules.examples import plausible_results
from scorekeeper.storage import connection

RESULTS = plausible_results(get_ruleset("standard-4"))


def test_each_load_reads_the_game_afresh(db, tmp_path):
    gid = service.create_game(db, "standard-4", ["A", "B", "C", "D"], 0)
    first = service.load(db, gid)
    assert service.load(db, gid) is not first
    other = connection.connect(str(tmp_path / "s.sqlite"))
    service.enter_deal(other, service.load(other, gid), 1, RESULTS[0], 1)
    again = service.load(db, gid)
    assert (again.version, again.recorded) == (2, 1)


def test_a_game_is_replayed_once_however_often_its_state_is_asked(db, monkeypatch):
    gid = service.create_game(db, "standard-4", ["A", "B", "C", "D"], 0)
    game = service.enter_deal(db, service.load(db, gid), 1, RESULTS[0], 1)
    game = service.load(db, gid)
    folds = []
    real = type(game.family).fold
    monkeypatch.setattr(type(game.family), "fold",
                        lambda self, *a, **k: folds.append(1) or real(self, *a, **k))
    assert game.state.totals == game.state.totals
    assert len(folds) == 1
