"""The trump auction through the JSON API alone: a variant of standard-4 whose trump deals
are auctioned, a whole game played with a sold, a refused and an unbid auction, and the
auctions the rules refuse (422, naming the field, nothing stored).

Seats: North 0, East 1, South 2, West 3. East deals first, so the deal passes to North for
deal 8 (the first trump deal), then East, South and West deal 9, 10 and 11.
"""
import copy

import pytest

from scorekeeper.families.kierki.rules.examples import SAMPLE_GAME_4

PLAYERS = ["North", "East", "South", "West"]
NORTH, EAST, SOUTH, WEST = range(4)

#: Deals 1–7 as in the sample game; by hand they leave (see test_variants_api for 1–6):
#: 1–6: −330 / −375 / −330 / −265; the robber: −335 / −190 / −685 / −90.
AFTER_SEVEN = [-665, -565, -1015, -355]

#: The worked example of seed 004: North deals and accepts West's 125.
SOLD = {"bids": [None, None, None, 125], "sold": True, "trump": "H", "tricks": [2, 1, 4, 6]}
#: East deals; from East's left South bids 50, West 75, North 60; East refuses.
REFUSED = {"bids": [60, None, 50, 75], "sold": False, "trump": "S", "tricks": [3, 5, 4, 1]}
#: South deals; nobody bids.
UNBID = {"bids": [None, None, None, None], "sold": False, "trump": "D", "tricks": [2, 2, 6, 3]}
#: West deals; North bids 40, East 150; West sells to East, who takes only 2 tricks.
SOLD_DEAR = {"bids": [40, 150, None, None], "sold": True, "trump": "C", "tricks": [4, 2, 3, 4]}

#: Each auction deal's points, by hand at 25 a trick.
POINTS = {
    8: [2 * 25 + 125, 25, 4 * 25, 6 * 25 - 125],    # 175, 25, 100, 25: the worked example
    9: [75, 125, 100, 25],                          # refused: the tricks alone
    10: [50, 50, 150, 75],                          # nobody bid
    11: [100, 2 * 25 - 150, 75, 4 * 25 + 150],      # 100, −100, 75, 250: East ends below zero
}


def auction_variant(client):
    data = client.get("/api/rulesets/standard-4").get_json()
    for key in ("id", "source", "summary", "notes", "expected_sum"):
        data.pop(key, None)
    data["name"] = {"en": "Trumps auctioned", "pl": "Licytacja atu"}
    data["made_by"] = "North"
    data["contracts"]["trumps"]["auction"] = True
    made = client.post("/api/rulesets", json=data)
    assert made.status_code == 201, made.get_json()
    assert made.get_json()["expected_sum"] == 0  # a bid only moves points
    return made.get_json()["id"]


def start(client, rid):
    made = client.post("/api/games", json={"ruleset": rid, "players": PLAYERS,
                                           "first_dealer": EAST})
    assert made.status_code == 201, made.get_json()
    game = made.get_json()
    return game, {"Authorization": f"Bearer {game['token']}"}


def put(client, game, auth, number, result, **headers):
    return client.put(f"/api/games/{game['id']}/deals/{number}", headers={**auth, **headers},
                      json={"version": game["version"], "result": result})


def play_seven(client, game, auth):
    for number, result in enumerate(SAMPLE_GAME_4[:7], start=1):
        r = put(client, game, auth, number, result)
        assert r.status_code == 200, (number, r.get_json())
        game = r.get_json()
    assert game["totals"] == AFTER_SEVEN
    return game


def test_a_whole_game_with_sold_refused_and_unbid_auctions(client):
    rid = auction_variant(client)
    game, auth = start(client, rid)
    trumps = game["schedule"][7:11]
    assert [d["dealer"] for d in trumps] == [NORTH, EAST, SOUTH, WEST]
    assert [(f["name"], f["type"]) for f in trumps[0]["fields"]] == [
        ("bids", "bids"), ("sold", "yesno"), ("tricks", "counts"), ("trump", "suit")]
    assert all(d["expected_sum"] == 325 and d["name"] == "Trumps, auctioned" for d in trumps)

    game = play_seven(client, game, auth)
    for number, result in ((8, SOLD), (9, REFUSED), (10, UNBID), (11, SOLD_DEAR)):
        r = put(client, game, auth, number, result)
        assert r.status_code == 200, (number, r.get_json())
        game = r.get_json()
        deal = game["deals"][number - 1]
        assert deal["dealer"] == trumps[number - 8]["dealer"]
        assert deal["result"] == result
        assert deal["points"] == POINTS[number], number
        assert sum(deal["points"]) == 13 * 25
    assert game["deals"][7]["points"] == [175, 25, 100, 25]  # the seed's own numbers
    r = put(client, game, auth, 12, {"order": [SOUTH, NORTH]})  # S +800, N +500
    game = r.get_json()

    # by hand: North −665 + 175 + 75 + 50 + 100 + 500 = 235
    #          East  −565 + 25 + 125 + 50 − 100        = −465
    #          South −1015 + 100 + 100 + 150 + 75 + 800 = 210
    #          West  −355 + 25 + 25 + 75 + 250         = 20
    assert game["finished"]
    assert game["totals"] == [235, -465, 210, 20]
    assert sum(game["totals"]) == 0 == game["expected_sum"]
    assert game["winners"] == [NORTH]

    # the game's own file keeps the results; the score sheet's export tells the auctions
    csv = client.get(f"/games/{game['id']}/export.csv").text
    assert "West buys for 125" in csv and "not sold" in csv and "East buys for 150" in csv


