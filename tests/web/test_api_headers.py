"""What the API's headers say: ``Retry-After`` only on an answer that asks to wait (429,
503), ``WWW-Authenticate`` on every 401."""
from scorekeeper.web import limits

NAMES = ["Ala", "Bolek", "Cela", "Darek"]


def test_retry_after_rides_only_on_429_and_503(client):
    made = client.post("/api/games", json={"ruleset": "standard-4", "players": NAMES})
    assert made.status_code == 201 and "Retry-After" not in made.headers
    for r in (client.post("/api/games", json={"ruleset": "standard-4", "players": ["A"]}),
              client.post("/api/games", data="x", content_type="application/json"),
              client.post("/api/games", data="x", content_type="text/plain"),
              client.post("/api/join", json={"code": "ZZZZZZZZ"})):
        assert r.status_code in (400, 404, 415, 422), r.status_code
        assert "Retry-After" not in r.headers, r.status_code
    for _ in range(int(limits.JOIN_PHONE.split(" per ")[0])):
        client.post("/api/join", json={"code": "ZZZZZZZZ"})
    refused = client.post("/api/join", json={"code": "ZZZZZZZZ"})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1


def test_a_401_says_how_to_authenticate(client):
    made = client.post("/api/games", json={"ruleset": "standard-4", "players": NAMES}
                       ).get_json()
    r = client.put(f"/api/games/{made['id']}/deals/1", json={"version": 1, "result": {}})
    assert r.status_code == 401
    assert r.headers["WWW-Authenticate"].startswith("Bearer")
    club = client.post("/api/clubs", json={"name": "Czwartki"}).get_json()
    r = client.patch(f"/api/clubs/{club['id']}", json={"public": False})
    assert r.status_code == 401 and r.headers["WWW-Authenticate"].startswith("Bearer")
