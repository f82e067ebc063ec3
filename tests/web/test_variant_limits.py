"""A server keeps a bounded number of house variants, and lists rulesets a page at a time
(issue 26: 2,000 variants made every page that lists them slow for everyone)."""
import pytest

from scorekeeper import create_app
from scorekeeper.web import api


@pytest.fixture
def app(tmp_path):
    return create_app({"DATABASE": str(tmp_path / "t.sqlite"), "SECRET_KEY": "t",
                       "TESTING": True, "WTF_CSRF_ENABLED": False, "MAX_VARIANTS": 3})


def document(client, n):
    data = client.get("/api/rulesets/standard-4").get_json()
    for key in ("id", "source", "summary", "notes", "expected_sum"):
        data.pop(key, None)
    data["name"] = {"en": f"House {n}", "pl": f"Dom {n}"}
    return data


def test_no_more_variants_than_the_server_keeps(client):
    for n in range(3):
        assert client.post("/api/rulesets", json=document(client, n)).status_code == 201
    r = client.post("/api/rulesets", json=document(client, 3), headers={"Accept-Language": "pl"})
    assert r.status_code == 422
    assert "komplet wariantów domowych (limit: 3)" in str(r.get_json())
    assert len([x for x in client.get("/api/rulesets").get_json()
                if x["id"].startswith("house-")]) == 3


def test_rulesets_are_listed_a_page_at_a_time(client, monkeypatch):
    monkeypatch.setattr(api, "RULESETS_PAGE", 4)
    for n in range(3):
        client.post("/api/rulesets", json=document(client, n))
    seen, url = [], "/api/rulesets"
    while url:
        r = client.get(url)
        assert r.status_code == 200 and len(r.get_json()) <= 4
        seen += [x["id"] for x in r.get_json()]
        link = r.headers.get("Link")
        url = link.split(">")[0].lstrip("<") if link else None
    assert len(seen) == len(set(seen)) and sum(s.startswith("house-") for s in seen) == 3
    assert "standard-4" in seen and "tybet-21" in seen
    assert client.get("/api/rulesets?page=0").status_code == 422
    assert client.get("/api/rulesets?page=x").status_code == 422
