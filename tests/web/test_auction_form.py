"""A trump auction entered through the HTML form, as a phone at the table sends it (with
its CSRF token), in English and in Polish: what the form offers, what it refuses and says,
and what it records."""
import re
from html import unescape

import pytest

from scorekeeper import create_app
from scorekeeper.families.kierki.rules.examples import SAMPLE_GAME_4
from tests.fixtures import errors_in, form_values, state

# Seats 0–3 sit North, East, South, West; Edyta (East) deals first, so Norbert (North)
# deals deal 8, the first trump deal: the worked example of seed 004.
PLAYERS = ["Norbert", "Edyta", "Stefan", "Wanda"]
PL = {"Accept-Language": "pl-PL,pl;q=0.9"}
#: West (Wanda) bids 125, North accepts; tricks N 2, E 1, S 4, W 6.
SOLD = {"bids-0": "", "bids-1": "", "bids-2": "", "bids-3": "125", "sold": "yes",
        "tricks-0": "2", "tricks-1": "1", "tricks-2": "4", "tricks-3": "6", "trump": "H"}


def token(html):
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)


@pytest.fixture
def app(tmp_path):
    return create_app({"DATABASE": str(tmp_path / "auction.sqlite"), "SECRET_KEY": "test",
                       "TESTING": True, "PDF_CACHE_DIR": str(tmp_path / "sheets")})  # CSRF on


@pytest.fixture
def table(app, client):
    """A game of the auction variant, seven deals in: (game id, its page's CSRF token)."""
    data = client.get("/api/rulesets/standard-4").get_json()
    for key in ("id", "source", "summary", "notes", "expected_sum"):
        data.pop(key)
    data["name"] = {"en": "Auction", "pl": "Licytacja"}
    data["contracts"]["trumps"]["auction"] = True
    rid = client.post("/api/rulesets", json=data).get_json()["id"]
    setup = client.get("/games/new").text
    assert rid in setup
    r = client.post("/games/new", data={"csrf_token": token(setup), "ruleset": rid,
                                        "first_dealer": "1", **{f"player_{i}": p for i, p in
                                                                enumerate(PLAYERS)}})
    assert r.status_code == 302
    gid = r.location.rsplit("/", 1)[1]
    for number, raw in enumerate(SAMPLE_GAME_4[:7], start=1):
        page = client.get(f"/games/{gid}").text
        r = client.post(f"/games/{gid}/deals/{number}", data={
            "csrf_token": token(page), "version": state(app, gid).version, **form_values(raw)})
        assert r.status_code == 302, errors_in(r.text)
    return gid, token(client.get(f"/games/{gid}").text)


def bid_input(html, seat):
    """The bid input of ``seat`` as the page has it (one tag)."""
    return re.search(rf'<input id="bids-{seat}" [^>]*>', html).group(0)


def send(client, app, gid, csrf, fields, headers=None):
    data = {"csrf_token": csrf, "version": state(app, gid).version, **fields}
    return client.post(f"/games/{gid}/deals/8", data=data, headers=headers or {})


def test_the_form_offers_a_bid_to_everyone_but_the_dealer(client, table):
    gid, _ = table
    page = client.get(f"/games/{gid}").text
    assert "Deal 8 of 12" in page
    assert "Norbert deals 12 cards to each player and lays the last 4 face up: the box." in (
        unescape(page))
    assert 'name="bids-0"' not in page  # Norbert deals: no bid
    for seat in (1, 2, 3):  # a typed number each, empty for no bid
        assert 'type="text" inputmode="numeric"' in bid_input(page, seat)
        assert 'placeholder="no bid" value=""' in bid_input(page, seat)
    polish = client.get(f"/games/{gid}", headers=PL).text
    assert 'placeholder="brak"' in bid_input(polish, 1)
    assert page.index('name="bids-1"') < page.index('name="sold"') \
        < page.index('name="tricks-0"') < page.index('name="trump"')  # one tap to finish
    assert "Dealer accepts the highest bid" in page and "Dealer refuses, or nobody bid" in page
    assert "Najwyższe oferty za musik" in polish
    assert "Rozdający przyjmuje najwyższą ofertę" in polish
    assert "Norbert rozdaje każdemu po 12 kart" in polish


@pytest.mark.parametrize("fields, headers, message", [
    ({**SOLD, "bids-3": "-125"}, PL, "Oferta to liczba całkowita punktów od 1 do 10000."),
    ({**SOLD, "bids-3": "-125"}, {}, "A bid is a whole number of points from 1 to 10000."),
    ({k: v for k, v in SOLD.items() if k != "sold"}, PL,
     "Zaznacz, czy rozdający przyjmuje najwyższą ofertę, czy odmawia."),
    ({**SOLD, "bids-1": "125"}, {}, ("Two players cannot both hold the highest bid: the "
                                    "auction goes on until one of them bids more.")),
    ({**SOLD, "bids-3": ""}, PL, "Nikt nie licytował, więc nie ma oferty do przyjęcia."),
    ({**SOLD, "bids-0": "100"}, {}, "The dealer does not bid."),  # a forged post
])
def test_a_bad_auction_is_refused_in_the_players_language(client, app, table, fields,
                                                          headers, message):
    gid, csrf = table
    before = state(app, gid)
    r = send(client, app, gid, csrf, fields, headers)
    assert r.status_code == 422
    assert message in errors_in(r.text)
    if fields.get("bids-3") == "-125":  # what was typed stays, marked
        assert 'value="-125" aria-invalid="true"' in bid_input(r.text, 3)
    after = state(app, gid)
    assert after.version == before.version and len(after.state.scored) == 7
    assert after.state.totals == before.state.totals


def test_the_worked_example_through_the_form_then_corrected(client, app, table):
    gid, csrf = table
    before = state(app, gid).state.totals
    r = send(client, app, gid, csrf, SOLD)
    assert r.status_code == 302, errors_in(r.text)
    saved = state(app, gid)
    assert saved.stored.results[7] == {"bids": [None, None, None, 125], "sold": True,
                                       "tricks": [2, 1, 4, 6], "trump": "H"}
    assert saved.state.scored[7].points == [175, 25, 100, 25]
    assert saved.state.totals == [t + p for t, p in zip(before, [175, 25, 100, 25])]
    page = client.get(f"/games/{gid}").text
    assert "Deal 8: Norbert +175, Edyta +25, Stefan +100, Wanda +25" in page
    assert "Deal 9 of 12" in page and 'name="bids-1"' not in page  # Edyta deals now
    # the bids in the order they are made: from the dealer's left (Stefan, Wanda, Norbert)
    assert page.index('id="bids-2"') < page.index('id="bids-3"') < page.index('id="bids-0"')
    sheet = client.get(f"/games/{gid}/sheet", headers=PL).text
    assert "Wanda kupuje za 125" in sheet

    # the correction page shows the stored answer; North refused after all
    edit = client.get(f"/games/{gid}/deals/8/edit").text
    assert 'value="125"' in bid_input(edit, 3)
    assert 'name="sold" value="yes" checked' in edit
    r = client.post(f"/games/{gid}/deals/8", data={
        "csrf_token": token(edit), "version": state(app, gid).version,
        **SOLD, "sold": "no"}, headers=PL)
    assert r.status_code == 302, errors_in(r.text)
    assert state(app, gid).state.scored[7].points == [50, 25, 100, 150]
    history = client.get(f"/games/{gid}/deals/8/edit", headers=PL).text
    assert "Musik kupuje Wanda za 125" in history
    assert 'name="sold" value="no" checked' in history
    english = client.get(f"/games/{gid}/deals/8/edit").text
    assert "Bought by Wanda for 125" in english
