"""A tournament's round sheet and results files as a director and the players read them
(issue 27 item 3 and 6): the seat plan names every player with their table and seat, each
table's card carries its join code and a QR code of its join link, only the director gets
the sheet, and the results (PDF, CSV, JSON) agree with the standings and hold no code,
token or game id."""
import csv
import io
import json
import re
import subprocess

import pytest
import segno
from PIL import Image

from scorekeeper.outputs import pdf
from scorekeeper.web import access
from tests.store.test_tournaments import bad_evening_for
from tests.web.test_seat_plan import pages_of
from tests.web.test_sheets import pdf_text, poppler  # noqa: F401 (a fixture)
from tests.web.test_tournament_api import bearer

FOURTEEN = ["Ala", "Bożena", "Czesław", "Ćwikła", "Dorota", "Ewa", "Lucyna", "Łucja",
            "Małgorzata", "Ścibor", "Zenon", "Źdźisław", "Żaneta", "=HYPERLINK(\"x\")"]
BODY = {"name": "Turniej ♥ w Łodzi", "players": FOURTEEN, "rounds": 2,
        "rulesets": {"4": "standard-4", "3": "standard-3"}, "seed": "klub"}


@pytest.fixture
def made(client):
    answer = client.post("/api/tournaments", json=BODY)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def play(client, table, loser=0):
    gid = table["game"]
    version = client.get(f"/api/games/{gid}").get_json()["version"]
    for number, raw in enumerate(bad_evening_for(table["ruleset"], loser), start=1):
        answer = client.put(f"/api/games/{gid}/deals/{number}", headers=bearer(table["token"]),
                            json={"result": raw, "version": version})
        assert answer.status_code == 200, answer.get_json()
        version = answer.get_json()["version"]


def sheet(client, made, number=1, **headers):
    return client.get(f"/tournaments/{made['id']}/rounds/{number}/sheet.pdf",
                      headers=headers or bearer(made["token"]))


def test_the_round_sheet_seats_every_player_and_gives_each_table_its_code(
        client, made, tmp_path, poppler):  # noqa: F811
    r = sheet(client, made)
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    text = pdf_text(r.data, tmp_path)
    tables = made["round"]["tables"]
    assert [len(t["players"]) for t in tables] == [4, 4, 3, 3]
    plan, *cards = text.split("\f")
    for table in tables:
        for seat, name in enumerate(table["players"], start=1):
            where = rf"(?<!\S){re.escape(name)}\s+→ table {table['table']}, seat {seat}\b"
            assert len(re.findall(where, plan)) == 1, name
        card = next(c for c in cards if table["join_code"] in c)
        assert all(name in card for name in table["players"])
    # Alphabetical as English reads it: accented letters beside their base letter.
    read = pages_of(r.data, tmp_path)[0]  # a column after the other
    order = sorted(FOURTEEN, key=read.index)
    assert order.index("Łucja") < order.index("Lucyna")
    assert order[-3:] == ["Żaneta", "Źdźisław", "Zenon"]  # za, zd, ze
    assert "♥" in text and "Turniej ♥ w Łodzi" in text
    assert text.count("deals first") == len(tables)


def images(data, tmp_path):
    """The PDF's images as (page, pixels): pdfimages writes each as a PNG."""
    (tmp_path / "s.pdf").write_bytes(data)
    subprocess.run(["pdfimages", "-png", "-p", str(tmp_path / "s.pdf"), str(tmp_path / "img")],
                   check=True)
    return [(int(p.name.split("-")[1]), Image.open(p).convert("1"))
            for p in sorted(tmp_path.glob("img-*.png"))]


