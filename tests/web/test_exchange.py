"""CSV and JSON exports; the JSON import recreates a game exactly or changes nothing."""
import csv
import io
import json

import pytest

from scorekeeper.domain import service
from scorekeeper.web.db import get_db
from tests.fixtures import errors_in, new_game, post_deal, state

PLAYERS = ["Ala", "Bożena", "Czesław", "<b>Dżon</b>"]


@pytest.fixture
def played(app, client):
    gid = new_game(client, players=PLAYERS)
    post_deal(client, gid, 1, 1, {"tricks": [13, 0, 0, 0]})
    post_deal(client, gid, 2, 2, {"hearts": [0, 13, 0, 0]})
    post_deal(client, gid, 1, 3, {"tricks": [1, 2, 3, 7]})  # a correction, kept in history
    post_deal(client, gid, 3, 4, {"queens": [1, 1, 1, 1]})
    client.post(f"/games/{gid}/undo", data={"version": 5})  # an undo, kept too
    post_deal(client, gid, 3, 6, {"queens": [0, 0, 0, 4]})
    return gid


def game_count(app):
    with app.app_context():
        return get_db().execute("select count(*) from games").fetchone()[0]


def test_csv_one_row_per_deal_and_a_column_per_player(app, client, played):
    r = client.get(f"/games/{played}/export.csv")
    assert r.mimetype == "text/csv" and r.headers["Content-Disposition"].startswith("attachment")
    text = r.data.decode("utf-8")
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert rows[0][3:7] == PLAYERS
    assert [row[1] for row in rows[1:4]] == ["No tricks", "No hearts", "No queens"]
    assert rows[1][3:7] == ["-20", "-40", "-60", "-140"]
    assert rows[-1][3:7] == [str(t) for t in state(app, played).state.totals]
    assert rows[-1][11] == rows[-1][12] == "-760"


def test_json_export_has_everything(app, client, played):
    data = client.get(f"/games/{played}/export.json").get_json()
    assert data["format"] == "kierki-scorekeeper/game" and data["family"] == "kierki"
    assert data["players"] == PLAYERS
    assert data["ruleset"]["id"] == "standard-4" and "contracts" in data["ruleset"]
    assert [d["result"] for d in data["deals"]] == \
        [{"tricks": [1, 2, 3, 7]}, {"hearts": [0, 13, 0, 0]}, {"queens": [0, 0, 0, 4]}]
    assert [(h["number"], h["action"]) for h in data["history"]] == [(1, "edit"), (3, "undo")]


def test_json_round_trip_is_exact(app, client, played):
    exported = client.get(f"/games/{played}/export.json").data
    r = client.post("/games/import", data={"file": (io.BytesIO(exported), "game.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 302
    new_id = r.location.rsplit("/", 1)[1]
    assert new_id != played
    again = client.get(f"/games/{new_id}/export.json").get_json()
    before = json.loads(exported)
    before.pop("updated_at"), again.pop("updated_at")
    assert again == before
    old, new = state(app, played), state(app, new_id)
    assert new.state.totals == old.state.totals and new.players == old.players
    assert new.state.first_dealer == old.state.first_dealer


def test_a_file_exported_before_families_were_named_still_imports(app, client, played):
    """Older exports call the family "game", in the file and in its ruleset snapshot."""
    data = _exported(client, played)
    data["game"] = data.pop("family")
    data["ruleset"]["game"] = data["ruleset"].pop("family", "kierki")
    r = _import(client, data)
    assert r.status_code == 302, errors_in(r.text)
    again = state(app, r.location.rsplit("/", 1)[1])
    assert again.state.totals == state(app, played).state.totals
    assert again.family.key == "kierki"


def _import(client, body):
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    return client.post("/games/import", data={"file": (io.BytesIO(raw), "x.json")},
                       content_type="multipart/form-data")


def _exported(client, gid):
    return json.loads(client.get(f"/games/{gid}/export.json").data)


@pytest.mark.parametrize("change, message", [
    (lambda d: b"not json at all", "This is not a JSON file exported by this app."),
    (lambda d: b"[" * 100000, "This is not a JSON file exported by this app."),
    (lambda d: {**d, "format": "other"}, "This is not a JSON file exported by this app."),
    (lambda d: {**d, "players": "Ala"}, "The file has no list of players."),
    (lambda d: {**d, "players": ["Ala", "ala", "C", "D"]}, "Each player needs a different name."),
    (lambda d: {**d, "players": ["A", "B", "C"]}, "This ruleset is for 4 players."),
    (lambda d: {**d, "deals": [{"number": 1, "result": {"tricks": [13, 13, 0, 0]}}]},
     "These must add up to 13; they add up to 26."),
    (lambda d: {**d, "deals": d["deals"] * 5}, "Deal 4 in the file is not a numbered result."),
    (lambda d: {**d, "ruleset": {**d["ruleset"], "contracts": {
        **d["ruleset"]["contracts"], "no_tricks": {"kind": "exec", "points": 1}}}},
     "The rules in the file are damaged."),
    (lambda d: {**d, "ruleset": {**d["ruleset"], "contracts": {
        **d["ruleset"]["contracts"], "no_tricks": {"kind": "tricks", "points": "20"}}}},
     "The rules in the file are damaged."),
    (lambda d: {**d, "settings": {"first_dealer": 9}},
     "The first dealer in the file is not one of the players."),
    (lambda d: {**d, "history": [{"number": 1, "action": "drop table", "result": {},
                                  "replaced_at": "x"}]},
     "The correction history in the file is not readable."),
])
def test_hostile_imports_are_refused_and_change_nothing(app, client, played, change, message):
    before = game_count(app)
    r = _import(client, change(_exported(client, played)))
    assert r.status_code == 422
    assert message in errors_in(r.text)
    assert game_count(app) == before


def test_html_in_an_imported_name_is_shown_as_text(app, client, played):
    data = _exported(client, played)
    data["players"][0] = "<script>alert(1)</script>"
    r = _import(client, data)
    assert r.status_code == 302
    page = client.get(r.location).text
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_import_page_and_missing_file(client):
    assert client.get("/games/import").status_code == 200
    r = client.post("/games/import", data={}, content_type="multipart/form-data")
    assert r.status_code == 422 and "Choose a file." in errors_in(r.text)


def test_service_load_of_an_imported_game_replays(app, client, played):
    r = _import(client, _exported(client, played))
    with app.app_context():
        game = service.load(get_db(), r.location.rsplit("/", 1)[1])
    assert len(game.state.scored) == 3 and not game.state.finished


def test_a_huge_file_is_refused_before_it_is_parsed():
    # through the service: the test client would spool a large upload to a file it never closes
    from scorekeeper.outputs import exchange
    with pytest.raises(service.InvalidInput) as e:
        exchange.read(b" " * (exchange.MAX_BYTES + 1))
    assert e.value.problems[0].text() == "The file is larger than 1024 kB."
