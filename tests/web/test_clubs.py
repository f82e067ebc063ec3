"""Clubs on a shared host (issue 36): two clubs with the same names kept apart, a private
club seen by nobody but its members, the manager's, directors' and members' rights, the
invitation by link and by code, and the limits."""
import html
import re

import pytest

from scorekeeper import create_app
from scorekeeper.families.kierki.rules.examples import SAMPLE_GAME_4
from scorekeeper.web import limits
from tests.web.test_openapi_answers import undeclared
from tests.web.test_schemas import valid

NAMES = ["Ania", "Bolek", "Cela", "Darek"]


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def make_club(client, name="Czwartki", public=True):
    r = client.post("/api/clubs", json={"name": name, "public": public})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def play(client, names, club=None, token=None, results=SAMPLE_GAME_4):
    """A game played through the API in ``club`` (with ``token``); the game at its end."""
    body = {"ruleset": "standard-4", "players": names, "first_dealer": 0}
    if club:
        body["club"] = club
    made = client.post("/api/games", json=body, headers=bearer(token) if token else {})
    assert made.status_code == 201, made.get_json()
    game = made.get_json()
    auth = bearer(game["token"])
    for number, result in enumerate(results, start=1):
        r = client.put(f"/api/games/{game['id']}/deals/{number}", headers=auth,
                       json={"version": game["version"], "result": result})
        assert r.status_code == 200, r.get_json()
        game = r.get_json()
    return game


def by_name(players):
    return {p["name"]: p for p in players}


def test_two_clubs_with_the_same_names_keep_their_own_people_and_figures(client):
    one, two = make_club(client, "Czwartki"), make_club(client, "Piątki")
    play(client, NAMES, one["id"], one["token"])
    play(client, NAMES, one["id"], one["token"])
    play(client, ["ania", "BOLEK", "Ewa", "Franek"], two["id"], two["token"])
    first = by_name(client.get(f"/api/clubs/{one['id']}/players").get_json())
    second = by_name(client.get(f"/api/clubs/{two['id']}/players").get_json())
    assert set(first) == set(NAMES)
    assert set(second) == {"ania", "BOLEK", "Ewa", "Franek"}  # as first typed in club 2
    assert first["Ania"]["id"] != second["ania"]["id"]
    assert (first["Ania"]["games"], second["ania"]["games"]) == (2, 1)
    assert first["Ania"]["families"]["kierki"]["points"] == 2 * 185
    assert second["ania"]["families"]["kierki"]["points"] == 185
    assert client.get("/api/players").get_json() == []  # the home club has nobody
    page = client.get(f"/players/{first['Ania']['id']}").text
    assert "Czwartki" in page and "Piątki" not in page
    # a game without "club" is the home club's, as before clubs: its own Ania
    play(client, NAMES)
    home = by_name(client.get("/api/players").get_json())
    assert home["Ania"]["games"] == 1 and home["Ania"]["id"] not in (
        first["Ania"]["id"], second["ania"]["id"])


def test_a_private_club_is_not_found_by_a_stranger_and_read_by_its_members(app, client):
    club = make_club(client, "Tajny", public=False)
    cid = club["id"]
    game = play(client, NAMES, cid, club["token"])
    stranger = app.test_client()
    pid = client.get(f"/api/clubs/{cid}/players", headers=bearer(club["token"])
                     ).get_json()[0]["id"]
    for path in (f"/api/clubs/{cid}", f"/api/clubs/{cid}/players", f"/api/players/{pid}"):
        assert stranger.get(path).status_code == 404, path
        assert stranger.get(path, headers=bearer("forged" * 5)).status_code == 404, path
    key = "-".join(str(p) for p in sorted(
        p["id"] for p in client.get(f"/api/clubs/{cid}/players",
                                    headers=bearer(club["token"])).get_json()))
    for path in (f"/clubs/{cid}", f"/clubs/{cid}/players", f"/players/{pid}",
                 f"/tables/{key}", f"/clubs/{cid}/games/new", f"/clubs/{cid}/tournaments/new"):
        assert stranger.get(path).status_code == 404, path
    assert stranger.post("/api/games", json={
        "ruleset": "standard-4", "players": NAMES, "club": cid}).status_code == 404
    # a private club's game is not found by its id alone; its table's token reads it
    assert stranger.get(f"/api/games/{game['id']}").status_code == 404
    from scorekeeper.web import access
    with app.test_request_context():
        table_token = access.token(game["id"])
    assert stranger.get(f"/api/games/{game['id']}",
                        headers=bearer(table_token)).status_code == 200

    member = client.post("/api/join-club", json={"code": club["invite_code"]}).get_json()
    assert member["id"] == cid and member["right"] == "member"
    assert "invite_code" not in member
    auth = bearer(member["token"])
    assert stranger.get(f"/api/clubs/{cid}", headers=auth).get_json()["right"] == "member"
    assert len(stranger.get(f"/api/clubs/{cid}/players", headers=auth).get_json()) == 4
    assert stranger.get(f"/api/players/{pid}", headers=auth).status_code == 200
    made = stranger.post("/api/games", headers=auth, json={
        "ruleset": "standard-4", "players": NAMES, "club": cid})
    assert made.status_code == 201
    # a member cannot manage, nor make a tournament: 403 (they know the club exists)
    assert stranger.patch(f"/api/clubs/{cid}", headers=auth,
                          json={"public": True}).status_code == 403
    assert stranger.post("/api/tournaments", headers=auth, json={
        "name": "Noc", "players": [f"P{i}" for i in range(8)], "rounds": 1,
        "rulesets": {"4": "standard-4"}, "club": cid}).status_code == 403
    assert client.get(f"/api/clubs/{cid}").status_code == 404  # no token: a stranger


