"""A private club is read by its members, directors and manager and by a game's own table
only: every GET route of the app, called as a stranger, a member, a game's table (no
member) and another club's manager. A route this test does not know how to call fails it,
so a new route cannot be left unchecked."""
import re
import sqlite3

import pytest

from scorekeeper import create_app

NAMES = ["Ania", "Bolek", "Cela", "Darek"]
TOURNAMENT = {"name": "Noc", "players": [f"P{i}" for i in range(8)], "rounds": 1,
              "rulesets": {"4": "standard-4"}}


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


#: endpoint → (what its address names that a private club keeps, its arguments). What is
#: named: "game", "tournament", "evening" (read by members and the table), "club"
#: (members only), or None (nothing of a club: called, never refused by this).
ROUTES = {
    "games.index": (None, {}),
    "admin.games": (None, {}),
    "api.get_club": ("club", {"cid": "{cid}"}),
    "api.club_players": ("club", {"cid": "{cid}"}),
    "api.club_season": ("club", {"cid": "{cid}"}),
    "api.club_members": ("manager", {"cid": "{cid}"}),
    "api.get_game": ("game", {"gid": "{gid}"}),
    "api.openapi": (None, {}),
    "api.players": (None, {}),
    "api.player": ("club", {"pid": "{pid}"}),
    "api.rulesets": (None, {}),
    "api.get_ruleset": (None, {"ruleset_id": "standard-4"}),
    "api.ruleset_schema": (None, {}),
    "api.game_schema": (None, {}),
    "api.get_tournament": ("tournament", {"tid": "{tid}"}),
    "clubs.index": (None, {}),
    "clubs.show": ("club", {"cid": "{cid}"}),
    "clubs.director_link": (None, {"cid": "{cid}", "did": "1", "token": "x" * 40}),
    "clubs.manager_link": (None, {"cid": "{cid}", "token": "x" * 40}),
    "clubs.join_link": (None, {"code": "ZZZZZZZZ"}),
    "clubs.new": (None, {}),
    "games.new_club_game": ("club", {"cid": "{cid}"}),
    "people.club_index": ("club", {"cid": "{cid}"}),
    "seasons.show": ("club", {"cid": "{cid}"}),
    "seasons.export": ("club", {"cid": "{cid}", "fmt": "csv"}),
    "seasons.player": ("club", {"cid": "{cid}", "pid": "{pid}"}),
    "tournaments.new_in_club": ("club", {"cid": "{cid}"}),
    "people.evening": ("evening", {"eid": "{eid}"}),
    "games.show": ("game", {"gid": "{gid}"}),
    "games.edit_deal": ("game", {"gid": "{gid}", "number": "1"}),
    "games.delete": ("game", {"gid": "{gid}"}),
    "people.evening_of": ("game", {"gid": "{gid}"}),
    "live.events": ("game", {"gid": "{gid}"}),
    "sheets.export_csv": ("game", {"gid": "{gid}"}),
    "sheets.export_json": ("game", {"gid": "{gid}"}),
    "sheets.export_xlsx": ("game", {"gid": "{gid}"}),
    "tools.loteryjka": ("game", {"gid": "{gid}"}),
    "tools.game_trick": ("game", {"gid": "{gid}"}),
    "tournaments.next_round": ("game", {"gid": "{gid}"}),
    "sheets.game_sheet_html": ("game", {"gid": "{gid}"}),
    "sheets.game_pdf": ("game", {"gid": "{gid}"}),
    "games.version": ("game", {"gid": "{gid}"}),
    "sheets.import_game": (None, {}),
    "games.new_game": (None, {}),
    "health.healthz": (None, {}),
    "host.open_link": (None, {"token": "x" * 20}),
    "games.join_link": (None, {"code": "ZZZZZZZZ"}),
    "games.join_card": (None, {"code": "ZZZZZZZZ", "secret": "A" * 16}),
    "set_language": (None, {"code": "pl"}),
    "installable.manifest": (None, {}),
    "installable.service_worker": (None, {}),
    "people.index": (None, {}),
    "people.player": ("club", {"pid": "{pid}"}),
    "games.ruleset": (None, {"ruleset_id": "standard-4"}),
    "sheets.blank_pdf": (None, {"ruleset_id": "standard-4"}),
    "variants.delete": (None, {"ruleset_id": "standard-4"}),
    "variants.edit": (None, {"ruleset_id": "standard-4"}),
    "sheets.back_to_game": (None, {"ref": "ABCDEF"}),
    "static": (None, {"filename": "app.css"}),
    "people.table": ("club", {"key": "{key}"}),
    "tools.trick_checker": (None, {}),
    "tournaments.show": ("tournament", {"tid": "{tid}"}),
    "tournaments.direct": (None, {"tid": "{tid}", "token": "x" * 40}),
    "tournaments.director": ("tournament", {"tid": "{tid}"}),
    "tournaments.screen": ("tournament", {"tid": "{tid}"}),
    "tournaments.version": ("tournament", {"tid": "{tid}"}),
    "live.tournament_events": ("tournament", {"tid": "{tid}"}),
    "tournaments.player": ("tournament", {"tid": "{tid}", "number": "1"}),
    "tournament_sheets.results": ("tournament", {"tid": "{tid}", "fmt": "csv"}),
    "tournament_sheets.round_sheet": ("tournament", {"tid": "{tid}", "number": "1"}),
    "tournaments.new": (None, {}),
}

