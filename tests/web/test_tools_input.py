"""The table tools read their whole state from the address: whatever it holds, the
answer is a page (a message at the field when a card is not one), never a server error.
Cards are read by the rules' card parser alone."""
from urllib.parse import quote_from_bytes

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fixtures import errors_in, new_game

BAD = ["ZZ", "1", "NaN", "QX", "10S,,X", "2C,2C", "1S", "QS,ZZ", "\x00", "♥", "%"]


@pytest.mark.parametrize("cards", BAD)
def test_a_card_that_is_not_one_is_a_message_not_a_server_error(client, cards):
    gid = new_game(client)
    for url in ("/tools/trick", f"/games/{gid}/trick"):
        r = client.get(url, query_string={"cards": cards})
        assert r.status_code == 400, (url, cards)
        assert errors_in(r.text), (url, cards)
        assert "Trick checker" in r.text  # the page, with what was a card kept


def test_the_cards_before_a_bad_one_stay(client):
    r = client.get("/tools/trick", query_string={"cards": "QS,KS,ZZ"})
    assert r.status_code == 400
    assert errors_in(r.text) == ["This is not a card: ZZ"]
    assert 'name="cards" value="QS,KS"' in r.text


def test_a_card_of_another_deck_in_polish(client):
    r = client.get("/tools/trick", query_string={"ruleset": "standard-3", "cards": "2C"},
                   headers={"Accept-Language": "pl"})
    assert r.status_code == 400
    assert errors_in(r.text) and "2♣" in errors_in(r.text)[0]


def test_good_cards_are_still_a_page(client):
    r = client.get("/tools/trick", query_string={"cards": "10s, QS"})
    assert r.status_code == 200
    assert errors_in(r.text) == []


KEYS = st.sampled_from(["cards", "ruleset", "contract", "leader", "trick", "trump", "moves",
                        "hand", "rank", "me", "play", "pass", "undo"]) | st.text(max_size=8)
CARDISH = st.lists(st.sampled_from(["QS", "10H", "2C", "AS", "KH", "ZZ", "1", "NaN", "", " ",
                                    "-", "10S", "QX", "♠"]), max_size=8).map(",".join)
VALUES = CARDISH | st.text(max_size=20) | st.integers().map(str)
#: Pairs, or any bytes as a raw query string (its "=", "&" and "%" left as they are).
QUERIES = st.lists(st.tuples(KEYS, VALUES), max_size=6) \
    | st.binary(max_size=60).map(lambda b: quote_from_bytes(b, safe="=&;,+%"))


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=QUERIES)
def test_no_address_makes_a_server_error(client, query):
    if not hasattr(client, "game_id"):
        client.game_id = new_game(client)
    for url in ("/tools/trick", f"/games/{client.game_id}/trick",
                f"/games/{client.game_id}/loteryjka"):
        r = client.get(url, query_string=query)
        assert r.status_code < 500, (url, query)
