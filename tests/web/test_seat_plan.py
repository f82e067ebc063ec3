"""The round sheet for a real club (issue 35 item 2): long Polish names whole (wrapped,
never cut with "…"), the seat plan by surname as Polish sorts it, up to 40 players on one
A4 page in two columns, a "by table" page, and each table card naming who deals first
without guessing a gender ("Na początek rozdaje: Ala")."""
import re
import subprocess

import pytest

from scorekeeper.common import collation
from tests.web.test_sheets import poppler  # noqa: F401 (a fixture)
from tests.web.test_tournament_api import bearer

PL = {"Accept-Language": "pl"}

#: Forty players a Polish club could have: long names, double surnames, Polish letters
#: at the start of surnames (Ć, Ł, Ś, Ż sort after C, L, S, Z), a 32-letter first name, and
#: one player known by one word.
FORTY = [
    "Agnieszka Kowalska", "Małgorzata Jankowska-Wiśniewska", "Konstantynopolitańczykowianeczka Nowak",
    "Bartłomiej Brzęczyszczykiewicz", "Przemysław Szczebrzeszyński", "Grzegorz Łękawa",
    "Katarzyna Żółtowska", "Władysława Ćwiklińska", "Zdzisław Zawadzki", "Jadwiga Lewandowska-Grzybowska",
    "Krzysztof Wiśniewski", "Ewelina Dąbrowska", "Łucja Lis", "Żaneta Śliwińska", "Ścibor Kamiński",
    "Bożydar Ziółkowski", "Aleksandra Piotrowska", "Wojciech Cieślak", "Stanisława Ostrowska",
    "Mieczysław Zieliński", "Barbara Szymańska", "Tadeusz Woźniak", "Halina Kozłowska",
    "Jerzy Jabłoński", "Teresa Wojciechowska", "Ryszard Kwiatkowski", "Danuta Krawczyk",
    "Kazimierz Kaczmarek", "Irena Mazur", "Zbigniew Krajewska", "Elżbieta Adamczyk",
    "Henryk Dudek", "Wiesława Zając", "Leszek Wieczorek", "Bogumiła Jasińska-Sobczak",
    "Marianna Wróbel", "Eugeniusz Czarnecki", "Genowefa Sawicka", "Lucyna Łuczak", "Zenek",
]


def tournament(client, names):
    answer = client.post("/api/tournaments", json={
        "name": "Turniej klubowy – listopad", "players": names, "rounds": 2,
        "rulesets": {"4": "standard-4", "3": "standard-3"}, "seed": "klub"})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def pages_of(data, tmp_path) -> list[str]:
    """Each page's text as a person reads it: the left half of the A4 page (its left
    column), then the right half."""
    path = tmp_path / "round.pdf"
    path.write_bytes(data)

    def half(x: int) -> list[str]:
        text = subprocess.run(["pdftotext", "-x", str(x), "-y", "0", "-W", "298", "-H", "842",
                               str(path), "-"], check=True, capture_output=True,
                              text=True).stdout
        return text.split("\f")[:-1]

    return [left + "\n" + right for left, right in zip(half(0), half(297), strict=True)]


def squeezed(text: str) -> str:
    """The text without any space, line break or hyphen: a name wrapped across lines reads
    whole (pdftotext drops the hyphen where a double surname wraps)."""
    return re.sub(r"[\s-]+", "", text)


def surname_order(names):
    return [n.rsplit(" ", 1)[-1] for n in names]


@pytest.mark.parametrize("count", [16, 40])
def test_the_seat_plan_by_surname_with_names_whole(client, tmp_path, poppler, count):  # noqa: F811
    names = FORTY[:count - 1] + ["Zenek"]
    made = tournament(client, names)
    r = client.get(f"/tournaments/{made['id']}/rounds/1/sheet.pdf",
                   headers={**bearer(made["token"]), **PL})
    assert r.status_code == 200
    pages = pages_of(r.data, tmp_path)
    plan, by_table, *cards = pages
    assert "według nazwisk" in plan and "według stołów" in by_table
    assert "…" not in "".join(pages)  # nothing cut
    # every player on the one page of the plan, their name whole, with table and seat
    flat = squeezed(plan)
    tables = made["round"]["tables"]
    for table in tables:
        for seat, name in enumerate(table["players"], start=1):
            assert flat.count(squeezed(f"{name}→stół{table['table']},miejsce{seat}")) == 1, name
    # by surname as a Pole reads it: Ć after C, Ł after L, Ś after S, Ż after Z; the
    # one-word name among the surnames
    shown = sorted(names, key=lambda n: flat.index(squeezed(n)))
    surnames = surname_order(shown)
    for before, after in [("Cieślak", "Ćwiklińska"), ("Lis", "Łękawa"), ("Łękawa", "Łuczak"),
                          ("Szymańska", "Śliwińska"), ("Zenek", "Zieliński"),
                          ("Ziółkowski", "Żółtowska"), ("Kowalska", "Nowak")]:
        if before in surnames and after in surnames:
            assert surnames.index(before) < surnames.index(after), (before, after, surnames)
    assert shown == sorted(names, key=lambda n: (collation.key(n.rsplit(" ", 1)[-1], "pl"),
                                                 collation.key(n, "pl")))
    if count == 40:  # sorted by surname, not by first name
        assert surnames.index("Adamczyk") == 0 and shown[0] == "Elżbieta Adamczyk"
        assert surnames[-1] == "Żółtowska"
    # the by-table page: each table, its players in seat order, its first dealer named
    flat_tables = squeezed(by_table)
    for table in tables:
        seated = "".join(f"{seat}{squeezed(name)}" for seat, name in
                         enumerate(table["players"], start=1))
        assert re.sub(r"·rozdajenapoczątek", "", flat_tables).count(seated) == 1
        dealer = table["players"][table["first_dealer"]]
        assert squeezed(f"{dealer}·rozdaje na początek") in flat_tables
    # each card names its dealer; no "first deal" wording and no gender guessed
    for table in tables:
        card = next(c for c in cards if squeezed(table["join_code"][:4]) in squeezed(c)
                    and f"Stół {table['table']}" in c)
        dealer = table["players"][table["first_dealer"]]
        assert squeezed(f"Na początek rozdaje: {dealer}") in squeezed(card)
        assert all(squeezed(n) in squeezed(card) for n in table["players"])
    everything = " ".join(pages)
    for wrong in ("pierwsze rozdanie", "rozdaje pierwszy", "rozdaje pierwsza", "♠"):
        assert wrong not in everything
    # one page of plan and one of tables, then four cards a page
    assert len(pages) == 2 + -(-len(tables) // 4)


def test_a_larger_club_is_paged_in_two_columns(client, tmp_path, poppler):  # noqa: F811
    names = [f"{FORTY[i % 39].split()[0][:12]} {FORTY[(i * 7) % 39].rsplit(' ', 1)[-1]}-{i}"
             for i in range(120)]
    made = tournament(client, names)
    r = client.get(f"/tournaments/{made['id']}/rounds/1/sheet.pdf",
                   headers={**bearer(made["token"]), **PL})
    pages = pages_of(r.data, tmp_path)
    plan = [p for p in pages if "według nazwisk" in p]
    assert len(plan) == 2 and "strona 1 z 2" in plan[0] and "strona 2 z 2" in plan[1]
    flat = squeezed("".join(plan))
    assert all(flat.count(squeezed(n) + "→") == 1 for n in names)
