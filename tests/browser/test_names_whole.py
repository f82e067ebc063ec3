"""Names and labels whole on a phone (issue 25, item 6): with long Polish names, at 320 and
360 px, in Polish and English, no word on the game page (four and five players, the
robber's grid open, deals entered, and a finished game), the table page or the evening
page is broken inside. A word is broken when the boxes of its letters (the word's range's
client rects) lie on more than one line; a lone "…" on a line of its own counts. Closed
parts of a page (the numbers under a chart, the QR code) are opened first."""
import pytest

from scorekeeper.domain import service
from scorekeeper.families.kierki.rules import get_ruleset
from scorekeeper.web.db import get_db
from tests.fixtures import results_for
from tests.web.test_five_players_api import GAME_5

from .conftest import ARTIFACTS, at_table, shot

FOUR = ["Małgorzata", "Przemysław", "Grażyna", "Bożena"]
FIVE = [*FOUR, "Łukasz"]

# Every word of every text the page shows: the lines its letters lie on. A web address may
# break anywhere; a word may break after its hyphen.
BROKEN_WORDS = """() => {
  for (const d of document.querySelectorAll("details")) d.open = true;
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest("script, style, template, option, select, .vh")) continue;
    if (!el.checkVisibility({visibilityProperty: true, contentVisibilityAuto: true})) continue;
    const across = /^(vertical|sideways)/.test(getComputedStyle(el).writingMode)
      ? ["left", "right"] : ["top", "bottom"];
    const text = node.textContent;
    const links = [...text.matchAll(/\\S*:\\/\\/\\S*/g)].map((u) => [u.index, u.index + u[0].length]);
    for (const m of text.matchAll(/[^\\s\\-–—\\/]+[\\-–—\\/]*/g)) {
      if (links.some(([a, b]) => m.index >= a && m.index < b)) continue;
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const boxes = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
      if (boxes.some((a) => boxes.some((b) => a[across[0]] >= b[across[1]] - 1))) {
        broken.push(`${el.tagName.toLowerCase()}.${el.className}: "${m[0]}"`);
      }
    }
  }
  return broken;
}"""


def _games(app):
    """Four and five players at the robber (six deals in), and both games finished."""
    four = results_for(get_ruleset("standard-4"))
    games = {}
    with app.app_context():
        db = get_db()
        for key, rid, players, results, upto in (
                ("robber-4", "standard-4", FOUR, four, 6), ("robber-5", "zdanowicz-5", FIVE, GAME_5, 6),
                ("done-4", "standard-4", FOUR, four, len(four)),
                ("done-5", "zdanowicz-5", FIVE, GAME_5, len(GAME_5))):
            gid = service.create_game(db, rid, players, 0)
            for number, raw in enumerate(results[:upto], start=1):
                service.enter_deal(db, service.load(db, gid), number, raw, number)
            games[key] = gid
    return games


@pytest.mark.parametrize("width", [320, 360])
@pytest.mark.parametrize("locale", ["pl-PL", "en-GB"])
def test_no_name_or_label_is_broken_inside_a_word(open_phone, server_app, width, locale):
    app, base = server_app
    games = _games(app)
    page = open_phone(width=width, locale=locale)
    problems = []
    for gid in games.values():  # this phone is at every one of these tables
        at_table(page, app, base, gid)
    page.goto(f"{base}/players/1")
    tables = page.eval_on_selector_all("a[href*='/tables/']", "a => a.map((e) => e.href)")
    assert len(tables) == 2  # the four and the five
    pages = {**{key: f"{base}/games/{gid}" for key, gid in games.items()},
             "evening": f"{base}/games/{games['done-5']}/evening?stake=0.05&per=point",
             "table-4": tables[0], "table-5": tables[1]}
    for name, url in pages.items():
        page.goto(url)
        page.wait_for_load_state()
        if name.startswith("robber"):
            assert page.locator(".rgrid tbody tr").count() == int(name[-1])
            assert page.locator(".rgrid tbody th").all_inner_texts() == FIVE[:int(name[-1])]
        if name.startswith("done"):  # every name in the score table's header, whole
            assert page.locator(".scores thead th.num").all_inner_texts() == \
                FIVE[:int(name[-1])]
        where = f"{name} at {width} px, {locale}"
        if page.evaluate("document.scrollingElement.scrollWidth") > width:
            problems.append(f"{where}: wider than the screen")
        problems += [f"{where}: {b}" for b in page.evaluate(BROKEN_WORDS)]
        if locale == "pl-PL":
            shot(page, f"names-{name}-{width}")
            part = {"robber-4": "form.robber-form", "robber-5": "form.robber-form",
                    "done-5": "#scores"}.get(name)
            if part:  # the grid and the table alone, to look at
                page.locator(part).screenshot(
                    path=str(ARTIFACTS / f"names-{name.split('-')[0]}-{name[-1]}-{width}.png"))
    assert not problems, "\n".join(problems)


def test_the_check_sees_a_word_broken_and_a_lone_ellipsis(open_phone):
    """The measure itself: a name broken letter by letter, or cut with its "…" alone on the
    next line, is found; the same names whole are not."""
    page = open_phone(height=400)
    page.set_content("""<body style="font: 16px sans-serif">
      <p style="width: 3em; overflow-wrap: anywhere">Małgorzata</p>
      <p style="width: 3.2em; overflow-wrap: anywhere">Graży…</p>
      <p style="width: 12em">Małgorzata Przemysław</p>
      <p style="width: 5em">Przemysław Grażyna</p></body>""")
    assert page.evaluate(BROKEN_WORDS) == ['p.: "Małgorzata"', 'p.: "Graży…"']
