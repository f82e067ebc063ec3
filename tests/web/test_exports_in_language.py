"""Files in the reader's language: every heading and label of a game's CSV and .xlsx
(Kierki and Tybet) and of a season's, through the catalog, in Polish and English; the
season's rating as the pages show it (provisional marked), the model's numbers named."""
import csv
import io

from tests.fixtures import play_api
from tests.web.test_csv_safety import api_game
from tests.web.test_seasons_web import make_club, night
from tests.web.test_spreadsheet_exports import EN, PL, polish_rows, workbook_rows

FOUR = ["Ala", "Bolek", "Cezary", "Dorota"]
KIERKI = {
    "pl": (["#", "Rozdanie", "Rozdający", *FOUR, *[f"{n} (razem)" for n in FOUR], "Suma",
            "Oczekiwana suma", "Szczegóły"], "Razem"),
    "en": (["#", "Deal", "Dealer", *FOUR, *[f"{n} (total)" for n in FOUR], "Sum",
            "Expected sum", "Detail"], "Total"),
}
SEASON = {
    "pl": ["Miejsce", "Gracz", "Punkty", "Wieczory", "Gry", "Wygrane", "Ranking",
           "Ranking wstępny", "Gry w rankingu", "Model: umiejętność (mu)",
           "Model: niepewność (sigma)"],
    "en": ["Rank", "Player", "Points", "Nights", "Games", "Wins", "Rating",
           "Provisional rating", "Rated games", "Model: skill (mu)",
           "Model: uncertainty (sigma)"],
}


def csv_rows(body: bytes, language: str) -> list[list[str]]:
    if language == "pl":
        return polish_rows(body)
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))


def test_a_kierki_games_files_speak_the_readers_language(client):
    gid = api_game(client, FOUR, deals=2)
    for language, headers in (("pl", PL), ("en", EN)):
        header, total = KIERKI[language]
        rows = csv_rows(client.get(f"/games/{gid}/export.csv", headers=headers).data, language)
        assert rows[0] == header and rows[-1][1] == total
        _, cells = workbook_rows(client.get(f"/games/{gid}/export.xlsx", headers=headers).data)
        assert [c.value for c in cells[0]] == header and cells[-1][1].value == total


def test_a_tybet_games_files_speak_the_readers_language(client):
    from tests.web.test_players_per_family import PLAIN, PLAYERS
    gid = play_api(client, "tybet-21", PLAYERS, [PLAIN])[-1]["id"]
    for language, headers, words in (("pl", PL, ("Rozdający", "(razem)", "Szczegóły", "Razem")),
                                     ("en", EN, ("Dealer", "(total)", "Detail", "Total"))):
        rows = csv_rows(client.get(f"/games/{gid}/export.csv", headers=headers).data, language)
        assert rows[0][1] == words[0] and rows[0][-1] == words[2]
        assert all(h.endswith(words[1]) for h in rows[0][4:6]) and rows[-1][1] == words[3]
        _, cells = workbook_rows(client.get(f"/games/{gid}/export.xlsx", headers=headers).data)
        assert cells[0][1].value == words[0] and cells[-1][1].value == words[3]


def test_a_seasons_files_and_page_give_the_rating_a_player_reads(app, client):
    club, _ = make_club(client, "Klub", True)
    night(app, club, "Piątek 1", "Darek")
    for language, headers in (("pl", PL), ("en", EN)):
        rows = csv_rows(client.get(f"/clubs/{club}/season.csv", headers=headers).data,
                        language)
        assert rows[0] == SEASON[language]
        _, cells = workbook_rows(client.get(f"/clubs/{club}/season.xlsx", headers=headers).data)
        assert [c.value for c in cells[0]] == SEASON[language]
        assert {r[7] for r in rows[1:]} == {"tak" if language == "pl" else "yes"}
        by_name = {r[1]: r for r in rows[1:]}
        assert int(by_name["Darek"][6]) < 1500 < max(int(r[6]) for r in rows[1:])
        assert {r[8] for r in rows[1:]} == {"2"}
    standings = client.get(f"/api/clubs/{club}/season").get_json()["standings"]
    best = max(standings, key=lambda s: s["shown"])
    assert best["provisional"] is True and best["rated_games"] == 2 and best["shown"] > 1500
    page = client.get(f"/clubs/{club}/season", headers=PL).text
    assert "μ" not in page and "σ" not in page
    assert f"<strong>{best['shown']}</strong>" in page and "wstępny" in page
    assert "nowy gracz zaczyna od 1500" in page and "Przez pierwsze 20 gier" in page
    mine = client.get(f"/clubs/{club}/season/players/{best['person_id']}").text
    assert "μ" not in mine and "2 of 20 for a settled rating" in mine
    assert "a newcomer starts at 1500" in mine
