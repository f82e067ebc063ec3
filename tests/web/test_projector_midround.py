"""The projector mid-round (issue 35): the standings count each table still playing as if
its game ended now, marked in play (provisional); each table says which deal it plays,
in words, in both languages."""
import re
from fractions import Fraction

import pytest

from scorekeeper.domain import night, service, tournaments
from scorekeeper.web.db import get_db
from tests.midround import mid_round


def live_part(client, tid, lang="en"):
    client.set_cookie("lang", lang)
    r = client.get(f"/tournaments/{tid}/screen?part=live")
    assert r.status_code == 200
    return r.get_data(as_text=True)


def rows(html):
    """(name, points text, in play) of each standings line, in order."""
    return [(name, pts, "data-in-play" in attrs) for attrs, name, pts in re.findall(
        r'<li([^>]*)><span class="num rank">\d+</span><span class="sname">([^<]+)</span>'
        r'<span class="num pts">(?:<span class="live-dot"[^>]*>●</span> )?([^<]+)</span>',
        html)]


@pytest.mark.parametrize("scoring", ["points", "places"])
def test_mid_round_standings_count_the_deals_so_far_marked_in_play(app, client, scoring):
    with app.app_context():
        t = mid_round(get_db(), 16, scoring)
        finished = [tb for tb in t.rounds[0] if tb.finished]
        playing = [tb for tb in t.rounds[0] if not tb.finished and tb.deals]
        assert len(finished) == 1 and len(playing) == 3
        # the stored standings see one finished game; the projector's see four
        assert sum(s.games for s in t.overall) == 4
        live = night.live_standings(get_db(), t)
        assert sum(s.games for s in live.rows) == 16 and live.tables == 3
        assert live.in_play == {p for tb in playing for p in tb.seats}
        # a table still playing counts as the ranking would count its game ending now
        for tb in playing:
            totals = service.load(get_db(), tb.game_id).state.totals
            by_player = {s.player: s for s in live.rows}
            if scoring == "points":
                assert [by_player[p].points for p in tb.seats] == list(totals)
            else:
                assert sum(by_player[p].points for p in tb.seats) == 6  # 3+2+1+0
            assert sum(by_player[p].games for p in tb.seats) == 4
    html = live_part(client, t.id)
    lines = rows(html)
    assert len(lines) == 16
    in_play = [line for line in lines if line[2]]
    assert len(in_play) == 12
    assert any(pts.strip() not in ("0", "0.0") for _, pts, _ in in_play)  # not all zero
    assert "in play: 3 tables still playing count their deals so far" in html
    # each table's deal in words: the one with six deals entered plays its seventh
    six = next(tb for tb in t.rounds[0] if tb.deals == 6)
    assert re.search(rf'data-table="{six.number}"[^>]*>.*?deal 7 of 12', html, re.DOTALL)
    assert "/12" not in html
    polish = live_part(client, t.id, "pl")
    assert "w trakcie: 3 stoły jeszcze grają" in polish and "rozdanie 7 z 12" in polish


def test_without_a_deal_in_play_the_standings_are_the_stored_ones(app, client):
    with app.app_context():
        t = tournaments.create(get_db(), "Czwartek", [f"Gracz {i}" for i in range(8)], 2,
                               {"4": "standard-4"}, seed="x")
        live = night.live_standings(get_db(), t)
        assert live.rows == t.overall and not live.in_play and live.tables == 0
    html = live_part(client, t.id)
    assert "in play" not in html and "data-in-play" not in html
    assert "deal 1 of 12" in html


def test_the_standings_now_rank_a_running_game_as_an_ended_one(app):
    with app.app_context():
        t = mid_round(get_db(), 8)
        table = next(tb for tb in t.rounds[0] if not tb.finished)
        made_up = {table.game_id: [30, -10, 0, -20]}
        rows = {s.player: s for s in t.standings_now(made_up)}
        assert [rows[p].points for p in table.seats] == [Fraction(30), -10, 0, -20]
        assert rows[table.seats[0]].wins == 1 and rows[table.seats[0]].games == 1


def test_the_live_part_holds_one_page_and_every_player_is_on_one(app, client):
    """A large field comes a page at a time (issue 34): the live part holds the page's
    lines and its counter; the pages from line 0 on, each from where the last ended, hold
    every player once, best first; a page without script turns by refreshing itself."""
    with app.app_context():
        t = mid_round(get_db(), 100)
        order = [t.name_of(s.player) for s in night.live_standings(get_db(), t).rows]
    seen = []
    for start, label in ((0, "1/3"), (40, "2/3"), (80, "3/3")):
        html = client.get(f"/tournaments/{t.id}/screen?part=live&sf={start}").text
        lines = rows(html)
        assert len(lines) == min(40, 100 - start)
        assert re.search(rf'data-page-no>{label}</span>', html)
        seen += [name for name, _, _ in lines]
    assert seen == order  # everyone once, in the standings' order
    # past the last line: the first page again; a screen that holds fewer lines asks so
    assert rows(client.get(f"/tournaments/{t.id}/screen?part=live&sf=100").text) == \
        rows(client.get(f"/tournaments/{t.id}/screen?part=live").text)
    short = client.get(f"/tournaments/{t.id}/screen?part=live&sf=30&rows=25").text
    assert [n for n, _, _ in rows(short)] == order[30:55]
    # the tables: 25 of them, 45 cells a page by default, fewer when asked
    html = client.get(f"/tournaments/{t.id}/screen?part=live&tf=10&cells=10").text
    assert re.findall(r'data-table="(\d+)"', html) == [str(n) for n in range(11, 21)]
    assert re.search(r'data-page-no>2/3</span>', html)
    # the whole page: the first page, and without script a refresh to the next
    page = client.get(f"/tournaments/{t.id}/screen").text
    assert len(rows(page)) == 40
    assert re.search(r'<noscript><meta http-equiv="refresh" content="10; url=[^"]*sf=40', page)
    # bad paging in the address: the layout's first page, not an error
    odd = client.get(f"/tournaments/{t.id}/screen?part=live&sf=-3&rows=x&cells=0")
    assert odd.status_code == 200 and len(rows(odd.text)) == 40
    for forged in ("9" * 5000, "²", "٣"):  # a stranger's digits Python cannot or would read
        odd = client.get(f"/tournaments/{t.id}/screen?part=live&sf={forged}&tf={forged}")
        assert odd.status_code == 200 and len(rows(odd.text)) == 40


def test_the_totals_kept_with_each_game_follow_every_deal_write(app):
    from scorekeeper.storage import game_reads
    with app.app_context():
        db = get_db()
        t = mid_round(db, 8)
        table = next(tb for tb in t.rounds[0] if not tb.finished and tb.deals)

        def kept():
            return game_reads.running_totals(db, [table.game_id])[table.game_id]

        game = service.load(db, table.game_id)
        assert kept() == game.state.totals
        first = game.state.scored[0]
        fixed = {**first.result, "tricks": first.result["tricks"][::-1]}
        game = service.enter_deal(db, game, 1, fixed, game.version)
        assert kept() == game.state.totals == service.load(db, game.id).state.totals
        game = service.undo_last(db, game, game.version)
        assert kept() == service.load(db, game.id).state.totals
        live = night.live_standings(db, tournaments.load(db, t.id))
        # a game no deal write has touched since totals were kept counts from its deals
        db.conn.execute("update games set totals = null")
        assert night.live_standings(db, tournaments.load(db, t.id)) == live
