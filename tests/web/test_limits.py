"""Per-client rate limits (issues 26 and 32): a stranger on the same server cannot guess
join codes or the host's password at thousands a second, nor fill the server with games
and variants; a table that types its code right is never slowed down, and a club's
phones behind one address are not held back by each other's typos."""
import pytest

from scorekeeper import create_app
from scorekeeper.storage import game_reads
from scorekeeper.web import limits
from scorekeeper.web.db import get_db

PLAYERS = ["Ala", "Bolek", "Cela", "Darek"]
PL = {"Accept-Language": "pl"}


def first(limit: str) -> int:
    """How many a limit allows in its shortest window ("2000 per 10 minutes; …": 2000)."""
    return int(limit.split(" per ")[0])


def make_app(tmp_path):
    return create_app({"DATABASE": str(tmp_path / "test.sqlite"), "SECRET_KEY": "test",
                       "TESTING": True, "WTF_CSRF_ENABLED": False,
                       "ADMIN_PASSWORD": "sekret", "PDF_CACHE_DIR": str(tmp_path / "sheets")})


@pytest.fixture
def app(tmp_path):
    return make_app(tmp_path)


def new_game(client):
    return client.post("/api/games", json={"ruleset": "standard-4", "players": PLAYERS,
                                           "first_dealer": 0})


def phone_at(app, address, cookies=True):
    client = app.test_client(use_cookies=cookies)
    client.environ_base["REMOTE_ADDR"] = address
    return client


def wrong_code(right):
    return "ZZZZZZZZ" if right != "ZZZZZZZZ" else "YYYYYYYY"


def test_wrong_join_codes_are_refused_429_after_a_few_a_minute_per_phone(client):
    code = new_game(client).get_json()["join_code"]
    wrong = wrong_code(code)
    for _ in range(first(limits.JOIN_PHONE)):
        assert client.post("/api/join", json={"code": wrong}).status_code == 404
    r = client.post("/api/join", json={"code": wrong}, headers=PL)
    assert r.status_code == 429
    assert 1 <= int(r.headers["Retry-After"]) <= 60
    assert r.get_json()["error"] == ("Za dużo prób z tego urządzenia. Spróbuj ponownie za "
                                     "1 minutę albo zeskanuj kod QR stołu: dołącza od razu.")
    # the right code too, now: the guesser does not learn which code is live
    assert client.post("/api/join", json={"code": code}).status_code == 429
    # another phone is not held back by this one, at another address or at the same one
    for address in ("192.0.2.7", "127.0.0.1"):
        other = phone_at(client.application, address)
        assert other.post("/api/join", json={"code": code}).status_code == 200


def test_right_codes_do_not_count(client):
    code = new_game(client).get_json()["join_code"]
    for _ in range(first(limits.JOIN_PHONE) * 2):
        assert client.post("/api/join", json={"code": code}).status_code == 200
        assert client.post("/join", data={"code": code}).status_code == 302


def test_the_join_form_and_link_count_wrong_codes_too(client):
    new_game(client)
    for _ in range(first(limits.JOIN_PHONE)):
        assert client.get("/join/ZZZZZZZZ").status_code == 302
    page = client.post("/join", data={"code": "ZZZZZZZZ"}, headers=PL)
    assert page.status_code == 429
    assert "Za dużo prób z tego urządzenia" in page.text


def test_one_phones_many_wrong_codes_do_not_stop_another_at_the_same_address(app):
    code = new_game(app.test_client()).get_json()["join_code"]
    guesser = phone_at(app, "198.51.100.1")
    for _ in range(25):  # well past its own limit
        guesser.post("/join", data={"code": wrong_code(code)})
    assert guesser.post("/join", data={"code": code}).status_code == 429
    neighbour = phone_at(app, "198.51.100.1")
    assert neighbour.post("/join", data={"code": wrong_code(code)}).status_code == 302
    r = neighbour.post("/join", data={"code": code})
    assert r.status_code == 302 and "/games/" in r.location


