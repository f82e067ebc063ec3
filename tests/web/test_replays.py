"""A request replays a game's history at most once; a cached sheet replays nothing."""
import pytest

from scorekeeper.common.lru import LRU
from scorekeeper.families.kierki.family import Kierki
from scorekeeper.families.tybet.family import Tybet
from tests.fixtures import authorize, new_game, post_deal, results_for, state


@pytest.fixture
def replays(monkeypatch):
    """Counts every fold of a whole history, for both families."""
    count = {"n": 0}
    for cls in (Kierki, Tybet):
        original = cls.fold

        def counting(self, *args, _original=original, **kwargs):
            count["n"] += 1
            return _original(self, *args, **kwargs)
        monkeypatch.setattr(cls, "fold", counting)

    def during(call):
        count["n"] = 0
        response = call()
        assert response.status_code < 500
        return count["n"]
    return during


def test_kierki_requests_replay_at_most_once(app, client, replays):
    gid = new_game(client)  # each test's app has its own, empty PDF cache folder
    from scorekeeper.families.kierki.rules import get_ruleset
    results = results_for(get_ruleset("standard-4"))
    for number, raw in enumerate(results[:5], start=1):
        post_deal(client, gid, number, number, raw)
    version = state(app, gid).version
    # every request reads the game afresh and replays its history at most once
    assert replays(lambda: client.get(f"/games/{gid}")) <= 1
    LRU.clear_every()  # as after a restart, or a write by another process
    assert replays(lambda: client.get(f"/games/{gid}")) == 1
    assert replays(lambda: client.get(f"/games/{gid}")) <= 1
    assert replays(lambda: post_deal(client, gid, 6, version, results[5])) <= 1
    assert replays(lambda: post_deal(client, gid, 2, version + 1, results[1])) <= 1  # correction
    assert replays(lambda: client.get(f"/games/{gid}/deals/3/edit")) <= 1
    version = state(app, gid).version
    authorize(client, app, gid)
    assert replays(lambda: client.put(f"/api/games/{gid}/deals/7",
                                      json={"version": version, "result": results[6]})) <= 1
    assert replays(lambda: client.get(f"/api/games/{gid}")) <= 1
    LRU.clear_every()
    assert replays(lambda: client.get(f"/api/games/{gid}")) == 1
    LRU.clear_every()
    assert replays(lambda: client.get(f"/games/{gid}/sheet.pdf")) == 1  # first render
    assert replays(lambda: client.get(f"/games/{gid}/sheet.pdf")) == 0  # cached
    assert replays(lambda: client.get(f"/games/{gid}/export.csv")) <= 1
    assert replays(lambda: client.get(f"/games/{gid}/version")) == 0


def test_partnership_requests_replay_at_most_once(app, client, replays):
    r = client.post("/games/new", data={"ruleset": "tybet-21", "first_dealer": "0",
                                        "target": "21", "player_0": "Ala", "player_1": "Bolek",
                                        "player_2": "Cela", "player_3": "Darek"})
    gid = r.location.rsplit("/", 1)[1]
    deal = {"aces-0": "3", "honours-0": "11", "last": "0"}
    assert replays(lambda: client.post(f"/games/{gid}/deals/1",
                                       data={"version": 1, **deal})) <= 1
    assert replays(lambda: client.get(f"/games/{gid}")) <= 1
    LRU.clear_every()
    assert replays(lambda: client.get(f"/games/{gid}")) == 1
    assert replays(lambda: client.post(f"/games/{gid}/deals/1",
                                       data={"version": 2, **deal, "aces-0": "2"})) <= 1
