"""Five players (seed 004, variation 4, "Rozbój") through the JSON API alone: the ruleset
sent as a house variant, kept only when it says it is unbalanced, then whole games of it
and of the built-in ``zdanowicz-5``, with the totals worked out by hand below."""
from tests.fixtures import play_api

FIVE = ["Ala", "Bożena", "Czesław", "Dorota", "Edward"]

#: A whole five-player game (first dealer Ala): 10 tricks a deal, 50 cards without 2♣ 2♦.
GAME_5 = [
    {"tricks": [3, 2, 1, 4, 0]},                # 1 a trick −10
    {"hearts": [4, 0, 5, 1, 3]},                # 2 a heart −20 (13 hearts)
    {"gentlemen": [2, 1, 0, 3, 2]},             # 3 a king or jack −40 (before the queens)
    {"queens": [1, 0, 2, 0, 1]},                # 4 a queen −80
    {"positions": [1, 4]},                      # 5 trick 7 Bożena, trick 10 Edward, −160 each
    {"king_of_hearts": 3},                      # 6 the K♥ −320, Dorota
    {"tricks": [2, 3, 1, 2, 2], "hearts": [3, 4, 0, 2, 4], "gentlemen": [1, 3, 0, 2, 2],
     "queens": [0, 2, 1, 1, 0], "positions": [1, 4], "king_of_hearts": 1},  # 7 the robber
    {"trump": "S", "tricks": [3, 2, 2, 2, 1]},  # 8–12 +50 a trick
    {"trump": "H", "tricks": [1, 4, 2, 1, 2]},
    {"trump": "D", "tricks": [2, 2, 3, 0, 3]},
    {"trump": "C", "tricks": [0, 3, 2, 4, 1]},
    {"trump": "S", "tricks": [2, 1, 1, 3, 3]},
    {"order": [2, 0, 4, 1, 3]},                 # 13 the race: 400/300/200/100/0
]

# By hand, seat by seat (Ala, Bożena, Czesław, Dorota, Edward):
#   deals 1–6   Ala −30 −80 −80 −80 = −270; Bożena −20 −40 −160 = −220;
#               Czesław −10 −100 −160 = −270; Dorota −40 −20 −120 −320 = −500;
#               Edward −60 −80 −80 −160 = −380                         (together −1640)
#   robber      Ala −20 −60 −40 = −120; Bożena −30 −80 −120 −160 −160 −320 = −870;
#               Czesław −10 −80 = −90; Dorota −20 −40 −80 −80 = −220;
#               Edward −20 −80 −80 −160 = −340                         (together −1640)
#   trumps      tricks 8/12/10/10/10 × 50 = +400/+600/+500/+500/+500    (together +2500)
#   race        Czesław +400, Ala +300, Edward +200, Bożena +100, Dorota 0 (+1000)
AFTER_ROBBER = [-390, -1090, -360, -720, -720]
TOTALS_5 = [310, -390, 540, -220, -20]
EXPECTED_SUM = -1640 - 1640 + 2500 + 1000  # = +220: the scores do not add up to zero


def play(client, rid, results, first_dealer=0):
    """A whole game of ``rid`` through the API; its final JSON."""
    answers = play_api(client, rid, FIVE, results, first_dealer)
    assert answers[6]["totals"] == AFTER_ROBBER
    assert answers[-1]["finished"]
    return answers[-1]


def five_player_document(client):
    """The built-in ruleset's data as a new variant: no id, no stated sum, a new name."""
    data = client.get("/api/rulesets/zdanowicz-5").get_json()
    for key in ("id", "source", "expected_sum", "unbalanced"):
        data.pop(key, None)
    data["name"] = {"en": "Rozbój at our table", "pl": "Rozbój u nas"}
    data["made_by"] = "Edward"
    return data


def test_the_five_player_variant_is_kept_only_once_it_says_it_is_unbalanced(client):
    data = five_player_document(client)
    refused = client.post("/api/rulesets", json=data)
    assert refused.status_code == 422
    errors = refused.get_json()["errors"]
    assert list(errors) == ["unbalanced"] and "220" in errors["unbalanced"][0]
    wrong_sum = client.post("/api/rulesets", json={**data, "unbalanced": True,
                                                   "expected_sum": 0})
    assert wrong_sum.status_code == 422 and "220" in wrong_sum.get_json()["errors"]["expected_sum"][0]

    made = client.post("/api/rulesets", json={**data, "unbalanced": True})
    assert made.status_code == 201, made.get_json()
    variant = made.get_json()
    assert variant["players"] == 5 and variant["expected_sum"] == EXPECTED_SUM == 220

    game = play(client, variant["id"], GAME_5)
    assert len(game["schedule"]) == 13
    assert [d["contract"] for d in game["schedule"][2:6]] == [
        "no_gentlemen", "no_queens", "no_seventh_last", "no_king_of_hearts"]
    assert game["totals"] == TOTALS_5
    assert sum(game["totals"]) == game["expected_sum"] == EXPECTED_SUM
    assert game["winners"] == [2]  # Czesław


def test_the_built_in_five_player_ruleset_plays_to_plus_220(client):
    listed = {r["id"]: r for r in client.get("/api/rulesets").get_json()}
    assert listed["zdanowicz-5"]["players"] == 5 and listed["zdanowicz-5"]["builtin"]
    assert listed["zdanowicz-5"]["expected_sum"] == 220
    game = play(client, "zdanowicz-5", GAME_5, first_dealer=3)
    schedule = game["schedule"]
    assert [d["dealer"] for d in schedule[7:12]] == [0, 1, 2, 3, 4]  # one trump deal each
    assert schedule[0]["fields"][0]["total"] == 10
    # the race's fifth place is whoever is left: four places are asked, the rules fill it
    assert schedule[12]["fields"][0]["labels"] == ["1", "2", "3", "4"]
    assert game["totals"] == TOTALS_5 and sum(game["totals"]) == 220


def test_a_five_player_game_needs_five_names(client):
    for names in (FIVE[:4], FIVE + ["Franek"]):
        r = client.post("/api/games", json={"ruleset": "zdanowicz-5", "players": names})
        assert r.status_code == 422
        assert r.get_json()["errors"]["players"] == ["This ruleset is for 5 players."]
    four = client.post("/api/games", json={"ruleset": "standard-4", "players": FIVE})
    assert four.get_json()["errors"]["players"] == ["This ruleset is for 4 players."]
    r = client.post("/api/games", json={"ruleset": "zdanowicz-5", "players": FIVE,
                                        "first_dealer": 5})
    assert r.status_code == 422 and "first_dealer" in r.get_json()["errors"]


def test_a_deal_of_five_players_is_checked_against_ten_tricks(client):
    game = client.post("/api/games", json={"ruleset": "zdanowicz-5", "players": FIVE,
                                           "first_dealer": 0}).get_json()
    auth = {"Authorization": f"Bearer {game['token']}"}
    r = client.put(f"/api/games/{game['id']}/deals/1", headers=auth,
                   json={"version": game["version"], "result": {"tricks": [3, 3, 3, 4]}})
    assert r.status_code == 422
    assert r.get_json()["errors"]["tricks"] == ["Enter a number for each of the 5 players."]
    r = client.put(f"/api/games/{game['id']}/deals/1", headers=auth,
                   json={"version": game["version"], "result": {"tricks": [3, 3, 3, 4, 0]}})
    assert r.get_json()["errors"]["tricks"] == ["These must add up to 10; they add up to 13."]
