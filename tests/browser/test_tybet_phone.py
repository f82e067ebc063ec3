"""Two Tybet deals entered on a phone-sized Chromium."""
from .conftest import shot
from .test_phone_game import chosen, tap

PLAYERS = ["Ala", "Bolek", "Cela", "Darek"]


def test_two_tybet_deals_on_a_phone(page):
    page.goto(page.base + "/games/new")
    page.select_option("select[name=ruleset]", "tybet-21")
    for i, name in enumerate(PLAYERS):
        page.fill(f"input[name=player_{i}]", name)
    page.locator('input[name=first_dealer][value="1"]').check()
    page.select_option("select[name=target]", "21")
    page.get_by_role("button", name="Start the game").click()
    assert page.locator(".deal-no").first.inner_text() == "Deal 1 · to 21"
    assert page.locator(".who").inner_text().split() == ["Deals", "Bolek", "Leads", "Cela"]

    # deal 1: Cela declares a cezar of spades with K and D, Darek a trio of 7s
    page.locator("details.decl").nth(2).locator("summary").click()
    page.select_option("select[name=cezar-2-S]", "2")
    page.locator("details.decl").nth(3).locator("summary").click()
    page.locator('input[name=trio-3][value="7"]').check()
    tap(page, "card_points-0", 8)  # the quick entry: each pair's card points, one tap
    assert chosen(page, "card_points-1") == "3"  # filled to make 11
    shot(page, "13-tybet-deal-1")
    with page.expect_navigation():
        page.get_by_role("button", name="Save deal 1").click()
    chips = page.locator(".chips li").all_inner_texts()
    # pair 0: cezar 5 + 8 card points = 13; pair 1: trio of 7s 3 + 3 card points = 6
    assert chips[0].split("\n")[:3] == ["Ala and Cela", "13", "8 to 21"]
    assert chips[1].split("\n")[:3] == ["Bolek and Darek", "6", "15 to 21"]
    assert "Deal 1: Ala and Cela 13, Bolek and Darek 6" in page.locator(".flash").first.inner_text()
    assert page.locator("table.scores tbody tr.saved").count() == 1

    # deal 2, entered in detail: Darek's perła gives his pair every ace and honour; one
    # honour less is refused
    assert page.locator(".deal-no").first.inner_text() == "Deal 2 · to 21"
    with page.expect_navigation():
        page.get_by_role("link", name="Enter aces, honours and the last trick").click()
    page.locator("details.specials summary").click()
    page.locator(".specials .pick:has(input[value='perla:s3'])").click()
    assert chosen(page, "aces-1") == "4" and chosen(page, "honours-1") == "20"
    assert "suggest" in page.locator("button[name=last][value='1']").get_attribute("class")
    tap(page, "honours-1", 19)
    assert chosen(page, "honours-0") == "1"
    with page.expect_navigation():
        page.locator("button[name=last][value='1']").click()
    assert "the other pair took nothing" in page.locator(".error").first.inner_text()
    assert chosen(page, "honours-1") == "19" and chosen(page, "special") == "perla:s3"
    tap(page, "honours-1", 20)
    assert chosen(page, "honours-0") == "0"
    with page.expect_navigation():
        page.locator("button[name=last][value='1']").click()
    chips = page.locator(".chips li").all_inner_texts()
    assert chips[1].split("\n")[:2] == ["Bolek and Darek", "21"]  # 6 + 11 + 4
    assert "Game over" in page.locator("#final").inner_text()
    assert "Bolek and Darek wins!" in page.locator("#final").inner_text()
    shot(page, "14-tybet-won")
