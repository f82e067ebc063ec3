"""Faster deal entry on 360 and 320 px phones: quick pickers, the robber on one screen,
one-tap deals, corrections from the score table, undo with a second step."""
import pytest

from scorekeeper.domain import service
from scorekeeper.families.kierki.rules.examples import SAMPLE_GAME_4
from scorekeeper.web.db import get_db

from .conftest import ARTIFACTS, at_table, expect

PLAYERS = ["Ala", "Bolek", "Cela", "Darek"]
#: Deals 1-12 of standard-4 (first dealer Ala), as the table reported them.

RESULTS = SAMPLE_GAME_4
WIDTHS = [360, 320]


@pytest.fixture(params=WIDTHS, ids=lambda w: f"{w}px")
def phone(request, open_phone, server_app):
    """A touch phone of the given width on a fresh server; ``phone.game(n)`` starts a
    standard-4 game with its first ``n`` deals stored and opens it."""
    app, base = server_app
    width = request.param
    page = open_phone(width=width, height=740)
    page.width = width

    def game(recorded=0, results=RESULTS, by_card=None):
        with app.app_context():
            db = get_db()
            gid = service.create_game(db, "standard-4", PLAYERS, 0)
            for number, raw in enumerate(results[:recorded], start=1):
                if by_card and number in by_card:
                    raw = {"cards": by_card[number], **{k: v for k, v in raw.items()
                                                         if k == "tricks"}}
                service.enter_deal(db, service.load(db, gid), number, raw, number)
        page.gid = gid
        at_table(page, app, base, gid)
        return gid

    page.game = game
    return page


def shot(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"entry-{name}-{page.width}.png"), full_page=True)


def fits(page):
    """Nothing is wider than the screen."""
    width, inner = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width <= inner, f"the page is {width} px wide on a {inner} px screen"


def targets_are_big(page, selector):
    """Every visible tap target matching ``selector`` is at least 44 × 44 px."""
    boxes = page.evaluate("""sel => Array.from(document.querySelectorAll(sel))
        .filter(e => e.offsetParent !== null)
        .map(e => { const r = e.getBoundingClientRect();
                    return [e.textContent.trim(), r.width, r.height]; })""", selector)
    assert boxes, f"no {selector} on the page"
    small = [b for b in boxes if b[1] < 44 or b[2] < 44]
    assert not small, f"tap targets under 44 px: {small[:5]}"


def tap(page, name, value):
    page.locator(f'.qv:has(input[name="{name}"][value="{value}"])').click()


def chosen(page, name):
    checked = page.locator(f'input[name="{name}"]:checked')
    return checked.get_attribute("value") if checked.count() else None


def left(page):
    return page.locator("fieldset.quick .left").inner_text()


def deal_number(page):
    return page.locator("[data-live=deal]").get_attribute("data-deal-number")


def test_a_count_deal_is_one_tap_per_player_and_the_last_fills_itself(phone):
    page = phone
    page.game()
    assert left(page) == "13 tricks left"
    targets_are_big(page, "fieldset.quick .qv")
    fits(page)
    # dealer and leader stay above the pickers, the costs folded between them
    head = page.locator(".who").bounding_box()["y"]
    assert head < page.locator("fieldset.quick").bounding_box()["y"]
    page.locator(".deal-more summary").click()
    assert page.locator(".costs").inner_text() == "−20 for each trick"
    tap(page, "tricks-0", 4)
    assert left(page) == "9 tricks left"
    tap(page, "tricks-1", 3)
    assert left(page) == "6 tricks left"
    # a value that would exceed what is left is dimmed
    assert "off" in page.locator('.qv:has(input[name="tricks-2"][value="7"])').get_attribute("class")
    assert "off" not in page.locator('.qv:has(input[name="tricks-2"][value="6"])').get_attribute("class")
    assert chosen(page, "tricks-3") is None
    tap(page, "tricks-2", 2)
    assert chosen(page, "tricks-3") == "4"  # the last player filled itself
    assert left(page) == "0 tricks left"
    shot(page, "current-deal")
    with page.expect_navigation():
        page.get_by_role("button", name="Save deal 1").click()
    assert deal_number(page) == "2"
    flash = page.locator(".flash").first.inner_text()
    assert flash == "Deal 1: Ala −80, Bolek −60, Cela −40, Darek −80"
    assert page.locator("table.scores tbody tr.saved").count() == 1
    assert "saved" in page.locator("table.scores tbody tr").first.get_attribute("class")
    page.reload()  # marked for one page view only
    assert page.locator("table.scores tbody tr.saved").count() == 0


