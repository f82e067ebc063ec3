"""The house-variant editor as a table uses it, without JavaScript: every post shows the
sums, a variant that does not add up is refused until its maker accepts it (with the
sum shown), and a saved variant is offered for new games, can be the server's default
and is deleted only while no game is played with it."""
import html
import json
import re

import pytest

from tests.fixtures import become_host

PLAYERS = ["Ala", "Bożena", "Czesław", "Dorota"]


def page_form(text: str) -> dict:
    """The editor's fields as a browser would post them untouched."""
    form = {"doc": html.unescape(re.search(r'name="doc" value="([^"]*)"', text).group(1))}
    for name, value in re.findall(r'<input name="([^"]+)"[^>]*value="([^"]*)"', text):
        form[name] = html.unescape(value)
    for name, body in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', text, re.DOTALL):
        chosen = re.search(r'<option value="([^"]*)" selected', body)
        form[name] = chosen.group(1) if chosen else ""
    for name in re.findall(r'<input type="hidden" name="([^"]+shown)"', text):
        form[name] = "1"
    checked = {}
    for name, value in re.findall(r'<input type="checkbox" name="([^"]+)" value="([^"]+)" checked',
                                  text):
        checked.setdefault(name, []).append(value)
    form.update(checked)
    form["made_by"] = form.get("made_by", "")
    return form


def game_sum(text: str) -> str:
    return re.search(r'data-game>([^<]*)<', text).group(1)


def errors(text: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r'class="error"[^>]*>([^<]*)<', text)]


def open_editor(client, ruleset="standard-4", lang="en"):
    client.set_cookie("lang", lang)
    r = client.get(f"/rules/{ruleset}/variant")
    assert r.status_code == 200
    return r.get_data(as_text=True)


def post(client, form, ruleset="standard-4", **changes):
    data = {**form, **changes}
    return client.post(f"/rules/{ruleset}/variant", data=data)


def stored(client) -> list[str]:
    return [r["id"] for r in client.get("/api/rulesets").get_json() if not r["builtin"]]


def test_the_editor_shows_every_deal_and_the_game_sum(client):
    text = open_editor(client, lang="pl")
    assert "Nowy wariant domowy" in text
    sums = re.findall(r'data-slot="\d+">([^<]*)<', text)
    assert sums[:12] == ["−260", "−260", "−240", "−240", "−150", "−150", "−1300",
                         "+325", "+325", "+325", "+325", "+1300"]
    assert game_sum(text) == "0"
    assert "sumuje się do zera" in text


def test_dropping_the_robber_is_refused_until_accepted_with_the_sum_shown(client):
    form = page_form(open_editor(client, lang="pl"))
    r = post(client, form, action="quick:no_robber")
    text = r.get_data(as_text=True)
    assert game_sum(text) == "+1300"
    form = page_form(text)
    assert "robber" not in [v for k, v in form.items() if k.startswith("deal.")]

    r = post(client, form, name="Bez rozbójnika", made_by="Ala", action="save")
    assert r.status_code == 422
    assert any("1300" in m and "nie do 0" in m for m in errors(r.get_data(as_text=True))), \
        errors(r.get_data(as_text=True))
    assert stored(client) == []  # nothing kept

    r = post(client, form, name="Bez rozbójnika", made_by="Ala", unbalanced="1",
             action="save")
    assert r.status_code == 302
    rid = r.headers["Location"].rsplit("/", 1)[1]
    assert stored(client) == [rid]
    page = client.get(f"/rules/{rid}").get_data(as_text=True)
    assert "Bez rozbójnika" in page and "Wariant domowy: Ala" in page
    assert "do +1300, a nie do zera" in page
    data = client.get(f"/api/rulesets/{rid}").get_json()
    assert len(data["schedule"]) == 11 and data["expected_sum"] == 1300
    assert data["based_on"] == "standard-4" and data["unbalanced"] is True
    new_game = client.get("/games/new").get_data(as_text=True)
    assert "Bez rozbójnika (wariant domowy" in new_game


