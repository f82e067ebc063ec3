"""House variants through the API alone: made from a built-in ruleset's data, checked
for their totals, played through, listed, and deleted only while no game uses them."""
import copy

from scorekeeper.families.kierki.rules import document
from scorekeeper.families.kierki.rules.examples import SAMPLE_GAME_4
from tests.fixtures import become_host, play_api

PLAYERS = ["Ala", "Bożena", "Czesław", "Dorota"]


def standard(client):
    data = client.get("/api/rulesets/standard-4").get_json()
    for key in ("id", "source", "summary", "notes", "expected_sum"):  # the server works
        # out the sum
        data.pop(key, None)
    data["name"] = {"en": "Our house rules", "pl": "Nasze zasady"}
    data["made_by"] = "Ala"
    return data


def make(client, data):
    return client.post("/api/rulesets", json=data)


def play(client, rid, results):
    """A whole game of ``rid`` through the API; its final JSON."""
    game = play_api(client, rid, PLAYERS, results)[-1]
    assert game["finished"]
    return game


def test_without_the_robber_is_unbalanced_and_kept_only_when_said(client):
    data = standard(client)
    data["schedule"].remove("robber")
    refused = make(client, data)
    assert refused.status_code == 422
    assert list(refused.get_json()["errors"]) == ["unbalanced"]
    assert "1300" in refused.get_json()["errors"]["unbalanced"][0]

    made = make(client, {**data, "unbalanced": True})
    assert made.status_code == 201
    variant = made.get_json()
    assert variant["expected_sum"] == 1300 and variant["id"].startswith("house-")
    assert made.headers["Location"].endswith(f"/api/rulesets/{variant['id']}")

    results = [r for i, r in enumerate(SAMPLE_GAME_4) if i != 6]  # no deal 7, the robber
    game = play(client, variant["id"], results)
    # by hand: negatives −330/−375/−330/−265, trumps 350/400/250/300, loteryjka 500 and 800
    assert game["totals"] == [520, 25, 720, 35]
    assert sum(game["totals"]) == 1300 == game["expected_sum"]
    assert len(game["schedule"]) == 11


def test_without_robber_and_loteryjka_stays_zero_sum(client):
    data = standard(client)
    data["schedule"] = [k for k in data["schedule"] if k not in ("robber", "loteryjka")]
    made = make(client, data)
    assert made.status_code == 201 and made.get_json()["expected_sum"] == 0


def test_four_loteryjka_deals_at_200_and_125(client):
    data = standard(client)
    data["contracts"]["loteryjka"]["prizes"] = [200, 125]
    data["schedule"] += ["loteryjka"] * 3
    made = make(client, data)
    assert made.status_code == 201, made.get_json()
    rid = made.get_json()["id"]
    orders = [{"order": [0, 1]}, {"order": [0, 2]}, {"order": [2, 3]}, {"order": [1, 0]}]
    game = play(client, rid, SAMPLE_GAME_4[:11] + orders)
    # by hand: after the trumps −315/−165/−765/−55; loteryjka 525/325/325/125
    assert game["totals"] == [210, 160, -440, 70]
    assert sum(game["totals"]) == 0 and len(game["schedule"]) == 15


def test_deal_six_as_the_last_two_tricks(client):
    data = standard(client)
    data["contracts"]["no_seventh_last"] = {"kind": "positions", "positions": [-2, -1],
                                            "points": -75}
    made = make(client, data)
    assert made.status_code == 201, made.get_json()
    results = copy.deepcopy(SAMPLE_GAME_4)
    results[5] = {"positions": [3, 3]}  # Dorota takes tricks 12 and 13: −150
    game = play(client, made.get_json()["id"], results)
    assert game["schedule"][5]["name"] == "Penalty tricks 12, 13"
    # the classic sample game ends 185/−165/35/−55; here Bożena +75, Dorota −75
    assert game["totals"] == [185, -90, 35, -130]
    assert sum(game["totals"]) == 0


