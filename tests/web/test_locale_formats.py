"""Issue 25, item 12: numbers and dates in the page's language, the same on every page.

One table plays the sample Kierki game twice on 2 March 2024 (at 19:00 and 20:30, UTC,
the server's display zone unless configured). A Polish page writes ``2 mar 2024``,
``−62,5`` and ``1,65`` and no ISO date anywhere a reader sees; an English one writes
``Mar 2, 2024``, ``−62.5`` and ``1.65``; a chart writes its values as the tables beside
it do, and a player's form chart names each game by its day (two that day: ``2 mar,
1. gra``, ``2 mar, 2. gra``), not ``03-02 (1)``. The JSON API keeps machine forms.
"""
import re
from html import unescape
from pathlib import Path

import pytest

from scorekeeper.common.lru import LRU
from scorekeeper.families.kierki.rules.examples import SAMPLE_GAME_4
from scorekeeper.web.db import get_db
from tests.fixtures import authorize, play_api

PLAYERS = ["Ala", "Bolek", "Celina", "Darek"]
PLAYED = ("2024-03-02T19:00:00+00:00", "2024-03-02T20:30:00+00:00")
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
NNBSP = "\u202f"  # English "8:30 PM" keeps its time and its PM together


def shown(html: str) -> str:
    """The text a reader sees (SVG text included; attributes, scripts and styles not)."""
    html = re.sub(r"<(script|style)\b[^>]*>.*?</\1>", " ", html, flags=re.DOTALL)
    return re.sub(r"[ \t\r\n]+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def svg_texts(html: str) -> list[str]:
    return [unescape(t) for svg in re.findall(r"<svg\b.*?</svg>", html, re.DOTALL)
            for t in re.findall(r"<text\b[^>]*>([^<]*)</text>", svg)]


@pytest.fixture
def evening(app, client):
    """Two finished games of one table on 2 March 2024, both opened on this phone."""
    games = [play_api(client, "standard-4", PLAYERS, SAMPLE_GAME_4)[-1] for _ in PLAYED]
    with app.app_context():
        db = get_db()
        for game, when in zip(games, PLAYED):
            db.execute("update games set created_at = ?, updated_at = ? where id = ?",
                       [when, when, game["id"]])
            db.execute("update deals set recorded_at = ? where game_id = ?", [when, game["id"]])
            # the figures kept when it finished (its parts' with them)
            db.execute("update figures set played = ? where game_id = ?", [when, game["id"]])
        db.conn.commit()
    LRU.clear_every()  # the games as stored now
    for game in games:
        client.get(f"/games/{game['id']}")  # opened here: the front page lists them
    ids = {p["name"]: p["id"] for p in client.get("/api/players").get_json()}
    return [g["id"] for g in games], ids


def page(client, url: str, lang: str) -> str:
    client.set_cookie("lang", lang)
    r = client.get(url, follow_redirects=True)
    assert r.status_code == 200, url
    return r.get_data(as_text=True)


def test_the_front_page_dates_each_game_in_the_language(client, evening):
    pl = shown(page(client, "/", "pl"))
    assert "2 mar 2024, 20:30" in pl and "2 mar 2024, 19:00" in pl
    assert not ISO_DATE.search(pl)
    en = shown(page(client, "/", "en"))
    assert f"Mar 2, 2024, 8:30{NNBSP}PM" in en and f"Mar 2, 2024, 7:00{NNBSP}PM" in en


def test_a_player_page_in_polish_and_in_english(client, evening):
    _games, ids = evening
    html = page(client, f"/players/{ids['Bolek']}", "pl")
    text = shown(html)
    assert "Punkty razem −330" in text  # a real minus, as the score sheets write it
    assert text.count("2 mar 2024 · Klasyczne") == 2 and not ISO_DATE.search(text)
    # the form chart: each game by its day, the second game that day said in words
    axis = svg_texts(html)
    assert "2 mar, 1. gra" in axis and "2 mar, 2. gra" in axis and "−165" in axis
    assert not any(re.fullmatch(r"\d\d-\d\d \(\d+\)", t) for t in axis)
    assert "−" in "".join(axis) and "-" not in "".join(t for t in axis if t[-1:].isdigit())
    html = page(client, f"/players/{ids['Bolek']}", "en")
    text = shown(html)
    assert "Points in all −330" in text and re.search(r"Best game: Mar 2, 2024 ?, −165", text)
    assert "Mar 2, game 1" in svg_texts(html) and "Mar 2, game 2" in svg_texts(html)


def test_a_table_page_writes_decimals_as_the_language_does(client, evening):
    """Bolek's negative deals: −375 in 6 deals, −62.5 a deal, in the table and the chart."""
    _games, ids = evening
    key = "-".join(str(i) for i in sorted(ids.values()))
    pl = page(client, f"/tables/{key}", "pl")
    assert "−62,5" in shown(pl) and "−62,5" in svg_texts(pl)
    assert not re.search(r"\d\.\d", " ".join(svg_texts(pl)))  # no English decimal point
    en = page(client, f"/tables/{key}", "en")
    assert "−62.5" in shown(en) and "−62.5" in svg_texts(en) and "−62,5" not in shown(en)


def test_an_evening_page_and_its_money(client, evening):
    games, _ids = evening
    html = page(client, f"/games/{games[0]}/evening?stake=0,01&per=point", "pl")
    assert 'placeholder="0,05"' in html  # the stake's example as it is typed here
    pl = shown(html)
    assert "Wieczór 2 mar 2024" in pl and "19:00" in pl and "20:30" in pl
    assert "+370" in pl and "−330" in pl and "3,30" in pl and not ISO_DATE.search(pl)
    en = shown(page(client, f"/games/{games[0]}/evening?stake=0.01&per=point", "en"))
    assert "Evening of Mar 2, 2024" in en and f"8:30{NNBSP}PM" in en and "3.30" in en


def test_the_sheet_dates_and_numbers(client, evening):
    """A score sheet's points leave four digits whole in both languages (−1300)."""
    games, _ids = evening
    pl = shown(page(client, f"/games/{games[0]}/sheet", "pl"))
    assert "Data: 2 mar 2024" in pl and "−1300" in pl and not ISO_DATE.search(pl)
    en = shown(page(client, f"/games/{games[0]}/sheet", "en"))
    assert "Date: Mar 2, 2024" in en and "−1300" in en and "+1300" in en and "1,300" not in en


def test_the_game_chart_speaks_the_pages_language(app, client, evening):
    games, _ids = evening
    pl = svg_texts(page(client, f"/games/{games[0]}", "pl"))
    en = svg_texts(page(client, f"/games/{games[0]}", "en"))
    assert "−1000" in pl and "−1000" in en  # the running totals' scale, as the table
    assert not any("," in t or "-" in t for t in pl + en if t[-1:].isdigit())


def test_the_api_keeps_machine_forms(app, client, evening):
    games, ids = evening
    authorize(client, app, games[0])
    client.set_cookie("lang", "pl")
    assert client.get(f"/api/games/{games[0]}").get_json()["totals"] == [185, -165, 35, -55]
    assert client.get(f"/games/{games[0]}/export.json").get_json()["created_at"] == PLAYED[0]
    form = client.get(f"/api/players/{ids['Bolek']}").get_json()["families"]["kierki"]["form"]
    assert [g["date"] for g in form] == ["2024-03-02", "2024-03-02"]
    csv = client.get(f"/games/{games[0]}/export.csv").get_data(as_text=True)
    assert "-1300" in csv and "−" not in csv


def test_thousands_are_grouped_by_the_language_and_polish_ones_do_not_break():
    """Polish groups from five digits (CLDR's rule) with a no-break space; English from
    four with a comma, but points from five as in Polish (a score sheet's column)."""
    from scorekeeper.common import formats
    assert formats.signed(-12345, locale="pl") == "−12\u00a0345"
    assert formats.money(1234567, locale="pl") == "12\u00a0345,67"
    assert formats.money(123456, locale="pl") == "1234,56"
    assert formats.money(123456, locale="en") == "1,234.56"
    assert formats.signed(-1300, locale="en") == "−1300"
    assert formats.signed(-12345, locale="en") == "−12,345"


HAND_MADE = re.compile(r"""\|\s*(round|format)\b|"\{:|\.format\(|%[+.]\d*[dfg]|%\+|"""
                       r"""replace\(["']-["']|replace\(["']T["']|"""
                       r"""(_at|started|date)\s*\[\s*\d*\s*:""")


def test_templates_leave_numbers_and_dates_to_the_formats():
    """No template writes a number or a date by hand (``"%.1f"|format``, ``|round``,
    ``created_at[:10]``, ``replace("T", " ")``): every one goes through
    ``scorekeeper/common/formats.py``'s filters, so no page differs from another."""
    root = Path(__file__).resolve().parents[2] / "templates"
    found = [f"{p.relative_to(root)}:{i}: {line.strip()[:100]}"
             for p in sorted(root.rglob("*.html"))
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1)
             if HAND_MADE.search(line)]
    assert found == []
