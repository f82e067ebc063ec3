"""axe-core over every main page at 360 px (the projector at 1920 × 1080), with games at
every stage: no serious or critical violation. The game pages (a deal of each kind, the
robber, a refused deal, a finished and signed game, Tybet), the tools, the rules and their
editor, the people and the evening, the front and set-up pages, an error page; and a
tournament's pages (its results, the director's, a player's, a table's game) with a round
half played."""
import pytest

from scorekeeper.domain import service
from scorekeeper.families.kierki.rules import get_ruleset
from scorekeeper.families.kierki.rules.examples import SAMPLE_GAME_4
from scorekeeper.web.db import get_db
from tests.fixtures import results_for

from .axe import axe_source, violations
from .conftest import at_table

PLAYERS = ["Ala", "Brzęczyszczykiewicz", "Celina", "Darek", "Edward"]
SIXTEEN = ["Ala", "Bożena", "Czesław", "Dorota", "Ewa", "Feliks", "Grażyna", "Henryk",
           "Irena", "Jerzy", "Krystyna", "Leszek", "Marta", "Norbert", "Olga", "Piotr"]


def _played(app, ruleset: str, upto: int, results=None, **given) -> str:
    rs = get_ruleset(ruleset) if not ruleset.startswith("tybet") else None
    with app.app_context():
        db = get_db()
        n = rs.players if rs else 4
        gid = service.create_game(db, ruleset, PLAYERS[:n], 0, given=given or None)
        results = results if results is not None else results_for(rs)
        for number, raw in enumerate(results[:upto], start=1):
            service.enter_deal(db, service.load(db, gid), number, raw, number)
    return gid


def _check(page, base: str, pages: dict[str, str], source: str) -> list[str]:
    problems = []
    for name, url in pages.items():
        answer = page.goto(base + url)
        assert answer is not None and answer.status < 500, (name, url)
        page.wait_for_load_state()
        problems += [f"{name} ({url}): {v}" for v in violations(page, source)]
    return problems


def test_the_game_pages_at_360(open_phone, server_app):
    source = axe_source()
    app, base = server_app
    tybet = [{"declarations": [[], [], [], []], "card_points": [7, 4]}] * 3
    games = {
        "deal 1": _played(app, "standard-4", 0),
        "deal 2": _played(app, "standard-4", 1, SAMPLE_GAME_4),
        "K♥": _played(app, "standard-4", 4, SAMPLE_GAME_4),
        "penalty tricks": _played(app, "standard-4", 5, SAMPLE_GAME_4),
        "robber": _played(app, "standard-4", 6, SAMPLE_GAME_4),
        "trumps": _played(app, "standard-4", 7, SAMPLE_GAME_4),
        "loteryjka": _played(app, "standard-4", 11, SAMPLE_GAME_4),
        "finished": _played(app, "standard-4", 12, SAMPLE_GAME_4),
        "five, robber": _played(app, "zdanowicz-5", 6),
        "three, trumps": _played(app, "kurnik-3", 8),
        "tybet": _played(app, "tybet-21", 0, tybet, target=21),
        "tybet, deal 2": _played(app, "tybet-21", 1, tybet, target=21),
        "tybet, finished": _played(app, "tybet-21", 3, tybet, target=21),
    }
    page = open_phone(width=360, height=740, locale="pl-PL")
    for gid in games.values():  # this phone is at every table
        at_table(page, app, base, gid)
    done = games["finished"]
    with app.app_context():  # one player has signed the finished game
        db = get_db()
        service.sign(db, service.load(db, done), 0, service.load(db, done).version)
    pages = {name: f"/games/{gid}" for name, gid in games.items()}
    pages.update({
        "robber, cards by hand": f"/games/{games['deal 2']}?mode=cards",
        "correction": f"/games/{done}/deals/7/edit",
        "loteryjka board": f"/games/{games['loteryjka']}/loteryjka",
        "trick checker": f"/games/{games['deal 2']}/trick",
        "tybet in detail": f"/games/{games['tybet']}?mode=detail",
        "evening": f"/games/{done}/evening",
        "sheet": f"/games/{done}/sheet",
        "front": "/", "new game": "/games/new", "import": "/games/import",
        "rules": "/rules/standard-4", "house variant": "/rules/standard-4/variant",
        "players": "/players", "player": "/players/1", "trick tool": "/tools/trick",
        "clubs": "/clubs", "not found": "/games/nothing-here",
    })
    problems = _check(page, base, pages, source)
    # a refused deal: its marks and messages checked too
    page.goto(f"{base}/games/{games['robber']}")
    with page.expect_navigation():
        page.evaluate("() => document.querySelector('form.deal-form').submit()")
    problems += [f"refused robber: {v}" for v in violations(page, source)]
    page.goto(f"{base}/players/1")
    table = page.locator("a[href*='/tables/']").first.get_attribute("href")
    problems += _check(page, base, {"table": table}, source)
    assert not problems, "\n".join(problems)


@pytest.fixture
def tournament(server_app):
    """Sixteen players, round 1 drawn, its first table's game over (signed by one), the
    second's at deal 3."""
    app, _base = server_app
    made = app.test_client().post("/api/tournaments", json={
        "name": "Turniej klubowy", "players": SIXTEEN, "rounds": 2,
        "rulesets": {"4": "standard-4"}, "seed": "klub"}).get_json()
    first, second = (t["game"] for t in made["round"]["tables"][:2])
    with app.app_context():
        db = get_db()
        for gid, upto in ((first, 12), (second, 2)):
            for number, raw in enumerate(SAMPLE_GAME_4[:upto], start=1):
                service.enter_deal(db, service.load(db, gid), number, raw, number)
        service.sign(db, service.load(db, first), 0, service.load(db, first).version)
    return made


def test_the_tournament_pages_at_360(open_phone, server_app, tournament):
    source = axe_source()
    _app, base = server_app
    tid = tournament["id"]
    page = open_phone(width=360, height=740, locale="pl-PL")
    page.goto(f"{base}/tournaments/{tid}/direct/{tournament['token']}")
    first = tournament["round"]["tables"][0]["game"]
    problems = _check(page, base, {
        "tournament": f"/tournaments/{tid}", "director": f"/tournaments/{tid}/director",
        "tournament player": f"/tournaments/{tid}/players/1",
        "table's game": f"/games/{first}", "new tournament": "/tournaments/new",
    }, source)
    assert not problems, "\n".join(problems)


def test_the_projector_at_1920(open_projector, server_app, tournament):
    source = axe_source()
    _app, base = server_app
    page = open_projector(locale="pl-PL")
    problems = _check(page, base, {"projector": f"/tournaments/{tournament['id']}/screen"},
                      source)
    assert not problems, "\n".join(problems)


def test_the_check_finds_a_violation(open_phone):
    """The measure itself: an image without words and an unnamed button are found."""
    source = axe_source()
    page = open_phone()
    page.set_content('<html lang="en"><head><title>t</title></head><body><main>'
                     '<img src="x.png"><button></button></main></body></html>')
    found = " ".join(violations(page, source))
    assert "image-alt (critical)" in found and "button-name (critical)" in found