def test_a_declared_sum_the_deals_do_not_give_and_bad_shapes_are_named(client):
    data = standard(client)
    bad = make(client, {**data, "expected_sum": 5})
    assert bad.status_code == 422 and "expected_sum" in str(bad.get_json())
    wrong = copy.deepcopy(data)
    wrong["contracts"]["no_hearts"]["points"] = "-20"
    wrong["players"] = 7
    named = make(client, wrong).get_json()["errors"]
    assert set(named) == {"players", "contracts.no_hearts.cards.points"}
    unplayable = copy.deepcopy(data)
    unplayable["schedule"].append("nothing")
    assert make(client, unplayable).status_code == 422
    assert make(client, [1, 2]).status_code == 422
    assert client.get("/api/rulesets").status_code == 200
    assert all(r["builtin"] for r in client.get("/api/rulesets").get_json())  # none kept


def test_listed_served_and_deleted_only_when_unused(client):
    made = make(client, standard(client)).get_json()
    rid = made["id"]
    listed = {r["id"]: r for r in client.get("/api/rulesets").get_json()}
    assert listed[rid]["made_by"] == "Ala" and not listed[rid]["builtin"]
    assert listed[rid]["created_at"] and listed["standard-4"]["builtin"]
    assert client.get(f"/api/rulesets/{rid}").get_json()["name"]["pl"] == "Nasze zasady"

    game = client.post("/api/games", json={"ruleset": rid, "players": PLAYERS}).get_json()
    assert client.delete(f"/api/rulesets/{rid}").status_code == 401  # no token, not the host
    become_host(client)
    assert client.delete(f"/api/rulesets/{rid}").status_code == 409
    gone = client.delete(f"/api/games/{game['id']}",
                         json={"version": game["version"], "confirm": True},
                         headers={"Authorization": f"Bearer {game['token']}"})
    assert gone.status_code == 204
    assert client.delete(f"/api/rulesets/{rid}").status_code == 204
    assert client.get(f"/api/rulesets/{rid}").status_code == 404
    assert client.delete("/api/rulesets/standard-4").status_code == 422
    assert client.delete("/api/rulesets/nothing-here").status_code == 404


def test_the_schema_is_served_and_every_built_in_ruleset_fits_it(client):
    schema = client.get("/api/rulesets/schema.json").get_json()
    assert schema == document.json_schema()
    assert schema["$id"] == "/api/rulesets/schema.json"
    listed = client.get("/api/rulesets").get_json()
    for entry in listed:
        if entry["family"] != "kierki":
            continue
        data = client.get(f"/api/rulesets/{entry['id']}").get_json()
        _, problems = document.read(data)
        assert problems == [], entry["id"]
    spec = client.get("/api/openapi.json").get_json()
    assert "post" in spec["paths"]["/api/rulesets"]
    assert "RulesetDocument" in spec["components"]["schemas"]


def test_a_variant_is_offered_for_a_new_game_and_has_its_rules_page(client):
    data = {**standard(client), "made_by": "<b>Ala</b>"}
    rid = make(client, data).get_json()["id"]
    page = client.get("/games/new").text
    assert "Our house rules (house variant by &lt;b&gt;Ala&lt;/b&gt;," in page
    assert "<b>Ala</b>" not in page
    made = client.post("/games/new", data={"ruleset": rid, "first_dealer": "0",
                                           **{f"player_{i}": n for i, n in enumerate(PLAYERS)}})
    assert made.status_code == 302
    assert "Our house rules" in client.get(made.location).text
    assert client.get(f"/rules/{rid}").status_code == 200
    assert client.get(f"/rules/{rid}/blank.pdf").status_code == 200


