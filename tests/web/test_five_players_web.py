"""Five players through the pages: the new-game form, the deal forms, the rules page,
the sheets and the export and import of a finished game."""
import csv
import io
import json
import re
from html import unescape

from tests.fixtures import errors_in, new_game, post_deal, state
from tests.web.test_five_players_api import FIVE, GAME_5, TOTALS_5
from tests.web.test_sheets import pages, pdf_text, poppler  # noqa: F401 (a fixture)


def play_through_forms(app, client, upto=None):
    gid = new_game(client, "zdanowicz-5", FIVE, dealer="0")
    for number, raw in enumerate(GAME_5[:upto], start=1):
        r = post_deal(client, gid, number, state(app, gid).version, raw)
        assert r.status_code == 302, (number, errors_in(r.text))
    return gid


def test_the_new_game_form_has_a_fifth_seat_and_a_fifth_dealer(client):
    page = client.get("/games/new").text
    assert 'name="player_4"' in page and "Player 5" in page
    assert re.search(r'data-seat="4"[^>]*>\s*<input[^>]*name="first_dealer"[^>]*value="4"', page)
    listed = json.loads(unescape(re.search(r'data-rulesets="([^"]*)"', page).group(1)))
    assert listed["zdanowicz-5"]["players"] == 5 and listed["standard-4"]["players"] == 4
    assert "Fill in as many names as the rules have players" in page


def test_a_five_player_game_started_and_a_deal_entered_through_the_forms(app, client):
    r = client.post("/games/new", data={"ruleset": "zdanowicz-5", "first_dealer": "4",
                                        **{f"player_{i}": p for i, p in enumerate(FIVE)}})
    assert r.status_code == 302, errors_in(r.text)
    gid = r.location.rsplit("/", 1)[1]
    page = client.get(f"/games/{gid}").text
    assert "Deal 1 of 13" in page and "No tricks" in page
    assert "−10 for each trick" in page
    for name in FIVE:
        assert f'<span class="qp-name" id="tricks-{FIVE.index(name)}-who">{name}</span>' in page
    assert 'name="tricks-4" value="10"' in page and 'value="11"' not in page  # 0 to 10
    # Edward dealt first: Ala leads
    assert re.search(r"<dt>Deals</dt><dd>Edward</dd>.*<dt>Leads</dt><dd>Ala</dd>", page, re.DOTALL)

    wrong = post_deal(client, gid, 1, 1, {"tricks": [3, 3, 3, 3, 3]})
    assert wrong.status_code == 422
    assert "These must add up to 10; they add up to 15." in errors_in(wrong.text)
    saved = post_deal(client, gid, 1, 1, {"tricks": [3, 2, 1, 4, ""]})  # the last fills itself
    assert saved.status_code == 302
    assert state(app, gid).state.totals == [-30, -20, -10, -40, 0]
    page = client.get(f"/games/{gid}").text
    assert "Deal 2 of 13" in page and "No hearts" in page


def test_names_beyond_the_rulesets_players_are_refused_and_blanks_ignored(app, client):
    data = {"ruleset": "standard-4", "first_dealer": "0",
            **{f"player_{i}": p for i, p in enumerate(FIVE)}}
    r = client.post("/games/new", data=data)
    assert r.status_code == 422 and "This ruleset is for 4 players." in errors_in(r.text)
    r = client.post("/games/new", data={**data, "player_4": "  "})
    assert r.status_code == 302  # as before: trailing empty seats are dropped
    assert state(app, r.location.rsplit("/", 1)[1]).players == FIVE[:4]
    r = client.post("/games/new", data={**data, "ruleset": "standard-3", "player_4": ""})
    assert r.status_code == 422 and "This ruleset is for 3 players." in errors_in(r.text)
    r = client.post("/games/new", data={**data, "ruleset": "zdanowicz-5", "player_4": ""})
    assert r.status_code == 422 and errors_in(r.text) == ["Enter a name."]  # by the 5th
    assert re.search(r'<input aria-invalid="true"[^>]*name="player_4"', r.text)


def test_every_deal_of_a_five_player_game_through_the_forms(app, client):
    gid = play_through_forms(app, client, upto=6)
    page = client.get(f"/games/{gid}").text
    assert "Robber" in page and page.count('class="rc') >= 5 * 5  # a row per player
    gid = play_through_forms(app, client)
    game = state(app, gid)
    assert game.state.finished and game.state.totals == TOTALS_5
    page = client.get(f"/games/{gid}").text
    assert "Czesław wins!" in page
    assert re.search(r"Final sum \+220, as these rules say it must be\s*✓", page)


def test_the_race_asks_for_four_places_and_trumps_for_a_suit(app, client):
    gid = play_through_forms(app, client, upto=7)
    page = client.get(f"/games/{gid}").text
    assert "Trumps" in page and page.count('class="pick suit-pick') == 4
    # deal 8 is dealt by the third player (Ala dealt deal 1)
    assert "Czesław names trumps after seeing the first 4 cards" in page
    gid = play_through_forms(app, client, upto=12)
    page = client.get(f"/games/{gid}").text
    # four places are asked; the fifth is whoever is left, and the rules fill it
    assert all(f">Place {n}<" in page for n in range(1, 5)) and ">Place 5<" not in page
    assert "Place 5 is whoever is left: it fills itself." in page
    assert "+400 for place 1" in page and "0 for place 5" in page


def test_the_rules_page_and_the_blank_sheet_of_five_players(client, tmp_path, poppler):  # noqa: F811
    page = client.get("/rules/zdanowicz-5").text
    for words in ("Rozbój (Zdanowicz), 5 players", "−10 for each trick", "−320 for the K♥",
                  "−160 for trick 10", "+50 for each trick", "+400 for place 1"):
        assert words in page, words
    blank = client.get("/rules/zdanowicz-5/blank.pdf")
    assert blank.status_code == 200 and pages(blank.data, tmp_path) == 1
    text = pdf_text(blank.data, tmp_path)
    assert "No kings and jacks" in text and "+220" in text


def test_the_sheet_of_a_finished_five_player_game(app, client, tmp_path, poppler):  # noqa: F811
    gid = play_through_forms(app, client)
    r = client.get(f"/games/{gid}/sheet.pdf")
    assert r.status_code == 200 and pages(r.data, tmp_path) == 1
    text = pdf_text(r.data, tmp_path)
    for name in FIVE:
        assert name in text
    total_line = next(line for line in text.splitlines() if line.strip().startswith("Total"))
    shown = [int(t.replace("−", "-").replace("+", "")) for t in total_line.split()[1:6]]
    assert shown == TOTALS_5
    assert "Final sum +220, as these rules say it must be ✓" in text


def test_a_finished_five_player_game_exports_and_imports_back(app, client):
    gid = play_through_forms(app, client)
    rows = list(csv.reader(io.StringIO(
        client.get(f"/games/{gid}/export.csv").data.decode("utf-8").lstrip("\ufeff"))))
    assert rows[0][3:8] == FIVE
    assert rows[-1][3:8] == [str(t) for t in TOTALS_5] and rows[-1][13] == "220"
    exported = client.get(f"/games/{gid}/export.json").data
    r = client.post("/games/import", data={"file": (io.BytesIO(exported), "game.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 302, errors_in(r.text)
    again = state(app, r.location.rsplit("/", 1)[1])
    assert again.players == FIVE and again.rules.id == "zdanowicz-5"  # still the built-in
    assert again.state.finished and again.state.totals == TOTALS_5
    assert sum(again.state.totals) == again.rules.expected_sum == 220
