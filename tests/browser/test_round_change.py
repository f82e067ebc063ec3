"""Round change (issue 34, item 2): when the director draws the next round, a phone still on
its finished table's game page learns it live and shows where each of the table's players
sits now, one tap to the new table's game; the phone that came from its player's page has
that player marked and first; each phone asks once, after a random part of the spread the
round event says (two seconds here). Screenshots land in tests/artifacts/."""
import pytest

from scorekeeper.domain import tournaments
from scorekeeper.web import live
from scorekeeper.web.db import get_db

from .conftest import at_table, expect, shot
from .test_tournament import PHONE, WAIT_MS, load, play

EIGHT = ["Ala", "Bożena", "Czesław", "Darek", "Ewa", "Franciszek", "Gosia", "Henryk"]


@pytest.fixture
def club(devices, server_app):
    app, base = server_app
    app.config.update(LIVE_POLL_SECONDS=0.25)

    def phone(locale="en-GB"):
        return devices.phone(width=PHONE["width"], height=PHONE["height"], locale=locale,
                             timeout=WAIT_MS)

    with app.app_context():
        tid = tournaments.create(get_db(), "Piątek", EIGHT, 2, {"4": "standard-4"},
                                 seed="piatek").id
    return app, base, phone, tid


def not_reloaded(page) -> bool:
    return page.evaluate("window.roundMark") == "kept"


def test_a_phone_at_round_ones_table_follows_to_round_twos(club, monkeypatch):
    app, base, phone, tid = club
    monkeypatch.setattr(live, "ROUND_SPREAD_PER_TABLE", 1.0)  # two tables: "spread": 2.0
    t = load(app, tid)
    first = t.rounds[0][0]
    asked: list[str] = []  # each phone's fetches of where its table's players sit now
    # a phone of the table (joined by its card's code), on the game page
    table_phone = phone()
    at_table(table_phone, app, base, first.game_id, then="")
    table_phone.goto(f"{base}/games/{first.game_id}")
    # a player's phone that came by the player's page (the last seat of table 1)
    who = first.seats[-1]
    player_phone = phone(locale="pl-PL")
    player_phone.goto(f"{base}/tournaments/{tid}/players/{who}")
    player_phone.locator(".tour-next a.button").click()
    for page in (table_phone, player_phone):
        page.on("request", lambda r, page=page: asked.append(page) if r.url.endswith(
            "/next-round") else None)
        expect(page.locator(".live")).to_have_attribute("data-stream", "open")
        assert page.locator('[data-live="next-round"] li').count() == 0
        page.evaluate("window.roundMark = 'kept'")

    for i, table in enumerate(t.rounds[0]):  # every table plays its game to the end
        play(app, base, table, loser_seat=i, last=True)
    expect(table_phone.locator("#final")).to_be_visible()
    with app.app_context():
        tournaments.draw_next(get_db(), tid, 2)  # the director draws round 2
    t = load(app, tid)

    # the table's phone shows every player's new table and seat, without a reload
    moved = table_phone.locator('[data-live="next-round"]')
    expect(moved.locator("h2")).to_have_text("Round 2 is drawn: your new tables")
    expect(moved.locator("li")).to_have_count(4)
    for seat, number in enumerate(first.seats):
        new_table, new_seat = t.seat_of(number, 2)
        item = moved.locator(f'li[data-player="{number}"]')
        expect(item).to_have_text(
            f"{t.name_of(number)}: table {new_table.number}, seat {new_seat + 1}")
        assert item.locator("a").get_attribute("href") == f"/games/{new_table.game_id}"
    assert not_reloaded(table_phone)
    assert table_phone.errors == []
    shot(table_phone, "round-change-game-360")

    # the player's phone (in Polish) has its player first and marked
    mine = player_phone.locator('[data-live="next-round"] li').first
    expect(mine).to_have_class("mine")
    new_table, new_seat = t.seat_of(who, 2)
    expect(mine).to_have_text(f"{t.name_of(who)}: stół {new_table.number}, miejsce {new_seat + 1}")
    assert not_reloaded(player_phone)
    shot(player_phone, "round-change-game-360-pl")
    assert asked.count(table_phone) == asked.count(player_phone) == 1

    # one tap: the new table's game page, round 2
    mine.locator("a").click()
    expect(player_phone.locator(".tour-of")).to_have_text(
        f"Piątek: runda 2, stół {new_table.number}")
    expect(player_phone.locator(".live")).to_have_attribute("data-stream", "open")
    assert player_phone.locator('[data-live="next-round"] li').count() == 0

    # a phone that opens the finished game's page after the draw sees the same at once
    late = phone()
    late.goto(f"{base}/games/{first.game_id}")
    expect(late.locator('[data-live="next-round"] li')).to_have_count(4)
    assert player_phone.errors == [] and late.errors == []
