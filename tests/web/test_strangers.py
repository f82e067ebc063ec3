"""What a stranger on the same server may not change (issue 26): a person's name (every
game of theirs would change version and refuse its table's next deal), the rules new
games start with, and a house variant someone else made."""
import re

from scorekeeper.web.db import get_db
from tests.fixtures import become_host

PLAYERS = ["Ala", "Bolek", "Cela", "Darek"]


def device(app, address):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def person_id(app, name):
    with app.app_context():
        return get_db().execute("select id from people where name = ?", [name]).fetchone()[0]


def test_only_a_browser_that_sat_with_a_person_or_the_host_renames_them(app):
    table = device(app, "192.0.2.10")
    made = table.post("/games/new", data={"ruleset": "standard-4", "first_dealer": "0",
                                          **{f"player_{i}": p for i, p in enumerate(PLAYERS)}})
    gid = made.location.rsplit("/", 1)[1]
    version = table.get(f"/api/games/{gid}").get_json()["version"]
    pid = person_id(app, "Ala")
    stranger = device(app, "203.0.113.5")
    r = stranger.post(f"/players/{pid}/rename", data={"name": "Mallory"},
                      headers={"Accept-Language": "pl"})
    assert r.status_code == 403
    assert "Zmienić imię może tylko ktoś, kto grał z tą osobą, albo gospodarz." in r.text
    assert table.get(f"/api/games/{gid}").get_json()["version"] == version  # nothing moved
    assert table.post(f"/players/{pid}/rename", data={"name": "Alicja"}).status_code == 302
    # the machine's own address is nobody's: a proxy beside the server makes every
    # stranger a loopback client
    assert device(app, "127.0.0.1").post(f"/players/{pid}/rename",
                                         data={"name": "Ala"}).status_code == 403
    host = become_host(device(app, "192.0.2.99"))
    assert host.post(f"/players/{pid}/rename", data={"name": "Ala"}).status_code == 302


def test_only_the_host_chooses_the_rules_new_games_start_with(app):
    stranger = device(app, "203.0.113.5")
    chosen = re.compile(r'<option selected value="kurnik-4"|<option value="kurnik-4" selected')
    assert stranger.post("/rules/kurnik-4/default").status_code == 403
    assert not chosen.search(stranger.get("/games/new").text)
    assert device(app, "127.0.0.1").post("/rules/kurnik-4/default").status_code == 403
    host = become_host(device(app, "127.0.0.1"))
    assert host.post("/rules/kurnik-4/default").status_code == 302
    assert chosen.search(stranger.get("/games/new").text)


def variant(client):
    data = client.get("/api/rulesets/standard-4").get_json()
    for key in ("id", "source", "summary", "notes", "expected_sum"):
        data.pop(key, None)
    data["name"] = {"en": "Ours", "pl": "Nasze"}
    r = client.post("/api/rulesets", json=data)
    assert r.status_code == 201
    return r.get_json()


def test_a_variant_is_deleted_only_with_its_makers_token_or_by_the_host(app):
    maker = device(app, "192.0.2.10")
    made = variant(maker)
    url = f"/api/rulesets/{made['id']}"
    stranger = device(app, "203.0.113.5")
    assert stranger.delete(url).status_code == 401
    assert stranger.delete(url, headers={"Authorization": "Bearer nope"}).status_code == 403
    assert stranger.post(f"/rules/{made['id']}/delete").status_code == 403
    assert stranger.get(url).status_code == 200  # still there
    assert maker.delete(url, headers={"Authorization": f"Bearer {made['token']}"}
                        ).status_code == 204
    other = variant(maker)
    assert device(app, "127.0.0.1").delete(f"/api/rulesets/{other['id']}").status_code == 401
    host = become_host(device(app, "203.0.113.5"))
    assert host.delete(f"/api/rulesets/{other['id']}").status_code == 204
