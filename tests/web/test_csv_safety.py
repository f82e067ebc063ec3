"""CSV exports are safe to open in a spreadsheet: no cell a spreadsheet would run as a
formula, while the points stay numbers."""
import csv
import io

from scorekeeper.families.kierki.rules import get_ruleset
from scorekeeper.outputs import exchange
from tests.fixtures import results_for

NASTY = ['=HYPERLINK("http://x","y")', "+1", "@SUM(A1)", "-Ola"]
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def api_game(client, players, deals=3):
    r = client.post("/api/games", json={"ruleset": "standard-4", "players": players,
                                        "first_dealer": 0})
    assert r.status_code == 201, r.get_json()
    game = r.get_json()
    token = game["token"]
    for number, raw in enumerate(results_for(get_ruleset("standard-4"))[:deals], start=1):
        r = client.put(f"/api/games/{game['id']}/deals/{number}",
                       json={"version": game["version"], "result": raw},
                       headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200, r.get_json()
        game = r.get_json()
    return game["id"]


def exported(client, gid) -> list[list[str]]:
    r = client.get(f"/games/{gid}/export.csv")
    assert r.status_code == 200 and r.mimetype == "text/csv"
    return list(csv.reader(io.StringIO(r.data.decode("utf-8-sig"))))


def is_int(cell: str) -> bool:
    try:
        int(cell)
    except ValueError:
        return False
    return True


def test_formula_names_are_neutralised_and_points_stay_numbers(client):
    rows = exported(client, api_game(client, NASTY))
    header, deals, total = rows[0], rows[1:-1], rows[-1]
    cells = [c for row in rows for c in row]
    for cell in cells:
        if cell.startswith(FORMULA_START):
            assert is_int(cell) and cell.startswith("-"), f"unsafe cell {cell!r}"
    # Each name is there once as a column and once in its total column, behind a quote.
    for name in NASTY:
        assert header.count("'" + name) == 1 and header.count(f"'{name} (total)") == 1
        assert name not in cells
    assert deals[0][2] == "'" + NASTY[0]  # the dealer column names a player too
    # Points, running totals and sums are plain integers, negative ones included.
    first = header.index("'" + NASTY[0])
    numbers = [row[first:first + 8] + row[-3:-1] for row in [*deals, total]]
    assert all(is_int(c) for row in numbers for c in row)
    assert int(deals[0][first]) == -260 and deals[0][first] == "-260"
    assert int(total[-2]) == sum(int(row[-3]) for row in deals)


def test_every_formula_start_is_neutralised_numbers_are_not():
    """Tab and CR cannot come in through a player's name (control characters are
    stripped), so the rows are given to csv_text here directly."""
    header = ["#", "=1+1", "+1", "-1+2", "@A1", "\t=1", "\r=1", "-", "Ala"]
    rows = [[1, -260, "-260", 0, "0", "", 3.5, "text", "=x"]]
    out = list(csv.reader(io.StringIO(exchange.csv_text(header, rows)[1:])))
    assert out[0] == ["#", "'=1+1", "'+1", "'-1+2", "'@A1", "'\t=1", "'\r=1", "'-", "Ala"]
    assert out[1] == ["1", "-260", "-260", "0", "0", "", "3.5", "text", "'=x"]


def test_plain_names_are_untouched(client):
    rows = exported(client, api_game(client, ["Ala", "Bożena", "O'Hara", "Ola-Ula"], deals=1))
    assert rows[0][3:7] == ["Ala", "Bożena", "O'Hara", "Ola-Ula"]