def test_nothing_left_fills_the_rest_with_zeros(phone):
    page = phone
    page.game(2)
    tap(page, "queens-0", 2)
    tap(page, "queens-1", 2)
    assert [chosen(page, f"queens-{s}") for s in (2, 3)] == ["0", "0"]
    assert left(page) == "0 queens left"
    tap(page, "queens-0", 1)  # a change: the filled ones follow
    assert [chosen(page, f"queens-{s}") for s in (2, 3)] == [None, None]
    assert left(page) == "1 queen left"


def test_a_wrong_sum_says_what_it_adds_up_to_and_is_not_sent(phone):
    page = phone
    page.game(1)
    for seat in range(3):
        tap(page, f"hearts-{seat}", 5)
    error = page.locator("fieldset.quick .sum-error")
    assert error.inner_text() == "These must add up to 13; they add up to 15."
    assert chosen(page, "hearts-3") is None and not page.locator("fieldset.quick .left").is_visible()
    # refused here: nothing is sent (the submit event comes, and the page's scripts, all
    # listening before the window's bubbling listener, keep the form from going)
    page.evaluate("window.addEventListener('submit', e => { window.sent = !e.defaultPrevented })")
    page.get_by_role("button", name="Save deal 2").click()
    page.wait_for_function("window.sent !== undefined")
    assert page.evaluate("window.sent") is False
    assert deal_number(page) == "2" and "/deals/" not in page.url
    tap(page, "hearts-2", 0)
    assert chosen(page, "hearts-3") == "3" and not error.is_visible()
    fits(page)


def test_the_robber_on_one_screen_with_a_cross_check_beside_its_field(phone):
    page = phone
    page.game(6)
    grid = page.locator(".robber .rgrid")
    assert grid.is_visible() and page.locator(".robber select").first.is_hidden()
    targets_are_big(page, ".robber .rcell")
    targets_are_big(page, ".robber .dock .qv")
    targets_are_big(page, "fieldset.compact .pick")
    fits(page)
    # player by player: a tap on the picker for each highlighted cell; Darek fills himself
    rows = [[4, 3, 1, 2], [3, 2, 1, 1], [5, 8, 2, 5], [1, 0, 0, 0]]  # tricks, ♥, Q, K+J
    taps = 0
    while page.locator(".robber .dock").is_visible():
        cell = page.locator(".robber td.rc.active")
        part = cell.get_attribute("data-part")
        seat = int(cell.get_attribute("id").rsplit("-", 1)[1])
        value = rows[seat][["tricks", "hearts", "queens", "gentlemen"].index(part)]
        if taps == 0:
            assert page.locator(".dock-title").inner_text() == "Ala Tricks"
            assert page.locator(".dock .left:visible").inner_text() == "13 tricks left"
        page.locator(f".dock-part[data-part={part}] button[data-v='{value}']").click()
        taps += 1
    assert taps == 12
    assert [page.locator(f".robber #rc-{p}-3 .rcell").inner_text()
            for p in ("tricks", "hearts", "queens", "gentlemen")] == ["1", "0", "0", "0"]
    # the K♥ to Cela and the penalty tricks: a whole deal, nothing to say; one screen
    # from the grid to the save button
    page.locator('.pick:has(input[name=king_of_hearts][value="2"])').click()
    page.locator('.pick:has(input[name=positions-0][value="2"])').click()
    page.locator('.pick:has(input[name=positions-1][value="0"])').click()
    page.wait_for_load_state("networkidle")
    assert page.locator(".robber [data-live-check] .error").count() == 0
    # the last check's answer is in (its 250 ms wait can outlast the network's quiet on a
    # loaded machine): every count adds up, so no progress line stands between
    expect(page.locator(".robber [data-progress]")).to_be_hidden()
    top = grid.bounding_box()["y"]
    save = page.get_by_role("button", name="Save deal 7").bounding_box()
    assert save["y"] + save["height"] - top <= 740
    # the K♥ to Darek, who took no heart: the server's cross-check says so under the grid
    # before Save, and the message and Save are on the screen together
    page.locator('.pick:has(input[name=king_of_hearts][value="3"])').click()
    said = page.locator(".robber [data-live-check] .error").first
    said.wait_for()
    save_button = page.get_by_role("button", name="Save deal 7")
    save_button.scroll_into_view_if_needed()
    box, save = said.bounding_box(), save_button.bounding_box()
    assert save["y"] + save["height"] - box["y"] <= page.viewport_size["height"]
    with page.expect_navigation():
        page.get_by_role("button", name="Save deal 7").click()
    message = "The player who took the king of hearts has at least one here."
    cell = page.locator(".robber #rc-hearts-3")
    assert "invalid" in cell.get_attribute("class")
    beside = page.locator(".robber tr:has(#rg-p3) + tr.rerr")  # the row under Darek's
    assert [line for line in beside.inner_text().splitlines() if line] == [f"Hearts ♥: {message}",
                                                f"Kings and jacks: {message}"]
    summary = page.locator(".error-summary")
    assert summary.locator("a[href='#rc-hearts-3']").inner_text() == "Darek · Hearts ♥"
    assert message in summary.inner_text()
    assert summary.bounding_box()["y"] < grid.bounding_box()["y"]
    shot(page, "robber")
    summary.locator("a[href='#rc-hearts-3']").click()  # the picker opens on that cell
    assert page.locator(".dock-title").inner_text() == "Darek Hearts ♥"
    # what was entered stays; Darek took a heart and a jack after all, from Cela
    assert page.locator(".robber #rc-hearts-3 .rcell").inner_text() == "0"
    for part, value in (("hearts", 7), ("gentlemen", 4)):
        page.locator(f".robber #rc-{part}-2 .rcell").click()
        page.locator(f".dock-part[data-part={part}] button[data-v='{value}']").click()
        assert page.locator(f".robber #rc-{part}-3 .rcell").inner_text() == "1"  # it follows
    with page.expect_navigation():
        page.get_by_role("button", name="Save deal 7").click()
    assert deal_number(page) == "8"
    assert page.locator(".flash").first.inner_text() == \
        "Deal 7: Ala −335, Bolek −190, Cela −555, Darek −220"
    fits(page)