def test_a_public_club_refuses_writes_without_a_right(app, client):
    club = make_club(client)
    cid = club["id"]
    other = app.test_client()
    body = {"ruleset": "standard-4", "players": NAMES, "club": cid}
    assert other.get(f"/api/clubs/{cid}").status_code == 200
    assert other.get(f"/api/clubs/{cid}").get_json()["right"] is None
    assert other.post("/api/games", json=body).status_code == 401
    assert other.post("/api/games", json=body, headers=bearer("x" * 40)).status_code == 403
    wrong = other.post("/api/games", json=body, headers=bearer(make_club(other)["token"]))
    assert wrong.status_code == 403  # another club's manager is nobody here
    assert other.patch(f"/api/clubs/{cid}", json={"public": False}).status_code == 401
    assert other.post("/api/games", json={**body, "club": "nope"}).status_code == 404
    assert other.post("/api/games", json={**body, "club": 7}).status_code == 422


def test_the_manager_changes_the_club_and_a_club_tournament_is_its_own(client):
    club = make_club(client)
    cid, auth = club["id"], bearer(club["token"])
    changed = client.patch(f"/api/clubs/{cid}", headers=auth, json={
        "public": False, "casual_rated": True, "default_ruleset": "standard-3"}).get_json()
    assert (changed["public"], changed["casual_rated"], changed["default_ruleset"]) == \
        (False, True, "standard-3")
    assert client.patch(f"/api/clubs/{cid}", headers=auth,
                        json={"public": "yes"}).status_code == 422
    assert client.patch(f"/api/clubs/{cid}", headers=auth,
                        json={"default_ruleset": "nope"}).status_code == 422
    players = [f"Gracz {i}" for i in range(8)]
    t = client.post("/api/tournaments", headers=auth, json={
        "name": "Czwartek", "players": players, "rounds": 2,
        "rulesets": {"3": "standard-3", "4": "standard-4"}, "club": cid})
    assert t.status_code == 201, t.get_json()
    listed = client.get(f"/api/clubs/{cid}/players", headers=auth).get_json()
    assert {p["name"] for p in listed} == set(players)
    assert client.get("/api/players").get_json() == []
    # the club's manager directs the club's tournament with the club's token, and
    # writes its games as the director
    tid = t.get_json()["id"]
    assert client.post(f"/api/tournaments/{tid}/players", headers=auth,
                       json={"name": "Zenek"}).status_code == 201
    game = t.get_json()["round"]["tables"][0]["game"]
    put = client.put(f"/api/games/{game}/deals/1", headers=auth,
                     json={"version": 1, "result": SAMPLE_GAME_4[0]})
    assert put.status_code == 200, put.get_json()
    member = client.post("/api/join-club", json={"code": changed["invite_code"]}).get_json()
    refused = client.put(f"/api/games/{game}/deals/2", headers=bearer(member["token"]),
                         json={"version": 2, "result": SAMPLE_GAME_4[1]})
    assert refused.status_code == 403  # a member is not the tournament's director


