"""The robber's grid fills the way it reads: column by column (every player's tricks, then
every player's hearts, …; each column adds up to its total, so its last cell fills itself),
under whole headings, the active cell moving on to the next empty one, also after a
correction; each cell is named with its value. The loteryjka board keeps whose turn it is
in sight wherever on the board a card is tapped."""
import pytest

from scorekeeper.domain import service
from scorekeeper.families.kierki.rules.examples import SAMPLE_GAME_4
from scorekeeper.web.db import get_db

from .conftest import at_table, expect, shot

PLAYERS = ["Ala", "Bolek", "Cela", "Darek"]
PARTS = ["tricks", "hearts", "queens", "gentlemen"]


def _game(app, deals: int) -> str:
    with app.app_context():
        db = get_db()
        gid = service.create_game(db, "standard-4", PLAYERS, 0)
        for number, raw in enumerate(SAMPLE_GAME_4[:deals], start=1):
            service.enter_deal(db, service.load(db, gid), number, raw, number)
    return gid


def _active(page) -> tuple[str, int]:
    cell = page.locator(".robber td.rc.active")
    return cell.get_attribute("data-part"), int(cell.get_attribute("id").rsplit("-", 1)[1])


def _pick(page, value: int) -> None:
    part, _seat = _active(page)
    page.locator(f".dock-part[data-part={part}] button[data-v='{value}']").click()


@pytest.mark.parametrize("width", [360, 320])
def test_the_robber_fills_column_by_column_under_whole_headings(open_phone, server_app, width):
    app, base = server_app
    gid = _game(app, 6)
    page = open_phone(width=width, height=740 if width == 360 else 640)
    at_table(page, app, base, gid, "")
    assert page.locator(".rgrid thead th").all_inner_texts() == \
        ["Tricks", "Hearts ♥", "Queens", "Kings and jacks"]
    raw = SAMPLE_GAME_4[6]
    order = []
    while page.locator(".robber .dock").is_visible():
        part, seat = _active(page)
        order.append((part, seat))
        _pick(page, raw[part][seat])
    # down each column; its fourth cell filled itself
    assert order == [(part, seat) for part in PARTS for seat in range(3)]
    for part in PARTS:
        assert [page.locator(f"#rb-{part}-{s}").inner_text() for s in range(4)] == \
            [str(v) for v in raw[part]]
    # a cell is named by its player, its heading and its value
    assert page.get_by_role("button", name="Bolek Hearts ♥ 2").count() == 1
    shot(page, f"robber-filled-{width}")


def test_a_correction_moves_on_to_the_next_empty_cell(open_phone, server_app):
    app, base = server_app
    gid = _game(app, 6)
    page = open_phone(width=360, height=740)
    at_table(page, app, base, gid, "")
    for value in (4, 3, 5):  # the tricks column; Darek's 1 fills itself
        _pick(page, value)
    assert _active(page) == ("hearts", 0)
    page.locator("#rb-tricks-1").click()  # Bolek's tricks corrected: 2, not 3
    assert _active(page) == ("tricks", 1)
    _pick(page, 2)
    assert page.locator("#rb-tricks-3").inner_text() == "2"  # the last follows
    assert _active(page) == ("hearts", 0)  # on to the first empty cell, not Cela's tricks
    expect(page.locator(".robber td.rc.active")).to_be_in_viewport()


def test_the_loteryjka_turn_stays_in_sight(open_phone, server_app):
    app, base = server_app
    gid = _game(app, 11)
    page = open_phone(width=360, height=740, locale="pl-PL")
    at_table(page, app, base, gid, "/loteryjka")
    for _ in range(3):  # a card far down the board, tapped with the board scrolled to it
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        swaps = page.locator("[data-taps]").get_attribute("data-swaps") or "0"
        page.locator(".board a.cardbtn.legal").last.click()
        expect(page.locator("[data-taps]")).not_to_have_attribute("data-swaps", swaps)
        turn = page.locator(".lot-state .turn")
        expect(turn).to_be_in_viewport(ratio=1)
        assert turn.inner_text().startswith("Teraz gra")
