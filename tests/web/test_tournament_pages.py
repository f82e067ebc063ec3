"""A club night's pages as its director and players use them (issue 27): the form refuses
bad input by its fields and keeps what was typed, only the director's browser changes the
tournament, names stay text, and the results, projector and phone pages say where everyone
sits and how each table is getting on, in Polish and English."""
import re
from html import unescape

import pytest

from scorekeeper.domain import tournaments
from scorekeeper.web.db import get_db
from tests.fixtures import errors_in
from tests.store.test_tournaments import finish

TWELVE = ["Ala", "Bolek", "Cela", "Darek", "Ewa", "Franek", "Gosia", "Henio", "Iza", "Jacek",
          "Kasia", "Łucja"]
PL = {"Accept-Language": "pl"}
EVIL = '<img src=x onerror="alert(1)">Zły'


def form(**given):
    data = {"name": "Czwartek w klubie", "players": "\n".join(TWELVE), "rounds": "2",
            "ruleset_4": "standard-4", "ruleset_3": "standard-3", "ruleset_5": "",
            "scoring": "points", "seed": "klub"}
    data.update(given)
    return data


def create(client, **given) -> str:
    r = client.post("/tournaments/new", data=form(**given))
    assert r.status_code == 302, errors_in(r.text)
    assert re.fullmatch(r"/tournaments/[\w-]+/director", r.location)
    return r.location.split("/")[2]


def field_errors(html: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for field, text in re.findall(r'class="error"[^>]*data-field="([^"]*)">([^<]*)<', html):
        found.setdefault(field, []).append(unescape(text.strip()))
    return found


def count(app, table: str) -> int:
    with app.app_context():
        return get_db().execute(f"select count(*) from {table}").fetchone()[0]


def tournament(app, tid):
    with app.app_context():
        return tournaments.load(get_db(), tid)


def finish_round(app, tid):
    with app.app_context():
        t = tournaments.load(get_db(), tid)
        for i, table in enumerate(t.rounds[-1]):
            if not table.finished:
                finish(get_db(), table.game_id, loser_seat=i % len(table.seats))


def text(html: str) -> str:
    """What a reader sees: tags out, spaces squeezed (none before a comma or a stop)."""
    plain = re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))
    return re.sub(r" ([,.])", r"\1", plain)


def test_the_form_refuses_by_field_keeps_what_was_typed_and_stores_nothing(app, client):
    r = client.post("/tournaments/new", data=form(
        name="", players="Ala\nBolek\nAla", rounds="0", ruleset_4="", ruleset_3="", seed=""))
    assert r.status_code == 422
    errors = field_errors(r.text)
    assert errors["name"] == ["Give the tournament a name."]
    assert "A tournament needs 8 to 4000 players; 3 are entered." in errors["players"]
    assert "Ala is entered twice." in errors["players"]
    assert errors["rounds"] == ["Choose 1 to 20 rounds."]
    assert errors["rulesets"] == ["Choose a ruleset for tables of four."]
    assert re.search(r">\s*Ala\s+Bolek\s+Ala</textarea>", r.text)  # what was typed is kept
    assert 'value="0"' in r.text
    assert count(app, "tournaments") == 0 and count(app, "games") == 0


def test_the_form_speaks_polish_and_refuses_a_ruleset_for_the_wrong_table(app, client):
    page = client.get("/tournaments/new", headers=PL).text
    assert "Nowy turniej" in page and "Stoły czteroosobowe" in page
    r = client.post("/tournaments/new", headers=PL, data=form(ruleset_3="standard-4"))
    assert r.status_code == 422
    errors = field_errors(r.text)
    assert list(errors) == ["rulesets.3"]
    assert errors["rulesets.3"][0] != "This ruleset is for 4 players, not 3."  # in Polish
    assert count(app, "tournaments") == 0


def test_the_form_offers_only_rulesets_for_as_many_players_as_the_table(client):
    page = client.get("/tournaments/new").text
    fours = re.search(r'<select[^>]*name="ruleset_4".*?</select>', page, re.DOTALL).group(0)
    threes = re.search(r'<select[^>]*name="ruleset_3".*?</select>', page, re.DOTALL).group(0)
    assert 'selected value="standard-4"' in fours and "standard-3" not in fours
    assert 'selected value="standard-3"' in threes and "standard-4" not in threes
    assert 'value=""' in threes and 'value=""' not in fours  # three may be "not used"
    assert "tybet" not in page.lower()  # a game of pairs is never drawn