def test_each_card_has_one_qr_code_of_its_tables_join_link(app, client, made, tmp_path,
                                                           poppler):  # noqa: F811
    tables = made["round"]["tables"]
    app.config["PUBLIC_URL"] = "https://kierki.example.org"  # the host's public address
    found = images(sheet(client, made).data, tmp_path)
    assert len(found) == len(tables)
    for (page, image), table in zip(found, tables, strict=True):
        assert page == 3  # the seat plan by surname, by table, then four cards a page
        with app.test_request_context():  # the card's link: the code and its secret
            secret = access.join_secret(table["game"])
        url = f"https://kierki.example.org/join/{table['join_code']}/{secret}"
        qr = segno.make(url, error="m", micro=False)
        modules = [[bool(v) for v in row] for row in qr.matrix_iter(scale=1, border=4)]
        pixels = [[image.getpixel((x, y)) == 0 for x in range(image.width)]
                  for y in range(image.height)]
        assert pixels == modules, table["table"]


def test_the_round_sheet_is_the_directors_alone(client, made):
    assert sheet(client, made, Authorization="Bearer nope").status_code == 403
    stranger = client.get(f"/tournaments/{made['id']}/rounds/1/sheet.pdf",
                          headers={"Accept-Language": "pl"})
    assert stranger.status_code == 403 and "link sędziego" in stranger.text  # says what to open
    assert sheet(client, made, number=2).status_code == 404  # not drawn yet
    assert client.get("/tournaments/nope/rounds/1/sheet.pdf").status_code == 404
    # The director's browser (opened the director's link) gets it without a header.
    with client.session_transaction() as s:
        s["directs"] = [made["id"]]
    assert client.get(f"/tournaments/{made['id']}/rounds/1/sheet.pdf").status_code == 200


def test_the_round_sheet_in_polish(client, made, tmp_path, poppler):  # noqa: F811
    r = sheet(client, made, **bearer(made["token"]), **{"Accept-Language": "pl"})
    text = pdf_text(r.data, tmp_path)
    # Alphabetical as a Pole reads it: Ć after C, Ł after L, Ź and Ż after Z.
    read = pages_of(r.data, tmp_path)[0]  # a column after the other
    order = sorted(FOURTEEN, key=read.index)
    assert order.index("Czesław") < order.index("Ćwikła") < order.index("Dorota")
    assert order.index("Lucyna") < order.index("Łucja") < order.index("Małgorzata")
    assert order[-3:] == ["Zenon", "Źdźisław", "Żaneta"]
    assert "Runda 1" in text and "Rozsadzenie przy stołach" in text and "Stół 4" in text
    assert "stół" in next(line for line in text.splitlines() if "Żaneta" in line)
    assert "Na początek rozdaje:" in text and "Zeskanujcie kod" in text
    assert "pierwsze rozdanie" not in text


def finished(client, made):
    """Round 1 played out but its last table, whose players lose in turn."""
    tid = made["id"]
    tables = client.get(f"/api/tournaments/{tid}",
                        headers=bearer(made["token"])).get_json()["rounds"][0]["tables"]
    for i, table in enumerate(tables[:-1]):
        play(client, table, loser=i % 3)
    return tables


def test_results_csv_and_json_agree_with_the_standings(client, made):
    tables = finished(client, made)
    tid = made["id"]
    standings = client.get(f"/api/tournaments/{tid}").get_json()["standings"]
    data = client.get(f"/tournaments/{tid}/results.json")
    assert data.status_code == 200 and data.mimetype == "application/json"
    results = data.get_json()
    assert [(s["player"], s["points"], s["wins"], s["games"], s["best"], s["rank"])
            for s in results["standings"]] == \
        [(s["player"], s["points"], s["wins"], s["games"], s["best"], s["rank"])
         for s in standings]
    assert sum(s["points"] for s in results["standings"]) == 0  # each game sums to zero
    rounds = results["rounds"]
    assert [t["finished"] for t in rounds[0]["tables"]] == [True, True, True, False]
    assert all(p["total"] is None for p in rounds[0]["tables"][-1]["players"])

    r = client.get(f"/tournaments/{tid}/results.csv")
    assert r.status_code == 200 and r.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(r.data.decode("utf-8-sig"))))
    assert rows[0] == ["Rank", "Player", "Points", "Wins", "Games", "Best game",
                       "Round 1: table", "Round 1: total"]
    by_name = {row[1]: row for row in rows[1:]}
    for s in standings:
        name = "'" + s["player"] if s["player"].startswith("=") else s["player"]
        row = by_name[name]
        assert int(row[0]) == s["rank"] and int(row[2]) == s["points"]
        table = next(t for t in tables if s["player"] in t["players"])
        assert int(row[6]) == table["table"]
        assert row[7] == ("" if table is tables[-1] else str(s["points"]))
    # No cell a spreadsheet would run, and the points stay numbers.
    assert not any(c.startswith(("=", "+", "@")) for row in rows for c in row)

    # Nothing in the public files opens a game: no game id, join code or token.
    for body in (r.data.decode(), json.dumps(results, ensure_ascii=False)):
        for table in tables:
            for secret in (table["game"], table["join_code"], table["token"]):
                assert secret not in body
        assert made["token"] not in body


