"""Clubs in the store (issue 36): a typed name is a person of the game's or the
tournament's club only; two clubs each with an "Ania" keep two people."""
import pytest

from scorekeeper.domain import service, tournaments
from scorekeeper.rules.errors import InvalidInput
from scorekeeper.storage import club_writes, connection, people_writes

FOUR = ["Ania", "Bolek", "Cela", "Darek"]


def _person_ids(db, gid):
    return [r[0] for r in db.conn.execute(
        "select person_id from players where game_id = ? order by seat", [gid])]


def test_the_home_club_is_made_and_new_games_go_there(db):
    assert [tuple(r) for r in db.conn.execute("select id, name from clubs")] == [("home", "")]
    gid = service.create_game(db, "standard-4", FOUR, 0)
    assert db.conn.execute("select club_id from games where id = ?", [gid]).fetchone()[0] \
        == connection.HOME_CLUB


def test_two_clubs_with_the_same_names_have_their_own_people(db):
    club_writes.create_club(db, "c1", "Czwartki")
    club_writes.create_club(db, "c2", "Piątki")
    home = service.create_game(db, "standard-4", FOUR, 0)
    one = service.create_game(db, "standard-4", ["ania", *FOUR[1:]], 0, club="c1")
    again = service.create_game(db, "standard-4", ["ANIA", *FOUR[1:]], 0, club="c1")
    two = service.create_game(db, "standard-4", FOUR, 0, club="c2")
    assert _person_ids(db, one) == _person_ids(db, again)
    assert len({*_person_ids(db, home), *_person_ids(db, one), *_person_ids(db, two)}) == 12
    assert service.load(db, again).players[0] == "ania"  # as first typed in club 1
    clubs = dict(db.conn.execute("select club_id, count(*) from people group by club_id"))
    assert clubs == {"home": 4, "c1": 4, "c2": 4}


def test_a_rename_is_refused_only_for_a_name_taken_in_the_same_club(db):
    club_writes.create_club(db, "c1", "Czwartki")
    home = service.create_game(db, "standard-4", FOUR, 0)
    club = service.create_game(db, "standard-4", ["Ewa", "Franek", "Gosia", "Henio"], 0,
                               club="c1")
    ewa = _person_ids(db, club)[0]
    people_writes.rename_person(db, ewa, "Ania")  # home's Ania is another club's
    assert service.load(db, club).players[0] == "Ania"
    with pytest.raises(people_writes.NameTaken):
        people_writes.rename_person(db, ewa, "franek")
    assert service.load(db, home).players[0] == "Ania"


def test_a_tournament_its_rounds_its_late_arrivals_and_rematches_stay_in_its_club(db):
    club_writes.create_club(db, "c1", "Czwartki")
    service.create_game(db, "standard-4", FOUR, 0)
    t = tournaments.create(db, "Czwartek", [*FOUR, "Ewa", "Franek", "Gosia", "Henio"], 2,
                           {"3": "standard-3", "4": "standard-4"}, club="c1")
    tournaments.add_player(db, t.id, "Ania2")
    games = [table.game_id for table in t.rounds[0]]
    assert {r[0] for r in db.conn.execute(
        "select distinct club_id from games where id in (select game_id from "
        "tournament_tables where tournament_id = ?)", [t.id])} == {"c1"}
    people = {r[0] for r in db.conn.execute(
        "select p.club_id from tournament_players t join people p on p.id = t.person_id "
        "where t.tournament_id = ?", [t.id])}
    assert people == {"c1"}
    table = service.load(db, games[0])
    with pytest.raises(InvalidInput):  # a tournament's table: the director draws next
        service.rematch(db, table, table.players, 0)
    casual = service.load(db, service.create_game(db, "standard-4", table.players, 0,
                                                  club="c1"))
    rematch, made = service.rematch(db, casual, casual.players, 0)
    assert made
    assert db.conn.execute("select club_id from games where id = ?", [rematch]).fetchone()[0] \
        == "c1"
    assert set(_person_ids(db, rematch)) == set(_person_ids(db, games[0]))