def test_the_director_is_the_browser_that_made_it_or_opened_the_link(app, client):
    tid = create(client)
    page = client.get(f"/tournaments/{tid}/director")
    assert page.status_code == 200 and "Draw round 2" not in page.text  # round 1 is on
    assert "Round 1: 3 tables are still playing." in text(page.text)
    stranger = app.test_client()
    refused = stranger.get(f"/tournaments/{tid}/director", headers=PL)
    assert refused.status_code == 403
    assert "Tylko sędzia turnieju" in text(refused.text) and "Draw round" not in refused.text
    assert stranger.post(f"/tournaments/{tid}/close").status_code == 403
    assert stranger.post(f"/tournaments/{tid}/players", data={"name": "Zenek"}).status_code == 403
    assert stranger.get(f"/tournaments/{tid}/direct/{'0' * 40}").status_code == 403
    assert stranger.get(f"/tournaments/{tid}/director").status_code == 403
    assert not tournament(app, tid).closed and len(tournament(app, tid).players) == 12
    # the results page shows no director's controls to a stranger
    assert "Director" not in stranger.get(f"/tournaments/{tid}").text
    link = re.search(r'class="mono tour-link">([^<]+)<', page.text).group(1)
    assert stranger.get(link).status_code == 302
    assert stranger.get(f"/tournaments/{tid}/director").status_code == 200
    assert stranger.get("/tournaments/nope/director").status_code == 404


def test_rounds_are_drawn_once_and_only_when_every_table_has_finished(app, client):
    tid = create(client)
    r = client.post(f"/tournaments/{tid}/rounds", data={"round": "2"})
    assert r.status_code == 409
    assert errors_in(r.text) == [("Round 1 is still being played: the next round is drawn "
                                 "when every table has finished its game.")]
    assert tournament(app, tid).current == 1
    finish_round(app, tid)
    page = client.get(f"/tournaments/{tid}/director").text
    assert "Draw round 2" in page
    r = client.post(f"/tournaments/{tid}/rounds", data={"round": "2"})
    assert r.status_code == 302
    again = client.post(f"/tournaments/{tid}/rounds", data={"round": "2"})  # sent twice
    assert again.status_code == 409 and errors_in(again.text) == ["Round 2 is already drawn."]
    t = tournament(app, tid)
    assert t.current == 2 and len(t.rounds[1]) == 3


def test_late_arrivals_and_withdrawals_by_field(app, client):
    tid = create(client)
    r = client.post(f"/tournaments/{tid}/players", data={"name": "  "})
    assert r.status_code == 422 and field_errors(r.text) == {"name": ["Enter a name."]}
    r = client.post(f"/tournaments/{tid}/players", data={"name": "Iza"}, headers=PL)
    assert r.status_code == 422 and list(field_errors(r.text)) == ["name"]
    assert 'value="Iza"' in r.text
    r = client.post(f"/tournaments/{tid}/withdraw", data={"player": "99"})
    assert r.status_code == 422
    assert field_errors(r.text) == {"player": ["Choose a player still playing."]}
    assert len(tournament(app, tid).players) == 12 and len(tournament(app, tid).active) == 12
    r = client.post(f"/tournaments/{tid}/players", data={"name": "Zenek"},
                    follow_redirects=True)
    assert "Zenek plays from the next round on." in text(r.text)
    r = client.post(f"/tournaments/{tid}/withdraw", data={"player": "1"}, follow_redirects=True)
    assert "Ala is withdrawn" in text(r.text)
    t = tournament(app, tid)
    assert t.name_of(13) == "Zenek" and 1 not in t.active and 13 in t.active


def test_a_name_full_of_html_stays_text_everywhere(app, client):
    tid = create(client, name=EVIL, players="\n".join([EVIL, *TWELVE[1:]]))
    t = tournament(app, tid)
    pages = [f"/tournaments/{tid}", f"/tournaments/{tid}/director", f"/tournaments/{tid}/screen",
             f"/tournaments/{tid}/screen?part=live", f"/tournaments/{tid}/players/1",
             f"/games/{t.seat_of(1, 1)[0].game_id}"]
    for url in pages:
        html = client.get(url).text
        assert "<img" not in html, url
        assert "&lt;img src=x" in html, url


def test_results_projector_and_phone_follow_the_tables(app, client):
    tid = create(client)
    t = tournament(app, tid)
    ala_table, ala_seat = t.seat_of(1, 1)
    phone = app.test_client()
    mine = text(phone.get(f"/tournaments/{tid}/players/1").text)
    mates = ", ".join(t.name_of(n) for n in ala_table.seats)
    assert f"Round 1: table {ala_table.number}, seat {ala_seat + 1}" in mine
    assert f"At your table: {mates}" in mine
    assert f"/games/{ala_table.game_id}" in phone.get(f"/tournaments/{tid}/players/1").text
    live = text(phone.get(f"/tournaments/{tid}/screen?part=live").text)
    assert "0 of 3 tables finished" in live and "deal 1 of 12" in live
    with app.app_context():
        finish(get_db(), ala_table.game_id, loser_seat=ala_seat)  # Ala takes every penalty
    live = phone.get(f"/tournaments/{tid}/screen?part=live").text
    assert "1 of 3 tables finished" in text(live)
    assert len(re.findall(r'<li class="done"', live)) == 1
    results = text(phone.get(f"/tournaments/{tid}").text)
    assert f"Table {ala_table.number} game finished" in results
    # Ala lost every deal: last in the standings, with one game played
    rows = re.findall(r'<tr[^>]*>\s*<td class="num">(\d+)</td>\s*<td class="tname"><a[^>]*>([^<]+)'
                      r'</a>(?:\s*<span class="provisional"[^>]*>\*</span>)?</td>\s*'
                          r'<td class="num"><strong>([^<]+)</strong></td>\s*'
                      r'<td class="num">(\d+)</td>\s*<td class="num opt">(\d+)</td>',
                      phone.get(f"/tournaments/{tid}").text)
    assert rows[-1][1] == "Ala" and rows[-1][2].startswith("−") and rows[-1][4] == "1"
    # the game page names its tournament, round and table, linking back
    game = phone.get(f"/games/{ala_table.game_id}").text
    assert f"Czwartek w klubie: round 1, table {ala_table.number}" in text(game)
    assert f'href="/tournaments/{tid}"' in game


