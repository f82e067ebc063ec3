"""A night closed knowingly: closing with tables not signed is refused, naming them, until
the director says to close anyway (the API's ``confirm_unsigned``, the page's second
step); the director signs a table from the director's page; afterwards every page and
the results sheet say final only when every table is signed, in Polish and English."""
import re

from scorekeeper.domain import service, tournaments
from scorekeeper.web.db import get_db
from tests.store.test_tournaments import finish
from tests.web.test_tournament_api import BODY, bearer
from tests.web.test_tournament_pages import PL, create, text, tournament

SIXTEEN = [f"Gracz {i}" for i in range(1, 17)]


def finished_night(client, **given):
    """A tournament of four tables of one round, every game over, none signed."""
    made = client.post("/api/tournaments", json={**BODY, "players": SIXTEEN, "rounds": 1,
                                                  **given}).get_json()
    app = client.application
    with app.app_context():
        for i, table in enumerate(tournaments.load(get_db(), made["id"]).rounds[0]):
            finish(get_db(), table.game_id, loser_seat=i % 4)
    return made


def sign(client, table, seats):
    """Players of ``table`` (its round JSON) sign its game with the table's token."""
    for seat in seats:
        version = client.get(f"/api/games/{table['game']}").get_json()["version"]
        r = client.post(f"/api/games/{table['game']}/signatures", headers=bearer(table["token"]),
                        json={"seat": seat, "version": version})
        assert r.status_code == 201, r.get_json()


def test_the_api_names_the_unsigned_tables_until_told_to_close_anyway(client):
    made = finished_night(client)
    tid, token, tables = made["id"], made["token"], made["round"]["tables"]
    sign(client, tables[0], [0, 1])  # confirmed by two players
    sign(client, tables[1], [2])  # one signature is not enough
    refused = client.post(f"/api/tournaments/{tid}/close", headers=bearer(token))
    assert refused.status_code == 409
    body = refused.get_json()
    assert [t["number"] for t in body["unsigned"]] == [2, 3, 4]
    assert [t["signatures"] for t in body["unsigned"]] == [1, 0, 0]
    assert all(t["round"] == 1 and t["finished"] for t in body["unsigned"])
    assert "round 1 table 2; round 1 table 3; round 1 table 4" in body["error"]
    assert not client.get(f"/api/tournaments/{tid}").get_json()["closed"]
    # in Polish; a confirmation that is not exactly true closes nothing
    pl = client.post(f"/api/tournaments/{tid}/close", headers={**bearer(token), **PL},
                     json={"confirm_unsigned": "yes"})
    assert pl.status_code == 409 and "runda 1 stół 2" in pl.get_json()["error"]
    assert "nie zamknięto" in pl.get_json()["error"]
    closed = client.post(f"/api/tournaments/{tid}/close", headers=bearer(token),
                         json={"confirm_unsigned": True})
    assert closed.status_code == 204
    assert client.get(f"/api/tournaments/{tid}").get_json()["closed"]


def test_a_table_still_playing_is_named_too(client):
    made = client.post("/api/tournaments", json=BODY).get_json()
    r = client.post(f"/api/tournaments/{made['id']}/close", headers=bearer(made["token"]))
    assert r.status_code == 409
    assert [t["finished"] for t in r.get_json()["unsigned"]] == [False] * 3
    assert "round 1 table 1 (still playing)" in r.get_json()["error"]


def test_every_table_signed_closes_at_once_as_final(client):
    made = finished_night(client)
    for table in made["round"]["tables"]:
        sign(client, table, [0, 3])
    r = client.post(f"/api/tournaments/{made['id']}/close", headers=bearer(made["token"]))
    assert r.status_code == 204


def test_the_director_signs_from_the_page_and_closes_in_two_steps(app, client):
    tid = create(client, players="\n".join(SIXTEEN), rounds="1")
    t = tournament(app, tid)
    with app.app_context():
        for table in t.rounds[0]:
            finish(get_db(), table.game_id)
    page = client.get(f"/tournaments/{tid}/director").text
    assert page.count(">Sign as the director</button>") == 4
    assert "4 tables are not signed yet" in text(page)
    first = tournament(app, tid).rounds[0][0]
    # a stale version signs nothing; the page says why
    r = client.post(f"/tournaments/{tid}/tables/{first.game_id}/sign",
                    data={"version": first.version - 1})
    assert r.status_code == 409 and not tournaments.confirmed(tournament(app, tid).rounds[0][0])
    r = client.post(f"/tournaments/{tid}/tables/{first.game_id}/sign",
                    data={"version": first.version}, follow_redirects=True)
    assert "Round 1, table 1 is signed by the director." in text(r.text)
    assert tournament(app, tid).rounds[0][0].director_signed
    assert r.text.count(">Sign as the director</button>") == 3
    # step one: refused, the tables named, the second step offered
    r = client.post(f"/tournaments/{tid}/close")
    assert r.status_code == 409 and not tournament(app, tid).closed
    shown = text(r.text)
    assert "not signed yet: round 1 table 2; round 1 table 3; round 1 table 4" in shown
    assert "Close anyway, with 3 tables unsigned" in shown
    assert 'name="confirm_unsigned" value="1"' in r.text
    # step two
    r = client.post(f"/tournaments/{tid}/close", data={"confirm_unsigned": "1"},
                    follow_redirects=True)
    assert "The tournament is closed with 3 tables unsigned: their results stay provisional." \
        in text(r.text)
    assert "wyniki są ostateczne" not in client.get(f"/tournaments/{tid}", headers=PL).text
    assert "zamknięty z 3 stołami bez podpisu" in text(
        client.get(f"/tournaments/{tid}", headers=PL).text)
    director = text(client.get(f"/tournaments/{tid}/director").text)
    assert "closed with 3 tables unsigned" in director and "Sign as the director" not in director


def test_a_table_of_another_tournament_is_not_signed_from_this_one(app, client):
    one, other = create(client), create(client, name="Piątek")
    gid = tournament(app, other).rounds[0][0].game_id
    assert client.post(f"/tournaments/{one}/tables/{gid}/sign",
                       data={"version": 1}).status_code == 404
    stranger = app.test_client()
    assert stranger.post(f"/tournaments/{one}/tables/{gid}/sign",
                         data={"version": 1}).status_code == 403


def test_closed_with_every_table_signed_says_final(app, client):
    tid = create(client, players="\n".join(SIXTEEN), rounds="1")
    with app.app_context():
        for table in tournament(app, tid).rounds[0]:
            game = finish(get_db(), table.game_id)
            service.sign(get_db(), game, service.DIRECTOR_SEAT, game.version, "director")
    r = client.post(f"/tournaments/{tid}/close", follow_redirects=True)
    assert "every table is signed, its results are final" in text(r.text)
    assert "closed: the results are final" in text(client.get(f"/tournaments/{tid}").text)
    assert re.search(r"zamknięty: wyniki są ostateczne",
                     text(client.get(f"/tournaments/{tid}", headers=PL).text))
