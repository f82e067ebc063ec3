"""A night closed knowingly, in a real browser at 360 px: the director's page lists the
tables not signed, each with "sign as the director" beside it; one is signed there; the
first press on "Close the tournament" answers the tables named and a second step; the
second closes it, and the results page says closed with the tables unsigned (Polish and
English). Screenshots in /tmp/shots44club/ (or tests/artifacts/)."""
import os
import re
from pathlib import Path

import pytest

from scorekeeper.domain import tournaments
from scorekeeper.web.db import get_db
from tests.store.test_tournaments import finish

from .conftest import expect

SIXTEEN = ["Ala", "Bożena", "Czesław", "Darek", "Ewa", "Franciszek", "Gosia", "Henryk",
           "Iza", "Jacek", "Katarzyna Wiśniewska-Nowakowska", "Łucja", "Mirek", "Nina",
           "Olek", "Paweł"]
SHOTS = Path(os.environ.get("KIERKI_SHOTS", "/tmp/shots44club"))
WORDS = {
    "en-GB": {"make": "Draw round 1", "sign": "Sign as the director", "close": "Close the tournament",
              "anyway": "Close anyway, with 3 tables unsigned",
              "named": "not signed yet: round 1 table 2; round 1 table 3; round 1 table 4",
              "after": "closed with 3 tables unsigned"},
    "pl-PL": {"make": "Losuj pierwszą rundę", "sign": "Podpisz jako sędzia", "close": "Zamknij turniej",
              "anyway": "Zamknij mimo to, z 3 stołami bez podpisu",
              "named": "bez podpisu są jeszcze: runda 1 stół 2; runda 1 stół 3; runda 1 stół 4",
              "after": "zamknięty z 3 stołami bez podpisu"},
}


def screenshot(what, name):
    """A page's first screen, or one part of it (a locator), to look at."""
    try:
        SHOTS.mkdir(parents=True, exist_ok=True)
    except OSError:
        return
    what.screenshot(path=str(SHOTS / f"{name}.png"))


@pytest.mark.parametrize("locale", ["en-GB", "pl-PL"])
def test_the_director_closes_with_unsigned_tables_in_two_steps(devices, server_app, locale):
    app, base = server_app
    words = WORDS[locale]
    page = devices.phone(width=360, height=740, locale=locale, timeout=15_000)
    page.goto(base + "/tournaments/new")
    page.fill("input[name=name]", "Czwartek")
    page.fill("textarea[name=players]", "\n".join(SIXTEEN))
    page.fill("input[name=rounds]", "1")
    page.select_option("select[name=ruleset_4]", "standard-4")
    page.get_by_role("button", name=words["make"]).click()
    page.wait_for_url(re.compile(r"/tournaments/[\w-]+/director$"))
    tid = page.url.split("/")[-2]
    with app.app_context():
        for i, table in enumerate(tournaments.load(get_db(), tid).rounds[0]):
            finish(get_db(), table.game_id, loser_seat=i % 4)
    page.reload()
    unsigned = page.locator("#unsigned")
    expect(unsigned.get_by_role("button", name=re.compile(words["sign"]))).to_have_count(4)
    # beside its table: the button sits on the table's line
    first = unsigned.locator("li").first
    expect(first).to_contain_text("1")
    first.get_by_role("button").click()
    expect(page.locator("#unsigned li")).to_have_count(3)
    screenshot(page.locator("#unsigned"), f"director-unsigned-{locale[:2]}")

    page.locator("#close").get_by_role("button", name=words["close"]).click()
    step = page.locator("#close")
    expect(step).to_contain_text(words["named"])
    anyway = step.get_by_role("button", name=words["anyway"])
    expect(anyway).to_be_visible()
    assert anyway.bounding_box()["width"] <= 360
    screenshot(step, f"director-close-step2-{locale[:2]}")
    with app.app_context():
        assert not tournaments.load(get_db(), tid).closed
    anyway.click()
    page.wait_for_url(re.compile(rf"/tournaments/{tid}(#.*)?$"))
    expect(page.locator("main")).to_contain_text(words["after"])
    screenshot(page, f"tournament-closed-360-{locale[:2]}")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    with app.app_context():
        t = tournaments.load(get_db(), tid)
        assert t.closed and len(t.unsigned) == 3
    assert page.errors == []


CONTRAST = """el => {
  const rgb = s => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => {
    const f = c => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  let back = el;
  while (back && getComputedStyle(back).backgroundColor.match(/rgba\\(.*, 0\\)|transparent/))
    back = back.parentElement;
  const a = lum(rgb(getComputedStyle(el).color));
  const b = lum(rgb(getComputedStyle(back || document.body).backgroundColor));
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_not_signed_reads_at_enough_contrast(devices, server_app, scheme):
    """The tournament page's "bez podpisu" beside a finished table and the standings' "*"
    at WCAG AA (4.5:1) against their card, in light and dark."""
    app, base = server_app
    with app.app_context():
        t = tournaments.create(get_db(), "Czwartek", SIXTEEN, 1, {"4": "standard-4"})
        finish(get_db(), t.rounds[0][0].game_id)
    page = devices.phone(width=360, height=740, locale="pl-PL", scheme=scheme)
    page.goto(f"{base}/tournaments/{t.id}")
    unsigned = page.locator(".tour-tables .meta.unsigned")
    expect(unsigned).to_have_count(1)
    expect(unsigned).to_contain_text("bez podpisu")
    for element in (unsigned, page.locator(".tour-standings .provisional").first):
        assert element.evaluate(CONTRAST) >= 4.5
