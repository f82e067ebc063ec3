"""A club's season through the API and its pages (issue 36): two clubs with the same
names kept apart, a season over two nights, ratings that follow the results, a private
club's season refused to strangers (404), the manager's season, the files."""
import csv
import io

import openpyxl

from scorekeeper.domain import service, tournaments
from scorekeeper.storage import connection
from tests.store.test_tournaments import bad_evening_for

EIGHT = ["Ala", "Bolek", "Cela", "Darek", "Ewa", "Franek", "Gosia", "Hubert"]


def play_night(db, club, name, loser, players=EIGHT):
    """A night of two rounds in ``club``, ``loser`` taking every penalty at his table
    (the others by the alphabet's last); the tournament's id."""
    t = tournaments.create(db, name, "\n".join(players), 2, {"4": "standard-4"},
                           seed=name, club=club)
    for number in (1, 2):
        t = tournaments.load(db, t.id)
        for table in t.rounds[number - 1]:
            names = [t.name_of(s) for s in table.seats]
            seat = names.index(loser) if loser in names else names.index(max(names))
            game = service.load(db, table.game_id)
            for n, raw in enumerate(bad_evening_for("standard-4", seat), start=1):
                game = service.enter_deal(db, game, n, raw, game.version)
        if number == 1:
            tournaments.draw_next(db, t.id)
    return t.id


def night(app, club, name, loser):
    """:func:`play_night` on the app's database."""
    db = connection.connect(app.config["DATABASE"])
    try:
        return play_night(db, club, name, loser)
    finally:
        db.close()


def make_club(client, name, public):
    made = client.post("/api/clubs", json={"name": name, "public": public})
    assert made.status_code == 201
    return made.json["id"], made.json["token"]


def test_two_clubs_seasons_and_ratings_through_the_api(app, client):
    red, red_token = make_club(client, "Czerwoni", False)
    blue, blue_token = make_club(client, "Niebiescy", True)
    night(app, red, "Piątek 1", "Darek")
    night(app, red, "Piątek 2", "Darek")
    night(app, blue, "Sobota", "Ala")  # the same names in another club: other people
    stranger = client.get(f"/api/clubs/{red}/season")
    assert stranger.status_code == 404  # a private club's season: not told it exists
    assert client.get(f"/api/clubs/{red}/season",
                      headers={"Authorization": f"Bearer {blue_token}"}).status_code == 404
    answer = client.get(f"/api/clubs/{red}/season",
                        headers={"Authorization": f"Bearer {red_token}"})
    assert answer.status_code == 200
    table = answer.json["standings"]
    assert sorted(line["player"] for line in table) == sorted(EIGHT)
    assert all(line["nights"] == 2 and line["games"] == 4 for line in table)
    assert [line["rank"] for line in table] == sorted(line["rank"] for line in table)
    points = [line["points"] for line in table]
    assert points == sorted(points, reverse=True) and sum(points) == 0
    rating = {line["player"]: line["rating"] for line in table}
    assert all(isinstance(r, float) for r in rating.values())
    assert rating["Darek"] == min(rating.values())  # lost every game: rated lowest
    assert table[-1]["player"] == "Darek"
    blue_table = client.get(f"/api/clubs/{blue}/season").json["standings"]  # public
    assert all(line["nights"] == 1 for line in blue_table)
    blue_rating = {line["player"]: line["rating"] for line in blue_table}
    assert blue_rating["Ala"] == min(blue_rating.values())  # their Ala, not red's
    assert blue_rating["Darek"] != rating["Darek"]


def test_the_manager_names_a_season_and_the_files_follow_it(app, client):
    club, token = make_club(client, "Klub", True)
    night(app, club, "Piątek 1", "Darek")
    night(app, club, "Piątek 2", "Ala")
    assert client.get(f"/clubs/{club}/manage/{token}").status_code in (200, 302)
    page = client.get(f"/clubs/{club}/season")
    assert page.status_code == 200 and "Darek" in page.text and "Name a season" in page.text
    made = client.post(f"/clubs/{club}/seasons", data={
        "name": "Jesień", "starts": "2000-01-01", "ends": "2099-12-31", "scoring": "places",
        "best": "1"})
    assert made.status_code == 302
    shown = client.get(made.headers["Location"])
    assert "Jesień" in shown.text and "places added up" in shown.text
    answer = client.get(f"/api/clubs/{club}/season").json
    assert answer["season"]["name"] == "Jesień" and answer["season"]["best"] == 1
    assert all(line["counted"] == 1 for line in answer["standings"])
    assert max(line["points"] for line in answer["standings"]) <= 8  # one night's place
    refused = client.post(f"/clubs/{club}/seasons", data={
        "name": "", "starts": "2026-02-30", "ends": "2026-01-01", "scoring": "points"})
    assert refused.status_code == 422 and "YYYY-MM-DD" in refused.text
    other = app.test_client()  # not the manager: a reader of a public club
    assert other.post(f"/clubs/{club}/seasons", data={
        "name": "X", "starts": "2026-01-01", "ends": "2026-12-31",
        "scoring": "points"}).status_code == 403
    pid = answer["standings"][0]["person_id"]
    versus = answer["standings"][1]["person_id"]
    mine = client.get(f"/clubs/{club}/season/players/{pid}?with={versus}")
    assert mine.status_code == 200 and "Piątek 1" in mine.text and "Head to head" in mine.text
    text = client.get(f"/clubs/{club}/season.csv").data.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:4] == ["Rank", "Player", "Places", "Nights"]
    assert sorted(r[1] for r in rows[1:]) == sorted(EIGHT)
    book = openpyxl.load_workbook(io.BytesIO(client.get(f"/clubs/{club}/season.xlsx").data))
    sheet = book.active
    assert sheet.max_row == 9 and isinstance(sheet.cell(2, 3).value, (int, float))
    pdf = client.get(f"/clubs/{club}/season.pdf")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")


def test_a_name_that_looks_like_a_formula_is_text_in_the_files(app, client):
    club, _ = make_club(client, "Klub", True)
    db = connection.connect(app.config["DATABASE"])
    try:
        t = tournaments.create(db, "Noc", "\n".join(["=1+1", *EIGHT[1:]]), 1,
                               {"4": "standard-4"}, seed="f", club=club)
        for table in t.rounds[0]:
            game = service.load(db, table.game_id)
            for n, raw in enumerate(bad_evening_for("standard-4", 0), start=1):
                game = service.enter_deal(db, game, n, raw, game.version)
    finally:
        db.close()
    text = client.get(f"/clubs/{club}/season.csv").data.decode("utf-8-sig")
    assert "'=1+1" in text
    book = openpyxl.load_workbook(io.BytesIO(client.get(f"/clubs/{club}/season.xlsx").data))
    names = [c.value for c in book.active["B"]]
    assert "=1+1" in names and all(str(c.data_type) != "f" for c in book.active["B"])
