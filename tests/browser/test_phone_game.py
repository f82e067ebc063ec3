"""A whole 12-deal game played through the forms on a phone-sized Chromium."""
from scorekeeper.families.kierki.rules import get_ruleset

from .conftest import shot

PLAYERS = ["Ala", "Bożena", "Czesław", "Żaneta"]


def tap(page, name, value):
    """One tap on a quick picker's value (the label the player touches)."""
    page.locator(f'.qv:has(input[name="{name}"][value="{value}"])').click()


def chosen(page, name):
    checked = page.locator(f'input[name="{name}"]:checked')
    return checked.get_attribute("value") if checked.count() else None


def counts(page, name, values):
    """Tap all but the last count; the page must fill the last one."""
    for seat, value in enumerate(values[:-1]):
        tap(page, f"{name}-{seat}", value)
    assert chosen(page, f"{name}-{len(values) - 1}") == str(values[-1]), \
        "the last count was not filled in"


def robber(page, rows):
    """The robber's grid, player by player: a tap on the picker for each highlighted cell
    (the picker moves on by itself); the last player's counts fill themselves."""
    while page.locator(".robber .dock").is_visible():
        cell = page.locator(".robber td.rc.active")
        part = cell.get_attribute("data-part")
        seat = int(cell.get_attribute("id").rsplit("-", 1)[1])
        value = rows[seat][["tricks", "hearts", "queens", "gentlemen"].index(part)]
        page.locator(f".dock-part[data-part={part}] button[data-v='{value}']").click()
    for i, part in enumerate(["tricks", "hearts", "queens", "gentlemen"]):
        assert page.locator(f"select[name={part}-3]").input_value() == str(rows[3][i])


def pick(page, name, seat):
    page.locator(f'input[name="{name}"][value="{seat}"]').check()


def save(page):
    page.locator("form.deal-form button[type=submit]").click()
    page.wait_for_load_state()


def deal_title(page):
    return page.locator(".deal-no").first.inner_text()


def test_whole_game_on_a_phone(page):
    page.goto(page.base + "/games/new")
    page.select_option("select[name=ruleset]", "standard-4")
    for i, name in enumerate(PLAYERS):
        page.fill(f"input[name=player_{i}]", name)
    page.locator('input[name=first_dealer][value="0"]').check()
    shot(page, "01-new-game")
    page.get_by_role("button", name="Start the game").click()

    assert deal_title(page) == "Deal 1 of 12"
    assert page.locator(".who").inner_text().split() == ["Deals", "Ala", "Leads", "Bożena"]
    counts(page, "tricks", [1, 4, 5, 3])
    shot(page, "02-deal-1")
    save(page)

    # deal 2: a wrong count is refused and what was typed stays
    assert deal_title(page) == "Deal 2 of 12"
    for seat, value in enumerate([5, 5, 5, 5]):
        tap(page, f"hearts-{seat}", value)
    save(page)
    assert "These must add up to 13; they add up to 20." in page.locator(".error").first.inner_text()
    assert chosen(page, "hearts-0") == "5"
    shot(page, "03-refused")
    assert page.locator(".chips li").first.inner_text().split() == ["Ala", "−20"]  # deal 1 kept
    tap(page, "hearts-2", 0)
    assert page.locator("fieldset.quick .sum-error").inner_text() == \
        "These must add up to 13; they add up to 15."
    tap(page, "hearts-3", 3)
    assert not page.locator("fieldset.quick .sum-error").is_visible()
    save(page)

    assert deal_title(page) == "Deal 3 of 12"
    counts(page, "queens", [0, 2, 1, 1])
    save(page)
    counts(page, "gentlemen", [2, 2, 2, 2])
    save(page)

    assert deal_title(page) == "Deal 5 of 12"
    shot(page, "04-king-of-hearts")
    page.get_by_role("button", name="Czesław").click()  # one tap records the deal

    assert deal_title(page) == "Deal 6 of 12"
    pick(page, "positions-0", 3)
    pick(page, "positions-1", 1)
    save(page)

    assert deal_title(page) == "Deal 7 of 12"
    robber(page, [[4, 5, 1, 3], [3, 2, 1, 1], [6, 6, 2, 4], [0, 0, 0, 0]])
    pick(page, "king_of_hearts", 0)
    pick(page, "positions-0", 2)
    pick(page, "positions-1", 1)
    shot(page, "05-robber")
    save(page)

    for number, suit in zip(range(8, 12), "SHDC"):
        assert deal_title(page) == f"Deal {number} of 12"
        counts(page, "tricks", [4, 3, 3, 3])
        if number == 8:
            shot(page, "06-trumps")
        with page.expect_navigation():  # the trump suit saves the deal
            page.locator(f'button[name=trump][value="{suit}"]').click()

    assert deal_title(page) == "Deal 12 of 12"
    pick(page, "order-0", 1)
    pick(page, "order-1", 3)
    save(page)

    # the game is over: standings, winner and the zero sum
    final = page.locator("#final").inner_text()
    assert "Game over" in final and "Final sum 0, as these rules say it must be ✓" in final
    shot(page, "07-final")

    # correct deal 1 from the score table; later totals follow
    page.locator("table.scores tbody tr").first.locator("a").click()
    assert "Correcting a recorded deal" in page.inner_text("main")
    assert [chosen(page, f"tricks-{s}") for s in range(4)] == ["1", "4", "5", "3"]
    tap(page, "tricks-0", 0)
    tap(page, "tricks-1", 5)
    tap(page, "tricks-2", 5)
    assert chosen(page, "tricks-3") == "3"  # the last count follows the others
    page.get_by_role("button", name="Save the correction").click()
    assert "Deal 1 corrected" in page.locator(".flash").first.inner_text()
    assert "Deal 1: Ala 0, Bożena −100, Czesław −100, Żaneta −60" in page.locator(".flash").first.inner_text()
    rs = get_ruleset("standard-4")
    assert rs.expected_sum == 0
    totals = [int(t.replace("−", "-").replace("+", ""))
              for t in page.locator(".chips strong").all_inner_texts()]
    assert sum(totals) == 0
    # Ala took 1 trick in deal 1 (-20); after the correction none: Ala gains 20
    first_row = page.locator("table.scores tbody tr").first.inner_text()
    assert first_row.split()[0] == "1"
    shot(page, "08-corrected")


