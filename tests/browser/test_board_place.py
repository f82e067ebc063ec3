"""The loteryjka board keeps its place (issue 25, item 7): a player deep in the page taps
card after card, and the page does not move; the four suit rows and the hand fit one
360 × 740 screen. Without JavaScript the taps still play, and the page comes back to the
board instead of its top."""
import random

import pytest

from scorekeeper.domain import service
from scorekeeper.families.kierki.rules import get_ruleset, legal_cards, new_board, pass_turn, play
from scorekeeper.web.db import get_db
from tests.fixtures import results_for

from .conftest import ARTIFACTS, at_table

PLAYERS = ["Małgorzata", "Przemysław", "Grażyna", "Bożena"]
SCREEN = 740


def game_at_loteryjka(app) -> str:
    with app.app_context():
        db = get_db()
        gid = service.create_game(db, "standard-4", PLAYERS, 2)
        for number, raw in enumerate(results_for(get_ruleset("standard-4"))[:11], start=1):
            service.enter_deal(db, service.load(db, gid), number, raw, number)
    return gid


def dealt(app, gid):
    """The board's model for the loteryjka of ``gid``, and four hands of a shuffled deck."""
    rs = get_ruleset("standard-4")
    deck = list(rs.table.deck)
    random.Random(25).shuffle(deck)
    hands = [deck[i::4] for i in range(4)]
    with app.app_context():
        leader = service.load(get_db(), gid).state.deals[11].leader
    return new_board(rs.contract("loteryjka"), leader, hands=hands), hands


def swaps(page) -> str:
    return page.evaluate("document.querySelector('[data-taps]').dataset.swaps || '0'")


def tap(page, locator):
    """Tap a link of the board where it is on the screen (a finger does not scroll the page
    first, as locator.click() would), and wait until taps.js has put the answer in place."""
    before = swaps(page)
    box = locator.bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= SCREEN, "the link is out of sight"
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_function(
        "n => (document.querySelector('[data-taps]').dataset.swaps || '0') !== n", arg=before)


def inside_screen(page, selector) -> list[str]:
    """The elements of ``selector`` that are not wholly inside the viewport."""
    out = []
    for i, box in enumerate(page.locator(selector).evaluate_all(
            "els => els.map(e => { const r = e.getBoundingClientRect();"
            " return [r.top, r.bottom]; })")):
        top, bottom = box
        if top < -0.5 or bottom > SCREEN + 0.5:  # (sub-pixel rounding)
            out.append(f"{selector}[{i}] {top:.0f}–{bottom:.0f}")
    return out


def next_move(page, model, me, hands):
    """The link a player taps for the next move (a card of the model's choice, or the pass),
    from the hand row when it is the player's own turn there, else from the board."""
    options = legal_cards(model, hands[model.turn])
    if not options:
        return page.get_by_role("link", name=f"{PLAYERS[model.turn]} passes"), None
    card = min(options, key=lambda c: (c.suit, c.value))
    where = ".hand-row" if model.turn == me else ".board"
    return page.locator(f"{where} a.cardbtn[href*='play={card}']"), card


@pytest.mark.parametrize("width", [320, 360])
def test_taps_deep_in_the_page_keep_its_place(open_phone, server_app, width):
    app, base = server_app
    gid = game_at_loteryjka(app)
    model, hands = dealt(app, gid)
    me = 0
    hand = ",".join(map(str, hands[me]))
    page = open_phone(width=width, height=SCREEN)
    at_table(page, app, base, gid, f"/loteryjka?me={me}&hand={hand}")
    assert page.locator(".hand-row .cardbtn").count() == 13  # the whole hand, folded up
    assert not page.locator("details.hand-edit").evaluate("d => d.open")
    # the player scrolls down to the board: its status line at the top of the screen
    page.evaluate("window.scrollTo(0, document.querySelector('.lot-state')"
                  ".getBoundingClientRect().top + window.scrollY - 4)")
    place = page.evaluate("window.scrollY")
    assert place > 100  # deep in the page: the title and the players are out of sight
    assert inside_screen(page, ".board .lot-cards") == []
    assert inside_screen(page, ".lot-hand") == []
    played_from_hand = 0
    for step in range(16):
        link, card = next_move(page, model, me, hands)
        if card is not None and model.turn == me:
            played_from_hand += 1
        tap(page, link)
        model = play(model, card) if card is not None else pass_turn(model)
        assert page.evaluate("window.scrollY") == place, f"moved after tap {step + 1}"
        assert page.locator(".board").get_attribute("data-moves") == str(step + 1)
        assert page.locator(".turn").inner_text().startswith(PLAYERS[model.turn])
        # the four suit rows and the hand, all on the one screen
        assert page.locator(".board .lot-cards").count() == 4
        assert inside_screen(page, ".board .lot-cards") == []
        assert inside_screen(page, ".lot-hand") == []
    assert played_from_hand >= 1  # a card was played from the hand row too
    left = 13 - sum(1 for c in hands[me] if c in model.laid)
    assert page.locator(".hand-row .cardbtn").count() == left
    if width == 360:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "loteryjka-board-360.png"))
    # the address followed the taps: a reload shows the same board
    page.reload()
    assert page.locator(".board").get_attribute("data-moves") == "16"
    assert page.locator(".turn").inner_text().startswith(PLAYERS[model.turn])


def test_the_finishing_order_comes_into_view(open_phone, server_app):
    """The last tap brings the result above the board: it is scrolled to, in sight."""
    app, base = server_app
    gid = game_at_loteryjka(app)
    model, hands = dealt(app, gid)
    # the loteryjka played to its last few moves (the address holds them), then tapped out
    moves = []
    while len(moves) < 40:
        options = legal_cards(model, hands[model.turn])
        card = min(options, key=lambda c: (c.suit, c.value)) if options else None
        model = play(model, card) if card else pass_turn(model)
        moves.append(str(card) if card else "-")
    page = open_phone(height=SCREEN)
    at_table(page, app, base, gid, f"/loteryjka?moves={','.join(moves)}")
    # the board at the top of the screen, under whose turn it is (which stays there)
    page.evaluate("window.scrollTo(0, document.querySelector('.lot-state')"
                  ".getBoundingClientRect().top + window.scrollY)")
    while not model.over:
        link, card = next_move(page, model, None, hands)
        tap(page, link)
        model = play(model, card) if card is not None else pass_turn(model)
    first, second = (PLAYERS[s] for s in model.finished[:2])
    verdict = page.locator(".verdict")
    assert f"Finishing order: {first}, {second}" in verdict.inner_text()
    assert inside_screen(page, ".verdict") == []
    page.get_by_role("button", name="Use this result for deal 12").click()
    assert "Game over" in page.locator("#final").inner_text()


def test_without_javascript_a_tap_plays_and_comes_back_to_the_board(open_phone, server_app):
    app, base = server_app
    gid = game_at_loteryjka(app)
    model, hands = dealt(app, gid)
    page = open_phone(height=SCREEN, js=False)
    at_table(page, app, base, gid, "/loteryjka")
    for step in range(3):
        link, card = next_move(page, model, None, hands)
        with page.expect_navigation():
            link.click()
        model = play(model, card) if card is not None else pass_turn(model)
        assert page.locator(".board").get_attribute("data-moves") == str(step + 1)
        assert page.locator(".turn").inner_text().startswith(PLAYERS[model.turn])
        assert page.evaluate("window.scrollY") > 100  # not the top: the board
        assert inside_screen(page, ".turn") == []
        assert inside_screen(page, ".board .lot-cards") == []
