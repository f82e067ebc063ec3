"""Polish as a Polish card player writes it, on the pages players see.

The main pages are rendered in Polish (set-up, a Kierki game at its deals with a lead rule,
with trumps and with the loteryjka, the loteryjka board played out, the trick checker, a
Tybet game with a refused deal, every rules page, a score sheet) and read as text: the
phrases players reported as wrong are gone, the right ones are there.
"""
import re
from html import unescape
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import scorekeeper
from scorekeeper.domain import service
from scorekeeper.families import registry
from scorekeeper.families.kierki.rules import get_ruleset, legal_cards, new_board, pass_turn, play
from scorekeeper.web.db import get_db
from tests.fixtures import join, results_for

PL = {"Accept-Language": "pl"}
PLAYERS = ["Ala", "Bożena", "Czesław", "Żaneta"]

#: Reported as wrong, and never to come back on any page.
BAD = [
    "Kolejność wyjścia",          # the loteryjka's finishing order
    "przebijać ani bić",          # "nie trzeba przebijać"
    "wyjść w kiera", "wychodzić w kiera", "W kiera",
    "Tego gracza ręka",
    "Plansza",                    # the loteryjka layout is "Układ"
    "Klasyfikacja",
    "dla 3 graczy", "dla 4 graczy", "3 graczy", "4 graczy",
    "Po tybecie", "Po wygranej", "Przy wygranej",
    "tej samej figury",           # a 7 is not a "figura"
    "Źródło 00", "źródło 00", "Seed 00", "seed 00", "Standardowe",
    "Atu wybiera:", "Zaczyna:", "Lewę bierze:", "Wygrywa:", "Pas:",
    "zagrał(a)", "pasował(a)",   # no gender to guess: "zagrywa", "2 pasy"
    # issue 25's walk: as a card player says it
    "Złapany z K♥", "Zaczynaj nowe gry", "Wygrane z rzędu teraz",
    "Zmieniono we wszystkich grach", "Wpisz od góry tyle imion", "kto nie ma do koloru",
    "Lewa 13",                    # "Ostatnia lewa (13.)"
    "Te zasady są na",            # "… na 5 osoby": "Liczba graczy w tych zasadach: 5."
    # issue 35: a new club director's evening
    "Turniej Turniej",            # "Turniej <its name, which says Turniej>, runda 1, stół 1"
    "Do odrobienia zostało",      # unclear: what one player can still gain on another
    "która pasuje",               # the loteryjka: "pasuje" also means "passes"
    "pierwsze rozdanie",          # table cards: "Na początek rozdaje: Ala"
    "Maks.",                      # the standings' best game: "Najlepsza gra"
    "zamknięty ·",                # a line begins "Zamknięty · …"
    "pierwszy rozdający",         # no gender guessed: "rozdaje na początek"
]