BAD = [
    ({**SOLD, "bids": [100, None, None, 125]}, "bids.0", "The dealer does not bid."),
    ({**SOLD, "bids": [None, 125, None, 125]}, "bids",
     ("Two players cannot both hold the highest bid: the auction goes on until one of them "
     "bids more.")),
    ({**SOLD, "bids": [None, None, None, None]}, "sold",
     "Nobody bid, so there is no bid to accept."),
    ({**SOLD, "bids": [None, -125, None, None]}, "bids.1",
     "A bid is a whole number of points from 1 to 10000."),
    ({k: v for k, v in SOLD.items() if k != "sold"}, "sold",
     "Say whether the dealer accepts the highest bid or refuses."),
    ({**SOLD, "sold": "yes"}, "sold",
     "Say whether the dealer accepts the highest bid or refuses."),
    ({**SOLD, "bids": [None, None, 125]}, "bids",
     "Enter a bid or nothing for each of the 4 players."),
]


@pytest.mark.parametrize("result, field, message", BAD)
def test_an_impossible_auction_is_refused_and_nothing_stored(client, result, field, message):
    game, auth = start(client, auction_variant(client))
    game = play_seven(client, game, auth)
    r = put(client, game, auth, 8, copy.deepcopy(result))
    assert r.status_code == 422
    errors = r.get_json()["errors"]
    assert errors[field] == [message], errors
    after = client.get(f"/api/games/{game['id']}").get_json()
    assert after["version"] == game["version"]
    assert len(after["deals"]) == 7 and after["totals"] == AFTER_SEVEN


def test_the_refusal_is_in_polish_for_a_polish_phone(client):
    game, auth = start(client, auction_variant(client))
    game = play_seven(client, game, auth)
    r = put(client, game, auth, 8, {**SOLD, "bids": [100, None, None, 125]},
            **{"Accept-Language": "pl"})
    assert r.status_code == 422
    assert r.get_json()["errors"] == {"bids.0": ["Rozdający nie licytuje."]}
    schedule = client.get(f"/api/games/{game['id']}",
                          headers={"Accept-Language": "pl"}).get_json()["schedule"]
    assert schedule[7]["name"] == "Rozgrywka atutowa z licytacją"
    assert schedule[6]["name"] == "Rozbójnik"


def test_a_sold_auction_can_be_corrected_and_the_totals_follow(client):
    game, auth = start(client, auction_variant(client))
    game = play_seven(client, game, auth)
    game = put(client, game, auth, 8, SOLD).get_json()
    assert game["totals"] == [a + p for a, p in zip(AFTER_SEVEN, POINTS[8])]
    game = put(client, game, auth, 8, {**SOLD, "sold": False}).get_json()  # North refused
    assert game["deals"][7]["points"] == [50, 25, 100, 150]
    assert game["totals"] == [-615, -540, -915, -205]


def test_the_api_documents_the_auction(client):
    spec = client.get("/api/openapi.json").get_json()
    assert "`bids`" in str(spec) and "`sold`" in str(spec)
    schema = client.get("/api/rulesets/schema.json").get_json()
    trumps = schema["$defs"]["Trumps"]["properties"]
    assert trumps["auction"]["type"] == "boolean" and trumps["auction"]["default"] is False
    assert "bid" in trumps["auction"]["description"]
    bad = client.get("/api/rulesets/standard-4").get_json()
    for key in ("id", "source", "expected_sum"):
        bad.pop(key)
    bad["contracts"]["trumps"]["auction"] = "yes"
    refused = client.post("/api/rulesets", json=bad)
    assert refused.status_code == 422
    assert any("auction" in key for key in refused.get_json()["errors"])
