"""Exports a spreadsheet opens (issue 35 item 3): the CSV in the reader's spreadsheet
dialect (Polish: ``;`` between cells and a decimal comma, UTF-8 with a BOM; English keeps
the comma), and an ``.xlsx`` of a tournament's results and of a game, read back as a
spreadsheet reads them: by Python's csv module in the Polish dialect, and by openpyxl. No
cell is a formula, whatever a player is called."""
import csv
import io

import pytest
from openpyxl import load_workbook

from scorekeeper.outputs import exchange
from tests.web.test_csv_safety import NASTY, api_game
from tests.web.test_tournament_sheets import BODY, finished

PL = {"Accept-Language": "pl"}
EN = {"Accept-Language": "en"}
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


class PolishSpreadsheet(csv.excel):
    """How a spreadsheet set to Polish reads a CSV: cells split at ``;``."""

    delimiter = ";"


def polish_rows(body: bytes) -> list[list[str]]:
    assert body.startswith("\ufeff".encode()), "UTF-8 with a BOM"
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig")), PolishSpreadsheet))


def workbook_rows(body: bytes):
    book = load_workbook(io.BytesIO(body))
    sheet = book.active
    return sheet, [[c for c in row] for row in sheet.iter_rows()]


@pytest.fixture
def by_places(client):
    """A tournament ranked by places, round 1 played but its last table: halves of
    points among the standings (tied places share)."""
    answer = client.post("/api/tournaments", json={**BODY, "scoring": "places"})
    assert answer.status_code == 201, answer.get_json()
    made = answer.get_json()
    tables = finished(client, made)
    standings = client.get(f"/api/tournaments/{made['id']}").get_json()["standings"]
    return made, tables, standings


def test_results_csv_in_polish_opens_in_columns_with_decimal_commas(client, by_places):
    made, _, standings = by_places
    assert any(s["points"] != int(s["points"]) for s in standings), "a half to show"
    r = client.get(f"/tournaments/{made['id']}/results.csv", headers=PL)
    assert r.status_code == 200 and r.mimetype == "text/csv"
    rows = polish_rows(r.data)
    assert rows[0][:3] == ["Miejsce", "Gracz", "Za miejsca"]  # ranked by places
    assert rows[0][-2:] == ["Runda 1: stół", "Runda 1: wynik"]
    assert all(len(row) == len(rows[0]) for row in rows), "every row split into columns"
    by_name = {row[1].removeprefix("'"): row for row in rows[1:]}
    assert set(by_name) == {s["player"] for s in standings}
    for s in standings:
        cell = by_name[s["player"]][2]
        assert float(cell.replace(",", ".")) == s["points"]
        if s["points"] != int(s["points"]):
            assert "," in cell and "." not in cell, cell  # 2,5 as a Pole writes it
    # a name that looks like a formula stays text
    assert "'" + NASTY[0] not in by_name and "'=HYPERLINK(\"x\")" in [r[1] for r in rows]
    assert not any(c.startswith(("=", "+", "@")) for row in rows for c in row)


def test_results_csv_in_english_keeps_commas(client, by_places):
    made, _, standings = by_places
    r = client.get(f"/tournaments/{made['id']}/results.csv", headers=EN)
    text = r.data.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:3] == ["Rank", "Player", "Places"]
    half = next(s for s in standings if s["points"] != int(s["points"]))
    row = next(row for row in rows if row[1] == half["player"])
    assert float(row[2]) == half["points"] and "." in row[2]


def test_results_xlsx_has_the_standings_as_numbers_and_no_formula(client, by_places):
    made, tables, standings = by_places
    r = client.get(f"/tournaments/{made['id']}/results.xlsx", headers=PL)
    assert r.status_code == 200 and r.mimetype == XLSX
    assert ".xlsx" in r.headers["Content-Disposition"]
    sheet, rows = workbook_rows(r.data)
    assert sheet.title == "Wyniki"
    assert [c.value for c in rows[0]][:3] == ["Miejsce", "Gracz", "Za miejsca"]
    assert rows[0][1].font.b and sheet.freeze_panes == "A2"
    lines = [[c.value for c in row] for row in rows[1:]]
    assert [(line[0], line[1], line[2]) for line in lines] == \
        [(s["rank"], s["player"], s["points"]) for s in standings]
    assert all(isinstance(line[2], (int, float)) for line in lines)  # sums in a spreadsheet
    last = tables[-1]
    for line in lines:
        assert line[6] in [t["table"] for t in tables]
        if line[1] in last["players"]:
            assert line[7] is None  # still being played
    # the player named like a formula is text, shown as typed, never run
    cell = next(row[1] for row in rows[1:] if str(row[1].value).startswith("="))
    assert cell.value == '=HYPERLINK("x")' and cell.data_type == "s" and cell.quotePrefix
    assert not any(c.data_type == "f" for row in rows for c in row)
    # the public file holds no join code, token or game id
    flat = " ".join(str(c.value) for row in rows for c in row)
    for table in tables:
        assert table["join_code"] not in flat and table["game"] not in flat


def test_game_csv_in_polish_and_xlsx(client):
    gid = api_game(client, NASTY, deals=3)
    rows = polish_rows(client.get(f"/games/{gid}/export.csv", headers=PL).data)
    assert all(len(row) == len(rows[0]) for row in rows)
    first = rows[0].index("'" + NASTY[0])
    assert rows[1][first] == "-260" and int(rows[-1][first]) < 0
    english = client.get(f"/games/{gid}/export.csv", headers=EN).data.decode("utf-8-sig")
    assert list(csv.reader(io.StringIO(english)))[1][first] == "-260"

    r = client.get(f"/games/{gid}/export.xlsx", headers=PL)
    assert r.status_code == 200 and r.mimetype == XLSX
    assert "attachment" in r.headers["Content-Disposition"]
    _, cells = workbook_rows(r.data)
    values = [[c.value for c in row] for row in cells]
    column = values[0].index(NASTY[0])  # the name as typed, no quote added
    assert values[1][column] == -260
    assert values[-1][column] == sum(row[column] for row in values[1:-1])
    assert values[1][2] == NASTY[0]  # the dealer names a player too: text
    assert not any(c.data_type == "f" for row in cells for c in row)
    for name in NASTY:
        cell = next(c for c in cells[0] if c.value == name)
        assert cell.data_type == "s" and cell.quotePrefix


def test_the_pages_link_the_xlsx_where_they_offer_the_csv(client, by_places):
    made, _, _ = by_places
    page = client.get(f"/tournaments/{made['id']}", headers=PL).text
    assert f"/tournaments/{made['id']}/results.csv" in page
    assert f"/tournaments/{made['id']}/results.xlsx" in page and "Arkusz (.xlsx)" in page
    gid = api_game(client, ["Ala", "Bolek", "Cezary", "Dorota"], deals=1)
    page = client.get(f"/games/{gid}", headers=PL).text
    assert f"/games/{gid}/export.csv" in page and f"/games/{gid}/export.xlsx" in page


def test_every_cell_kind_in_the_polish_dialect():
    text = exchange.csv_text(["Gracz", "Punkty", "Uwagi"],
                             [["Ala; Ola", 2.5, "a;b"], ["=1+1", -0.5, ""], ["Ewa", -40, "x"]],
                             "pl")
    rows = polish_rows(text.encode())
    assert rows == [["Gracz", "Punkty", "Uwagi"], ["Ala; Ola", "2,5", "a;b"],
                    ["'=1+1", "-0,5", ""], ["Ewa", "-40", "x"]]
