"""One gzip, at one level, for the answers to reads: Accept-Encoding is read with its
weights, the ETag says which body the client has, and a write's answer is not gzipped."""
import gzip

from scorekeeper.families.kierki.rules import get_ruleset
from tests.fixtures import authorize, new_game, results_for

RESULTS = results_for(get_ruleset("standard-4"))


def test_gzip_when_accepted_and_never_when_refused_by_weight(client):
    gid = new_game(client)
    plain = client.get(f"/games/{gid}")
    for accepted in ("gzip", "gzip, deflate, br", "deflate;q=0.5, gzip;q=0.9", "*"):
        r = client.get(f"/games/{gid}", headers={"Accept-Encoding": accepted})
        assert r.headers.get("Content-Encoding") == "gzip", accepted
        assert gzip.decompress(r.data) == plain.data
        assert r.headers["ETag"].endswith(':gzip"')
    for refused in ("gzip;q=0", "identity", "deflate", "gzip;q=0, deflate"):
        r = client.get(f"/games/{gid}", headers={"Accept-Encoding": refused})
        assert "Content-Encoding" not in r.headers, refused
        assert r.data == plain.data


def test_each_encoding_has_its_own_etag_and_304(client):
    gid = new_game(client)
    packed = client.get(f"/games/{gid}", headers={"Accept-Encoding": "gzip"})
    plain = client.get(f"/games/{gid}")
    assert packed.headers["ETag"] != plain.headers["ETag"]
    again = client.get(f"/games/{gid}", headers={"Accept-Encoding": "gzip",
                                                  "If-None-Match": packed.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    other = client.get(f"/games/{gid}", headers={"If-None-Match": packed.headers["ETag"]})
    assert other.status_code == 200 and other.data == plain.data


def test_the_api_and_the_sheet_answer_304_the_same_way(client):
    gid = new_game(client)
    for path in (f"/api/games/{gid}", f"/games/{gid}/sheet.pdf", f"/games/{gid}/export.csv"):
        first = client.get(path, headers={"Accept-Encoding": "gzip"})
        assert first.status_code == 200 and first.headers.get("ETag"), path
        again = client.get(path, headers={"Accept-Encoding": "gzip",
                                          "If-None-Match": first.headers["ETag"]})
        assert again.status_code == 304, path
        assert again.headers["Content-Security-Policy"]  # the same headers, no body


def test_a_writes_answer_is_not_gzipped(app, client):
    gid = new_game(client)
    authorize(client, app, gid)
    r = client.put(f"/api/games/{gid}/deals/1", json={"version": 1, "result": RESULTS[0]},
                   headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200 and "Content-Encoding" not in r.headers
    assert r.get_json()["version"] == 2