def test_the_phone_page_shows_next_rounds_table_in_polish(app, client):
    tid = create(client)
    finish_round(app, tid)
    phone = app.test_client()
    waiting = text(phone.get(f"/tournaments/{tid}/players/5", headers=PL).text)
    assert "Czekamy na losowanie następnej rundy" in waiting
    assert client.post(f"/tournaments/{tid}/rounds", data={"round": "2"}).status_code == 302
    t = tournament(app, tid)
    table, seat = t.seat_of(5, 2)
    page = text(phone.get(f"/tournaments/{tid}/players/5", headers=PL).text)
    assert f"Runda 2: stół {table.number}, miejsce {seat + 1}" in page
    assert "Twoje miejsce:" in page and "Otwórz grę swojego stołu" in page
    screen = text(phone.get(f"/tournaments/{tid}/screen", headers=PL).text)
    assert "Tabela turnieju" in screen and "Runda 2 z 2" in screen


@pytest.mark.parametrize("url", ["/tournaments/nope", "/tournaments/nope/screen",
                                 "/tournaments/nope/players/1"])
def test_a_tournament_that_is_not_there_is_404(client, url):
    assert client.get(url).status_code == 404


def test_the_front_page_links_to_a_new_tournament(client):
    assert 'href="/tournaments/new"' in client.get("/").text
    assert "Nowy turniej" in client.get("/", headers=PL).text


def test_a_closed_tournament_draws_nothing_more(app, client):
    tid = create(client)
    finish_round(app, tid)
    r = client.post(f"/tournaments/{tid}/close", data={"confirm_unsigned": "1"},
                    follow_redirects=True)
    assert "The tournament is closed with 3 tables unsigned" in text(r.text)
    assert "closed with 3 tables unsigned" in text(client.get(f"/tournaments/{tid}").text)
    page = client.get(f"/tournaments/{tid}/director").text
    assert "Draw round 2" not in page and "Close the tournament" not in page
    r = client.post(f"/tournaments/{tid}/rounds", data={"round": "2"})
    assert r.status_code == 409
    assert errors_in(r.text) == [("This tournament is closed; nothing more can be drawn or "
                                 "changed in it.")]
    assert tournament(app, tid).current == 1


def test_making_tournaments_counts_with_making_games(app, client):
    """A script cannot fill the server with tournaments: they share the new games' limit,
    each costing its tables (round 1's when made, each later round's when drawn)."""
    from scorekeeper.web import limits
    allowed = int(limits.CREATE.split(" per ")[0])
    tid = create(client)  # three tables
    finish_round(app, tid)
    assert client.post(f"/tournaments/{tid}/rounds", data={"round": "2"}).status_code == 302
    for _ in range(allowed - 6):
        made = client.post("/api/games", json={"ruleset": "standard-4", "first_dealer": 0,
                                               "players": TWELVE[:4]})
        assert made.status_code == 201
    r = client.post("/tournaments/new", data=form(), headers=PL)
    assert r.status_code == 429
    assert count(app, "tournaments") == 1


def test_the_director_prints_round_sheets_and_anyone_downloads_the_results(app, client):
    tid = create(client)
    page = client.get(f"/tournaments/{tid}/director").text
    sheet = f"/tournaments/{tid}/rounds/1/sheet.pdf"
    assert f'href="{sheet}"' in page
    r = client.get(sheet)
    assert r.status_code == 200 and r.data.startswith(b"%PDF")
    stranger = app.test_client()
    results = stranger.get(f"/tournaments/{tid}").text
    assert sheet not in results  # the sheets carry join codes: the director's alone
    assert stranger.get(sheet).status_code == 403
    for fmt in ("pdf", "csv", "json"):
        url = f"/tournaments/{tid}/results.{fmt}"
        assert f'href="{url}"' in results
        assert stranger.get(url).status_code == 200
