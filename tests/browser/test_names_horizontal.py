"""Names whole and upright: with "Brzęczyszczykiewicz" at the table, at 320 and 360 px,
in Polish and English, no word of the game pages (a deal, the robber, a trump deal, the
finished game and its score table, the evening, the table) is broken inside, and the score
table's header stands horizontal: every name in it reads across, and the head is no taller
than a line a name."""
import pytest

from scorekeeper.domain import service
from scorekeeper.families.kierki.rules.examples import SAMPLE_GAME_4
from scorekeeper.web.db import get_db

from .conftest import at_table, shot
from .test_names_whole import BROKEN_WORDS

PLAYERS = ["Ala", "Brzęczyszczykiewicz", "Celina", "Darek"]
UPRIGHT = """() => [...document.querySelectorAll(".scores thead th")].map((th) =>
  [th.textContent.trim(), getComputedStyle(th.querySelector(".pname") || th).writingMode])"""


def _games(app) -> dict[str, str]:
    games = {}
    with app.app_context():
        db = get_db()
        for name, upto in (("deal 2", 1), ("robber", 6), ("trumps", 7), ("done", 12)):
            gid = service.create_game(db, "standard-4", PLAYERS, 0)
            for number, raw in enumerate(SAMPLE_GAME_4[:upto], start=1):
                service.enter_deal(db, service.load(db, gid), number, raw, number)
            games[name] = gid
    return games


@pytest.mark.parametrize("width", [320, 360])
@pytest.mark.parametrize("locale", ["pl-PL", "en-GB"])
def test_a_long_surname_stays_whole_and_upright(open_phone, server_app, width, locale):
    app, base = server_app
    games = _games(app)
    page = open_phone(width=width, locale=locale)
    for gid in games.values():
        at_table(page, app, base, gid)
    page.goto(f"{base}/players/2")
    table = page.locator("a[href*='/tables/']").first.get_attribute("href")
    pages = {**{k: f"{base}/games/{g}" for k, g in games.items()},
             "evening": f"{base}/games/{games['done']}/evening", "table": base + table}
    problems = []
    for name, url in pages.items():
        page.goto(url)
        page.wait_for_load_state()
        where = f"{name} at {width} px, {locale}"
        if page.evaluate("document.scrollingElement.scrollWidth") > width:
            problems.append(f"{where}: wider than the screen")
        problems += [f"{where}: {b}" for b in page.evaluate(BROKEN_WORDS)]
        if page.locator(".scores thead").count():
            heads = page.evaluate(UPRIGHT)
            problems += [f"{where}: {text!r} stands {mode}" for text, mode in heads
                         if mode != "horizontal-tb"]
            tall = page.locator(".scores thead").bounding_box()["height"]
            if tall > 20 * len(PLAYERS):  # a line a name at most (sideways: 150 px)
                problems.append(f"{where}: the score table's head is {tall:.0f} px tall")
        if name == "done" and locale == "pl-PL":
            page.locator("#scores").screenshot(path=str(shot(page, f"names-upright-{width}")))
    assert not problems, "\n".join(problems)