def test_a_club_behind_one_address_joins_at_round_start(app):
    """600 phones of a 150-table club behind one NAT, each with a typo first: no 429."""
    codes = [new_game(app.test_client()).get_json()["join_code"] for _ in range(150)]
    for n in range(600):
        phone = phone_at(app, "203.0.113.50")
        code = codes[n // 4]
        typo = code[:-1] + ("Z" if code[-1] != "Z" else "Y")
        assert phone.post("/join", data={"code": typo}).status_code == 302
        joined = phone.post("/join", data={"code": f"{code[:4]} {code[4:]}"})
        assert joined.status_code == 302 and "/games/" in joined.location, n


def test_fresh_cookies_and_forged_addresses_still_meet_the_address_limit(app):
    """A guesser dropping its cookie every time escapes the phone's limit and meets the
    address's; a new X-Forwarded-For each time changes nothing (no proxy is trusted)."""
    code = new_game(app.test_client()).get_json()["join_code"]
    allowed = first(limits.JOIN_ADDRESS)
    assert allowed >= 600 * 3  # three typos for each phone of a 600-phone club
    for n in range(allowed):
        guesser = phone_at(app, "198.51.100.9", cookies=False)
        forged = {"X-Forwarded-For": f"10.{n // 65536}.{n // 256 % 256}.{n % 256}",
                  "X-Real-IP": f"10.9.{n // 256 % 256}.{n % 256}"}
        assert guesser.post("/api/join", json={"code": wrong_code(code)},
                            headers=forged).status_code == 404, n
    r = phone_at(app, "198.51.100.9", cookies=False).post(
        "/api/join", json={"code": code}, headers={"X-Forwarded-For": "10.200.0.1", **PL})
    assert r.status_code == 429
    assert "wszystkie telefony pod tym adresem" in r.get_json()["error"]
    assert 60 < int(r.headers["Retry-After"]) <= 600
    # the address is held back, another is not
    assert phone_at(app, "198.51.100.10").post("/api/join", json={"code": code}
                                               ).status_code == 200


def tournament(client, players=1000):
    return client.post("/api/tournaments", json={
        "name": "Club night", "players": [f"Player {n}" for n in range(players)],
        "rounds": 5, "rulesets": {"4": "standard-4"}})


def test_game_creation_is_limited_by_the_games_made(app, client):
    """A tournament costs its tables, a rematch one game, a game one: 600 in ten minutes."""
    allowed = first(limits.CREATE)
    assert allowed >= 250  # a 1,000-player tournament's round
    made = tournament(client)  # 250 games
    assert made.status_code == 201 and len(made.get_json()["round"]["tables"]) == 250
    assert tournament(client, 800).status_code == 201  # 200 more: 450
    gid = None
    for _ in range(allowed - 450 - 1):
        r = new_game(client)
        assert r.status_code == 201
        gid = r.get_json()["id"]
    from tests.fixtures import join
    join(client, app, gid)  # a phone of the table asks for its rematch
    assert client.post(f"/games/{gid}/rematch").status_code == 302  # the 600th
    assert client.post(f"/games/{gid}/rematch").status_code == 429
    r = new_game(client)
    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 60
    assert r.get_json()["error"] == ("Too many new games from this network. Wait a few "
                                     "minutes and try again, or ask the host.")
    assert client.post("/games/new", data={"ruleset": "standard-4", "first_dealer": "0",
                                           **{f"player_{i}": p for i, p in enumerate(PLAYERS)}
                                           }).status_code == 429
    assert client.get("/games/new").status_code == 200  # the form itself is not counted
    with app.app_context():
        assert game_reads.count_games(get_db()) == allowed
    assert new_game(phone_at(app, "192.0.2.44")).status_code == 201  # another address


def test_refused_creations_cost_nothing(app, client):
    app.config["MAX_GAMES"] = 10
    for _ in range(first(limits.CREATE) // 25 + 1):
        assert tournament(client, 100).status_code == 422  # 25 games would not fit
    assert new_game(client).status_code == 201


def test_wrong_host_passwords_are_limited(client):
    for _ in range(first(limits.LOGIN)):
        assert client.post("/admin/", data={"password": "guess"}).status_code == 403
    assert client.post("/admin/", data={"password": "sekret"}).status_code == 429


def test_house_variants_made_are_limited(client):
    data = client.get("/api/rulesets/standard-4").get_json()
    for key in ("id", "source", "summary", "notes", "expected_sum"):
        data.pop(key, None)
    made = []
    for n in range(first(limits.VARIANTS)):
        data["name"] = {"en": f"House {n}", "pl": f"Dom {n}"}
        r = client.post("/api/rulesets", json=data)
        assert r.status_code == 201, r.get_json()
        made.append(r)
    data["name"] = {"en": "One more", "pl": "Jeszcze jeden"}
    assert client.post("/api/rulesets", json=data).status_code == 429


def test_at_the_game_cap_the_host_is_told_and_the_tables_play_on(app, client, caplog):
    from tests.fixtures import become_host
    app.config["MAX_GAMES"] = 2
    game = new_game(client).get_json()
    assert new_game(client).status_code == 201
    with caplog.at_level("WARNING"):
        refused = new_game(client)
        assert refused.status_code == 422 and "2" in refused.get_json()["errors"][""][0]
        assert tournament(client, 8).status_code == 422
    told = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len(told) == 2 and all("MAX_GAMES" in m and "/admin" in m for m in told)
    assert "a tournament's round (2 game(s))" in told[1]
    # a table already playing goes on
    auth = {"Authorization": f"Bearer {game['token']}"}
    dealt = client.put(f"/api/games/{game['id']}/deals/1", headers=auth,
                       json={"version": game["version"], "result": {"tricks": [13, 0, 0, 0]}})
    assert dealt.status_code == 200
    host = become_host(app.test_client())
    page = host.get("/admin/").text
    assert "This server keeps 2 of the 2 games it may keep." in page
    assert "refused until finished games are deleted" in page
    app.config["MAX_GAMES"] = 10_000
    page = host.get("/admin/", headers=PL).text
    assert "Ten serwer przechowuje 2 z 10\xa0000 gier" in page and "odrzucane" not in page


def test_two_server_processes_on_one_database_count_a_client_together(app, tmp_path):
    """Two apps on one database file stand for two ``kierki serve`` processes: the counts
    are in the file beside it, not in either process."""
    other = make_app(tmp_path)
    assert other.config["RATELIMIT_STORAGE_URI"] == app.config["RATELIMIT_STORAGE_URI"] \
        == f"sqlite:///{(tmp_path / 'limits.sqlite').resolve()}"
    one, two = phone_at(app, "192.0.2.9"), phone_at(other, "192.0.2.9")
    for n in range(first(limits.LOGIN)):  # the wrong passwords shared between the two
        guesser = one if n % 2 else two
        assert guesser.post("/admin/", data={"password": "guess"}).status_code == 403
    assert one.post("/admin/", data={"password": "sekret"}).status_code == 429
    assert two.post("/admin/", data={"password": "sekret"}).status_code == 429
    # another address is its own count, on either
    assert phone_at(other, "192.0.2.10").post(
        "/admin/", data={"password": "sekret"}).status_code in (200, 302, 303)