#: Routes of a tournament's table only (the casual game has none: 404 to anyone).
TABLE_GAME_ONLY = {"tournaments.next_round"}

#: More formats of one route, each a call of its own.
MORE = {"tournament_sheets.results": [{"fmt": f} for f in ("json", "pdf", "xlsx")],
        "seasons.export": [{"fmt": f} for f in ("json", "pdf", "xlsx")]}


def join_codes(app):
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        return dict(conn.execute("select id, join_code from games"))


@pytest.fixture
def night(tmp_path):
    """A private club with a casual game (deal 1 entered) and a one-round tournament; a
    member; a phone that joined both games by their codes (no member); another club's
    manager; a stranger."""
    app = create_app({"DATABASE": str(tmp_path / "t.sqlite"), "SECRET_KEY": "test",
                      "TESTING": True, "WTF_CSRF_ENABLED": False,
                      "PDF_CACHE_DIR": str(tmp_path / "sheets")})
    maker = app.test_client()
    club = maker.post("/api/clubs", json={"name": "Tajny", "public": False}).get_json()
    cid, auth = club["id"], bearer(club["token"])
    game = maker.post("/api/games", headers=auth, json={
        "ruleset": "standard-4", "players": NAMES, "first_dealer": 0, "club": cid}).get_json()
    r = maker.put(f"/api/games/{game['id']}/deals/1", headers=bearer(game["token"]),
                  json={"version": game["version"], "result": {"tricks": [13, 0, 0, 0]}})
    assert r.status_code == 200
    made = maker.post("/api/tournaments", headers=auth, json={**TOURNAMENT, "club": cid})
    assert made.status_code == 201
    tour = made.get_json()
    table_game = tour["round"]["tables"][0]
    r = maker.put(f"/api/games/{table_game['game']}/deals/1", headers=bearer(table_game["token"]),
                  json={"version": 1, "result": {"tricks": [13, 0, 0, 0]}})
    assert r.status_code == 200, r.get_json()
    people = maker.get(f"/api/clubs/{cid}/players", headers=auth).get_json()
    pid = people[0]["id"]
    key = "-".join(str(p) for p in sorted(p["id"] for p in people if p["name"] in NAMES))
    eid = maker.get(f"/games/{game['id']}/evening", headers=auth).headers["Location"].rsplit("/", 1)[1]

    member = app.test_client()  # a browser that joined, and an API client that did
    assert member.get(f"/clubs/join/{club['invite_code']}").status_code == 302
    member_auth = bearer(member.post("/api/join-club", json={
        "code": club["invite_code"]}).get_json()["token"])
    table = app.test_client()  # a browser at both tables, and their tokens
    codes = join_codes(app)
    for gid in (game["id"], table_game["game"]):
        assert table.post("/join", data={"code": codes[gid]}).status_code == 302
    tokens = {game["id"]: game["token"], table_game["game"]: table_game["token"],
              tour["id"]: table_game["token"]}

    def table_auth(path):
        return next((bearer(t) for i, t in tokens.items() if i in path), {})

    other = app.test_client()
    other_club = other.post("/api/clubs", json={"name": "Inny", "public": False}).get_json()
    other_auth = bearer(other_club["token"])
    return {"app": app, "cid": cid, "games": [game["id"], table_game["game"]],
            "tid": tour["id"], "pid": pid, "key": key, "eid": eid,
            "roles": {"stranger": (app.test_client(), lambda path: {}),
                      "member": (member, lambda path: member_auth),
                      "table": (table, table_auth),
                      "other manager": (other, lambda path: other_auth),
                      "manager": (maker, lambda path: auth)}}