def test_a_changed_number_changes_the_sums_and_a_balanced_variant_saves(client):
    form = page_form(open_editor(client))
    # four loteryjka deals at 200/125 (4 x 325 = 1300, as one at 800/500)
    text = post(client, form, action="quick:loteryjka_many").get_data(as_text=True)
    assert game_sum(text) == "0"
    form = page_form(text)
    assert [form[f"deal.{i}"] for i in range(11, 15)] == ["loteryjka"] * 4
    assert form["c.loteryjka.prizes"] == "200, 125"
    answer = post(client, form, **{"c.no_tricks.points": "-10", "action": "sums"}).get_json()
    assert len(answer["deals"]) == 15
    assert answer["deals"][0] == -130 and answer["deals"][6] == -1170  # the robber too
    assert answer["game"] == 260
    answer = post(client, form, **{"c.no_tricks.points": "-10",
                                   "c.no_seventh_last.points": "-140, -125",
                                   "action": "sums"}).get_json()
    assert answer["deals"][5] == -265 and answer["game"] == 260 - 2 * 115
    # -140 for each penalty trick takes back in deal 6 and the robber what deal 1 gave
    r = post(client, form, name="Cheap tricks", **{
        "c.no_tricks.points": "-10", "c.no_seventh_last.points": "-140", "action": "save"})
    text = r.get_data(as_text=True)
    assert r.status_code == 302, errors(text)
    rid = r.headers["Location"].rsplit("/", 1)[1]
    data = client.get(f"/api/rulesets/{rid}").get_json()
    assert data["contracts"]["no_seventh_last"]["points"] == -140
    assert data["contracts"]["loteryjka"]["prizes"] == [200, 125]
    assert data["expected_sum"] == 0


def test_deal_six_choices_bring_their_own_points_with_three_players(client):
    form = page_form(open_editor(client, ruleset="standard-3"))
    text = post(client, form, **{"c.no_seventh_last.tricks": "first_fourth_last",
                                 "action": "refresh"}).get_data(as_text=True)
    form = page_form(text)
    assert form["c.no_seventh_last.points"] == "-45, -45, -50"
    assert game_sum(text) == "0"
    text = post(client, form, **{"c.no_seventh_last.tricks": "last_two",
                                 "action": "refresh"}).get_data(as_text=True)
    assert page_form(text)["c.no_seventh_last.points"] == "-70"
    assert "Penalty tricks 16, 17" in text


def test_bad_numbers_get_a_message_in_the_users_language_and_nothing_is_stored(client):
    form = page_form(open_editor(client, lang="pl"))
    r = post(client, form, name="Zła", **{"c.no_hearts.points": "dwadzieścia",
                                          "c.loteryjka.prizes": "800, 500, 1, 2, 3",
                                          "action": "save"})
    assert r.status_code == 422
    found = errors(r.get_data(as_text=True))
    assert "Wpisz liczbę całkowitą." in found
    assert "Najwyżej 4 nagród: po jednej na gracza." in found
    r = post(client, form, name="", action="save")
    assert "Nadaj wariantowi nazwę." in errors(r.get_data(as_text=True))
    r = post(client, form, name="Pusta", action="save",
             **{f"deal.{i}": "" for i in range(15)})
    assert "Zostaw co najmniej jedno rozdanie." in errors(r.get_data(as_text=True))
    assert stored(client) == []


def test_a_forged_document_starts_again_from_the_ruleset(client):
    """A page whose rules were forged or cut short is refused, says so, and starts again
    from the ruleset."""
    form = page_form(open_editor(client))
    for forged in ("not json", "[1, 2]", json.dumps({"contracts": "x"})):
        r = post(client, form, doc=forged, action="refresh")
        assert r.status_code == 422
        assert game_sum(r.get_data(as_text=True)) == "0"
        assert "so the editor starts again from these rules" in errors(r.get_data(as_text=True))[0]
    doc = json.loads(form["doc"])
    doc["contracts"]["no_tricks"]["points"] = "lots"  # strict schema: not a number
    r = post(client, form, doc=json.dumps(doc), name="Forged", action="save",
             **{"c.no_tricks.points": ""})
    assert r.status_code == 422 and stored(client) == []


def test_a_name_full_of_html_is_shown_as_text(client):
    form = page_form(open_editor(client))
    r = post(client, form, name="<b>Nasze</b> & co", made_by="<i>Ala</i>", action="save")
    assert r.status_code == 302
    rid = r.headers["Location"].rsplit("/", 1)[1]
    for page in (client.get(f"/rules/{rid}"), client.get("/games/new")):
        text = page.get_data(as_text=True)
        assert "<b>Nasze</b>" not in text and "&lt;b&gt;Nasze&lt;/b&gt; &amp; co" in text
        assert "<i>Ala</i>" not in text