def test_polish_phone_page(page):
    page.goto(page.base + "/lang/pl?next=/games/new")
    assert page.locator("h1").inner_text() == "Nowa gra"
    shot(page, "09-nowa-gra")


def test_a_second_phone_follows_the_first(page, open_phone):
    page.goto(page.base + "/games/new")
    for i, name in enumerate(PLAYERS):
        page.fill(f"input[name=player_{i}]", name)
    page.get_by_role("button", name="Start the game").click()
    other = open_phone()
    code = page.locator(".join-code strong").inner_text()  # read off the first phone
    other.goto(page.base + f"/join/{code}")  # typed or scanned: it joins the table
    assert other.locator(".deal-no").first.inner_text() == "Deal 1 of 12"
    counts(page, "tricks", [4, 3, 3, 3])
    save(page)
    # the other phone reloads by itself within a few seconds of polling
    from playwright.sync_api import expect  # here: the module imports without Playwright
    expect(other.locator(".deal-no").first).to_have_text("Deal 2 of 12", timeout=15_000)
    chip = other.locator(".chips li").first.inner_text().split()  # "Ala [deals] −80"
    assert (chip[0], chip[-1]) == ("Ala", "−80")  # the dealer is drawn: maybe Ala


def test_setup_shows_only_the_fields_of_the_chosen_rules(page):
    page.goto(page.base + "/games/new")
    assert page.locator("input[name=player_3]").is_visible()
    assert not page.locator("select[name=target]").is_visible()
    page.select_option("select[name=ruleset]", "standard-3")
    assert not page.locator("input[name=player_3]").is_visible()
    page.select_option("select[name=ruleset]", "tybet-21")
    assert page.locator("input[name=player_3]").is_visible()
    assert page.locator("select[name=target]").is_visible()


def test_plain_forms_work_with_javascript_off(open_phone, server):
    page = open_phone(js=False)
    page.goto(server + "/games/new")
    for i, name in enumerate(PLAYERS):
        page.fill(f"input[name=player_{i}]", name)
    page.get_by_role("button", name="Start the game").click()
    assert page.locator(".deal-no").first.inner_text() == "Deal 1 of 12"
    assert not page.locator(".left").first.is_visible()  # what is left needs JS
    for seat, value in enumerate([4, 3, 3]):  # no auto-fill: the server fills the blank
        page.locator(f'input[name=tricks-{seat}][value="{value}"]').check()
    page.get_by_role("button", name="Save deal 1").click()
    assert page.locator(".deal-no").first.inner_text() == "Deal 2 of 12"
    assert "Deal 1: Ala −80, Bożena −60, Czesław −60, Żaneta −60" in page.locator(".flash").first.inner_text()
    page.goto(page.url + "?mode=cards")
    assert page.locator("fieldset.cards").is_visible()
