"""A 32-letter name at 320 px (issue 35 item 5): no page that shows a player's name scrolls
sideways ("Rozdaje Konstantynopolitańczyko…" was cut and the page scrolled). Every page
with a name is opened on a 320 px phone, in Polish and English: a game being played, the
robber's grid, a finished game, its edit, loteryjka board and trick checker, the table,
the evening, the player, the players, the list of games, and a tournament's results,
director's page and player's page, and the projector's (laid out for 1920 x 1080, but a
director checks it on a phone too)."""
import pytest

from scorekeeper.domain import service
from scorekeeper.families.kierki.rules import get_ruleset
from scorekeeper.web.db import get_db
from tests.fixtures import results_for

from .conftest import at_table, shot

LONG = "Konstantynopolitańczykowianeczka"  # 32 letters, one word
FOUR = [LONG, "Małgorzata Jankowska-Wiśniewska", "Bartłomiej Brzęczyszczykiewicz", "Ala"]
EIGHT = [LONG, "Agnieszka Kowalska", "Bożena", "Czesław", "Dorota", "Ewa", "Żaneta", "Zenon"]

WIDER = "document.documentElement.scrollWidth"


def _games(app):
    rules = results_for(get_ruleset("standard-4"))
    games = {}
    with app.app_context():
        db = get_db()
        for key, dealer, upto in (("playing", 0, 1), ("robber", 0, 6), ("lottery", 0, 11),
                                  ("done", 0, len(rules))):
            gid = service.create_game(db, "standard-4", FOUR, dealer)
            for number, raw in enumerate(rules[:upto], start=1):
                service.enter_deal(db, service.load(db, gid), number, raw, number)
            games[key] = gid
    return games


@pytest.mark.parametrize("locale", ["pl-PL", "en-GB"])
def test_no_page_with_a_long_name_scrolls_sideways_at_320(open_phone, server_app, locale):
    app, base = server_app
    games = _games(app)
    made = app.test_client().post("/api/tournaments", json={
        "name": f"Turniej {LONG}", "players": EIGHT, "rounds": 2,
        "rulesets": {"4": "standard-4"}, "seed": "klub"}).get_json()
    tid = made["id"]
    page = open_phone(width=320, locale=locale)
    for gid in games.values():  # this phone is at every table
        at_table(page, app, base, gid)
    page.goto(f"{base}/tournaments/{tid}/direct/{made['token']}")
    page.goto(f"{base}/players")
    person = page.locator("a[href*='/players/']", has_text=LONG).first.get_attribute("href")
    page.goto(f"{base}{person}")
    table = page.locator("a[href*='/tables/']").first.get_attribute("href")
    done = games["done"]
    urls = {
        "deal 2": f"/games/{games['playing']}",
        "robber": f"/games/{games['robber']}",
        "loteryjka": f"/games/{games['lottery']}",
        "board": f"/games/{games['lottery']}/loteryjka",
        "trick": f"/games/{games['playing']}/trick",
        "finished": f"/games/{done}",
        "edit": f"/games/{done}/deals/1/edit",
        "evening": f"/games/{done}/evening",
        "table": table, "player": person, "players": "/players", "games": "/",
        "tournament": f"/tournaments/{tid}", "director": f"/tournaments/{tid}/director",
        "tournament player": f"/tournaments/{tid}/players/1",
        # the projector's, laid out for 1920 x 1080, on a director's phone too
        "projector": f"/tournaments/{tid}/screen",
        "tournament game": f"/games/{made['round']['tables'][0]['game']}",
    }
    wide = []
    for name, url in urls.items():
        answer = page.goto(base + url)
        assert answer.ok, (name, answer.status)
        page.wait_for_load_state()
        assert LONG in page.content(), name  # the page shows the name
        width = page.evaluate(WIDER)
        if width > 320:
            wide.append(f"{name} ({url}): {width} px")
        if locale == "pl-PL":
            shot(page, f"long-word-{name.replace(' ', '-')}-320")
    assert not wide, "wider than a 320 px screen:\n" + "\n".join(wide)