def test_queen_of_spades_variant_is_named_and_scored(client):
    form = page_form(open_editor(client))
    text = post(client, form, action="quick:queen_of_spades").get_data(as_text=True)
    assert "No queen of spades" in text and game_sum(text) == "0"
    r = post(client, page_form(text), name="Dama pik", action="save")
    rid = r.headers["Location"].rsplit("/", 1)[1]
    game = client.post("/api/games", json={"ruleset": rid, "players": PLAYERS,
                                           "first_dealer": 0}).get_json()
    schedule = [d["contract"] for d in game["schedule"]]
    number = schedule.index("no_king_of_hearts") + 1
    assert game["schedule"][number - 1]["name"] == "No queen of spades"
    auth = {"Authorization": f"Bearer {game['token']}"}
    examples = [{"tricks": [3, 3, 3, 4]}, {"hearts": [3, 3, 3, 4]}, {"queens": [1, 1, 1, 1]},
                {"gentlemen": [2, 2, 2, 2]}]
    for n, result in enumerate(examples + [{"queen_of_spades": 2}], start=1):
        r = client.put(f"/api/games/{game['id']}/deals/{n}", headers=auth,
                       json={"version": game["version"], "result": result})
        assert r.status_code == 200, r.get_json()
        game = r.get_json()
    # -60 -60 -60 -60 -60 (ones of tricks/hearts...) then the Q♠ -150 to Czesław
    assert game["deals"][4]["points"] == [0, 0, -150, 0]
    assert game["totals"] == [-60 - 60 - 60 - 60, -60 - 60 - 60 - 60,
                              -60 - 60 - 60 - 60 - 150, -80 - 80 - 60 - 60]


def test_the_default_ruleset_and_deleting_a_variant(client):
    form = page_form(open_editor(client))
    rid = post(client, form, name="Ulubione", action="save").headers["Location"].rsplit("/", 1)[1]
    assert client.post(f"/rules/{rid}/default").status_code == 403  # the host's choice
    become_host(client)
    assert client.post(f"/rules/{rid}/default").status_code == 302
    new_game = client.get("/games/new").get_data(as_text=True)
    assert re.search(rf'<option selected value="{rid}"|<option value="{rid}" selected', new_game)
    assert "New games on this server start with these rules." in \
        client.get(f"/rules/{rid}").get_data(as_text=True)
    # a rules page's "new game with these rules" chooses them
    asked = client.get("/games/new?ruleset=standard-3").get_data(as_text=True)
    assert re.search(r'<option selected value="standard-3"|<option value="standard-3" selected',
                     asked)

    made = client.post("/api/games", json={"ruleset": rid, "players": PLAYERS}).get_json()
    r = client.post(f"/rules/{rid}/delete", follow_redirects=True)
    assert "A game is played with this ruleset" in r.get_data(as_text=True)
    assert rid in stored(client)
    gone = client.delete(f"/api/games/{made['id']}", json={"version": made["version"],
                                                             "confirm": True},
                         headers={"Authorization": f"Bearer {made['token']}"})
    assert gone.status_code == 204
    assert client.get(f"/rules/{rid}/delete").status_code == 200
    r = client.post(f"/rules/{rid}/delete")
    assert r.status_code == 302 and stored(client) == []
    new_game = client.get("/games/new").get_data(as_text=True)
    chooser = re.search(r'<select[^>]*name="ruleset".*?</select>', new_game, re.DOTALL).group(0)
    assert rid not in chooser and "selected" not in chooser  # the default went with it
    assert client.get("/rules/standard-4/delete").status_code == 404
    assert client.post("/rules/standard-4/delete").status_code == 404
    assert "standard-4" in [r["id"] for r in client.get("/api/rulesets").get_json()]


def test_trump_auction_and_no_trump_choices_from_the_editor(client):
    form = page_form(open_editor(client))
    text = post(client, form, action="quick:trump_auction").get_data(as_text=True)
    form = page_form(text)
    assert form["c.trumps.auction"] == ["1"]
    r = post(client, form, name="Licytacja", **{"c.trumps.no_trump": "1"}, action="save")
    assert r.status_code == 302, errors(r.get_data(as_text=True))
    rid = r.headers["Location"].rsplit("/", 1)[1]
    trumps = client.get(f"/api/rulesets/{rid}").get_json()["contracts"]["trumps"]
    assert trumps["auction"] is True and trumps["no_trump"] is True
    game = client.post("/api/games", json={"ruleset": rid, "players": PLAYERS,
                                           "first_dealer": 0}).get_json()
    assert game["schedule"][7]["name"] == "Trumps, auctioned"
    # deal 8 through the form: Dorota (seat 3) deals; Bożena buys for 125, plays no trumps
    from scorekeeper.families.kierki.rules.examples import SAMPLE_GAME_4
    auth = {"Authorization": f"Bearer {game['token']}"}
    for n, result in enumerate(SAMPLE_GAME_4[:7], start=1):
        game = client.put(f"/api/games/{game['id']}/deals/{n}", headers=auth,
                          json={"version": game["version"], "result": result}).get_json()
    from tests.fixtures import join
    join(client, client.application, game["id"])  # this phone sits at the table
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert 'value="NT">No trumps</button>' in page
    r = client.post(f"/games/{game['id']}/deals/8", data={
        "version": game["version"], "bids-0": "", "bids-1": "125", "bids-2": "100",
        "sold": "yes", **{f"tricks-{s}": t for s, t in enumerate([2, 1, 4, 6])},
        "trump": "NT"})
    assert r.status_code == 302, r.get_data(as_text=True)[-600:]
    after = client.get(f"/api/games/{game['id']}").get_json()
    deal = after["deals"][7]
    assert deal["result"]["trump"] == "NT" and deal["result"]["sold"] is True
    # 25 a trick: 50, 25, 100, 150; the 125 goes from Bożena to Dorota
    assert deal["points"] == [50, 25 - 125, 100, 150 + 125]