def test_the_answers_are_in_the_openapi_document(client):
    doc = client.get("/api/openapi.json").get_json()
    club = make_club(client)
    answers = [("/api/clubs", "post", "201", club)]
    auth = bearer(club["token"])
    answers.append(("/api/clubs/{cid}", "get", "200",
                    client.get(f"/api/clubs/{club['id']}", headers=auth).get_json()))
    answers.append(("/api/clubs/{cid}", "patch", "200", client.patch(
        f"/api/clubs/{club['id']}", headers=auth, json={"casual_rated": True}).get_json()))
    answers.append(("/api/join-club", "post", "200", client.post(
        "/api/join-club", json={"code": club["invite_code"]}).get_json()))
    play(client, NAMES, club["id"], club["token"])
    answers.append(("/api/clubs/{cid}/players", "get", "200",
                    client.get(f"/api/clubs/{club['id']}/players").get_json()))
    for path, method, status, answer in answers:
        schema = doc["paths"][path][method]["responses"][status]["content"][
            "application/json"]["schema"]
        assert valid(answer, schema, doc), (path, method)
        assert undeclared(answer, schema, doc) == [], (path, method)


def test_a_club_made_joined_and_managed_in_browsers(app, client):
    made = client.post("/clubs/new", data={"name": "Czwartki", "public": ""})
    assert made.status_code == 302
    cid = made.headers["Location"].rsplit("/", 1)[1]
    page = client.get(f"/clubs/{cid}").text
    code = re.search(r"data-invite-code>([^<]*)<", page).group(1).replace(" ", "")
    assert "Private club" in page
    guest = app.test_client()
    assert guest.get(f"/clubs/{cid}").status_code == 404
    joined = guest.get(f"/clubs/join/{code}")
    assert joined.headers["Location"].endswith(f"/clubs/{cid}")
    seen = guest.get(f"/clubs/{cid}").text
    assert "You are a member." in seen and "data-invite-code" not in seen
    assert guest.get(f"/clubs/{cid}/games/new").status_code == 200
    assert guest.get(f"/clubs/{cid}/tournaments/new").status_code == 403
    refused = guest.post(f"/clubs/{cid}/settings", data={"public": "y"},
                         headers={"Accept-Language": "pl"})
    assert refused.status_code == 403 and "Tylko prowadzący klub" in refused.text
    game = guest.post(f"/clubs/{cid}/games/new", data={
        "ruleset": "standard-4", "player_0": "Ania", "player_1": "Bolek",
        "player_2": "Cela", "player_3": "Darek", "first_dealer": "0"})
    assert game.status_code == 302
    assert "Ania" in client.get(f"/clubs/{cid}").text
    assert "Ania" not in client.get("/players").text
    # a code typed where a game's goes joins the club too
    third = app.test_client()
    assert third.post("/join", data={"code": code}).headers["Location"].endswith(
        f"/clubs/join/{code}")
    # a new invitation: the old code invites nobody more, members stay
    client.post(f"/clubs/{cid}/invitation")
    late = app.test_client()
    late.get(f"/clubs/join/{code}")
    assert late.get(f"/clubs/{cid}").status_code == 404
    assert guest.get(f"/clubs/{cid}").status_code == 200
    # the manager names a director, whose link makes a browser one
    client.post(f"/clubs/{cid}/directors", data={"name": "Kasia"})
    link = re.search(r"(/clubs/[^/\s<]+/director/\d+/[0-9a-f]+)", client.get(
        f"/clubs/{cid}").text).group(1)
    director = app.test_client()
    assert director.get(link + "0").status_code == 404  # a forged link
    assert director.get(link).status_code == 302
    assert director.get(f"/clubs/{cid}/tournaments/new").status_code == 200
    night = director.post(f"/clubs/{cid}/tournaments/new", data={
        "name": "Noc", "players": "\n".join(f"Gracz {i}" for i in range(8)), "rounds": "1",
        "ruleset_4": "standard-4", "ruleset_3": "", "ruleset_5": "", "scoring": "points"})
    assert night.status_code == 302, night.text
    assert "Noc" in guest.get(f"/clubs/{cid}").text
    # removed, the director's link and right are gone
    did = re.search(r"/director/(\d+)/", link).group(1)
    client.post(f"/clubs/{cid}/directors/{did}/remove")
    assert director.get(f"/clubs/{cid}/tournaments/new").status_code == 404
    # the public switch
    client.post(f"/clubs/{cid}/settings", data={"public": "y", "ruleset": ""})
    assert app.test_client().get(f"/clubs/{cid}").status_code == 200


