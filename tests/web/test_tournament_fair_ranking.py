"""Tournament rankings fair by construction (issue 35, item 7).

Ranking by points adds up game totals from different tables, so it is fair only when
every table's game adds up to the same points a player: standard-4 and standard-3 end at
0, but zdanowicz-5 ends at +220 (+44 a player) and kurnik-3 at −255 (−85 a player), so a
points ranking would favour a table size. Such a tournament is refused by points, with
the reason in the director's language, and offered by places; by places it is accepted
(every table hands out 3 to 0).
"""
import re
from html import unescape

from tests.fixtures import become_host
from tests.web.test_tournament_pages import TWELVE, form

BODY = {"name": "Czwartek", "players": [f"Gracz {i}" for i in range(13)], "rounds": 2,
        "seed": "klub"}


def post(client, lang="en", **given):
    return client.post("/api/tournaments", json={**BODY, **given},
                       headers={"Accept-Language": lang})


def test_the_api_refuses_fives_at_zdanowicz_beside_fours_by_points(client):
    body = {"rulesets": {"4": "standard-4", "5": "zdanowicz-5"}, "scoring": "points"}
    refused = post(client, **body)
    assert refused.status_code == 422
    said = refused.get_json()["errors"]["scoring"]
    assert "Tables of 4: a game of these rules adds up to 0, 0 a player." in said
    assert "Tables of 5: a game of these rules adds up to +220, +44 a player." in said
    assert any("Rank by places instead" in m for m in said)
    polish = post(client, "pl", **body).get_json()["errors"]["scoring"]
    assert "Stoły 5-osobowe: gra według tych zasad sumuje się do +220, po +44 na gracza." in polish
    assert any("Uszereguj według miejsc" in m for m in polish)
    # by places the same tables are fair
    assert post(client, **{**body, "scoring": "places"}).status_code == 201


def test_threes_at_kurnik_beside_fours_by_points_are_refused(client):
    refused = post(client, rulesets={"4": "standard-4", "3": "kurnik-3"}, scoring="points")
    assert refused.status_code == 422
    assert "Tables of 3: a game of these rules adds up to −255, −85 a player." in \
        refused.get_json()["errors"]["scoring"]
    # rules that both end at zero stay fine by points
    fair = post(client, rulesets={"4": "standard-4", "3": "standard-3"}, scoring="points")
    assert fair.status_code == 201


def test_a_house_variant_with_multipliers_has_no_fixed_total(client, app):
    become_host(client, app)
    data = client.get("/api/rulesets/standard-4").get_json()
    for key in ("id", "source", "summary", "notes", "expected_sum"):
        data.pop(key, None)
    data.update(name={"en": "Doubled", "pl": "Podwójne"}, made_by="Ala", unbalanced=True)
    data["contracts"]["robber"]["multipliers"] = [1, 2, 3]
    made = client.post("/api/rulesets", json=data)
    assert made.status_code == 201, made.get_json()
    refused = post(client, rulesets={"4": made.get_json()["id"]}, scoring="points")
    assert refused.status_code == 422
    assert any("depends on the play" in m for m in refused.get_json()["errors"]["scoring"])


def test_the_form_says_why_and_offers_ranking_by_places(client, app):
    data = form(ruleset_5="zdanowicz-5", players="\n".join(TWELVE + ["Marek"]))
    page = client.post("/tournaments/new", data=data, headers={"Accept-Language": "pl"})
    assert page.status_code == 422
    text = unescape(re.sub(r"\s+", " ", page.text))
    assert "Stoły 5-osobowe: gra według tych zasad sumuje się do +220, po +44 na gracza." in text
    assert "Uszereguj według miejsc" in text
    # the offer: by places is now the chosen ranking, one press away
    checked = re.search(r'<input[^>]*checked[^>]*name="scoring"[^>]*>|'
                        r'<input[^>]*name="scoring"[^>]*checked[^>]*>', page.text).group(0)
    assert 'value="places"' in checked
    english = client.post("/tournaments/new", data=data, headers={"Accept-Language": "en"})
    assert "Ranking by places is now chosen below" in unescape(english.text)
    made = client.post("/tournaments/new", data={**data, "scoring": "places"})
    assert made.status_code == 302
