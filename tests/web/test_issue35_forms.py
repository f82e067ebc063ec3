"""Issue 35's forms: a name over 40 characters is refused with a message saying so (in
Polish and English), never cut; a deal refused without JavaScript says so beside its
button; a player's form list runs the way its chart does (oldest first)."""
import re

from scorekeeper.domain import service
from scorekeeper.families.kierki.rules import get_ruleset
from scorekeeper.web.db import get_db
from tests.fixtures import errors_in, join, results_for
from tests.store.test_tournaments import bad_evening_for
from tests.web.test_tournament_pages import create

LONG = "Konstantynopolitańczykowianeczka Brzęczyszczykiewicz"  # 52 characters
PL = {"Accept-Language": "pl"}


def test_a_long_name_is_refused_with_a_message_in_both_languages(client):
    data = {"ruleset": "standard-4", "first_dealer": "0", "player_0": LONG,
            "player_1": "Ala", "player_2": "Bolek", "player_3": "Cela"}
    r = client.post("/games/new", data=data)
    assert r.status_code == 422
    assert "A name can have at most 40 characters; this one has 52." in errors_in(r.text)
    assert f'value="{LONG}"' in r.text  # kept whole to shorten, not cut
    assert 'maxlength="40"' not in r.text  # the browser does not cut it silently either
    r = client.post("/games/new", data=data, headers=PL)
    assert "Nazwa gracza może mieć najwyżej 40 znaków; ta ma 52." in errors_in(r.text)
    assert "No games yet" in client.get("/").text


def test_a_late_arrival_with_a_long_name_is_refused(app, client):
    tid = create(client)
    page = client.get(f"/tournaments/{tid}/director", headers=PL).text
    assert 'maxlength="40"' not in page
    r = client.post(f"/tournaments/{tid}/players", data={"name": LONG}, headers=PL)
    assert r.status_code == 422
    assert "Nazwa gracza może mieć najwyżej 40 znaków; ta ma 52." in r.text


def test_a_deal_refused_without_javascript_says_so_beside_the_button(app, client):
    with app.app_context():
        gid = service.create_game(get_db(), "standard-4", ["Ala", "Bolek", "Cela", "Darek"], 0)
    join(client, app, gid)
    r = client.post(f"/games/{gid}/deals/1", data={"version": "1"}, headers=PL)
    assert r.status_code == 422
    form = r.text[r.text.index('class="deal-form'):]
    said = re.search(r'<p class="error save-msg"[^>]*>([^<]*)</p>\s*<button', form)
    assert said and "hidden" not in said.group(0)
    assert said.group(1) == "Nie zapisano. Brakuje lew: Ala, Bolek, Cela, Darek — zostało 13 lew"


def test_a_players_form_list_runs_oldest_first_as_its_chart(app, client):
    with app.app_context():
        db = get_db()
        for game in range(3):  # three games, Ala's totals differ in each
            gid = service.create_game(db, "standard-4", ["Ala", "Bolek", "Cela", "Darek"], 0)
            rules = results_for(get_ruleset("standard-4")) if game == 1 else \
                bad_evening_for("standard-4", game)
            for number, raw in enumerate(rules, start=1):
                service.enter_deal(db, service.load(db, gid), number, raw, number)
    page = client.get("/players/1").text
    listed = re.findall(r'<span class="pts [a-z]+">([^<]+)</span>',
                        page[page.index('class="form-list"'):])
    table = page[page.index('class="chart-table'):]
    charted = re.findall(r'<td class="num">([^<]+)</td>', table)
    assert listed != listed[::-1], listed  # the order shows
    assert listed == charted[:3], (listed, charted)
