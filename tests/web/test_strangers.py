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
        row = get_db().execute("select id from people where name = ?", [name]).fetchone()
        return row[0] if row else None


def test_only_a_browser_that_wrote_every_game_of_a_person_or_the_host_renames_them(app):
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
    assert ("Zmienić imię może tylko gospodarz albo telefon, który wpisał każdą grę tej "
            "osoby.") in r.text
    assert table.get(f"/api/games/{gid}").get_json()["version"] == version  # nothing moved
    # A name typed into a game of one's own claims nobody: "ala" is Ala, but the stranger
    # did not enter her first game, so still may not rename her.
    claim = stranger.post("/games/new", data={"ruleset": "standard-4", "first_dealer": "0",
                                              **{f"player_{i}": p for i, p in
                                                 enumerate(["ala", "Mallory", "Eve", "Trudy"])}})
    assert claim.status_code == 302
    assert stranger.post(f"/players/{pid}/rename", data={"name": "Mallory2"}).status_code == 403
    assert "Rename" not in stranger.get(f"/players/{pid}").text  # not even offered
    assert table.post(f"/players/{pid}/rename", data={"name": "Alicja"}).status_code == 403
    # the table that entered every one of her games may: here, once the stranger's is gone
    assert person_id(app, "Alicja") is None
    with app.app_context():
        from scorekeeper.domain import service
        from scorekeeper.web.db import get_db
        other = claim.location.rsplit("/", 1)[1]
        service.delete_game(get_db(), service.load(get_db(), other), 1)
    assert table.post(f"/players/{pid}/rename", data={"name": "Alicja"}).status_code == 302
    assert person_id(app, "Alicja") == pid
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


def test_every_rename_is_kept_and_the_host_takes_one_back(app):
    table = device(app, "192.0.2.10")
    made = table.post("/games/new", data={"ruleset": "standard-4", "first_dealer": "0",
                                          **{f"player_{i}": p for i, p in enumerate(PLAYERS)}})
    gid = made.location.rsplit("/", 1)[1]
    pid = person_id(app, "Ala")
    assert table.post(f"/players/{pid}/rename", data={"name": "Mallory"}).status_code == 302
    assert "Mallory" in table.get(f"/api/games/{gid}").text
    assert "Renames (host)" not in table.get("/players").text  # the host's alone
    assert table.post("/renames/1/undo").status_code == 403
    assert device(app, "127.0.0.1").post("/renames/1/undo").status_code == 403
    host = become_host(device(app, "203.0.113.5"))
    listing = host.get("/players").text
    assert "Ala → Mallory" in listing
    r = host.post("/renames/1/undo", follow_redirects=True)
    assert "The rename was taken back." in r.text
    assert person_id(app, "Ala") == pid and person_id(app, "Mallory") is None
    assert '"name":"Ala"' in table.get(f"/api/games/{gid}").text.replace(" ", "")
    r = host.post("/renames/1/undo", follow_redirects=True)  # twice: refused, said why
    assert "taken back already" in r.text
    assert "taken back" in host.get("/players").text
