"""The round change (issue 34, item 2), in process: when the director draws a round, every
finished table's game says where each of its own players sits now, in the reader's
language, the same on the page and in the part its phones fetch (made for the whole round
at once); a name fixed after the draw shows; the stream tells its phones over how long to
spread their fetches, scaled to the round's tables; a stranger's odd request gets a plain
answer. No test asserts how fast anything was (bench/next_round.py measures)."""
import json
import re
from html import unescape

import pytest

from scorekeeper.domain import people, tournaments
from scorekeeper.web import live
from scorekeeper.web.db import get_db
from tests.fixtures import new_game
from tests.store.test_tournaments import finish
from tests.web.test_events import live_app, open_stream

TWELVE = ["Ala", "Bolek", "Cela", "Darek", "Ewa", "Franek", "Gosia", "Henio", "Iza", "Jacek",
          "Kasia", "Łucja"]
PL = {"Accept-Language": "pl"}


@pytest.fixture
def app(tmp_path):
    return live_app(tmp_path)


def night(app, rounds=2) -> tournaments.Tournament:
    """Twelve players at three tables, round 1 played to its end (not drawn further)."""
    with app.app_context():
        t = tournaments.create(get_db(), "Czwartek", TWELVE, rounds, {"4": "standard-4"},
                               seed="klub")
        for i, table in enumerate(t.rounds[0]):
            finish(get_db(), table.game_id, loser_seat=i)
    return t


def draw(app, t, number) -> tournaments.Tournament:
    with app.app_context():
        return tournaments.draw_next(get_db(), t.id, number)


def items(html: str) -> list[tuple[str, str | None, str]]:
    """Each player line of a next-round part: (entry number, link, text)."""
    found = re.findall(r'<li data-player="(\d+)">(.*?)</li>', html, re.DOTALL)
    return [(n, next(iter(re.findall(r'href="([^"]+)"', body)), None),
             unescape(re.sub(r"<[^>]+>", "", body)).strip()) for n, body in found]


def test_every_table_hears_where_its_own_players_sit_in_either_language(app, client):
    t = draw(app, night(app), 2)
    for table in t.rounds[0]:
        english = client.get(f"/games/{table.game_id}/next-round")
        polish = client.get(f"/games/{table.game_id}/next-round", headers=PL)
        assert english.status_code == polish.status_code == 200
        assert "Round 2 is drawn: your new tables" in english.text
        assert "Runda 2 rozlosowana" in polish.text
        want_en, want_pl = [], []
        for number in table.seats:  # in the old table's seat order
            new, seat = t.seat_of(number, 2)
            link = f"/games/{new.game_id}"
            want_en.append((str(number), link,
                            f"{t.name_of(number)}: table {new.number}, seat {seat + 1}"))
            want_pl.append((str(number), link,
                            f"{t.name_of(number)}: stół {new.number}, miejsce {seat + 1}"))
        assert items(english.text) == want_en
        assert items(polish.text) == want_pl
        # the game's page, opened after the draw, shows the very same part
        assert english.text in client.get(f"/games/{table.game_id}").text
        assert polish.text in client.get(f"/games/{table.game_id}", headers=PL).text
    # round 2's games have nothing to say yet: the empty slot live.js fills
    later = client.get(f"/games/{t.rounds[1][0].game_id}/next-round")
    assert later.status_code == 200 and items(later.text) == []
    assert 'data-live="next-round" hidden' in later.text


def test_before_the_draw_the_part_is_an_empty_slot_and_after_it_the_round(app, client):
    t = night(app)
    gid = t.rounds[0][0].game_id
    assert items(client.get(f"/games/{gid}/next-round").text) == []
    t = draw(app, t, 2)
    assert len(items(client.get(f"/games/{gid}/next-round").text)) == 4


