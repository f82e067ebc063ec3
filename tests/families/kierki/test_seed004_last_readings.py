"""Seed 004's last readings as rulesets or options (issue 35, item 8). Each test quotes
the sentence of the source it checks (/work/shared/seeds/004_*.txt, "Variations");
what the app still does not play is listed in docs/rulesets.md with its sentence.
"""
import copy
import re
from html import unescape
from pathlib import Path

from scorekeeper.families.kierki.rules import check_follow, from_data, get_ruleset, replay
from scorekeeper.families.kierki.rules.document import game_sum
from scorekeeper.families.kierki.web import variant_form
from tests.fixtures import become_host

ROOT = Path(__file__).resolve().parents[3]


def must_beat_rules():
    """The classic rules with variation 1's obligation on every deal played in tricks."""
    data = copy.deepcopy(get_ruleset("standard-4").data)
    data["id"] = "warsaw-beat"
    for contract in data["contracts"].values():
        if contract["kind"] != "loteryjka":
            contract["must_beat"] = True
    return from_data(data)


# -- variation 1: "must trump and beat" --------------------------------------------------

def test_variation_1_players_must_trump_and_beat():
    """Variation 1: "Players had to trump when unable to follow suit and to beat cards
    already played to the trick when possible." """
    trumps = must_beat_rules().contract("trumps")
    # following suit: higher than the best of the suit led, when the hand can
    assert check_follow(trumps, "5H", "7H", ["7H", "KH"], played=["5H", "9H"],
                        trump="S").key == "must_beat"
    assert check_follow(trumps, "5H", "KH", ["7H", "KH"], played=["5H", "9H"],
                        trump="S").allowed is True
    assert check_follow(trumps, "5H", "7H", ["7H", "2S"], played=["5H", "9H"],
                        trump="S").key == "cannot_beat"
    # unable to follow: trump, and above a trump already played when able
    assert check_follow(trumps, "5H", "3D", ["3D", "4S"], played=["5H"],
                        trump="S").key == "must_trump"
    assert check_follow(trumps, "5H", "4S", ["3D", "4S"], played=["5H"],
                        trump="S").allowed is True
    assert check_follow(trumps, "5H", "3S", ["3S", "QS"], played=["5H", "9S"],
                        trump="S").key == "must_overtrump"
    # no higher trump: still a trump (the app's reading of "had to trump")
    assert check_follow(trumps, "5H", "3S", ["3S", "2D"], played=["5H", "9S"],
                        trump="S").allowed is True
    assert check_follow(trumps, "5H", "2D", ["3S", "2D"], played=["5H", "9S"],
                        trump="S").key == "must_trump"
    # a trump in the trick: a heart cannot beat it, so any heart follows
    assert check_follow(trumps, "5H", "2H", ["2H", "AH"], played=["5H", "9S"],
                        trump="S").allowed is True
    # the negative deals: beat the highest card of the suit led when possible
    hearts = must_beat_rules().contract("no_hearts")
    assert check_follow(hearts, "5H", "7H", ["7H", "KH"], played=["5H", "9H"]).key == \
        "must_beat"
    assert check_follow(hearts, "5H", "2C", ["2C", "KD"], played=["5H"]).allowed is True


def test_without_the_option_nobody_has_to_trump_or_beat():
    """Seed 004's trump games: "There is no obligation to beat the cards already played
    to the trick nor to trump if unable to follow suit." """
    trumps = get_ruleset("standard-4").contract("trumps")
    assert check_follow(trumps, "5H", "7H", ["7H", "KH"], played=["5H", "9H"],
                        trump="S").allowed is True
    ruling = check_follow(trumps, "5H", "3D", ["3D", "4S"], played=["5H"], trump="S")
    assert ruling.allowed is True and "need not trump" in ruling.reason.message


