"""The projector's standings mid-round are kept per game version (issue 34): a save loads
its one game, not every table's. Whatever the deals, corrections and undos, and games
ending, the kept standings equal the ones worked out afresh from every game."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import create_app
from scorekeeper.domain import service, tournaments
from scorekeeper.families.kierki.rules import get_ruleset
from scorekeeper.families.kierki.rules.examples import plausible_results
from scorekeeper.rules.errors import InvalidInput
from scorekeeper.web import caches
from scorekeeper.web.db import get_db
from tests.midround import names

RESULTS = plausible_results(get_ruleset("standard-4"))


def afresh(db, t: tournaments.Tournament) -> tournaments.LiveStandings:
    """The standings mid-round from every game loaded anew (nothing kept)."""
    service._games.clear()
    running = {}
    for table in t.stored.tables:
        game = service.load(db, table.game_id)
        if game.recorded and not game.state.finished:
            running[table.game_id] = [int(x) for x in game.state.totals]
    if not running:
        return tournaments.LiveStandings(t.overall, frozenset(), 0)
    return tournaments.LiveStandings(
        t.standings_now(running),
        frozenset(p for tb in t.stored.tables if tb.game_id in running for p in tb.seats),
        len(running))


def corrected(raw: dict) -> dict:
    """The same counts, by other players."""
    return {k: v[1:] + v[:1] if isinstance(v, list) else v for k, v in raw.items()}


steps = st.lists(st.tuples(st.integers(0, 2), st.sampled_from(["deal", "deal", "correct",
                                                               "undo"]),
                           st.integers(1, 12)), min_size=1, max_size=30)


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps, st.sampled_from(["points", "places"]))
def test_the_kept_standings_equal_the_full_computation(tmp_path, plan, scoring):
    caches.clear()
    app = create_app({"DATABASE": str(tmp_path / f"t{abs(hash(tuple(plan)))}.sqlite"),
                      "SECRET_KEY": "t", "TESTING": True})
    with app.app_context():
        db = get_db()
        t = tournaments.create(db, "Piątek", names(12), 3, {"4": "standard-4"}, scoring,
                               seed="kept")
        gids = [table.game_id for table in t.rounds[0]]
        for table, op, number in plan:
            game = service.load(db, gids[table])
            try:
                if op == "deal" and not game.state.finished:
                    service.enter_deal(db, game, game.recorded + 1,
                                       RESULTS[game.recorded], game.version)
                elif op == "correct" and game.recorded:
                    n = min(number, game.recorded)
                    service.enter_deal(db, game, n, corrected(RESULTS[n - 1]), game.version)
                elif op == "undo" and game.recorded and not game.state.finished:
                    service.undo_last(db, game, game.version)
            except InvalidInput:
                continue  # a correction the rules refuse: nothing changed
            now = tournaments.load(db, t.id)
            kept = tournaments.live_standings(db, now)
            assert kept == afresh(db, now)