def test_multipliers_from_the_editor(client):
    form = page_form(open_editor(client, lang="pl"))
    r = post(client, form, name="Warszawa 1981", action="save",
             **{"c.robber.multipliers": "1, 2, 3"})
    assert r.status_code == 422
    assert any("Mnożniki" in m for m in errors(r.get_data(as_text=True)))
    r = post(client, form, name="Warszawa 1981", action="save", unbalanced="1",
             **{"c.robber.multipliers": "1, 2, 3", "c.trumps.multipliers": "1, 2, 3, 4, 5"})
    assert "Najwyżej 4 liczb od 0 do 10." in errors(r.get_data(as_text=True))
    r = post(client, form, name="Warszawa 1981", action="save", unbalanced="1",
             **{"c.robber.multipliers": "1, 2, 3"})
    assert r.status_code == 302
    rid = r.headers["Location"].rsplit("/", 1)[1]
    assert client.get(f"/api/rulesets/{rid}").get_json()["contracts"]["robber"][
        "multipliers"] == [1, 2, 3]
    assert "×2, gdy jeden gracz nie weźmie lewy" in client.get(f"/rules/{rid}").get_data(
        as_text=True)


def _forged(form, change):
    doc = json.loads(form["doc"])
    change(doc)
    return json.dumps(doc)


def _set_in(path, value):
    def change(doc):
        *keys, last = path
        for key in keys:
            doc = doc[key]
        doc[last] = value
    return change


@pytest.mark.parametrize("doc, action, where", [
    (lambda form: "[" * 5000 + "]" * 5000, "refresh", None),
    (lambda form: _forged(form, _set_in(("schedule",), [["no_tricks"], "trumps"])),
     "quick:no_trump_deal", "schedule.0"),
    (lambda form: _forged(form, _set_in(("contracts", "no_tricks", "colour"), "red")),
     "refresh", "contracts.no_tricks.tricks.colour"),
    (lambda form: _forged(form, _set_in(("contracts", "no_queens"), "queens")),
     "quick:queen_of_spades", "contracts.no_queens"),
    (lambda form: _forged(form, _set_in(("name",), "Our rules")), "save", "name"),
    (lambda form: _forged(form, _set_in(("contracts", "no_king_of_hearts", "lead"), 5)),
     "quick:discard_king_of_hearts", "contracts.no_king_of_hearts.cards.lead"),
], ids=["deep", "list-in-schedule", "unknown-key", "contract-as-string", "name-as-string",
        "lead-5"])
@pytest.mark.parametrize("lang", ["en", "pl"])
def test_a_broken_document_is_refused_with_a_message_in_the_players_language(
        client, doc, action, where, lang):
    """What a fuzzer sent the editor (each once a server error): a page whose rules are
    nested 5,000 deep, hold a list in the schedule, an unknown key, a contract or a name
    given as a string, or a lead rule of 5, is refused with a message saying where, in
    the player's language, and the editor starts again from the ruleset; nothing is
    stored."""
    form = page_form(open_editor(client, lang=lang))
    r = post(client, form, doc=doc(form), action=action, name="Ours")
    assert r.status_code == 422
    text = r.get_data(as_text=True)
    said = errors(text)
    assert len(said) == 1
    if lang == "en":
        assert said[0].endswith("so the editor starts again from these rules.")
    else:
        assert said[0].endswith("więc edytor zaczyna od nowa od tych zasad.")
    if where:
        assert f"(at {where})" in said[0] or f"(w {where})" in said[0]
    assert game_sum(text) == "0"  # the ruleset's own sums again
    assert stored(client) == []
    sums = post(client, form, doc=doc(form), action="sums")
    assert sums.status_code == 422 and sums.get_json()["errors"][""] == said
