"""Imports are data checked against one schema; they cannot pass for built-in rules,
break other pages or fill the server."""
import io
import json

import pytest

from scorekeeper import create_app
from scorekeeper.outputs.schema import GameFile, json_schema
from tests.fixtures import errors_in, new_game, post_deal, state


@pytest.fixture
def exported(client):
    gid = new_game(client)
    post_deal(client, gid, 1, 1, {"tricks": [1, 2, 3, 7]})
    return json.loads(client.get(f"/games/{gid}/export.json").data)


def _import(client, body):
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    return client.post("/games/import", data={"file": (io.BytesIO(raw), "x.json")},
                       content_type="multipart/form-data")


def test_the_schema_is_served_and_describes_the_export(client, exported):
    served = client.get("/api/schema/game.json").get_json()
    assert served == json.loads(json.dumps(json_schema()))
    assert set(served["required"]) >= {"format", "format_version", "ruleset", "players", "deals"}
    assert GameFile.model_validate(exported).family_key == "kierki"


@pytest.mark.parametrize("change", [
    lambda r: {**r, "id": "<script>alert(1)</script>"},
    lambda r: {**r, "name": {"en": "x" * 5000}},
    lambda r: {**r, "name": {"en": ["a", "list"]}},
    lambda r: {**r, "notes": "not a mapping"},
    lambda r: {**r, "contracts": {**r["contracts"], "no_hearts": {
        **r["contracts"]["no_hearts"], "lead": ["no_hearts", {"x": 1}]}}},
    lambda r: {**r, "contracts": {**r["contracts"], "no_hearts": {
        **r["contracts"]["no_hearts"], "set": "harts"}}},
])
def test_an_odd_ruleset_is_refused_and_breaks_no_page(client, exported, change):
    gid = new_game(client)
    r = _import(client, {**exported, "ruleset": change(exported["ruleset"])})
    assert r.status_code == 422
    assert errors_in(r.text) == ["The rules in the file are damaged."]
    assert client.get("/").status_code == 200 and client.get(f"/games/{gid}").status_code == 200


def test_an_import_cannot_pass_for_a_built_in_ruleset(app, client, exported):
    changed = json.loads(json.dumps(exported))
    changed["ruleset"]["contracts"]["no_tricks"]["points"] = -2000
    r = _import(client, changed)
    assert r.status_code == 302, errors_in(r.text)
    game = state(app, r.location.rsplit("/", 1)[1])
    assert game.rules.id.startswith("imported-") and game.rules.data["imported"] is True
    assert game.rules.name("en") == "Classic (pagat.com), 4 players (imported)"
    assert game.rules.name("pl").endswith("(zaimportowane)")
    assert game.state.scored[0].points[0] == -2000
    assert "−20 for each trick" in client.get("/rules/standard-4").text  # the built-in stays
    unchanged = _import(client, exported)  # an exact built-in snapshot keeps its id
    assert state(app, unchanged.location.rsplit("/", 1)[1]).rules.id == "standard-4"
    renamed = json.loads(json.dumps(changed))
    renamed["ruleset"]["id"] = "my-house"  # another id but a built-in's name
    game = state(app, _import(client, renamed).location.rsplit("/", 1)[1])
    assert game.rules.id.startswith("imported-") and "(imported)" in game.rules.name("en")


def test_too_many_deals_are_refused_before_any_rules_run(client, exported):
    deals = [{"number": i, "result": {"tricks": [13, 0, 0, 0]}} for i in range(1, 8001)]
    r = _import(client, {**exported, "deals": deals})
    assert r.status_code == 422
    assert errors_in(r.text) == ["The file has more deals than a game can have (200)."]


def test_wrong_types_are_named(client, exported):
    r = _import(client, {**exported, "created_at": 12})
    assert errors_in(r.text) == ["The file's created_at is not valid."]
    r = _import(client, {**exported, "settings": {"first_dealer": True}})
    assert errors_in(r.text) == ["The first dealer in the file is not one of the players."]


@pytest.fixture
def small(tmp_path):
    return create_app({"DATABASE": str(tmp_path / "small.sqlite"), "SECRET_KEY": "x",
                       "TESTING": True, "WTF_CSRF_ENABLED": False, "MAX_GAMES": 2,
                       "MAX_IMPORT_BYTES": 4096})


