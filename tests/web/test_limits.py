"""Per-client rate limits (issue 26): a stranger on the same server cannot guess join
codes or the host's password at thousands a second, nor fill the server with games and
variants; a table that types its code right is never slowed down."""
import pytest

from scorekeeper import create_app
from scorekeeper.web import limits

PLAYERS = ["Ala", "Bolek", "Cela", "Darek"]
PL = {"Accept-Language": "pl"}


def per_minute(limit: str) -> int:
    return int(limit.split(" per minute")[0])


@pytest.fixture
def app(tmp_path):
    return create_app({"DATABASE": str(tmp_path / "test.sqlite"), "SECRET_KEY": "test",
                       "TESTING": True, "WTF_CSRF_ENABLED": False,
                       "ADMIN_PASSWORD": "sekret", "PDF_CACHE_DIR": str(tmp_path / "sheets")})


def new_game(client):
    r = client.post("/api/games", json={"ruleset": "standard-4", "players": PLAYERS,
                                        "first_dealer": 0})
    return r


def test_wrong_join_codes_are_refused_429_after_a_few_dozen_a_minute(client):
    code = new_game(client).get_json()["join_code"]
    wrong = "ZZZZZZ" if code != "ZZZZZZ" else "YYYYYY"
    for _ in range(per_minute(limits.JOIN)):
        assert client.post("/api/join", json={"code": wrong}).status_code == 404
    r = client.post("/api/join", json={"code": wrong}, headers=PL)
    assert r.status_code == 429
    assert int(r.headers["Retry-After"]) >= 1
    assert r.get_json()["error"] == ("Za dużo prób z tego urządzenia. Odczekaj minutę i "
                                     "spróbuj jeszcze raz.")
    # the right code too, now: the guesser does not learn which code is live
    assert client.post("/api/join", json={"code": code}).status_code == 429
    # another device is not held back by this one
    other = client.application.test_client()
    other.environ_base["REMOTE_ADDR"] = "192.0.2.7"
    assert other.post("/api/join", json={"code": code}).status_code == 200


def test_right_codes_do_not_count(client):
    code = new_game(client).get_json()["join_code"]
    for _ in range(per_minute(limits.JOIN) * 2):
        assert client.post("/api/join", json={"code": code}).status_code == 200
        assert client.post("/join", data={"code": code}).status_code == 302


def test_the_join_form_and_link_count_wrong_codes_too(client):
    new_game(client)
    for _ in range(per_minute(limits.JOIN)):
        assert client.get("/join/ZZZZZZ").status_code == 302
    page = client.post("/join", data={"code": "ZZZZZZ"}, headers=PL)
    assert page.status_code == 429
    assert "Za dużo prób z tego urządzenia" in page.text


def test_game_creation_is_limited_per_client(client):
    for _ in range(per_minute(limits.CREATE)):
        assert new_game(client).status_code == 201
    assert new_game(client).status_code == 429
    assert client.post("/games/new", data={"ruleset": "standard-4", "first_dealer": "0",
                                           **{f"player_{i}": p for i, p in enumerate(PLAYERS)}
                                           }).status_code == 429
    assert client.get("/games/new").status_code == 200  # the form itself is not counted


def test_wrong_host_passwords_are_limited(client):
    for _ in range(per_minute(limits.LOGIN)):
        assert client.post("/admin/", data={"password": "guess"}).status_code == 403
    assert client.post("/admin/", data={"password": "sekret"}).status_code == 429


def test_house_variants_made_are_limited(client):
    data = client.get("/api/rulesets/standard-4").get_json()
    for key in ("id", "source", "summary", "notes", "expected_sum"):
        data.pop(key, None)
    made = []
    for n in range(per_minute(limits.VARIANTS)):
        data["name"] = {"en": f"House {n}", "pl": f"Dom {n}"}
        r = client.post("/api/rulesets", json=data)
        assert r.status_code == 201, r.get_json()
        made.append(r)
    data["name"] = {"en": "One more", "pl": "Jeszcze jeden"}
    assert client.post("/api/rulesets", json=data).status_code == 429