def test_results_by_places_give_halves_as_numbers(client):
    answer = client.post("/api/tournaments", json={**BODY, "scoring": "places"})
    made = answer.get_json()
    finished(client, made)
    results = client.get(f"/tournaments/{made['id']}/results.json").get_json()
    points = [s["points"] for s in results["standings"]]
    assert all(isinstance(p, (int, float)) for p in points)
    # three finished tables of 4, 4, 3 hand out 6 + 6 + 4.5 points
    assert sum(points) == 16.5


def test_the_results_pdf_lists_the_standings_and_the_tables(client, made, tmp_path,
                                                            poppler):  # noqa: F811
    tables = finished(client, made)
    r = client.get(f"/tournaments/{made['id']}/results.pdf")
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    text = pdf_text(r.data, tmp_path)
    assert "Tournament standings" in text and "Round 1" in text
    standings = client.get(f"/api/tournaments/{made['id']}").get_json()["standings"]
    lines = text.splitlines()
    for s in standings:
        line = next(line for line in lines if s["player"] in line)
        assert line.split()[0] == str(s["rank"])
    for table in tables:
        assert table["join_code"] not in text
    assert text.count("being played") == 1  # the last table
    assert client.get(f"/tournaments/{made['id']}/results.xls").status_code == 404


def test_the_results_pdf_changes_when_a_table_finishes_not_at_every_deal(client, made,
                                                                           monkeypatch):
    """A deal saved at a table changes nothing printed: the kept PDF is served again (no
    render of seconds for a club's results); a finished table is printed at once."""
    renders = []
    render = pdf.render
    monkeypatch.setattr(pdf, "render", lambda *a, **k: renders.append(1) or render(*a, **k))
    tid = made["id"]
    tables = client.get(f"/api/tournaments/{tid}",
                        headers=bearer(made["token"])).get_json()["rounds"][0]["tables"]
    before = client.get(f"/tournaments/{tid}/results.pdf").headers["ETag"]
    table = tables[0]
    version = client.get(f"/api/games/{table['game']}").get_json()["version"]
    raw = bad_evening_for(table["ruleset"], 0)[0]
    assert client.put(f"/api/games/{table['game']}/deals/1", headers=bearer(table["token"]),
                      json={"result": raw, "version": version}).status_code == 200
    assert client.get(f"/tournaments/{tid}/results.pdf").headers["ETag"] == before
    assert len(renders) == 1
    version = client.get(f"/api/games/{table['game']}").get_json()["version"]
    for number, raw in enumerate(bad_evening_for(table["ruleset"], 0)[1:], start=2):
        answer = client.put(f"/api/games/{table['game']}/deals/{number}",
                            headers=bearer(table["token"]),
                            json={"result": raw, "version": version})
        version = answer.get_json()["version"]
    assert client.get(f"/tournaments/{tid}/results.pdf").headers["ETag"] != before
    assert len(renders) == 2
