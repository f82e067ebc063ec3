"""Members of their own: each joins with a token of their own, the manager lists them and
removes one (through the API and the club's page) or renews them all; a removed member's
token and browser read nothing of a private club from then on, and the club's log keeps
each change."""
import hashlib
import hmac

import pytest

from scorekeeper import create_app

NAMES = ["Ania", "Bolek", "Cela", "Darek"]


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def app(tmp_path):
    return create_app({"DATABASE": str(tmp_path / "t.sqlite"), "SECRET_KEY": "test",
                       "TESTING": True, "WTF_CSRF_ENABLED": False})


@pytest.fixture
def club(app):
    maker = app.test_client()
    made = maker.post("/api/clubs", json={"name": "Tajny", "public": False}).get_json()
    game = maker.post("/api/games", headers=bearer(made["token"]), json={
        "ruleset": "standard-4", "players": NAMES, "club": made["id"]}).get_json()
    return {**made, "manager": maker, "auth": bearer(made["token"]), "game": game["id"]}


def test_the_manager_lists_members_and_removes_one_through_the_api(app, club):
    cid, manager, auth = club["id"], club["manager"], club["auth"]
    browser = app.test_client()
    assert browser.get(f"/clubs/join/{club['invite_code']}").status_code == 302
    api_member = app.test_client()
    first = api_member.post("/api/join-club", json={"code": club["invite_code"]}).get_json()
    second = api_member.post("/api/join-club", json={"code": club["invite_code"]}).get_json()
    assert first["token"] != second["token"]  # each member's right is their own
    listed = manager.get(f"/api/clubs/{cid}/members", headers=auth).get_json()
    assert [sorted(m) for m in listed] == [["id", "joined_at"]] * 3
    ids = [m["id"] for m in listed]
    assert len(set(ids)) == 3
    # only the manager lists and removes: a member is refused, a stranger not told
    assert api_member.get(f"/api/clubs/{cid}/members",
                          headers=bearer(first["token"])).status_code == 403
    assert app.test_client().get(f"/api/clubs/{cid}/members").status_code == 404
    assert api_member.delete(f"/api/clubs/{cid}/members/{ids[0]}",
                             headers=bearer(first["token"])).status_code == 403
    game = f"/api/games/{club['game']}"
    assert api_member.get(game, headers=bearer(first["token"])).status_code == 200
    assert manager.delete(f"/api/clubs/{cid}/members/{ids[1]}", headers=auth).status_code == 204
    assert manager.delete(f"/api/clubs/{cid}/members/{ids[1]}", headers=auth).status_code == 404
    assert api_member.get(game, headers=bearer(first["token"])).status_code == 404
    assert api_member.get(f"/api/clubs/{cid}", headers=bearer(first["token"])
                          ).status_code == 404
    assert api_member.get(game, headers=bearer(second["token"])).status_code == 200
    assert browser.get(f"/games/{club['game']}").status_code == 200
    assert [m["id"] for m in manager.get(f"/api/clubs/{cid}/members",
                                         headers=auth).get_json()] == [ids[0], ids[2]]


def test_a_removed_members_browser_reads_nothing_more_even_a_page_it_had(app, club):
    cid, manager = club["id"], club["manager"]
    manager.get(f"/clubs/{cid}/manage/{club['token']}")  # the manager's browser
    browser = app.test_client()
    browser.get(f"/clubs/join/{club['invite_code']}")
    page = f"/games/{club['game']}"
    for _ in range(3):  # asked again and again: a page a layer in front might keep
        assert browser.get(page).status_code == 200
    assert browser.get(f"/clubs/{cid}").status_code == 200
    mid = manager.get(f"/api/clubs/{cid}/members", headers=club["auth"]).get_json()[0]["id"]
    shown = manager.get(f"/clubs/{cid}").text
    assert f"/clubs/{cid}/members/{mid}/remove" in shown
    assert manager.post(f"/clubs/{cid}/members/{mid}/remove").status_code == 302
    assert browser.get(page).status_code == 404
    assert browser.get(f"/clubs/{cid}").status_code == 404
    assert browser.get(f"/games/{club['game']}/events").status_code == 404
    log = manager.get(f"/clubs/{cid}").text
    assert f"Member {mid} joined" in log and f"Member {mid} removed" in log


def test_renewing_every_member_ends_every_right_and_the_old_invitation(app, club):
    cid, manager = club["id"], club["manager"]
    manager.get(f"/clubs/{cid}/manage/{club['token']}")
    members = [app.test_client() for _ in range(2)]
    for m in members:
        m.get(f"/clubs/join/{club['invite_code']}")
        assert m.get(f"/clubs/{cid}").status_code == 200
    assert manager.post(f"/clubs/{cid}/members/renew").status_code == 302
    for m in members:
        assert m.get(f"/clubs/{cid}").status_code == 404
    assert manager.get(f"/api/clubs/{cid}/members", headers=club["auth"]).get_json() == []
    now = manager.get(f"/api/clubs/{cid}", headers=club["auth"]).get_json()["invite_code"]
    assert now != club["invite_code"]
    late = app.test_client()
    late.get(f"/clubs/join/{club['invite_code']}")  # the old invitation: nobody
    assert late.get(f"/clubs/{cid}").status_code == 404
    late.get(f"/clubs/join/{now}")
    assert late.get(f"/clubs/{cid}").status_code == 200
    assert "Every member removed" in manager.get(f"/clubs/{cid}").text


def test_the_old_shared_member_token_is_no_right(app, club):
    """Before members of their own, every member's token was one HMAC of the club's id:
    it cannot tell a member from a former one, so it is no right any more."""
    old = hmac.new(b"test", f"club-member:{club['id']}".encode(),
                   hashlib.sha256).hexdigest()[:40]
    stranger = app.test_client()
    assert stranger.get(f"/api/clubs/{club['id']}", headers=bearer(old)).status_code == 404
    assert stranger.get(f"/api/games/{club['game']}", headers=bearer(old)).status_code == 404
