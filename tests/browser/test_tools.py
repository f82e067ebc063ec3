"""Table tools on a phone: a robber trick with the K♥, and a whole loteryjka."""
import random

import pytest

from scorekeeper.domain import service
from scorekeeper.families.kierki.rules import get_ruleset, legal_cards, new_board, pass_turn, play
from scorekeeper.web.db import get_db
from tests.fixtures import results_for

from .conftest import FLAGS, at_table, shot  # noqa: F401
from .test_board_place import tap

PLAYERS = ["Ala", "Bożena", "Czesław", "Żaneta"]


def test_robber_trick_with_the_king_of_hearts(page):
    page.goto(page.base + "/tools/trick")
    page.select_option("select[name=contract]", "robber")
    page.select_option("select[name=leader]", "1")
    page.fill("input[name=trick]", "7")
    page.get_by_role("button", name="Apply").click()
    for code in ("QH", "KH", "JH", "2H"):
        link = page.locator(f".picker a[href*='{code}']").last
        link.scroll_into_view_if_needed()
        tap(page, link)  # answered in place (static/taps.js), no new page
    verdict = page.locator(".verdict").inner_text()
    assert "Player 3 takes the trick with K♥." in verdict
    for line in ("The trick: −20", "Hearts (4): −80", "Queens (1): −60",
                 "Kings and jacks (2): −60", "The king of hearts: −150", "Trick 7: −75",
                 "Together: −445"):
        assert line in verdict
    assert page.locator(".cardbtn.used").count() == 0  # the picker is gone once full
    shot(page, "10-trick-robber")


def _game_at_loteryjka(app):
    with app.app_context():
        db = get_db()
        gid = service.create_game(db, "standard-4", PLAYERS, 2)
        for number, raw in enumerate(results_for(get_ruleset("standard-4"))[:11], start=1):
            service.enter_deal(db, service.load(db, gid), number, raw, number)
    return gid


def test_whole_loteryjka_to_the_recorded_result(page, server_app):
    app, base = server_app
    gid = _game_at_loteryjka(app)
    rs = get_ruleset("standard-4")
    contract = rs.contract("loteryjka")
    deck = list(rs.table.deck)
    random.Random(7).shuffle(deck)
    hands = [deck[i::4] for i in range(4)]
    at_table(page, app, base, gid)
    page.get_by_role("link", name="Loteryjka board").click()
    with app.app_context():
        leader = service.load(get_db(), gid).state.deals[11].leader
    model = new_board(contract, leader, hands=hands)
    first_shot = True
    while not model.over:
        seat = model.turn
        assert page.locator(".turn").inner_text().startswith(PLAYERS[seat])
        options = legal_cards(model)
        if options:
            card = min(options, key=lambda c: (c.suit, c.value))
            link = page.locator(f".board a.cardbtn[href*='play={card}']")
            link.scroll_into_view_if_needed()
            tap(page, link)
            model = play(model, card)
        else:
            link = page.get_by_role("link", name=f"{PLAYERS[seat]} passes")
            link.scroll_into_view_if_needed()
            tap(page, link)
            model = pass_turn(model)
        if first_shot and len(model.history) == 12:
            shot(page, "11-loteryjka-board")
            first_shot = False
    order = [PLAYERS[s] for s in model.finished[:2]]
    assert f"Finishing order: {order[0]}, {order[1]}" in page.inner_text("main")
    shot(page, "12-loteryjka-over")
    page.get_by_role("button", name="Use this result for deal 12").click()
    assert "Game over" in page.locator("#final").inner_text()
    with app.app_context():
        game = service.load(get_db(), gid)
    assert game.state.scored[11].result["order"] == list(model.finished[:2])
    assert game.state.total_sum == 0


@pytest.mark.parametrize("width", [320, 360])
def test_the_trick_verdict_scrolls_into_view(open_phone, server, width):
    """Issue 25, item 13: the player taps the trick's cards in the picker, deep under the
    set-up; the last card's verdict is on the screen, whole, without scrolling back up."""
    page = open_phone(width=width, height=740)
    page.goto(server + "/tools/trick?contract=robber&leader=1&trick=13")
    for code in ("QH", "KH", "JH"):
        link = page.locator(f".picker a[href*='{code}']").last
        link.scroll_into_view_if_needed()
        place = page.locator(".picker").bounding_box()["y"]
        tap(page, link)
        # the picker stays where it was on the screen (the page scrolls by what grew
        # above it: the buttons to take the card back, the lead's ruling)
        assert abs(page.locator(".picker").bounding_box()["y"] - place) < 1
    assert page.evaluate("window.scrollY") > 0  # the set-up is above, out of sight
    link = page.locator(".picker a[href*='2H']").last
    link.scroll_into_view_if_needed()
    tap(page, link)
    verdict = page.locator(".verdict")
    assert "Player 3 takes the trick with K♥." in verdict.inner_text()
    box = verdict.bounding_box()
    assert box["y"] >= -0.5 and box["y"] + box["height"] <= 740.5, box
    if width == 360:
        shot(page, "trick-verdict-360")