def test_a_name_fixed_after_the_draw_shows_at_once(app, client):
    t = draw(app, night(app), 2)
    table = t.rounds[0][1]
    number = table.seats[2]
    before = items(client.get(f"/games/{table.game_id}/next-round").text)
    assert before[2][2].startswith(f"{t.name_of(number)}: table ")
    with app.app_context():
        pid = tournaments.load(get_db(), t.id).players[number].person_id
        people.rename(get_db(), pid, "Bożydar")
    after = items(client.get(f"/games/{table.game_id}/next-round").text)
    assert after[2][2].startswith("Bożydar: table ")
    assert [i[1] for i in after] == [i[1] for i in before]  # the same new tables
    assert "Bożydar: table " in client.get(f"/games/{table.game_id}").text


def test_a_game_two_rounds_back_says_where_its_players_sit_in_the_latest_round(app, client):
    t = draw(app, night(app, rounds=3), 2)
    with app.app_context():
        for i, table in enumerate(t.rounds[1]):
            finish(get_db(), table.game_id, loser_seat=i)
    t = draw(app, t, 3)
    for old in (t.rounds[0][0], t.rounds[1][2]):
        html = client.get(f"/games/{old.game_id}/next-round").text
        assert 'data-round="3"' in html and "Round 3 is drawn" in html
        assert [i[1] for i in items(html)] == \
            [f"/games/{t.seat_of(n, 3)[0].game_id}" for n in old.seats]


def test_the_round_event_says_over_how_long_to_spread_the_fetches(app, client, monkeypatch):
    """The spread grows with the round's tables (a second at a club's few, 30 s at 1,000):
    here three tables at a second each, both to a stream open when the round is drawn and
    to one opened later (a server started again: every phone reconnects together)."""
    assert (live.round_spread(3), live.round_spread(1000)) == (1.0, 30.0)
    monkeypatch.setattr(live, "ROUND_SPREAD_PER_TABLE", 1.0)
    t = night(app)
    gid = t.rounds[0][0].game_id
    stream = open_stream(client, gid)
    try:
        assert stream.next_event()["event"] == "version"
        draw(app, t, 2)
        event = stream.next_event()
        assert event["event"] == "round"
        assert json.loads(event["data"]) == {"round": 2, "spread": 3.0}
    finally:
        stream.close()
    later = open_stream(client, gid)
    try:
        event = later.next_event()
        if event["event"] == "version":
            event = later.next_event()
        assert json.loads(event["data"]) == {"round": 2, "spread": 3.0}
    finally:
        later.close()


@pytest.mark.parametrize("language", ["xx-YY", "*", "pl;q=abc, en;q=0", "ą" * 2000,
                                      "en-GB," * 500])
def test_a_forged_language_gets_a_plain_answer(app, client, language):
    t = draw(app, night(app), 2)
    r = client.get(f"/games/{t.rounds[0][0].game_id}/next-round",
                   headers={"Accept-Language": language})
    assert r.status_code == 200
    assert "is drawn: your new tables" in r.text or "rozlosowana" in r.text


@pytest.mark.parametrize("gid", ["nope", "x" * 5000, "%00", "..%2F..%2Fetc"])
def test_a_game_that_is_not_a_tournaments_has_no_next_round(client, gid):
    assert client.get(f"/games/{gid}/next-round").status_code == 404
    assert client.get(f"/games/{new_game(client)}/next-round").status_code == 404


def test_an_odd_request_gets_the_same_part_or_a_plain_refusal(app, client):
    """Whatever else a request brings (a query, a forged cookie, a long ETag), the part
    is the round's, the same bytes; a body past the limit is refused; the ETag gives 304."""
    t = draw(app, night(app), 2)
    url = f"/games/{t.rounds[0][0].game_id}/next-round"
    first = client.get(url)
    assert first.status_code == 200 and len(items(first.text)) == 4
    stranger = app.test_client()
    for r in (client.get(url + "?" + "round=9&" * 5000),
              stranger.get(url, headers={"Cookie": "session=" + "x" * 4000}),
              stranger.get(url, headers={"If-None-Match": '"' + "y" * 10000 + '"'})):
        assert r.status_code == 200 and r.data == first.data
    assert client.get(url, data=b"x" * (app.config["MAX_CONTENT_LENGTH"] + 1)).status_code == 413
    assert client.get(url, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
