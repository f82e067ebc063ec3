"""Five players on a phone: the set-up form shows a fifth seat only for five-player rules,
and every screen of the game fits the width (a deal, the robber's five rows, the race's
five places, the score table's five columns)."""
import pytest

from scorekeeper.domain import service
from scorekeeper.web.db import get_db
from tests.web.test_five_players_api import FIVE, GAME_5, TOTALS_5

from .conftest import shot
from .test_phone_game import chosen, counts

WIDER_THAN_THE_SCREEN = "document.scrollingElement.scrollWidth - window.innerWidth"
CUT_NUMBERS = """[...document.querySelectorAll('.scores td.num, .chips strong')]
  .filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent.trim())"""


def fits(page, where):
    assert page.evaluate(WIDER_THAN_THE_SCREEN) <= 0, f"{where}: wider than the screen"
    assert page.evaluate(CUT_NUMBERS) == [], f"{where}: a number does not fit its column"


def enter(app, gid, upto):
    """Deals up to ``upto`` recorded directly (the screens after them are what is tested)."""
    with app.app_context():
        db = get_db()
        game = service.load(db, gid)
        for number in range(game.recorded + 1, upto + 1):
            game = service.enter_deal(db, game, number, GAME_5[number - 1], game.version)


@pytest.mark.parametrize("width", [360, 320])
def test_a_five_player_game_on_a_phone(open_phone, server_app, width):
    app, base = server_app
    page = open_phone(width=width)
    page.goto(base + "/games/new")
    page.select_option("select[name=ruleset]", "standard-4")
    assert not page.locator("input[name=player_4]").is_visible()
    assert not page.locator('input[name=first_dealer][value="4"]').is_visible()
    page.select_option("select[name=ruleset]", "zdanowicz-5")
    for i, name in enumerate(FIVE):
        page.fill(f"input[name=player_{i}]", name)
    assert page.locator(".choice[data-seat='4'] span").inner_text() == "Edward"
    page.locator('input[name=first_dealer][value="4"]').check()
    fits(page, "set-up")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_load_state()
    assert page.locator(".deal-no").first.inner_text() == "Deal 1 of 13"
    assert page.locator(".chips li").count() == 5
    assert page.locator(".qp-row").count() == 5
    assert page.locator('.qp-row').first.locator(".qv").count() == 11  # 0 to 10
    fits(page, "deal 1")

    counts(page, "tricks", [3, 2, 1, 4, 0])  # Edward's 0 fills itself
    assert chosen(page, "tricks-4") == "0"
    page.get_by_role("button", name="Save deal 1").click()
    page.wait_for_load_state()
    assert page.locator(".deal-no").first.inner_text() == "Deal 2 of 13"
    assert "Deal 1: Ala −30, Bożena −20, Czesław −10, Dorota −40, Edward 0" in \
        page.locator(".flash").first.inner_text()
    assert page.locator(".scores thead th.num").count() == 5
    fits(page, "deal 2 with the score table")
    gid = page.url.rsplit("/", 1)[1]

    enter(app, gid, 6)  # to the robber: five rows of four counts, the K♥ and two tricks
    page.reload()
    assert page.locator(".rgrid tbody tr").count() == 5
    fits(page, "robber")
    shot(page, f"five-robber-{width}")

    enter(app, gid, 12)  # to the race: four places asked, the fifth is whoever is left
    page.reload()
    assert page.locator(".seats-row .row-label").all_inner_texts() == [
        f"Place {n}" for n in range(1, 5)]
    fits(page, "race")
    for place, seat in enumerate(GAME_5[12]["order"][:4]):
        page.locator(f'input[name="order-{place}"][value="{seat}"]').check()
    page.get_by_role("button", name="Save deal 13").click()
    page.wait_for_load_state()
    assert "Czesław wins!" in page.locator("#final").inner_text()
    assert "Final sum +220, as these rules say it must be ✓" in page.locator("#final").inner_text()
    totals = [t.replace("−", "-") for t in page.locator(".scores tfoot td").all_inner_texts()]
    assert [int(t) for t in totals] == TOTALS_5
    fits(page, "finished game")
    shot(page, f"five-finished-{width}")
