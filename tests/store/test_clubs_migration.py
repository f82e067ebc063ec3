"""Migration 0013 (issue 36) on a database made by the server before clubs: everything
goes into the home club, and every page and figure reads as it did.

``data/main-4a1b4ea.sqlite`` was made by commit 4a1b4ea's own code (the main branch when
clubs began: ``data/make_main_db.py``): three games (one unfinished), a tournament whose
first table finished, a person renamed; ``data/main-4a1b4ea.json`` is what that server's
API answered about them."""
import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from scorekeeper import create_app

DATA = Path(__file__).parent / "data"


@pytest.fixture
def migrated(tmp_path):
    path = tmp_path / "old.sqlite"
    shutil.copy(DATA / "main-4a1b4ea.sqlite", path)
    app = create_app({"DATABASE": str(path), "SECRET_KEY": "main", "TESTING": True,
                      "WTF_CSRF_ENABLED": False, "PDF_CACHE_DIR": str(tmp_path / "sheets")})
    return app, path, json.loads((DATA / "main-4a1b4ea.json").read_text())


def test_everything_of_an_older_server_is_in_the_home_club(migrated):
    _, path, _ = migrated
    conn = sqlite3.connect(path)
    assert conn.execute("select id, name, public from clubs").fetchall() == [("home", "", 1)]
    for table in ("people", "games", "tournaments", "rulesets"):
        assert conn.execute(f"select distinct club_id from {table}").fetchall() in (
            [("home",)], []), table
    assert conn.execute("select count(*) from games").fetchone()[0] == 5
    assert conn.execute("select count(*) from people").fetchone()[0] == 12
    conn.close()


def test_the_api_answers_as_the_older_server_did(migrated):
    app, _, before = migrated
    client = app.test_client()
    assert client.get("/api/players").get_json() == before["players"]
    for pid, answer in before["player"].items():
        assert client.get(f"/api/players/{pid}").get_json() == answer, pid
    t = before["tournament"]
    assert client.get(f"/api/tournaments/{t['id']}").get_json() == t["answer"]
    page = client.get("/players").text
    assert [name for name in before["players_page"] if name in page] == before["players_page"]


def test_names_typed_after_the_migration_are_the_people_of_before(migrated):
    app, _, before = migrated
    client = app.test_client()
    ids = {p["name"]: p["id"] for p in before["players"]}
    made = client.post("/api/games", json={"ruleset": "standard-4", "first_dealer": 0,
                                           "players": ["ala", "EWELINA", "Cela", "Nowy"]})
    assert made.status_code == 201
    after = {p["name"]: p for p in client.get("/api/players").get_json()}
    assert [p["name"] for p in made.get_json()["players"]] == ["Ala", "Ewelina", "Cela", "Nowy"]
    assert after["Ala"]["id"] == ids["Ala"] and after["Ewelina"]["id"] == ids["Ewelina"]
    assert set(after) == {*ids, "Nowy"}