def test_the_king_of_hearts_is_one_tap(phone):
    page = phone
    page.game(4)
    targets_are_big(page, ".one-tap .pick")
    with page.expect_navigation():
        page.get_by_role("button", name="Cela").click()
    assert deal_number(page) == "6"
    assert page.locator(".flash").first.inner_text() == "Deal 5: Ala 0, Bolek 0, Cela −150, Darek 0"


def test_positions_trumps_and_the_loteryjka_are_one_tap_each(phone):
    page = phone
    page.game(5)
    targets_are_big(page, "fieldset.seats .pick")
    page.locator('.pick:has(input[name=positions-0][value="1"])').click()
    page.locator('.pick:has(input[name=positions-1][value="3"])').click()
    with page.expect_navigation():
        page.get_by_role("button", name="Save deal 6").click()
    page.game(7)
    for seat, value in enumerate([5, 3, 3]):
        tap(page, f"tricks-{seat}", value)
    targets_are_big(page, "fieldset.suit .pick")
    fits(page)
    with page.expect_navigation():  # the trump suit, after the counts, saves the deal
        page.locator("button[name=trump][value=S]").click()
    assert deal_number(page) == "9"
    page.game(11)
    targets_are_big(page, "fieldset.seats .pick")
    page.locator('.pick:has(input[name=order-0][value="2"])').click()
    page.locator('.pick:has(input[name=order-1][value="0"])').click()
    with page.expect_navigation():
        page.get_by_role("button", name="Save deal 12").click()
    assert "Game over" in page.locator("#final").inner_text()


CARDS_2 = {f"{r}H": s for r, s in zip(["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q",
                                       "K", "A"], [0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 3])}