def _import(client, raw: bytes):
    import io
    r = client.post("/games/import", data={"file": (io.BytesIO(raw), "game.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 302, r.get_data(as_text=True)[-400:]
    return r.location.rsplit("/", 1)[1]


def test_a_game_with_a_variant_is_exported_and_imported_with_it(client, tmp_path):
    """On this server the imported game is played with the stored variant; on another
    server the variant comes with the game and is offered for new games there."""
    import json as _json

    from scorekeeper import create_app
    data = standard(client)
    data["schedule"].remove("robber")
    data["schedule"].remove("loteryjka")
    rid = make(client, data).get_json()["id"]
    game = play(client, rid, [r for i, r in enumerate(SAMPLE_GAME_4) if i not in (6, 11)])
    exported = client.get(f"/games/{game['id']}/export.json").data

    here = client.get(f"/api/games/{_import(client, exported)}").get_json()
    assert here["ruleset"]["id"] == rid and here["totals"] == game["totals"]
    assert [r["id"] for r in client.get("/api/rulesets").get_json()].count(rid) == 1

    other = create_app({"DATABASE": str(tmp_path / "other.sqlite"), "TESTING": True,
                        "WTF_CSRF_ENABLED": False, "SECRET_KEY": "other"}).test_client()
    there = other.get(f"/api/games/{_import(other, exported)}").get_json()
    assert there["ruleset"]["id"] == rid and there["totals"] == game["totals"]
    listed = {r["id"]: r for r in other.get("/api/rulesets").get_json()}
    original = {r["id"]: r for r in client.get("/api/rulesets").get_json()}[rid]
    assert listed[rid]["made_by"] == "Ala" and listed[rid]["builtin"] is False
    assert listed[rid]["created_at"] == original["created_at"]
    assert "Our house rules" in other.get("/games/new").get_data(as_text=True)

    # the same id with other rules, or rules that do not add up, stay the game's own
    changed = _json.loads(exported)
    changed["ruleset"]["contracts"]["no_tricks"]["points"] = -10
    changed["deals"] = changed["deals"][:1]
    for server in (client, create_app({"DATABASE": str(tmp_path / "third.sqlite"),
                                       "TESTING": True, "WTF_CSRF_ENABLED": False,
                                       "SECRET_KEY": "third"}).test_client()):
        kept = server.get(f"/api/games/{_import(server, _json.dumps(changed).encode())}")
        assert kept.get_json()["ruleset"]["id"].startswith("imported-")
    assert [r["id"] for r in client.get("/api/rulesets").get_json()].count(rid) == 1


def test_multipliers_when_players_take_no_trick(client):
    """Seed 004's variation 1: a deal's points doubled when one player takes no trick,
    trebled for two (robber), ×2/×3/×4 in trump deals. The totals are no longer known
    before play, so the variant must say it is unbalanced."""
    data = standard(client)
    data["contracts"]["robber"]["multipliers"] = [1, 2, 3]
    data["contracts"]["trumps"]["multipliers"] = [1, 2, 3, 4]
    data["schedule"] = ["robber", "trumps", "trumps"]
    refused = make(client, data)
    assert refused.status_code == 422
    assert "Multipliers" in str(refused.get_json())
    rid = make(client, {**data, "unbalanced": True}).get_json()["id"]
    robber = {"tricks": [0, 4, 5, 4], "hearts": [0, 4, 5, 4], "queens": [0, 1, 2, 1],
              "gentlemen": [0, 3, 3, 2], "king_of_hearts": 2, "positions": [1, 3]}
    game = play(client, rid, [robber, {"trump": "S", "tricks": [0, 0, 6, 7]},
                              {"trump": "H", "tricks": [3, 3, 3, 4]}])
    # robber: 0 | -80-80-60-90-75 = -385 | -100-100-120-90-150 = -560 | -80-80-60-60-75
    # = -355, doubled (Ala took no trick); trumps ×3 (two took none), then ×1
    assert [d["points"] for d in game["deals"]] == [
        [0, -770, -1120, -710], [0, 0, 450, 525], [75, 75, 75, 100]]
    assert [d["expected_sum"] for d in game["deals"]] == [-2600, 975, 325]
    assert game["totals"] == [75, -695, -595, -85]
    rules = client.get(f"/rules/{rid}").get_data(as_text=True)
    assert "×2 when one player takes no trick" in rules
    assert "×3 when 2 players or more take no trick" in rules  # the robber's last entry