def _calls(app, night):
    """Every GET route's calls: (endpoint, what it names, path)."""
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        if "GET" not in rule.methods:
            continue
        assert rule.endpoint in ROUTES, f"{rule.endpoint} ({rule.rule}): add it to ROUTES"
        kind, args = ROUTES[rule.endpoint]
        assert set(args) == set(rule.arguments), rule.endpoint
        for extra in [{}, *MORE.get(rule.endpoint, [])]:
            games = night["games"][1:] if rule.endpoint in TABLE_GAME_ONLY else night["games"]
            for gid in games if "gid" in args else [None]:
                filled = {k: v.format(cid=night["cid"], gid=gid, tid=night["tid"],
                                      pid=night["pid"], key=night["key"], eid=night["eid"])
                          for k, v in {**args, **extra}.items()}
                path = rule.rule
                for name, value in filled.items():
                    path = re.sub(rf"<(?:\w+:)?{name}>", value, path)
                yield rule.endpoint, kind, path


def _status(client, path, headers):
    response = client.get(path, headers=headers)
    status = response.status_code
    response.close()  # a stream's generator ends here
    return status


#: Who reads what: the roles that get the same 404 as an unknown id.
REFUSED = {"game": {"stranger", "other manager"}, "tournament": {"stranger", "other manager"},
           "evening": {"stranger", "other manager"},
           "club": {"stranger", "other manager", "table"},
           "manager": {"stranger", "other manager", "table"}}


def test_every_get_route_of_a_private_club_is_not_found_but_by_its_readers(night):
    app = night["app"]
    wrong = []
    for endpoint, kind, path in _calls(app, night):
        for role, (client, auth) in night["roles"].items():
            # the API takes a token, never a cookie; a page takes either: the member's
            # and the table's browser bring their cookie, the managers their token
            api = path.startswith("/api/") or role.endswith("manager")
            status = _status(client, path, auth(path) if api else {})
            assert status < 500, (endpoint, role, path, status)
            if kind is None:
                continue
            refused = role in REFUSED[kind]
            if refused != (status == 404):
                wrong.append((endpoint, role, path, status))
    assert wrong == [], "\n".join(map(str, wrong))


def test_a_private_clubs_404_is_the_unknown_ids(night):
    stranger = night["roles"]["stranger"][0]
    gid, tid = night["games"][1], night["tid"]
    for path, real in (("/games/{}", gid), ("/api/games/{}", gid), ("/games/{}/events", gid),
                       ("/tournaments/{}/screen", tid), ("/api/tournaments/{}", tid)):
        a, b = stranger.get(path.format(real)), stranger.get(path.format("NoSuchId" * 2))
        # the same answer but the address (the page's language links carry it)
        assert (a.status_code, a.data.replace(real.encode(), b"?")) == (
            404, b.data.replace(b"NoSuchId" * 2, b"?")), path


def test_a_public_clubs_game_is_read_by_its_address(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "t.sqlite"), "SECRET_KEY": "test",
                      "TESTING": True})
    maker = app.test_client()
    club = maker.post("/api/clubs", json={"name": "Jawny"}).get_json()
    game = maker.post("/api/games", headers=bearer(club["token"]), json={
        "ruleset": "standard-4", "players": NAMES, "club": club["id"]}).get_json()
    stranger = app.test_client()
    assert stranger.get(f"/games/{game['id']}").status_code == 200
    assert stranger.get(f"/api/games/{game['id']}").status_code == 200