def test_a_correction_from_a_tap_anywhere_on_its_row_is_prefilled(phone):
    page = phone
    page.game(11, by_card={2: CARDS_2})
    rows = page.locator("table.scores tbody tr")
    assert rows.count() == 11
    for i in range(11):
        assert rows.nth(i).bounding_box()["height"] >= 44
    # every kind opens with what was stored
    expect = {
        1: lambda: [chosen(page, f"tricks-{s}") for s in range(4)] == ["4", "3", "2", "4"],
        2: lambda: (page.locator("fieldset.cards").is_visible()
                    and chosen(page, "card-7H") == "1" and chosen(page, "card-AH") == "3"),
        5: lambda: "chosen" in page.locator("button[name=king_of_hearts][value='2']")
                                    .get_attribute("class"),
        6: lambda: [chosen(page, "positions-0"), chosen(page, "positions-1")] == ["1", "3"],
        7: lambda: ([page.locator(f"#rc-hearts-{s} .rcell").inner_text() for s in range(4)]
                    == ["3", "2", "6", "2"] and chosen(page, "king_of_hearts") == "2"
                    and chosen(page, "positions-0") == "2"),
        8: lambda: ("chosen" in page.locator("button[name=trump][value=S]").get_attribute("class")
                    and chosen(page, "tricks-0") == "5"),
    }
    for number, check in expect.items():
        page.goto(f"{page.base}/games/{page.gid}")
        row = page.locator("table.scores tbody tr").nth(number - 1)
        row.scroll_into_view_if_needed()
        box = row.locator("td").first.bounding_box()  # a player's points, not the link text:
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_url(f"**/deals/{number}/edit")
        assert "Correcting a recorded deal" in page.inner_text("main")
        assert check(), f"deal {number} is not prefilled"
        fits(page)
        if number == 7:
            shot(page, "correction-robber")
    # correct deal 1: the last count follows the others
    page.goto(f"{page.base}/games/{page.gid}/deals/1/edit")
    tap(page, "tricks-0", 2)
    assert chosen(page, "tricks-3") == "6"
    shot(page, "correction")
    with page.expect_navigation():
        page.get_by_role("button", name="Save the correction").click()
    assert page.locator(".flash").first.inner_text() == (
        "Deal 1 corrected; the totals after it were recomputed. "
        "Deal 1: Ala −40, Bolek −60, Cela −40, Darek −120")
    assert "saved" in page.locator("table.scores tbody tr").first.get_attribute("class")


def test_undo_asks_first_and_is_gone_once_the_game_is_over(phone):
    page = phone
    page.game(3)
    undo = page.locator("details.undo")
    assert undo.locator("summary").inner_text() == "Undo deal 3"
    assert not page.get_by_role("button", name="Yes, take it back").is_visible()
    undo.locator("summary").click()  # the first tap only asks
    assert deal_number(page) == "4"
    assert "Take back deal 3? It stays in the history." in undo.inner_text()
    targets_are_big(page, "details.undo summary, details.undo button")
    fits(page)
    with page.expect_navigation():
        page.get_by_role("button", name="Yes, take it back").click()
    assert deal_number(page) == "3"
    assert "taken back" in page.locator(".flash").first.inner_text()
    # a finished game: no undo, corrections still
    page.game(12)
    assert "Game over" in page.locator("#final").inner_text()
    assert page.locator("details.undo").count() == 0
    assert page.locator("form[action$='/undo']").count() == 0
    assert page.locator("table.scores tbody a.row-link").count() == 12
    fits(page)
    shot(page, "final-table")


def test_tybet_pickers_and_one_tap_last_trick(phone, server_app):
    page = phone
    app, base = server_app
    with app.app_context():
        gid = service.create_game(get_db(), "tybet-21", PLAYERS, 0, given={"target": "21"})
    at_table(page, app, base, gid, "?mode=detail")  # aces, honours and the last trick
    targets_are_big(page, "fieldset.quick .qv")
    targets_are_big(page, "details.decl summary, button[name=last]")
    page.locator("details.decl").nth(1).locator("summary").click()
    targets_are_big(page, "details.decl .ranks .pick, details.decl select")
    page.locator("details.specials summary").click()
    targets_are_big(page, "details.specials .pick")
    fits(page)
    page.locator(".pick:has(input[name=trio-1][value='A'])").click()
    tap(page, "aces-1", 3)
    assert chosen(page, "aces-0") == "1"
    tap(page, "honours-0", 12)
    assert chosen(page, "honours-1") == "8"
    shot(page, "tybet")
    with page.expect_navigation():
        page.locator("button[name=last][value='0']").click()
    # pair 0: 1 ace + 4 (12 honours) + last 1 = 6; pair 1: trio 3 + 3 aces + 2 (8 honours) = 8
    assert page.locator(".flash").first.inner_text() == "Deal 1: Ala and Cela 6, Bolek and Darek 8"
    assert page.locator("table.scores tbody tr.saved").count() == 1
    fits(page)


