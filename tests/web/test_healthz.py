"""``GET /healthz``: what a container's health check and a monitor read."""
import os
from pathlib import Path

from scorekeeper import create_app

from .test_schemas import valid


def _files(app):
    path = Path(app.config["DATABASE"])
    return [path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")]


def test_a_server_with_its_database_answers_ok(client):
    r = client.get("/healthz")
    assert r.status_code == 200
    assert r.get_json() == {"status": "ok"}
    assert "Set-Cookie" not in r.headers  # no session opened
    assert r.headers["Cache-Control"] == "no-store"  # no cache or proxy keeps it


def test_a_removed_database_is_unavailable_and_not_made_anew(app, client):
    ok = client.get("/healthz")  # a pooled connection is open
    assert ok.status_code == 200
    for f in _files(app):
        f.unlink(missing_ok=True)
    r = client.get("/healthz", headers={"If-None-Match": ok.headers["ETag"]})  # read anew
    assert r.status_code == 503
    assert r.get_json() == {"status": "unavailable"}
    assert not Path(app.config["DATABASE"]).exists()  # no empty database made in its place


def test_a_file_that_is_no_database_is_unavailable(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "kierki.sqlite"), "SECRET_KEY": "t",
                      "TESTING": True})
    for f in _files(app):
        f.unlink(missing_ok=True)
    Path(app.config["DATABASE"]).write_bytes(os.urandom(4096))  # a damaged or foreign file
    r = app.test_client().get("/healthz")
    assert r.status_code == 503
    assert r.get_json() == {"status": "unavailable"}


def test_the_database_back_in_place_is_ok_again(app, client):
    path = Path(app.config["DATABASE"])
    aside = path.with_name("aside.sqlite")
    path.rename(aside)
    assert client.get("/healthz").status_code == 503
    aside.rename(path)
    assert client.get("/healthz").status_code == 200


def test_the_openapi_document_describes_both_answers(client):
    document = client.get("/api/openapi.json").get_json()
    answers = document["paths"]["/healthz"]["get"]["responses"]
    assert {"200", "503"} <= set(answers)
    schema = answers["200"]["content"]["application/json"]["schema"]
    assert valid(client.get("/healthz").get_json(), schema, document)
    assert valid({"status": "unavailable"}, answers["503"]["content"]["application/json"]
                 ["schema"], document)
