"""The projector's standings mid-round and its pages: whatever the deals, corrections,
undos, games ending, signatures, renames, late arrivals and rounds drawn, they equal the
ones worked out from every game (:func:`rules.standings.standings`, ties sharing a
rank)."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import create_app
from scorekeeper.common.lru import LRU
from scorekeeper.domain import night, people, service, tournaments
from scorekeeper.families.kierki.rules import get_ruleset
from scorekeeper.families.kierki.rules.examples import plausible_results
from scorekeeper.rules.errors import InvalidInput
from scorekeeper.web.db import get_db
from tests.midround import names

RESULTS = plausible_results(get_ruleset("standard-4"))


def afresh(db, t: tournaments.Tournament) -> night.LiveStandings:
    """The standings mid-round from every game loaded anew (nothing kept)."""
    LRU.clear_every()
    running = {}
    for table in t.stored.tables:
        game = service.load(db, table.game_id)
        if game.recorded and not game.state.finished:
            running[table.game_id] = [int(x) for x in game.state.totals]
    if not running:
        return night.LiveStandings(t.overall, frozenset(), 0)
    return night.LiveStandings(
        t.standings_now(running),
        frozenset(p for tb in t.stored.tables if tb.game_id in running for p in tb.seats),
        len(running))


def corrected(raw: dict) -> dict:
    """The same counts, by other players."""
    return {k: v[1:] + v[:1] if isinstance(v, list) else v for k, v in raw.items()}


steps = st.lists(st.tuples(
    st.integers(0, 3),
    st.sampled_from(["deal", "deal", "correct", "undo", "finish", "finish", "sign", "sign", "draw",
                     "arrive", "rename"]),
    st.integers(1, 12)), min_size=1, max_size=30)


def step(db, tid: str, table: int, op: str, number: int) -> None:
    """One change a club night makes: at table ``table`` of the current round, or to the
    tournament."""
    t = tournaments.load(db, tid)
    tables = t.rounds[-1]
    game = service.load(db, tables[table % len(tables)].game_id)
    if op == "deal" and not game.state.finished:
        service.enter_deal(db, game, game.recorded + 1, RESULTS[game.recorded], game.version)
    elif op == "finish":
        while not game.state.finished:
            game = service.enter_deal(db, game, game.recorded + 1, RESULTS[game.recorded],
                                      game.version)
    elif op == "correct" and game.recorded:
        n = min(number, game.recorded)
        service.enter_deal(db, game, n, corrected(RESULTS[n - 1]), game.version)
    elif op == "undo" and game.recorded:
        service.undo_last(db, game, game.version)
    elif op == "sign" and game.state.finished:
        if number > 10:  # the director's signature alone confirms a table
            service.sign(db, game, service.DIRECTOR_SEAT, game.version, by="director")
        else:
            service.sign(db, game, number % 4, game.version)
    elif op == "draw" and t.can_draw:
        tournaments.draw_next(db, tid)
    elif op == "arrive" and len(t.players) < 14:
        tournaments.add_player(db, tid, f"Spóźniony {len(t.players)}")
    elif op == "rename":
        player = t.players[1 + number % len(t.players)]
        people.rename(db, player.person_id, f"{player.name.split(' ')[0]} {number}")


def check(db, tid: str) -> None:
    """The live standings, and the projector's pages through them, against a full
    recomputation of the tournament as it is now."""
    now = tournaments.load(db, tid)
    expected = afresh(db, now)
    assert night.live_standings(db, now) == expected
    tables = now.rounds[-1]
    seen = []
    start = 0
    while True:
        page = tournaments.screen(db, tid, start, 5, start // 5 % len(tables), 2)
        assert page.version == now.version and page.players == len(expected.rows)
        assert page.in_play == expected.tables
        assert page.unconfirmed == len(now.unconfirmed)
        assert page.done == sum(1 for tb in tables if tb.finished)
        assert [(line.standing, line.name, line.playing, line.provisional)
                for line in page.lines] == [
            (s, now.name_of(s.player), s.player in expected.in_play,
             now.provisional(s.player)) for s in expected.rows[start:start + 5]]
        first = page.table_start
        assert page.tables == tables[first:first + 2]
        seen += [line.standing.player for line in page.lines]
        start += 5
        if start >= page.players:
            break
    assert sorted(seen) == sorted(now.players)  # every player on some page


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps, st.sampled_from(["points", "places"]))
def test_the_projectors_standings_equal_the_full_computation(tmp_path, plan, scoring):
    LRU.clear_every()
    app = create_app({"DATABASE": str(tmp_path / f"t{abs(hash(tuple(plan)))}.sqlite"),
                      "SECRET_KEY": "t", "TESTING": True})
    with app.app_context():
        db = get_db()
        t = tournaments.create(db, "Piątek", names(12), 3, {"4": "standard-4"}, scoring,
                               seed="kept")
        check(db, t.id)
        for table, op, number in plan:
            try:
                step(db, t.id, table, op, number)
            except (InvalidInput, tournaments.NotNow):
                continue  # a change refused: nothing changed
            check(db, t.id)