def house(client, app, **changes):
    become_host(client, app)
    data = client.get("/api/rulesets/standard-4").get_json()
    for key in ("id", "source", "summary", "notes", "expected_sum"):
        data.pop(key, None)
    data.update(name={"en": "Warsaw 1981", "pl": "Warszawa 1981"}, made_by="Ala")
    for contract in data["contracts"].values():
        if contract["kind"] != "loteryjka":
            contract.update(changes)
    made = client.post("/api/rulesets", json=data)
    assert made.status_code == 201, made.get_json()
    return made.get_json()["id"]


def text(page):
    return unescape(re.sub(r"\s+", " ", page.text))


def test_the_trick_checker_says_who_had_to_trump_or_beat(client, app):
    """Variation 1 in the trick checker: "Players had to trump when unable to follow suit
    and to beat cards already played to the trick when possible." """
    rid = house(client, app, must_beat=True)
    page = client.get("/tools/trick", query_string={
        "ruleset": rid, "contract": "trumps", "trump": "S", "cards": "5H,9H,2D,3S"})
    assert page.status_code == 200
    english = text(page)
    assert "Warsaw 1981" in english
    assert "must beat the cards already played" in english
    assert ("Player 3, 2♦: neither a ♥ nor a trump: allowed only to a player who holds "
            "neither (whoever cannot follow suit must trump).") in english
    assert "Player 4, 3♠: a trump: allowed (and required) only of a player who holds no ♥." \
        in english
    assert "you need not trump" not in english
    lower = text(client.get("/tools/trick", query_string={
        "ruleset": rid, "contract": "no_tricks", "cards": "5H,9H,7H,2C"}))
    assert ("Player 3, 7♥: lower than the 9♥: allowed only to a player who holds no higher "
            "♥ (the cards played must be beaten when possible).") in lower
    polish = text(client.get("/tools/trick", headers={"Accept-Language": "pl"},
                             query_string={"ruleset": rid, "contract": "trumps",
                                           "trump": "S", "cards": "5H,9H,2D,3S"}))
    assert "Gracz 4, 3♠: atut: dozwolony (i wymagany) tylko u gracza, który nie ma ♥." \
        in polish


def test_the_standalone_trick_checker_takes_a_house_variant_and_refuses_unknown_ids(
        client, app):
    rid = house(client, app)
    page = client.get("/tools/trick", query_string={"ruleset": rid})
    assert page.status_code == 200
    assert f'<option value="{rid}" selected>Warsaw 1981</option>' in page.text
    unknown = client.get("/tools/trick", query_string={"ruleset": "house-nope"})
    assert unknown.status_code == 404
    assert "There are no Kierki rules “house-nope” here" in text(unknown)
    assert "Cards in play order" not in unknown.text   # no standard-4 in its place
    assert 'href="/tools/trick">Choose the rules</a>' in unknown.text
    polish = client.get("/tools/trick", query_string={"ruleset": "house-nope"},
                        headers={"Accept-Language": "pl"})
    assert polish.status_code == 404 and "Nie ma tu zasad Kierek „house-nope”" in text(polish)
    tybet = client.get("/tools/trick", query_string={"ruleset": "tybet-21"})
    assert tybet.status_code == 404


# -- variation 4: the race for three --------------------------------------------------------

def test_variation_4_is_played_by_three_with_the_race_at_200_100_0():
    """Variation 4 ("Rozbój", Zbyszek Zdanowicz) "can be played by 3-5 players"; "The
    scores for lottery, here called "the race", are 200/100/0 if there are three
    players"; "The scores do not add up to zero in this variation." """
    rules = get_ruleset("zdanowicz-3")
    assert rules.players == 3 and rules.table.tricks == 17
    race = rules.contract("loteryjka")
    assert race.prizes == [200, 100, 0] and race.asked == 2   # third place fills itself
    # the report's points: −10 a trick, −20 a heart, −80 a girl, −40 a boy, −320 the K♥,
    # −160 each for the 7th and last, +50 a trump trick; boys before girls, the 7th and
    # last before the K♥
    assert [rules.contract(k).kind for k in rules.schedule[:7]] == \
        ["tricks", "cards", "cards", "cards", "positions", "cards", "robber"]
    assert [rules.contract(k).expected_sum for k in rules.schedule[:6]] == \
        [-170, -260, -320, -320, -320, -320]
    assert rules.schedule.count("trumps") == 3
    assert rules.expected_sum == game_sum(rules) == -1710 * 2 + 3 * 17 * 50 + 300 == -570
    state = replay(rules, 0, [])
    deal = state.deals[-1]
    assert deal.contract.kind == "loteryjka"
    scored = deal.contract.scored(deal.contract.validate({"order": [2, 0]}))
    assert scored == [100, 0, 200]


