"""Frozen is frozen: every write route of the app, tried against a closed night by whoever
may write it otherwise (its table, its director, the host), is refused with the clear
message, and nothing of the night moves (its version and its games' versions). A write
route this table does not know fails the test, so a new one cannot be left untried."""
import re

import pytest

from scorekeeper import create_app
from scorekeeper.families.kierki.rules.examples import SAMPLE_GAME_4
from scorekeeper.families.kierki.web.forms import form_values
from tests.fixtures import become_host

TOURNAMENT = {"name": "Noc", "players": [f"P{i}" for i in range(8)], "rounds": 2,
              "rulesets": {"4": "standard-4"}}
CLOSED = "closed"  # in every refusal: "This game's tournament is closed…"


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def night(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "t.sqlite"), "SECRET_KEY": "test",
                      "TESTING": True, "WTF_CSRF_ENABLED": False})
    director = app.test_client()
    made = director.post("/api/tournaments", json=TOURNAMENT).get_json()
    tid, token = made["id"], made["token"]
    director.get(f"/tournaments/{tid}/direct/{token}")  # this browser directs it
    one, two = made["round"]["tables"]
    version = 1
    for number, result in enumerate(SAMPLE_GAME_4, start=1):  # table 1 plays to its end
        r = director.put(f"/api/games/{one['game']}/deals/{number}", headers=bearer(one["token"]),
                         json={"version": version, "result": result})
        assert r.status_code == 200, r.get_json()
        version = r.get_json()["version"]
    r = director.put(f"/api/games/{two['game']}/deals/1", headers=bearer(two["token"]),
                     json={"version": 1, "result": SAMPLE_GAME_4[0]})
    assert r.status_code == 200
    host = become_host(app.test_client(), app)
    pid = director.get("/api/players").get_json()[0]["id"]
    r = host.post(f"/players/{pid}/rename", data={"name": "Przemianowany"})
    assert r.status_code == 302
    rid = int(re.search(r"/renames/(\d+)/undo", host.get("/players").text).group(1))
    table = app.test_client()
    table.get(f"/join/{one['join_code']}")
    table.get(f"/join/{two['join_code']}")
    assert director.post(f"/api/tournaments/{tid}/close", headers=bearer(token),
                         json={"confirm_unsigned": True}).status_code == 204
    return {"app": app, "tid": tid, "token": token, "one": one, "two": two, "pid": pid,
            "rid": rid, "director": director, "host": host, "table": table}


def versions(n):
    director = n["director"]
    t = director.get(f"/api/tournaments/{n['tid']}").get_json()
    games = [director.get(f"/api/games/{g[k]}").get_json()["version"]
             for g in (n["one"], n["two"]) for k in ("game",)]
    return t.get("version"), games, director.get(f"/api/players/{n['pid']}").get_json()["name"]


def game_version(n, which):
    return n["director"].get(f"/api/games/{n[which]['game']}").get_json()["version"]


def _api(method, path, token_of, body_of=None):
    def call(n):
        body = body_of(n) if body_of else None
        return getattr(n["director"], method)(path.format(**_ids(n)), headers=bearer(token_of(n)),
                                              json=body)
    return call


def _page(who, path, data_of=None):
    def call(n):
        return n[who].post(path.format(**_ids(n)), data=data_of(n) if data_of else {},
                           follow_redirects=True)
    return call


def _ids(n):
    return {"tid": n["tid"], "g1": n["one"]["game"], "g2": n["two"]["game"], "pid": n["pid"],
            "rid": n["rid"]}


def t1(n):
    return n["one"]["token"]


def t2(n):
    return n["two"]["token"]


def director_token(n):
    return n["token"]


