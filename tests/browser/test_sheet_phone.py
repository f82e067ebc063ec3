"""The print page (``/games/<id>/sheet``) on a phone (issue 25, item 13): a way back to the
game that is not printed (and carries no id: it leads back only a browser that already has
the game), the sheet laid out to the screen (nothing wider than 320 or
360 px), every name and signature whole; and the PDF made from the same page shows no way
back."""
import pytest

from scorekeeper.domain import service
from scorekeeper.web.db import get_db
from tests.web.test_five_players_api import GAME_5
from tests.web.test_sheets import pages, pdf_text, poppler  # noqa: F401 (a fixture)

from .conftest import at_table, shot
from .test_names_whole import BROKEN_WORDS, FIVE

# The signature lines: each inside the page, none overlapping another.
SIGNATURES = """() => {
  const boxes = [...document.querySelectorAll(".signatures div")].map((d) => d.getBoundingClientRect());
  const out = boxes.filter((r) => r.left < 0 || r.right > window.innerWidth).length;
  const overlapping = boxes.filter((a, i) => boxes.some((b, j) => i !== j &&
    a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1)).length;
  const cut = [...document.querySelectorAll(".signatures div")].filter((d) => d.scrollWidth > d.clientWidth + 1).length;
  return {count: boxes.length, out, overlapping, cut};
}"""


def _finished(app):
    with app.app_context():
        db = get_db()
        gid = service.create_game(db, "zdanowicz-5", FIVE, 0)
        for number, raw in enumerate(GAME_5, start=1):
            service.enter_deal(db, service.load(db, gid), number, raw, number)
    return gid


@pytest.mark.parametrize("width", [320, 360])
@pytest.mark.parametrize("locale", ["pl-PL", "en-GB"])
def test_the_print_page_on_a_phone(open_phone, server_app, width, locale):
    app, base = server_app
    gid = _finished(app)
    page = open_phone(width=width, locale=locale)
    at_table(page, app, base, gid)  # the phone has the game; "Print" opens the sheet
    page.locator(".tools a", has_text="Print" if locale == "en-GB" else "Drukuj").click()
    page.wait_for_url(f"{base}/games/{gid}/sheet")
    assert gid not in page.content()  # nothing on the page opens the game
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    assert page.evaluate(BROKEN_WORDS) == []
    signatures = page.evaluate(SIGNATURES)
    assert signatures == {"count": 5, "out": 0, "overlapping": 0, "cut": 0}
    # the dealer of each deal is still on the page, under the deal's name
    assert page.locator("tbody tr").first.locator(".deal .by").first.inner_text() in (
        "Rozdaje Małgorzata", "Deals Małgorzata")
    back = page.locator("a.back, .back a")
    assert back.is_visible()
    box = back.bounding_box()
    assert box["height"] >= 44
    if locale == "pl-PL":
        shot(page, f"sheet-phone-{width}")
    page.emulate_media(media="print")
    assert not back.is_visible()  # not on paper
    page.emulate_media(media="screen")
    back.click()
    page.wait_for_url(f"{base}/games/{gid}")


@pytest.mark.usefixtures("poppler")
def test_the_pdf_has_no_way_back(app, client, tmp_path):
    """The PDF is the same page, printed: the link back is not in it, the sheet is still one
    page, and its header names each player whole."""
    gid = _finished(app)
    for lang, back in (("en", "Back to the game"), ("pl", "Wróć do gry")):
        client.get(f"/lang/{lang}")
        pdf = client.get(f"/games/{gid}/sheet.pdf")
        assert pdf.status_code == 200
        text = pdf_text(pdf.data, tmp_path)
        assert back not in text
        assert pages(pdf.data, tmp_path) == 1
        header = next(line for line in text.splitlines() if "Łukasz" in line and "#" in line)
        assert all(name in header for name in FIVE), header


def test_the_way_back_leads_only_a_browser_that_has_the_game(app, client):
    """The link back names the sheet's reference, not the game: it opens the game for the
    phone that came from it, and for anyone else it is the list of their own games."""
    gid = _finished(app)
    client.get(f"/games/{gid}")  # this browser opened the game
    page = client.get(f"/games/{gid}/sheet").text
    back = page.split('class="screen-only back"><a href="', 1)[1].split('"', 1)[0]
    assert gid not in back
    assert client.get(back).location.endswith(f"/games/{gid}")
    stranger = app.test_client()
    assert stranger.get(back).location in ("/", "http://localhost/")