# -- variation 3: the Q♠ deal's lead rule is the app's reading --------------------------------

def test_the_queen_of_spades_lead_rule_is_said_to_be_the_apps_reading():
    """Variation 3: "In the fourth deal the 52-point penalty in this version is for the
    queen of spades, not the king of hearts." It says nothing about leads: the deal
    without a heart-lead rule is the app's reading, and the variant's notes say so."""
    doc = variant_form.quick(copy.deepcopy(get_ruleset("standard-4").data), "queen_of_spades")
    rules = from_data({**doc, "name": {"en": "RAF", "pl": "RAF"}})
    assert rules.contract("no_king_of_hearts").lead_rules == ()
    assert "this app's reading" in doc["notes"]["en"]
    assert "odczytanie tej aplikacji" in doc["notes"]["pl"]
    assert "says nothing about which cards may be led" in doc["notes"]["en"]
    # twice is said once
    again = variant_form.quick(copy.deepcopy(doc), "queen_of_spades")
    assert again["notes"] == doc["notes"]
    docs = (ROOT / "docs" / "rulesets.md").read_text(encoding="utf-8")
    assert "the source gives the Q♠ deal no heart-lead ban" not in docs
    assert "no lead rule, **the app's reading**" in docs


# -- what is left unsupported ----------------------------------------------------------------

def test_what_the_app_does_not_play_is_listed_with_its_seed_sentence():
    docs = (ROOT / "docs" / "rulesets.md").read_text(encoding="utf-8")
    seed = next((ROOT.parent / "shared" / "seeds").glob("004_*.txt"), None)
    section = docs.split("## Not supported", 1)[1].split("\n## ", 1)[0]
    quoted = re.findall(r"“([^”]+)”", section)
    assert len(quoted) >= 4
    if seed is not None:  # each quote is the seed's own words
        source = " ".join(seed.read_text(encoding="utf-8").split())
        for sentence in quoted:
            assert " ".join(sentence.split()) in source, sentence
    flat = " ".join(section.split())
    for words in ("extra hands of the opposite type", "in exchange for a number of tricks",
                  "parliament"):
        assert words in flat


def test_the_editor_makes_a_must_beat_variant_and_its_rules_page_says_so(client):
    """Variation 1 in the house-variant editor, in one tap: "Players had to trump when
    unable to follow suit and to beat cards already played to the trick when possible." """
    from tests.web.test_variant_editor import open_editor, page_form, post
    form = page_form(open_editor(client))
    text_ = post(client, form, action="quick:must_beat").get_data(as_text=True)
    r = post(client, page_form(text_), name="Warszawa", action="save")
    assert r.status_code == 302, r.get_data(as_text=True)[:300]
    rid = r.headers["Location"].rsplit("/", 1)[1]
    rules = client.get(f"/api/rulesets/{rid}").get_json()
    assert all(c.get("must_beat") for c in rules["contracts"].values()
               if c["kind"] != "loteryjka")
    page = text(client.get(f"/rules/{rid}"))
    assert "must trump and beat" in page and "must beat" in page
    client.delete_cookie("lang")  # the editor was opened in English
    polish = text(client.get(f"/rules/{rid}", headers={"Accept-Language": "pl"}))
    assert "obowiązek przebijania i dawania atutu" in polish
