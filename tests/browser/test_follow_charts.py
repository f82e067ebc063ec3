"""A phone following the table shows the running-totals chart once the first deal comes
from another phone, as the phone that saved it does (without scrolling down to it)."""
from scorekeeper.domain import service
from scorekeeper.families.kierki.rules.examples import SAMPLE_GAME_4
from scorekeeper.web.db import get_db

from .conftest import at_table, expect


def test_the_first_deal_from_another_phone_brings_the_charts(open_phone, server_app):
    app, base = server_app
    with app.app_context():
        gid = service.create_game(get_db(), "standard-4", ["Ala", "Bolek", "Cela", "Darek"], 0)
    follower = open_phone(width=360, height=740)
    at_table(follower, app, base, gid, "")
    assert follower.locator('[data-live="charts"]').count() == 0
    with app.app_context():
        db = get_db()
        service.enter_deal(db, service.load(db, gid), 1, SAMPLE_GAME_4[0], 1)
    expect(follower.locator('[data-live="deal"]')).to_have_attribute(
        "data-deal-number", "2", timeout=15_000)
    charts = follower.locator('[data-live="charts"]')
    expect(charts).to_have_count(1, timeout=10_000)
    assert charts.locator("svg").count() >= 1
    assert "Running totals" in charts.inner_text()
    assert follower.evaluate("window.scrollY") == 0  # not scrolled there
    assert follower.errors == []
