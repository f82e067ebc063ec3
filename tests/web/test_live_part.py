"""The game's live fragment (``GET /games/<id>?part=live``): what every phone of a table
fetches after a deal, tagged by the game's version (304 while unchanged), carrying every
score row."""
import re

from ..fixtures import authorize, join, new_game, post_deal, results_for, state


def _results():
    from scorekeeper.families.kierki.rules import get_ruleset
    return results_for(get_ruleset("standard-4"))


def rows_in(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<tr data-deal="(\d+)"', html)]


def test_every_phone_of_the_table_gets_the_new_rows_and_a_304(app):
    first = app.test_client()
    gid = new_game(first)
    second = join(app.test_client(), app, gid)
    res = _results()
    post_deal(first, gid, 1, state(app, gid).version, res[0])
    first.get(f"/games/{gid}")  # the phones show version 2
    post_deal(first, gid, 2, state(app, gid).version, res[1])
    v = state(app, gid).version
    url = f"/games/{gid}?part=live&since={v - 1}"
    a, b = first.get(url), second.get(url)
    assert a.status_code == b.status_code == 200
    assert rows_in(a.text) == rows_in(b.text) == [1, 2]
    assert 'data-rows="2"' in a.text and "data-partial" not in a.text
    assert '<html' not in a.text and "Join code" not in a.text  # no page around it
    again = second.get(url, headers={"If-None-Match": b.headers["ETag"]})
    assert again.status_code == 304


def test_a_correction_is_carried_to_the_phone(app):
    client = app.test_client()
    gid = new_game(client)
    res = _results()
    for n in (1, 2, 3):
        post_deal(client, gid, n, state(app, gid).version, res[n - 1])
    v = state(app, gid).version
    client.get(f"/games/{gid}")  # the phone's page at version v
    before = client.get(f"/games/{gid}?part=live&since={v}")
    corrected = {k: list(x)[1:] + list(x)[:1] if isinstance(x, list) else x
                 for k, x in res[1].items()}  # the same counts, by other players
    assert corrected != res[1]
    r = post_deal(client, gid, 2, v, corrected)  # deal 2 corrected
    assert r.status_code == 302
    client.get(f"/games/{gid}")  # the save's message, shown once
    html = client.get(f"/games/{gid}?part=live&since={v}",
                      headers={"If-None-Match": before.headers["ETag"]}).text
    assert rows_in(html) == [1, 2, 3] and html != before.text
    assert 'data-partial' not in html


def test_a_readers_fragment_has_no_form_and_a_finished_game_its_final_card(app):
    client = app.test_client()
    gid = new_game(client)
    authorize(client, app, gid)
    reader = app.test_client()
    html = reader.get(f"/games/{gid}?part=live").text
    assert re.search(r'data-frame="r--', html)  # a reader's fragment: no form
    assert "<form" not in html
    res = _results()
    for n in range(1, 13):  # the game to its end
        post_deal(client, gid, n, state(app, gid).version, res[n - 1])
    html = client.get(f"/games/{gid}?part=live").text  # the game over: still a fragment
    assert 'id="final"' in html and 'data-live="signatures"' in html
    assert "Rematch" in html and "data-whole" not in html


def test_a_closed_tournament_sends_the_phone_to_the_page(app):
    """Closing a tournament freezes its games: every phone's forms go, which only the
    whole page shows (the fragment says so)."""
    from scorekeeper.domain import tournaments
    from scorekeeper.web.db import get_db
    from tests.midround import mid_round
    with app.app_context():
        t = mid_round(get_db(), 8)
        gid = t.rounds[0][1].game_id
        tournaments.close(get_db(), t.id, confirm_unsigned=True)
    html = app.test_client().get(f"/games/{gid}?part=live").text
    assert "data-whole" in html and "<form" not in html and 'data-frame="r--closed"' in html


def test_the_partnership_game_has_its_fragment_too(app, client):
    """Tybet's page (its own template) makes the same fragment: the new row, its totals
    with what each pair still needs, the next deal's card; the detail mode's card when the
    page was opened in it."""
    from tests.families.tybet.test_flow import new_tybet, post
    gid = new_tybet(client)
    post(client, gid, 1, 1, **{"cezar-0-H": "1", "aces-0": "3", "honours-0": "11",
                               "last": "0"})
    client.get(f"/games/{gid}?mode=detail")  # the phones show version 2
    post(client, gid, 2, 2, **{"aces-1": "4", "honours-1": "20", "last": "1",
                               "special": "kalanda:p1"})
    html = client.get(f"/games/{gid}?mode=detail&part=live&since=2").text
    assert rows_in(html) == [1, 2] and 'data-rows="2"' in html
    assert "2 to 21" in html and "Deal 3 · to 21" in html  # totals; the next deal's card
    assert 'id="f-last"' in html  # the detail mode's one-tap last trick
    assert "<html" not in html and 'data-frame="w-table-"' in html


def test_a_forged_since_gets_every_row_not_an_error(app):
    """``since`` is a phone's version: digits Python cannot read or would read otherwise
    (a stranger's) are no version, and the fragment carries every row."""
    client = app.test_client()
    gid = new_game(client)
    post_deal(client, gid, 1, state(app, gid).version, _results()[0])
    for forged in ("9" * 5000, "²", "٣", "-1"):
        answer = client.get(f"/games/{gid}?part=live&since={forged}")
        assert answer.status_code == 200 and rows_in(answer.text) == [1]
