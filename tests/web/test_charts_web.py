"""The charts on a game's page and its sheet: names escaped, the numbers the game's own."""
import base64
import re
from html import unescape

from scorekeeper.families.kierki.web import KierkiWeb
from scorekeeper.outputs import pdf
from tests.fixtures import PLAYERS, authorize
from tests.web.test_sheets import pages, pdf_text, play, poppler  # noqa: F401

ESCAPED = "&lt;b&gt;Dżon&lt;/b&gt;"


def chart_tables(html: str) -> list[list[list[str]]]:
    """Each chart's text alternative as rows of cells (the heading row first)."""
    tables = re.findall(r'<table class="chart-table">(.*?)</table>', html, re.DOTALL)
    return [[[unescape(c) for c in re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", row)]
             for row in re.findall(r"<tr>(.*?)</tr>", t, re.DOTALL)] for t in tables]


def number(text: str) -> int:
    return int(text.replace("−", "-").replace("+", ""))


def test_a_finished_game_page_draws_its_running_totals(app, client):
    gid = play(app, client, "standard-4", PLAYERS)
    authorize(client, app, gid)
    game = client.get(f"/api/games/{gid}").get_json()
    html = client.get(f"/games/{gid}").text
    assert html.count('<svg xmlns="http://www.w3.org/2000/svg" role="img"') == 2
    assert "<b>Dżon</b>" not in html and html.count(ESCAPED) >= 4  # legends and tables
    assert "<title>Running totals</title>" in html
    totals, kinds = chart_tables(html)
    assert totals[0] == ["Deal", *PLAYERS]
    assert [[number(c) for c in row[1:]] for row in totals[1:]] == \
        [d["totals"] for d in game["deals"]]
    assert [row[0] for row in totals[1:]] == [str(d["number"]) for d in game["deals"]]
    # the kinds: every penalty deal together, then the robber, trumps and loteryjka
    assert [row[0] for row in kinds[1:]] == ["Negative deals", "Robber", "Trumps", "Loteryjka"]
    by_kind = [[number(c) for c in row[1:]] for row in kinds[1:]]
    assert [sum(col) for col in zip(*by_kind)] == game["totals"]
    assert by_kind[1] == game["deals"][6]["points"]  # deal 7 is the robber


def test_no_chart_before_the_first_deal_and_one_after_it(app, client):
    gid = play(app, client, "standard-4", PLAYERS, upto=0)
    assert "chart-box" not in client.get(f"/games/{gid}").text
    gid = play(app, client, "standard-4", PLAYERS, upto=1)
    html = client.get(f"/games/{gid}", headers={"Accept-Language": "pl"}).text
    assert "Wyniki narastająco" in html and "Rozdania ujemne" in html


def test_the_sheet_has_the_chart_with_its_names(app, client):
    """The sheet draws its chart as an image of the SVG (WeasyPrint draws an image faster
    than an inline SVG): one image, named, whose SVG names each player, escaped."""
    gid = play(app, client, "standard-4", PLAYERS)
    html = client.get(f"/games/{gid}/sheet").text
    images = re.findall(r'<img class="chart" alt="([^"]*)" src="data:image/svg\+xml;base64,'
                        r'([^"]*)"', html)
    assert len(images) == 1 and images[0][0] == "Running totals"
    svg = base64.b64decode(images[0][1]).decode()
    assert svg.count('role="img"') == 1 and ESCAPED in svg and "<b>Dżon</b>" not in svg
    assert "<b>Dżon</b>" not in html and "<svg" not in html


def test_the_pdf_sheet_shows_the_chart_on_its_one_page(app, client, tmp_path, poppler,  # noqa: F811
                                                       monkeypatch):
    players = ["Ala", "Bożena", "Czesław", "Żaneta"]
    gid = play(app, client, "standard-4", players)
    data = client.get(f"/games/{gid}/sheet.pdf").data
    with_chart = pdf_text(data, tmp_path)
    assert pages(data, tmp_path) == 1
    pdf.cache.clear()
    monkeypatch.setattr(KierkiWeb, "charts", lambda self, game: [])
    without = pdf_text(client.get(f"/games/{gid}/sheet.pdf").data, tmp_path)
    for name in players:  # the legend names each player once more
        assert with_chart.count(name) == without.count(name) + 1, name
    monkeypatch.undo()
    five = ["Ala", "Bożena", "Czesław", "Żaneta", "Edward Nowakowski"]
    gid = play(app, client, "zdanowicz-5", five)
    data = client.get(f"/games/{gid}/sheet.pdf").data
    assert pages(data, tmp_path) == 1
    assert "Edward Nowakowski" in pdf_text(data, tmp_path).split("Final sum")[-1]  # the legend
