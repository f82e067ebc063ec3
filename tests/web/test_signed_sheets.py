"""Sheets that say what happened: a signature made in the app is printed on the game's
score sheet (above its player's line, when, by which right) and on the tournament's
results (who, when, the director's own); the results' table lines say seats as seats
and places as places, in Polish and English."""
import re

from scorekeeper.domain import service, tournaments
from scorekeeper.web.db import get_db
from tests.store.test_tournaments import finish
from tests.web.test_sheets import pdf_text, poppler  # noqa: F401 (a fixture)

SIXTEEN = [f"Gracz {c}" for c in "ABCDEFGHIJKLMNOP"]
PL, EN = {"Accept-Language": "pl"}, {"Accept-Language": "en"}


def signed_night(app):
    """A round of four tables, every game over: table 1 signed by two of its players,
    table 2 by the director, table 3 by one player, table 4 not at all."""
    with app.app_context():
        db = get_db()
        t = tournaments.create(db, "Czwartek", SIXTEEN, 1, {"4": "standard-4"}, seed="s")
        for i, table in enumerate(t.rounds[0]):
            game = finish(db, table.game_id, loser_seat=i)
            for seat, by in {0: [(0, "table"), (2, "table")], 1: [(-1, "director")],
                             2: [(1, "table")]}.get(i, []):
                game = service.sign(db, game, seat, game.version, by)
        return tournaments.load(db, t.id)


def test_the_results_name_seats_places_and_signatures(app, client):
    t = signed_night(app)
    data = client.get(f"/tournaments/{t.id}/results.json").get_json()
    tables = data["rounds"][0]["tables"]
    first = tables[0]
    assert [p["seat"] for p in first["players"]] == [1, 2, 3, 4]
    assert sorted(p["place"] for p in first["players"]) == [1, 2, 2, 4]
    assert first["players"][0]["place"] == 4  # seat 1 took every penalty: last
    assert [(s["seat"], s["player"], s["by"]) for s in first["signatures"]] == [
        (1, t.name_of(t.rounds[0][0].seats[0]), "table"),
        (3, t.name_of(t.rounds[0][0].seats[2]), "table")]
    assert [(s["seat"], s["by"]) for s in tables[1]["signatures"]] == [(None, "director")]
    assert tables[3]["signatures"] == []


def test_the_results_pdf_prints_them(app, client, tmp_path, poppler):  # noqa: F811
    t = signed_night(app)
    seated = [t.name_of(n) for n in t.rounds[0][0].seats]
    for headers, words in ((PL, ("Miejsce przy stole", "Lokata w grze", "Podpisane w aplikacji:",
                                 "sędzia", "bez podpisu", "jeszcze niepotwierdzone")),
                           (EN, ("Seat", "Place in the game", "Signed in the app:",
                                 "the director", "not signed", "not confirmed yet"))):
        text = re.sub(r"\s+", " ", pdf_text(client.get(f"/tournaments/{t.id}/results.pdf",
                                                       headers=headers).data, tmp_path))
        for word in words:
            assert word in text, word
        # table 1: its seat 1 is its last (4th) place, its signers named with the time
        assert re.search(rf"1 {seated[0]} −\d+ 4", text)
        assert re.search(rf"{seated[0]} \d{{1,2}}:\d\d(\s?[AP]M)?; {seated[2]} \d", text)


def test_the_score_sheet_prints_the_signatures_made_in_the_app(app, client, tmp_path,
                                                                 poppler):  # noqa: F811
    t = signed_night(app)
    one, two = t.rounds[0][0].game_id, t.rounds[0][1].game_id
    text = pdf_text(client.get(f"/games/{one}/sheet.pdf", headers=PL).data, tmp_path)
    assert text.count("✓ ") >= 3  # two signatures, the note
    assert "Podpisane w aplikacji" in text and "sędzia" not in text.split("Razem")[-1]
    text = pdf_text(client.get(f"/games/{two}/sheet.pdf", headers=EN).data, tmp_path)
    assert "the director" in text and "Signed in the app" in text
    html = client.get(f"/games/{one}/sheet").text
    assert html.count('class="signed-mark"') == 2
    blank = client.get(f"/games/{t.rounds[0][3].game_id}/sheet").text
    assert 'class="signed-mark"' not in blank and "Signed in the app" not in blank
