"""Refusals that point: a deal that cannot be saved says which input and which players
("Brakuje lew: Celina, Darek — zostało 6 lew"), beside the Save button and at the input,
and marks those inputs (aria-invalid), in Polish and English, with JavaScript (the page
keeps the deal from being sent) and without it (the server's answer): a count deal, a
trump deal, the robber, the penalty tricks, the loteryjka's places and Tybet."""
import pytest

from scorekeeper.domain import service
from scorekeeper.families.kierki.rules.examples import SAMPLE_GAME_4
from scorekeeper.web.db import get_db

from .conftest import at_table, expect

PLAYERS = ["Ala", "Bolek", "Celina", "Darek"]
WORDS = {
    "pl-PL": {"trump": "Nie zapisano. Brakuje lew: Celina, Darek — zostało 6 lew",
              "robber": "Nie zapisano. Brakuje lew: Ala, Bolek, Celina, Darek — zostało 13 lew",
              "positions": "Nie zapisano. Ostatnia lewa (13.): Wybierz, kto wziął lewę 13.",
              "tybet": "Nie zapisano. Brakuje punktów z kart: Ala i Celina, Bolek i Darek"
                       " — zostało 11 punktów"},
    "en-GB": {"trump": "Not saved. Missing tricks: Celina, Darek — 6 tricks left",
              "robber": "Not saved. Missing tricks: Ala, Bolek, Celina, Darek — 13 tricks left",
              "positions": "Not saved. Last trick (13): Choose who took trick 13.",
              "tybet": "Not saved. Missing card points: Ala and Celina, Bolek and Darek"
                       " — 11 card points left"},
}
INVALID = "(name) => [...document.querySelectorAll(`[name^='${name}-'][aria-invalid=true]`)]" \
          ".map((el) => el.name).filter((n, i, all) => all.indexOf(n) === i)"


def _game(app, deals: int, ruleset: str = "standard-4") -> str:
    with app.app_context():
        db = get_db()
        gid = service.create_game(db, ruleset, PLAYERS, 0)
        for number, raw in enumerate(SAMPLE_GAME_4[:deals], start=1):
            service.enter_deal(db, service.load(db, gid), number, raw, number)
    return gid


def _said(page) -> str:
    return page.locator("[data-save-msg]").inner_text().strip()


@pytest.mark.parametrize("locale", ["pl-PL", "en-GB"])
@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
def test_a_trump_deal_with_two_counts_names_the_players_left_blank(open_phone, server_app,
                                                                  locale, js):
    app, base = server_app
    gid = _game(app, 7)
    page = open_phone(locale=locale, js=js)
    at_table(page, app, base, gid, "")
    for seat, value in ((0, 4), (1, 3)):
        page.locator(f'.qv:has(input[name="tricks-{seat}"][value="{value}"])').click()
    page.locator('button[name=trump][value="S"]').click()
    page.wait_for_load_state()
    assert page.locator('[data-live="deal"]').get_attribute("data-deal-number") == "8"
    expect(page.locator("[data-save-msg]")).to_be_visible()
    assert _said(page) == WORDS[locale]["trump"]
    assert page.locator("#f-tricks .missing").inner_text() == WORDS[locale]["trump"].split(". ", 1)[1]
    assert page.evaluate(INVALID, "tricks") == ["tricks-2", "tricks-3"]
    if js:  # Celina's count given: Darek's fills itself, nothing is marked any more
        page.locator('.qv:has(input[name="tricks-2"][value="3"])').click()
        assert page.evaluate(INVALID, "tricks") == []
        expect(page.locator("[data-save-msg]")).to_be_hidden()
        expect(page.locator("#f-tricks .missing")).to_be_hidden()


@pytest.mark.parametrize("locale", ["pl-PL", "en-GB"])
@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
def test_the_robber_saved_empty_names_its_counts_and_players(open_phone, server_app,
                                                             locale, js):
    app, base = server_app
    gid = _game(app, 6)
    page = open_phone(locale=locale, js=js)
    at_table(page, app, base, gid, "")
    page.locator("form.deal-form button.primary[type=submit]").click()
    page.wait_for_load_state()
    expect(page.locator("[data-save-msg]")).to_be_visible()
    assert _said(page) == WORDS[locale]["robber"]
    assert page.evaluate(INVALID, "tricks") == [f"tricks-{s}" for s in range(4)]
    if not js:  # the list above the form: one line per count, naming its players
        summary = page.locator(".error-summary li").all_inner_texts()
        assert summary[0] == WORDS[locale]["robber"].split(". ", 1)[1]
        assert len(summary) == 4 + 1 + 2  # four counts, the K♥, two penalty tricks
        assert page.evaluate(INVALID, "positions") == ["positions-0", "positions-1"]


@pytest.mark.parametrize("locale", ["pl-PL", "en-GB"])
def test_the_penalty_tricks_and_the_loteryjka_name_the_row_left_blank(open_phone, server_app,
                                                                      locale):
    app, base = server_app
    gid = _game(app, 5)
    page = open_phone(locale=locale)
    at_table(page, app, base, gid, "")
    page.locator('.pick:has(input[name="positions-0"][value="1"])').click()
    with page.expect_navigation():
        page.locator("form.deal-form button.primary[type=submit]").click()
    assert _said(page) == WORDS[locale]["positions"]
    assert page.evaluate(INVALID, "positions") == ["positions-1"]
    lottery = _game(app, 11)
    at_table(page, app, base, lottery, "")
    page.locator('.pick:has(input[name="order-0"][value="1"])').click()
    with page.expect_navigation():
        page.locator("form.deal-form button.primary[type=submit]").click()
    assert page.evaluate(INVALID, "order") == ["order-1"]
    assert "2" in _said(page)  # "… place 2 …"


@pytest.mark.parametrize("locale", ["pl-PL", "en-GB"])
@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
def test_a_tybet_deal_without_its_card_points_names_the_pairs(open_phone, server_app,
                                                             locale, js):
    app, base = server_app
    with app.app_context():
        gid = service.create_game(get_db(), "tybet-21", PLAYERS, 0)
    page = open_phone(locale=locale, js=js)
    at_table(page, app, base, gid, "")
    page.locator("form.deal-form button.primary[type=submit]").click()
    page.wait_for_load_state()
    expect(page.locator("[data-save-msg]")).to_be_visible()
    assert _said(page) == WORDS[locale]["tybet"]
    assert page.evaluate(INVALID, "card_points") == ["card_points-0", "card_points-1"]
