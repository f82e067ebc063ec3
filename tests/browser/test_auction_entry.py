"""A trump auction entered on a phone (360 and 320 px): typed bids in bidding order, the
phone keyboard's Enter moving on instead of sending a suit, the dealer's answer, the tricks
and the trump suit as the last tap."""
import copy

import pytest

from scorekeeper.domain import service, variants
from scorekeeper.families.kierki.rules import get_ruleset
from scorekeeper.families.kierki.rules.examples import SAMPLE_GAME_4
from scorekeeper.web.db import get_db

from .conftest import at_table

# North, East, South, West; East deals first, so North deals deal 8.
PLAYERS = ["Norbert", "Edyta", "Stefan", "Wanda"]


@pytest.fixture(params=[360, 320], ids=lambda w: f"{w}px")
def phone(request, open_phone, server_app):
    """An auction game seven deals in, open on a touch phone of the given width."""
    app, base = server_app
    with app.app_context():
        db = get_db()
        data = copy.deepcopy(get_ruleset("standard-4").data)
        for key in ("id", "source", "summary", "notes", "expected_sum"):
            data.pop(key)
        data["name"] = {"en": "Auction", "pl": "Licytacja"}
        data["contracts"]["trumps"]["auction"] = True
        gid = service.create_game(db, variants.create(db, data), PLAYERS, 1)
        for number, raw in enumerate(SAMPLE_GAME_4[:7], start=1):
            service.enter_deal(db, service.load(db, gid), number, raw, number)
    page = open_phone(width=request.param, height=740)
    at_table(page, app, base, gid)
    page.app, page.gid = app, gid
    yield page
    assert not page.errors


def test_the_worked_example_typed_and_tapped(phone):
    page = phone
    assert page.locator("[data-live=deal]").get_attribute("data-deal-number") == "8"
    ids = page.locator(".bid-row input").evaluate_all("els => els.map(e => e.id)")
    assert ids == ["bids-1", "bids-2", "bids-3"]  # from Norbert's left; he deals
    width, inner = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width <= inner
    page.locator("#bids-3").fill("125")
    page.locator("#bids-3").press("Enter")  # the keyboard's "next": no suit is sent
    assert page.evaluate("document.activeElement.name") == "sold"
    assert page.locator("[data-live=deal]").get_attribute("data-deal-number") == "8"
    page.locator(".pick:has(input[name=sold][value=yes])").click()
    for seat, count in enumerate([2, 1, 4]):
        page.locator(f'.qv:has(input[name="tricks-{seat}"][value="{count}"])').click()
    assert page.locator('input[name="tricks-3"]:checked').get_attribute("value") == "6"
    with page.expect_navigation():
        page.locator("button[name=trump][value=H]").click()
    assert "Deal 8: Norbert +175, Edyta +25, Stefan +100, Wanda +25" in page.content()
    with page.app.app_context():
        game = service.load(get_db(), page.gid)
    assert game.stored.results[7] == {"bids": [None, None, None, 125], "sold": True,
                                      "tricks": [2, 1, 4, 6], "trump": "H"}
    ids = page.locator(".bid-row input").evaluate_all("els => els.map(e => e.id)")
    assert ids == ["bids-2", "bids-3", "bids-0"]  # deal 9: Edyta deals


def test_a_tie_sold_is_refused_and_what_was_typed_stays(phone):
    page = phone
    page.locator("#bids-1").fill("100")
    page.locator("#bids-1").press("Enter")
    assert page.evaluate("document.activeElement.id") == "bids-2"
    page.locator("#bids-3").fill("100")
    page.locator(".pick:has(input[name=sold][value=yes])").click()
    for seat, count in enumerate([2, 1, 4]):
        page.locator(f'.qv:has(input[name="tricks-{seat}"][value="{count}"])').click()
    with page.expect_navigation():
        page.locator("button[name=trump][value=S]").click()
    assert page.locator("#f-bids .error").inner_text().startswith(
        "Two players cannot both hold the highest bid")
    assert page.locator("#bids-1").input_value() == "100"
    assert page.locator("#bids-3").input_value() == "100"
    assert page.locator("input[name=sold][value=yes]").is_checked()
    with page.app.app_context():
        assert len(service.load(get_db(), page.gid).stored.results) == 7