def text_of(html: str) -> str:
    """What a player reads: the page's text, tags and scripts out, spaces squeezed."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.DOTALL)
    html = re.sub(r"<select\b.*?</select>", " ", html, flags=re.DOTALL)  # options: checked apart
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def polish(client, url: str) -> str:
    r = client.get(url, headers=PL)
    assert r.status_code == 200, url
    assert '<html lang="pl">' in r.text, url
    return r.text


def check(page: str, good=(), where="") -> str:
    text = text_of(page)
    for phrase in BAD:
        assert phrase not in text, f"{where}: {phrase!r} in {text[:200]}…"
    for phrase in good:
        assert phrase in text, f"{where}: {phrase!r} missing"
    return text


def kierki_game(app, ruleset: str, deals: int) -> str:
    rs = get_ruleset(ruleset)
    with app.app_context():
        db = get_db()
        gid = service.create_game(db, ruleset, PLAYERS[:rs.players], 0)
        for number, raw in enumerate(results_for(rs)[:deals], start=1):
            service.enter_deal(db, service.load(db, gid), number, raw, number)
    return gid


def kierki_page(client, app, ruleset: str, deals: int) -> tuple[str, str]:
    gid = kierki_game(app, ruleset, deals)
    join(client, app, gid)  # a phone of the table: its page has the deal form
    return gid, polish(client, f"/games/{gid}")


def test_set_up_names_rulesets_for_players(client):
    page = polish(client, "/games/new")
    text = check(page, ["Wpisz imiona po kolei; puste pola zostaw.",
                        "Zasady i punktacja rozdań"], "set-up")
    options = re.findall(r"<option[^>]*>([^<]*)</option>", page)
    for name in ("Klasyczne (pagat.com), 4 osoby", "Kurnik, 3 osoby",
                 "Bez loteryjki, z rozbójnikiem za zgodą, 4 osoby", "Tybet, zasady klasyczne"):
        assert name in options
    for option in options:
        assert not any(phrase in option for phrase in BAD), option
    # the chosen ruleset said in full, with what is special in it
    assert "Klasyczne (pagat.com), 4 osoby" in text and "pagat.com" in text


@pytest.mark.parametrize("deals,good,absent", [
    (0, ["Bez lew", "Rozdaje", "Wychodzi", "Bez atu. Trzeba dokładać do koloru; nie trzeba przebijać.",
         ("Zostało do podziału: −2600 w rozdaniach ujemnych i w rozbójniku; "
          "+2600 w rozgrywkach atutowych i w loteryjce.")],
     []),
    (1, ["Bez kierów", "Nie wolno wychodzić w kiery, dopóki ma się karty innego koloru."], []),
    (5, ["Bez siódmej i ostatniej lewy", "−75 za 7. lewę", "Lewa 7", "Ostatnia lewa (13.)"], ["Bez 7. i ostatniej lewy"]),
    (7, ["Rozgrywka atutowa", "Żaneta wybiera atu po obejrzeniu pierwszych 5 kart",
         "Trzeba dokładać do koloru; nie trzeba przebijać.", "Kolor atutowy"], [">Atu<"]),
    (11, ["Loteryjka", "+800 za 1. miejsce", "+500 za 2. miejsce", "Układ loteryjki",
          "Zaczyna Żaneta; każdy kolor zaczyna się od 7.", "Kto pierwszy pozbył się kart?"], []),
    (12, ["Koniec gry", "Wygrywa Bożena!", "Rozgrywka atutowa"], []),
])
def test_kierki_game_page_in_polish(app, client, deals, good, absent):
    _, page = kierki_page(client, app, "standard-4", deals)
    text = check(page, good, f"standard-4 after {deals} deals")
    for phrase in absent:
        assert phrase not in page
    assert 'aria-label="Sumy punktów"' in page
    assert "figur" not in text  # Kierki has no "figury": a 7 or a 10 is a card
    assert not re.search(r"\bAtu\b", text), "a trump deal is a 'Rozgrywka atutowa'"


def test_lead_rules_of_other_rulesets_in_polish(app, client):
    _, page = kierki_page(client, app, "seed001-4", 4)
    check(page, ["Kto ma K♥, musi go zrzucić w pierwszej lewie, w której nie ma do koloru."],
          "seed001-4 deal 5")
    _, page = kierki_page(client, app, "seed002-4", 4)
    check(page, ["Nie wolno wychodzić królem kier."], "seed002-4 deal 5")
    _, page = kierki_page(client, app, "seed001-4", 6)
    check(page, ["Żaneta wybiera atu przed pierwszym wyjściem."], "seed001-4 trumps")
    _, page = kierki_page(client, app, "kurnik-4", 11)
    text = check(page, ["pozostałe kolory zaczyna się od takiej samej karty", "As wysoki"],
                 "kurnik-4 loteryjka")
    assert "figur" not in text


def _played_out(contract, leader):
    """A whole loteryjka as the board's address writes it: cards, and - for a pass."""
    rs = get_ruleset("standard-4")
    deck = list(rs.table.deck)
    hands = [deck[i::4] for i in range(4)]
    board, moves = new_board(contract, leader, hands=hands), []
    while not board.over:
        options = legal_cards(board)
        if options:
            card = min(options, key=lambda c: (c.suit, c.value))
            board, move = play(board, card), str(card)
        else:
            board, move = pass_turn(board), "-"
        moves.append(move)
    return moves


def test_loteryjka_board_in_polish(app, client):
    gid = kierki_game(app, "standard-4", 11)
    join(client, app, gid)  # a phone of the table may record the board's result
    page = polish(client, f"/games/{gid}/loteryjka")
    check(page, ["Układ loteryjki", "Teraz gra Żaneta – stuknij kartę, którą można dołożyć.",
                 "Żaneta pasuje", "As niski (poniżej dwójki).", "13 kart"], "loteryjka board")
    with app.app_context():
        deal = service.load(get_db(), gid).state.current
    moves = _played_out(deal.contract, deal.leader)
    page = polish(client, f"/games/{gid}/loteryjka?moves={','.join(moves)}")
    check(page, ["Kolejność pozbycia się kart:", "Zapisz ten wynik jako rozdanie 12",
                 "1. miejsce"], "loteryjka over")


