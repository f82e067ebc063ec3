"""What a tournament table's game page offers once its game is over: signing, never a
rematch (the table's next game is the next round's, which the director draws); a casual
game's page keeps its rematch."""
from scorekeeper.web.db import get_db
from tests.fixtures import join
from tests.store.test_tournaments import finish
from tests.web.test_rematch import finished
from tests.web.test_tournament_pages import create, tournament

REMATCH = "Rematch: the next game of this table"


def test_a_tournament_table_offers_no_rematch(app, client):
    tid = create(client)
    gid = tournament(app, tid).rounds[0][0].game_id
    with app.app_context():
        finish(get_db(), gid)
    phone = join(app.test_client(), app, gid)
    for who in (phone, client):  # a phone of the table, and the director
        page = who.get(f"/games/{gid}").text
        assert "Sign as" in page and REMATCH not in page and "/rematch" not in page


def test_a_casual_game_keeps_its_rematch(app, client):
    gid = finished(client)
    assert REMATCH in join(app.test_client(), app, gid).get(f"/games/{gid}").text