def test_a_full_server_says_so(small):
    client = small.test_client()
    gid = new_game(client)
    exported = client.get(f"/games/{gid}/export.json").data
    new_game(client)
    r = client.post("/api/games", json={"ruleset": "standard-4", "first_dealer": 0,
                                        "players": ["A", "B", "C", "D"]})
    assert r.status_code == 422 and "keeps 2 games" in r.get_json()["errors"][""][0]
    r = _import(client, exported)
    assert r.status_code == 422 and "keeps 2 games" in errors_in(r.text)[0]
    r = _import(client, exported + b" " * 5000)
    assert errors_in(r.text) == ["The file is larger than 4 kB."]


BIG = 3 * 1024 * 1024  # past MAX_CONTENT_LENGTH, 2 MiB


def _post_file(client, raw: bytes, **kwargs):
    """An import of a large file, its form encoded here: the test client would spool it
    to a temporary file that nothing closes."""
    body = (b'--b\r\nContent-Disposition: form-data; name="file"; filename="x.json"\r\n\r\n'
            + raw + b"\r\n--b--\r\n")
    return client.post("/games/import", data=body,
                       content_type="multipart/form-data; boundary=b", **kwargs)


@pytest.mark.parametrize("lang, words", [("en", "at most 2 MB"), ("pl", "najwyżej 2 MB")])
def test_a_file_past_the_body_limit_gets_the_apps_page_in_its_language(client, lang, words):
    r = _post_file(client, b" " * BIG, headers={"Accept-Language": lang})
    assert r.status_code == 413
    assert r.mimetype == "text/html" and words in r.text and "</html>" in r.text
    assert "Content-Security-Policy" in r.headers


def test_a_body_past_the_limit_is_refused_even_where_no_view_reads_it(client):
    for call, url in ((client.get, "/"), (client.post, "/api/games")):
        r = call(url, data=b" " * BIG, content_type="application/json")
        assert r.status_code == 413, url
    assert "2 MB" in r.get_json()["error"]


def test_a_file_past_the_import_limit_is_named_at_the_field(client):
    r = _post_file(client, b" " * (1024 * 1024 + 1))
    assert r.status_code == 422
    assert errors_in(r.text) == ["The file is larger than 1024 kB."]


def test_a_full_server_takes_an_imported_game_but_not_its_variant(tmp_path):
    """A game played with a house variant made elsewhere comes with its variant; on a
    server that already keeps ``KIERKI_MAX_VARIANTS`` the game is still imported (it is
    what the players brought), played by the same rules kept as its own and marked
    imported, and no variant is added."""
    def server(name, **config):
        return create_app({"DATABASE": str(tmp_path / f"{name}.sqlite"), "TESTING": True,
                           "WTF_CSRF_ENABLED": False, "SECRET_KEY": name,
                           **config}).test_client()

    def variant(client, name):
        data = client.get("/api/rulesets/standard-4").get_json()
        for key in ("id", "source", "summary", "notes", "expected_sum"):
            data.pop(key, None)
        data["name"] = {"en": name, "pl": name}
        data["schedule"] = ["no_tricks", "no_hearts", "no_tricks"]
        data["unbalanced"] = True
        made = client.post("/api/rulesets", json=data)
        assert made.status_code == 201, made.get_json()
        return made.get_json()["id"]

    def houses(client):
        return [r["id"] for r in client.get("/api/rulesets").get_json()
                if not r["builtin"]]

    elsewhere = server("elsewhere")
    rid = variant(elsewhere, "Three quick deals")
    game = elsewhere.post("/api/games", json={"ruleset": rid, "first_dealer": 0,
                                              "players": ["Ala", "Bolek", "Cela", "Darek"]})
    exported = elsewhere.get(f"/games/{game.get_json()['id']}/export.json").data

    full = server("full", MAX_VARIANTS=1)
    ours = variant(full, "Ours")
    r = _import(full, exported)
    assert r.status_code == 302, errors_in(r.text)
    imported = full.get(f"/api/games/{r.location.rsplit('/', 1)[1]}").get_json()
    assert imported["ruleset"]["id"].startswith("imported-")
    assert imported["ruleset"]["name"] == "Three quick deals (imported)"
    assert houses(full) == [ours]  # the cap holds

    roomy = server("roomy", MAX_VARIANTS=2)
    variant(roomy, "Ours")
    r = _import(roomy, exported)
    assert r.status_code == 302
    assert rid in houses(roomy)  # with room, the variant comes with the game
