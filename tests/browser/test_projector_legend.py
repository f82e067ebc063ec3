"""A projector that explains itself, at 1920×1080: a legend under the round's tables for
"✎", "✓" and "*", each table named "Stół N", the standings' type sized so that a field
of 16 fills the screen as one of 40 does (every line whole), and its lists reachable by
keyboard (focusable, named). Screenshots in /tmp/shots44club/."""
import os
from pathlib import Path

import pytest

from scorekeeper.web.db import get_db
from tests.midround import mid_round

from .conftest import expect

SHOTS = Path(os.environ.get("KIERKI_SHOTS", "/tmp/shots44club"))
LEGEND = {"pl-PL": ["zakończona, czeka na podpisy", "zakończona i podpisana",
                    "wynik tymczasowy: stół gracza nie jest jeszcze podpisany"],
          "en-GB": ["finished, waiting for signatures", "finished and signed",
                    "provisional: a table of the player's is not signed yet"]}
TABLE = {"pl-PL": "Stół", "en-GB": "Table"}

FILLED = """list => {
  const items = [...list.children].filter(i => !i.hidden);
  const box = list.getBoundingClientRect();
  const bottom = Math.max(...items.map(i => i.getBoundingClientRect().bottom));
  const whole = items.every(i => { const r = i.getBoundingClientRect();
    return r.bottom <= box.bottom + 1 && r.right <= box.right + 1; });
  return {shown: items.length, whole, filled: (bottom - box.top) / box.height,
          size: parseFloat(getComputedStyle(items[0]).fontSize)};
}"""


@pytest.mark.parametrize("locale", ["pl-PL", "en-GB"])
@pytest.mark.parametrize("players", [16, 40])
def test_the_projector_explains_itself_and_fills_the_screen(devices, server_app, players,
                                                             locale):
    app, base = server_app
    with app.app_context():
        t = mid_round(get_db(), players)
    page = devices.projector(locale=locale)
    page.goto(f"{base}/tournaments/{t.id}/screen")
    legend = page.locator(".screen-legend")
    for words in LEGEND[locale]:
        expect(legend).to_contain_text(words)
    assert legend.bounding_box()["y"] + legend.bounding_box()["height"] <= 1080
    cells = page.locator(".screen-grid .tno")
    expect(cells.first).to_have_text(f"{TABLE[locale]} 1")
    rows = page.locator("[data-pages=standings]")
    page.wait_for_function("document.querySelector('[data-pages=standings]').dataset.shown")
    seen = rows.evaluate(FILLED)
    assert seen["shown"] == players and seen["whole"]
    assert seen["filled"] >= 0.85, seen  # no empty lower half
    if players == 16:  # larger type than the 40's: the screen is filled by size, not lines
        assert seen["size"] >= 1080 * 0.036, seen
    for region in (rows, page.locator("[data-pages=tables]")):
        assert region.get_attribute("tabindex") == "0" and region.get_attribute("aria-label")
    try:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"projector-{players}-{locale[:2]}.png"))
    except OSError:
        pass
    assert page.errors == []