def test_trick_checker_in_polish(app, client):
    page = polish(client, "/tools/trick?ruleset=standard-4&contract=no_hearts&cards=2H")
    check(page, ["Sprawdzanie lewy", "W kiery może wychodzić tylko gracz, który ma same kiery.",
                 "Stuknij kartę, którą zagrywa Gracz 2"], "trick checker, hearts")
    page = polish(client, "/tools/trick?ruleset=standard-4&contract=robber&cards=KH,AS,2H,QS")
    check(page, ["Gracz 1 bierze lewę kartą K♥.", "A♠: nie do koloru ♥ – wolno tylko temu, kto nie ma ♥.",
                 "Punkty za tę lewę w tym rozdaniu – Gracz 1"], "trick checker, robber")
    assert ">Bez siódmej i ostatniej lewy</option>" in page and ">Rozgrywka atutowa</option>" in page
    page = polish(client, "/tools/trick?ruleset=seed002-4&contract=no_king_of_hearts&cards=KH")
    check(page, ["Królem kier można wyjść tylko wtedy, gdy to ostatnia karta na ręce."],
          "trick checker, K♥ lead")
    gid = kierki_game(app, "standard-4", 8)
    page = polish(client, f"/games/{gid}/trick?trump=H&cards=2S,3H")
    check(page, ["Kolor atutowy", "Wróć do gry"], "trick checker, trumps")
    assert "selected>Rozgrywka atutowa</option>" in page


def test_tybet_in_polish(client):
    r = client.post("/games/new", headers=PL, data={
        "ruleset": "tybet-21", "first_dealer": "0", "target": "21",
        **{f"player_{i}": p for i, p in enumerate(PLAYERS)}})
    gid = r.location.rsplit("/", 1)[1]
    page = polish(client, f"/games/{gid}")
    check(page, ["Tybet, zasady klasyczne", "Meldunki przed grą", "Rozdaje", "Wychodzi",
                 "Perła nie liczy się też jako Kalanda", "do 21 brakuje 21 oczek"], "tybet")
    # a special win the cards refuse: the message names it without declining it
    r = client.post(f"/games/{gid}/deals/1", headers=PL, data={
        "version": "1", "aces-0": "3", "aces-1": "1", "honours-0": "20", "honours-1": "0",
        "last": "0", "special": "kalanda:p0"})
    assert r.status_code == 422
    check(r.text, ["Kalanda: druga para nie bierze nic – ani asa, ani figury, ani ostatniej lewy."],
          "tybet refused")
    r = client.post(f"/games/{gid}/deals/1", headers=PL, data={
        "version": "1", "aces-0": "4", "aces-1": "0", "honours-0": "20", "honours-1": "0",
        "last": "0", "trio-1": "3", "four-1": "3"})
    check(r.text, ["Karty jednej wartości gracz zgłasza tylko raz: jako trójkę albo jako karetę."],
          "tybet declarations")


def test_rules_pages_say_name_summary_notes_and_source_in_words(client):
    for rid, rs in registry.all_rulesets().items():
        page = polish(client, f"/rules/{rid}")
        text = check(page, [rs.name("pl"), rs.summary("pl"), "Źródło: "], f"rules {rid}")
        assert rs.summary("pl") and rs.summary("en") and rs.notes("pl"), rid
        source = re.search(r"Źródło: ([^<]*)<", page).group(1)
        assert not re.fullmatch(r"\s*\d+\s*", source), f"{rid}: source as a number"
        if rs.data["source"] in ("000", "004"):
            assert ("kurnik.pl" if rs.data["source"] == "000" else "pagat.com") in source
        if not rid.startswith("tybet"):
            assert "figur" not in text, rid
    assert "Źródło: pagat.com" in text_of(polish(client, "/rules/standard-4"))
    assert "Wydawnictwo Karuzela" in text_of(polish(client, "/rules/tybet-21"))
    assert "wariant domowy" in text_of(polish(client, "/rules/tybet-21-italian"))