def test_html_in_a_clubs_name_is_shown_as_text(client):
    name = '<script>alert("x")</script><b>Klub</b>'
    club = make_club(client, name)
    page = client.get(f"/clubs/{club['id']}").text
    assert "<script>alert" not in page and "&lt;script&gt;" in page
    assert "<b>Klub</b>" not in page
    assert client.get(f"/api/clubs/{club['id']}").get_json()["name"] == name


def test_a_clubs_name_is_checked(client):
    assert client.post("/api/clubs", json={"name": "  "}).status_code == 422
    assert client.post("/api/clubs", json={"name": "x" * 61}).status_code == 422
    assert client.post("/api/clubs", json={"name": "Ok", "public": "no"}).status_code == 422
    assert client.post("/clubs/new", data={"name": ""}).status_code == 422


@pytest.fixture
def limited(tmp_path):
    return create_app({"DATABASE": str(tmp_path / "test.sqlite"), "SECRET_KEY": "test",
                       "TESTING": True, "WTF_CSRF_ENABLED": False,
                       "PDF_CACHE_DIR": str(tmp_path / "sheets")})


def first(limit):
    return int(limit.split(" per ")[0])


def test_making_clubs_is_limited_per_address(limited):
    client = limited.test_client()
    for _ in range(first(limits.CLUBS)):
        assert client.post("/api/clubs", json={"name": "Klub"}).status_code == 201
    over = client.post("/api/clubs", json={"name": "Klub"}, headers={"Accept-Language": "pl"})
    assert over.status_code == 429 and over.headers["Retry-After"]
    assert "klub" in over.get_json()["error"].lower()
    other = limited.test_client()
    other.environ_base["REMOTE_ADDR"] = "10.0.0.9"
    assert other.post("/api/clubs", json={"name": "Klub"}).status_code == 201


def test_joining_clubs_and_guessing_codes_are_limited(limited):
    client = limited.test_client()
    codes = []
    for _ in range(3):
        made = client.post("/api/clubs", json={"name": "Klub"}).get_json()
        codes.append(made["invite_code"])
    phone = limited.test_client()
    phone.environ_base["REMOTE_ADDR"] = "10.0.0.7"
    for _ in range(first(limits.JOIN_PHONE)):
        assert phone.get("/clubs/join/ZZZZZZZZ").status_code == 302  # a wrong code
    assert phone.get("/clubs/join/ZZZZZZZZ").status_code == 429
    joiner = limited.test_client()
    joiner.environ_base["REMOTE_ADDR"] = "10.0.0.8"
    for i in range(first(limits.CLUB_JOINS)):
        assert joiner.get(f"/clubs/join/{codes[i % 3]}").status_code == 302
    assert joiner.get(f"/clubs/join/{codes[0]}").status_code == 429


def test_a_managers_invitations_are_limited(limited):
    client = limited.test_client()
    cid = client.post("/clubs/new", data={"name": "Klub", "public": "y"}
                      ).headers["Location"].rsplit("/", 1)[1]
    for _ in range(first(limits.INVITES)):
        assert client.post(f"/clubs/{cid}/invitation").status_code == 302
    assert client.post(f"/clubs/{cid}/invitation").status_code == 429


def test_a_clubs_house_variant_is_offered_in_the_club_only(app, client):
    made = client.post("/clubs/new", data={"name": "Czwartki", "public": "y"})
    cid = made.headers["Location"].rsplit("/", 1)[1]
    page = client.get(f"/clubs/{cid}").text
    editor = re.search(r'href="(/rules/[^"]+/variant\?club=[^"]+)"', page).group(1)
    editor = editor.replace("&amp;", "&")
    doc = re.search(r'name="doc" value="([^"]*)"', client.get(editor).text)
    assert doc is not None
    saved = client.post(editor, data={"doc": html.unescape(doc.group(1)), "action": "save",
                                      "name": "U Zosi"})
    assert saved.status_code == 302, saved.text[:500]
    rid = re.search(r"ruleset=([\w-]+)", saved.headers["Location"]).group(1)
    assert rid in client.get(f"/clubs/{cid}/games/new").text
    assert rid not in client.get("/games/new").text
    assert rid not in app.test_client().get("/games/new").text
    assert rid not in {r["id"] for r in client.get("/api/rulesets").get_json()}
    assert client.get(f"/rules/{rid}").status_code == 200  # found by its id, as any
    stranger = app.test_client()
    private = client.post("/clubs/new", data={"name": "Tajny"}).headers["Location"]
    assert stranger.get(f"/rules/standard-4/variant?club={private.rsplit('/', 1)[1]}"
                        ).status_code == 404