#: endpoint → a write of the closed night by one who may make it while it is open; None:
#: the route writes nothing of a night (a club, a new game, a variant, a login…).
WRITES = {
    "admin.games": None, "admin.logout": None, "api.create_club": None,
    "api.change_club": None, "api.create_game": None, "api.join": None,
    "api.join_club": None, "api.create_ruleset": None, "api.delete_ruleset": None,
    "api.create_tournament": None, "api.remove_club_member": None,
    "api.check_deal": None,  # a check: it stores nothing
    "api.close_tournament": None, "api.reopen_tournament": None,  # the director's switch
    "clubs.name_director": None, "clubs.remove_director": None,
    "clubs.renew_invitation": None, "clubs.settings": None, "clubs.join": None,
    "clubs.new": None, "clubs.remove_member": None, "clubs.renew_members": None,
    "games.new_club_game": None, "games.new_game": None, "games.join": None,
    "sheets.import_game": None, "seasons.define": None, "tournaments.new": None,
    "tournaments.new_in_club": None, "tournaments.close": None, "tournaments.reopen": None,
    "variants.make_default": None, "variants.delete": None, "variants.edit": None,
    "api.put_deal": _api("put", "/api/games/{g2}/deals/2", t2, lambda n: {
        "version": game_version(n, "two"), "result": SAMPLE_GAME_4[1]}),
    "api.undo": _api("post", "/api/games/{g1}/undo", t1,
                     lambda n: {"version": game_version(n, "one")}),
    "api.sign": _api("post", "/api/games/{g1}/signatures", t1,
                     lambda n: {"seat": 0, "version": game_version(n, "one")}),
    "api.delete_game": _api("delete", "/api/games/{g1}", t1, lambda n: {
        "version": game_version(n, "one"), "confirm": True}),
    "api.add_tournament_player": _api("post", "/api/tournaments/{tid}/players",
                                      director_token, lambda n: {"name": "Nowy"}),
    "api.withdraw_tournament_player": _api("delete", "/api/tournaments/{tid}/players/1",
                                           director_token),
    "api.draw_round": _api("post", "/api/tournaments/{tid}/rounds", director_token,
                           lambda n: {}),
    "games.enter_deal": lambda n: n["table"].post(
        f"/games/{n['two']['game']}/deals/2", follow_redirects=True, data={
            "version": game_version(n, "two"), **form_values(SAMPLE_GAME_4[1])}),
    "games.undo": _page("table", "/games/{g1}/undo",
                        lambda n: {"version": game_version(n, "one")}),
    "games.sign": _page("table", "/games/{g1}/sign",
                        lambda n: {"seat": "0", "version": game_version(n, "one")}),
    "games.delete": _page("table", "/games/{g1}/delete",
                          lambda n: {"version": game_version(n, "one")}),
    "people.rematch": _page("table", "/games/{g1}/rematch"),
    "people.rename": _page("host", "/players/{pid}/rename", lambda n: {"name": "Nowe Imię"}),
    "people.undo_rename": _page("host", "/renames/{rid}/undo"),
    "tournaments.add_player": _page("director", "/tournaments/{tid}/players",
                                    lambda n: {"name": "Nowy"}),
    "tournaments.draw": _page("director", "/tournaments/{tid}/rounds",
                              lambda n: {"round": "2"}),
    "tournaments.withdraw": _page("director", "/tournaments/{tid}/withdraw",
                                  lambda n: {"player": "1"}),
    "tournaments.sign_table": _page("director", "/tournaments/{tid}/tables/{g2}/sign",
                                    lambda n: {"version": game_version(n, "two")}),
}


def test_every_write_of_a_closed_night_is_refused_and_moves_nothing(night):
    app = night["app"]
    before = versions(night)
    tried = []
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        if not rule.methods - {"GET", "HEAD", "OPTIONS"}:
            continue
        assert rule.endpoint in WRITES, f"{rule.endpoint} ({rule.rule}): add it to WRITES"
        call = WRITES[rule.endpoint]
        if call is None:
            continue
        r = call(night)
        text = r.get_data(as_text=True)
        assert r.status_code in (200, 409, 422), (rule.endpoint, r.status_code)
        assert CLOSED in text, (rule.endpoint, r.status_code, text[:300])
        assert versions(night) == before, rule.endpoint
        tried.append(rule.endpoint)
    assert len(tried) == sum(1 for c in WRITES.values() if c is not None)


def test_a_tournament_table_takes_no_rematch_even_while_open(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "t.sqlite"), "SECRET_KEY": "test",
                      "TESTING": True, "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    made = client.post("/api/tournaments", json=TOURNAMENT).get_json()
    one = made["round"]["tables"][0]
    client.get(f"/join/{one['join_code']}")
    version = 1
    for number, result in enumerate(SAMPLE_GAME_4, start=1):
        version = client.put(f"/api/games/{one['game']}/deals/{number}",
                             headers=bearer(one["token"]),
                             json={"version": version, "result": result}).get_json()["version"]
    r = client.post(f"/games/{one['game']}/rematch", follow_redirects=True)
    assert "the director draws the next round" in r.text
    assert client.get(f"/api/games/{one['game']}").get_json()["version"] == version
    assert client.post(f"/api/games/{one['game']}/undo", headers=bearer(one["token"]),
                       json={"version": version}).status_code == 200  # open: it writes