def test_ruleset_names_are_for_players():
    for rid, rs in registry.all_rulesets().items():
        for lang in ("en", "pl"):
            name = rs.name(lang)
            assert not re.search(r"(?i)seed|źródło|\b00\d\b", name), (rid, name)
            assert rs.summary(lang), (rid, lang)
        if rs.data.get("family") == "kierki":
            people = "osoby" if rs.players < 5 else "osób"  # 3 or 4 osoby, 5 osób
            assert rs.name("pl").endswith(f"{rs.players} {people}"), rid
            assert rs.name("en").endswith(f"{rs.players} players"), rid


def test_score_sheet_in_polish(app, client):
    gid = kierki_game(app, "standard-4", 12)
    page = polish(client, f"/games/{gid}/sheet")
    check(page, ["Rozdający", "Rozgrywka atutowa", "Wygrywa Bożena!",
                 "Suma końcowa 0 – zgadza się z zasadami ✓"], "sheet")
    check(polish(client, f"/games/{gid}"), ["Suma końcowa 0 – zgadza się z zasadami ✓"],
          "finished game")
    check(polish(client, "/rules/standard-4"), ["Ustaw jako domyślne zasady"], "rules page")
    assert not re.search(r'<th class="dealer">\s*Rozdaje\s*<', page)
    assert '<meta name="viewport"' in page


def test_the_catalog_has_none_of_the_reported_phrases():
    path = Path(scorekeeper.__file__).parent / "translations" / "pl" / "LC_MESSAGES" / "messages.po"
    with open(path, "rb") as f:
        catalog = read_po(f)
    for msg in catalog:
        if not msg.id:
            continue
        for text in (msg.string if isinstance(msg.string, tuple) else (msg.string,)):
            for phrase in BAD:
                assert phrase not in text, (msg.id, text)
            # a special win's name comes in the nominative: never after a word that would
            # need it declined ("po wygranej Kalanda")
            assert not re.search(r"\w %\(special\)s", text), (msg.id, text)
            assert "daną figurę" not in text, (msg.id, text)


def test_a_club_night_in_polish(app, client):
    """Issue 35's walk as a new club director: the tournament's name said once, a name
    entered twice named as first typed, the standings' columns, a closed tournament's
    projector, what one player can still gain, and averages of points signed like the
    points beside them."""
    from tests.web.test_tournament_pages import finish_round, form, tournament

    players = ["Agnieszka Kowalska", "Bartek", "Cela", "Darek", "Ewa", "Franek", "Gosia",
               "Henio", "Iza", "Jacek", "Kasia", "Łucja"]
    r = client.post("/tournaments/new", headers=PL, data=form(
        name="Turniej klubowy – listopad", players="\n".join([*players, "agnieszka  kowalska"])))
    assert r.status_code == 422
    check(r.text, ["Agnieszka Kowalska wpisano dwa razy."], "a name twice")
    assert "agnieszka kowalska wpisano" not in text_of(r.text)  # named as first typed
    r = client.post("/tournaments/new", headers=PL, data=form(
        name="Turniej klubowy – listopad", players="\n".join(players)))
    assert r.status_code == 302
    tid = r.location.split("/")[2]
    t = tournament(app, tid)
    table = t.rounds[0][0]
    game = polish(client, f"/games/{table.game_id}")
    check(game, [f"Turniej klubowy – listopad: runda 1, stół {table.number}"], "game of a table")
    assert "Turniej Turniej" not in text_of(game)
    finish_round(app, tid)
    results = polish(client, f"/tournaments/{tid}")
    check(results, ["Najlepsza gra"], "results")
    assert client.post(f"/tournaments/{tid}/close", data={"confirm_unsigned": "1"}).status_code == 302
    screen = polish(client, f"/tournaments/{tid}/screen")
    check(screen, ["Zamknięty z 3 stołami bez podpisu ·"], "closed screen")
    # a game under way: what one player can still gain on another, said plainly
    _, page = kierki_page(client, app, "standard-4", 3)
    check(page, ["Do końca gry jeden gracz może zyskać na innym najwyżej"], "outlook")
    # a player's points per deal: the average signed as the points beside it
    page = polish(client, "/players/1")
    averages = re.findall(r'<td class="num">\d+</td><td class="num">([^<]+)</td>'
                          r'<td class="num">[+−0]', page)
    assert averages and all(a[0] in "+−" or a == "0" for a in averages), averages