def test_robber_and_undo_work_without_javascript(open_phone, server_app):
    app, base = server_app
    with app.app_context():
        db = get_db()
        gid = service.create_game(db, "standard-4", PLAYERS, 0)
        for number, raw in enumerate(RESULTS[:6], start=1):
            service.enter_deal(db, service.load(db, gid), number, raw, number)
    page = open_phone(width=320, height=740, js=False)
    at_table(page, app, base, gid)
    assert page.locator(".robber select").first.is_visible()  # a select per cell
    assert not page.locator(".robber .dock").is_visible()
    fits(page)
    robber = RESULTS[6]
    for part in ("tricks", "hearts", "queens", "gentlemen"):
        for seat in range(3):  # the server fills the last one
            page.select_option(f"select[name={part}-{seat}]", str(robber[part][seat]))
    page.locator('input[name=king_of_hearts][value="2"]').check()
    page.locator('input[name=positions-0][value="2"]').check()
    page.locator('input[name=positions-1][value="0"]').check()
    page.get_by_role("button", name="Save deal 7").click()
    assert deal_number(page) == "8"
    page.locator("details.undo summary").click()
    page.get_by_role("button", name="Yes, take it back").click()
    assert deal_number(page) == "7"


def test_tybet_works_without_javascript(open_phone, server_app):
    app, base = server_app
    with app.app_context():
        gid = service.create_game(get_db(), "tybet-21", PLAYERS, 0, given={"target": "21"})
    page = open_phone(width=320, height=740, js=False)
    at_table(page, app, base, gid, "?mode=detail")
    fits(page)
    page.locator('input[name=aces-0][value="2"]').check()  # the server fills the other pair
    page.locator('input[name=honours-0][value="9"]').check()
    page.locator("details.specials summary").click()
    assert page.locator('input[name=special][value=""]').is_checked()
    page.locator("button[name=last][value='1']").click()
    assert deal_number(page) == "2"
    # pair 0: 2 aces + 3 (9 honours) = 5; pair 1: 2 aces + 3 (11 honours) + last 1 = 6
    assert page.locator(".flash").first.inner_text() == "Deal 1: Ala and Cela 5, Bolek and Darek 6"


def test_an_empty_save_says_so_beside_the_button(phone):
    """Issue 35: Save tapped on an empty deal scrolled to the first row and said nothing.
    Now the form is not sent and "Not saved." with what is missing stands beside the
    button; it goes once the deal is filled in."""
    page = phone
    page.game(1)  # deal 2: hearts, a count per player
    said = page.locator("form.deal-form [data-save-msg]")
    assert not said.is_visible()
    page.evaluate("window.addEventListener('submit', e => { window.sent = !e.defaultPrevented })")
    page.get_by_role("button", name="Save deal 2").click()
    page.wait_for_function("window.sent !== undefined")
    assert page.evaluate("window.sent") is False and deal_number(page) == "2"
    assert said.is_visible() and said.inner_text() == \
        "Not saved. Missing hearts: Ala, Bolek, Cela, Darek — 13 hearts left"
    gap, bottom = page.evaluate("""() => {
        const said = document.querySelector("form.deal-form [data-save-msg]");
        return [said.nextElementSibling.getBoundingClientRect().top
                - said.getBoundingClientRect().bottom, said.getBoundingClientRect().bottom]; }""")
    assert page.locator("form.deal-form [data-save-msg] + button").inner_text() == "Save deal 2"
    assert 0 <= gap < 40 and bottom <= 740  # right above the button, on the screen
    page.screenshot(path=str(ARTIFACTS / f"entry-empty-save-{page.width}.png"))  # the screen
    for seat, n in enumerate([5, 4, 4]):
        tap(page, f"hearts-{seat}", n)
    assert not said.is_visible()
    fits(page)
