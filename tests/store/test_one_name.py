"""One name per person (issue 25, item 11): "ania" typed at a new game is the "Ania" the
server already knows, on that game's page and in its seats, and seats stored before this
rule take their person's name when the server starts."""
from scorekeeper.domain import service
from scorekeeper.storage import connection
from tests.fixtures import new_game


def test_a_known_person_typed_in_another_case_sits_under_their_name(client, app):
    new_game(client, players=["Ania", "Bolek", "Cela", "Darek"])
    gid = new_game(client, players=["ania", "BOLEK", "Cela", "Ewa"])
    page = client.get(f"/games/{gid}").text
    assert "Ania" in page and "BOLEK" not in page and ">ania<" not in page
    players = client.get(f"/api/games/{gid}").get_json()["players"]
    assert [p["name"] for p in players][:2] == ["Ania", "Bolek"]


def test_seats_stored_in_another_case_take_their_persons_name_on_start(tmp_path):
    db = connection.connect(str(tmp_path / "s.sqlite"))
    connection.migrate(db)
    first = service.create_game(db, "standard-4", ["Ania", "Bolek", "Cela", "Darek"], 0)
    second = service.create_game(db, "standard-4", ["Ewa", "Bolek", "Cela", "Darek"], 0)
    # as an older server wrote it: the seat kept the case it was typed in
    db.execute("update players set name = 'ania' where game_id = ? and seat = 0", [first])
    db.execute("update players set name = 'bolek' where game_id = ? and seat = 1", [second])
    db.execute("delete from _sqlite_migrations where name = '0008_one_name_per_person'")
    connection.migrate(db)
    assert service.load(db, first).players[0] == "Ania"
    assert service.load(db, second).players[1] == "Bolek"
    db.close()
