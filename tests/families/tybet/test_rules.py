"""The seed-003 partnership game: declarations, card points, special wins, the game to 21."""
import pytest

from scorekeeper.families.kierki.rules import InvalidDeal
from scorekeeper.families.tybet.rules import card_points, deal_at, get_rules, registry, replay

SEED = get_rules("tybet-21")
ITALIAN = get_rules("tybet-21-italian")
NONE = [[], [], [], []]


def deal(decl=None, aces=(2, 2), honours=(10, 10), last=0, special=None):
    return {"declarations": decl or NONE, "aces": list(aces), "honours": list(honours),
            "last": last, "special": special}


def problems(raw, rules=SEED, leader=None):
    with pytest.raises(InvalidDeal) as e:
        rules.validate(raw, leader=leader)
    return {p.field: p for p in e.value.problems}


@pytest.mark.parametrize("decl, points", [
    ({"kind": "cezar", "suit": "S", "extra": 0}, 3),
    ({"kind": "cezar", "suit": "S", "extra": 3}, 6),  # 3-2-A-K-D-W
    ({"kind": "four", "rank": "5"}, 4),
    ({"kind": "trio", "rank": "3"}, 3), ({"kind": "trio", "rank": "2"}, 3),
    ({"kind": "trio", "rank": "A"}, 3), ({"kind": "trio", "rank": "7"}, 3),
    ({"kind": "trio", "rank": "K"}, 1), ({"kind": "trio", "rank": "Q"}, 1),
    ({"kind": "trio", "rank": "J"}, 1),
])
def test_each_declaration_scores_for_the_declarers_pair(decl, points):
    for seat in range(4):
        decls = [[], [], [], []]
        decls[seat] = [decl]
        got = SEED.score(SEED.validate(deal(decls)))
        base = [2 + 3 + 1, 2 + 3]  # aces, ten honours (3), last trick to pair 0
        base[seat % 2] += points
        assert got == base


def test_card_points_always_total_eleven():
    for aces in range(5):
        for honours in range(21):
            for last in (0, 1):
                pts = SEED.score(SEED.validate(deal(aces=(aces, 4 - aces),
                                                   honours=(honours, 20 - honours), last=last)))
                assert sum(pts) == 11
    assert card_points(4, 20, True) == 11 and card_points(0, 2, False) == 0


def test_one_missing_count_is_the_rest():
    r = SEED.validate(deal(aces=(3, None), honours=("", 7)))
    assert r["aces"] == [3, 1] and r["honours"] == [13, 7]


@pytest.mark.parametrize("raw, field", [
    (deal(aces=(4, 1)), "aces"),
    (deal(honours=(11, 10)), "honours"),
    (deal(aces=(5, 0)), "aces.0"),
    (deal(last=2), "last"),
    (deal(last=None), "last"),
    (deal(decl=[[{"kind": "four", "rank": "3"}], [{"kind": "trio", "rank": "3"}], [], []]),
     "declarations"),  # seven 3s at the table
    (deal(decl=[[{"kind": "trio", "rank": "3"}], [{"kind": "trio", "rank": "3"}], [], []]),
     "declarations"),  # six 3s
    (deal(decl=[[{"kind": "cezar", "suit": "H", "extra": 0}],
                [{"kind": "cezar", "suit": "H", "extra": 0}], [], []]), "declarations.1"),
    (deal(decl=[[{"kind": "four", "rank": r} for r in ("3", "2", "A")], [], [], []]),
     "declarations.0"),  # twelve cards in a ten-card hand
    (deal(decl=[[{"kind": "trio", "rank": "6"}], [], [], []]), "declarations.0"),
    (deal(decl=[[{"kind": "trio", "rank": "K"}, {"kind": "four", "rank": "K"}], [], [], []]),
     "declarations.0"),
])
def test_impossible_deals_are_refused(raw, field):
    assert field in problems(raw)


def test_a_cezar_and_a_trio_may_share_a_card():
    decls = [[{"kind": "cezar", "suit": "H", "extra": 0}, {"kind": "trio", "rank": "3"},
              {"kind": "trio", "rank": "2"}, {"kind": "trio", "rank": "A"}], [], [], []]
    # 3-2-A of hearts plus two more of each rank: 9 cards, fine; 3 + 3 + 3 + 3 points
    assert SEED.score(SEED.validate(deal(decls)))[0] == 12 + 6


@pytest.mark.parametrize("special, aces, honours, last, bonus_pair, bonus", [
    ({"kind": "kalanda", "pair": 1}, (0, 4), (0, 20), 1, 1, 4),
    ({"kind": "perla", "seat": 2}, (4, 0), (20, 0), 0, 0, 4),
    ({"kind": "tybet", "pair": 0}, (4, 0), (18, 2), 0, 0, 3),
    ({"kind": "sariat", "seat": 3}, (0, 4), (1, 19), 1, 1, 6),
])
def test_special_wins_add_their_bonus(special, aces, honours, last, bonus_pair, bonus):
    raw = deal(aces=aces, honours=honours, last=last, special=special)
    pts = SEED.score(SEED.validate(raw))
    assert pts[bonus_pair] == 11 + bonus and pts[1 - bonus_pair] == 0


def test_kondriona_is_the_leaders_and_worth_16():
    raw = deal(aces=(0, 4), honours=(0, 20), last=1, special={"kind": "kondriona", "seat": 1})
    raw["confirmed"] = True  # no whole-suit cezar declared
    assert SEED.score(SEED.validate(raw, leader=1)) == [0, 27]
    assert "special" in problems(raw, leader=3)


@pytest.mark.parametrize("special, aces, honours, last", [
    ({"kind": "kalanda", "pair": 0}, (4, 0), (19, 1), 0),   # the others took an honour
    ({"kind": "perla", "seat": 0}, (4, 0), (20, 0), 1),     # the others took the last trick
    ({"kind": "tybet", "pair": 0}, (3, 1), (20, 0), 0),     # the others took an ace
    ({"kind": "sariat", "seat": 1}, (0, 4), (3, 17), 1),    # three honours: a card point
])
def test_special_wins_must_agree_with_the_card_points(special, aces, honours, last):
    raw = deal(aces=aces, honours=honours, last=last, special=special)
    assert "special" in problems(raw)


@pytest.mark.parametrize("special, aces, honours, last", [
    ({"kind": "tybet", "pair": 0}, (4, 0), (18, 2), 1),
    ({"kind": "sariat", "seat": 3}, (0, 4), (2, 18), 0),
    ({"kind": "sariat", "seat": 1}, (0, 4), (0, 20), 0),
])
def test_tybet_and_sariat_allow_the_lost_trick_to_be_the_last(special, aces, honours, last):
    """seed 003: a Tybet (partners) or Sariat (one player) takes every trick but one, and
    the only condition on that one trick is what it holds: no ace and not three honours.
    Nothing forbids it being the last trick, so the other pair keeps that card point."""
    raw = deal(aces=aces, honours=honours, last=last, special=special)
    winner = 1 - last
    bonus = SEED.special(special["kind"])["bonus"]
    assert SEED.score(SEED.validate(raw))[winner] == 10 + bonus
    assert SEED.score(SEED.validate(raw))[last] == 1


def test_tybet_refused_when_the_lost_trick_holds_an_ace_or_three_honours():
    """seed 003: the lost trick of a Tybet or Sariat may hold no ace and at most two
    honours (3, 2, K, Q, J); the last-trick point does not matter."""
    for aces, honours in (((3, 1), (20, 0)), ((4, 0), (17, 3))):
        found = problems(deal(aces=aces, honours=honours, last=1,
                              special={"kind": "tybet", "pair": 0}))
        assert found["special"].message.startswith("After a %(special)s the other pair's one")


def test_every_trick_specials_still_leave_the_others_nothing():
    """seed 003: Kalanda, Perła and Kondriona take every trick, the last one included."""
    for special in ({"kind": "kalanda", "pair": 0}, {"kind": "perla", "seat": 2}):
        assert "special" in problems(deal(aces=(4, 0), honours=(20, 0), last=1,
                                          special=special))


def test_multiplied_specials_are_a_house_variant():
    """seed 003 gives each special win a fixed bonus (+3, +6, +4, +4, +16) and never
    multiplies; the multiplying ruleset keeps its id but is named a house variant."""
    data = ITALIAN.data
    assert ITALIAN.id == "tybet-21-italian" and data["source"] == "house"
    for lang in ("en", "pl"):
        text = (ITALIAN.name(lang) + " " + ITALIAN.notes(lang)).lower()
        assert ("house variant" if lang == "en" else "wariant domowy") in text
        assert "italian" not in text and "włosk" not in text
        assert not text.startswith(("as seed", "seed", "jak w źródle", "źródło"))
    for rules in registry().values():
        multiplies = any("multiply" in spec for spec in rules.data["specials"].values())
        assert multiplies == (rules.data["source"] == "house"), rules.id


def test_house_variant_multiplies_the_deal():
    decls = [[{"kind": "trio", "rank": "A"}], [], [], []]
    raw = deal(decls, aces=(4, 0), honours=(20, 0), last=0, special={"kind": "perla", "seat": 0})
    assert SEED.score(SEED.validate(raw)) == [3 + 11 + 4, 0]
    assert ITALIAN.score(ITALIAN.validate(raw)) == [(3 + 11) * 8, 0]
    kalanda = deal(aces=(4, 0), honours=(20, 0), last=0, special={"kind": "kalanda", "pair": 0})
    assert ITALIAN.score(ITALIAN.validate(kalanda)) == [44, 0]


def test_dealer_rotates_left_and_the_next_player_leads():
    assert [(d.dealer, d.leader) for d in (deal_at(2, n) for n in (1, 2, 3))] == \
        [(2, 3), (3, 0), (0, 1)]


def test_a_whole_game_to_21():
    results = [deal(aces=(3, 1), honours=(12, 8), last=0)] * 3  # 8 : 3 each deal
    state = replay(SEED, 0, results)
    assert state.totals == [24, 9] and state.winner == 0 and state.finished
    assert state.to_go == [0, 12]
    with pytest.raises(InvalidDeal):
        replay(SEED, 0, results + [deal()])
    assert replay(SEED, 0, results[:2]).current.number == 3


def test_both_reach_higher_total_wins_or_play_on():
    start = [deal(aces=(2, 2), honours=(10, 10), last=0)] * 3  # 6 : 5 each
    state = replay(SEED, 0, start)
    assert state.totals == [18, 15] and not state.finished
    both = deal(decl=[[], [{"kind": "four", "rank": "3"}], [], []],
                aces=(2, 2), honours=(10, 10), last=0)  # 6 : 9 -> 24 : 24
    level = replay(SEED, 0, start + [both])
    assert level.totals == [24, 24] and level.winner is None
    more = deal(decl=[[], [{"kind": "four", "rank": "3"}], [], []],
                aces=(2, 2), honours=(10, 10), last=1)  # 5 : 10 -> 23 : 25
    assert replay(SEED, 0, start + [more]).winner == 1


def test_both_reach_declared_first_option():
    rules = get_rules("tybet-21").snapshot()
    rules["both_reach"] = "declared_first"
    from scorekeeper.families.tybet.rules import from_data
    declared_first = from_data(rules)
    start = [deal(aces=(2, 2), honours=(10, 10), last=0)] * 3  # 18 : 15
    # deal 4 (first dealer 0): dealer 3, seat 0 leads and declares first: a trio of aces
    final = deal(decl=[[{"kind": "trio", "rank": "A"}], [{"kind": "four", "rank": "3"},
                                                        {"kind": "trio", "rank": "7"}], [], []],
                 aces=(0, 4), honours=(0, 20), last=1)
    seed_state = replay(SEED, 0, start + [final])
    assert seed_state.totals == [21, 15 + 7 + 11] and seed_state.winner == 1  # higher total
    assert replay(declared_first, 0, start + [final]).winner == 0  # pair 0 reached 21 first


def test_registry_has_both_readings():
    assert set(registry()) == {"tybet-21", "tybet-21-italian", "tybet-21-declared-first",
                               "tybet-21-stacked"}
    assert get_rules("tybet-21-declared-first").both_reach == "declared_first"
    assert SEED.targets == [11, 21, 31, 41]


def _changed(**changes):
    data = get_rules("tybet-21").snapshot()
    for key, value in changes.items():
        if value is None:
            del data[key]
        else:
            data[key] = value
    return data


def _special(kind, spec):
    data = get_rules("tybet-21").snapshot()
    data["specials"][kind] = spec
    return data


@pytest.mark.parametrize("data, words", [
    (None, "is an object"),
    (_changed(family="kierki"), "not a Tybet ruleset"),
    (_changed(family=None, game="kierki"), "not a Tybet ruleset"),
    (_changed(target=None), "target: Field required"),
    (_changed(specials=None), "specials: Field required"),
    (_changed(id=None), "id: Field required"),
    (_changed(target="21"), "target: Input should be a valid integer"),
    (_changed(target=True), "target: Input should be a valid integer"),
    (_changed(targets=[11, 31]), "'targets' must list"),
    (_changed(both_reach="first"), "both_reach: Input should be 'higher' or 'declared_first'"),
    (_changed(specials=[]), "specials: Input should be a valid dictionary"),
    (_special("grand", {"by": "pair", "bonus": 5}), "specials.grand.[key]: Input should be 'tybet'"),
    (_special("kondriona", {"by": "pair", "bonus": 16}), "special 'kondriona': 'by' must be"),
    (_special("perla", {"by": "player"}), "special 'perla': give either"),
    (_special("perla", {"by": "player", "bonus": 4, "multiply": 8}), "give either"),
    (_special("perla", {"by": "player", "bonus": "4"}), "specials.perla.bonus: Input should be a valid integer"),
    (_special("perla", "4"), "specials.perla: Input should be a valid dictionary"),
])
def test_a_bad_tybet_ruleset_raises_one_clear_error(data, words):
    """Unknown specials, missing fields and wrong types in a Tybet ruleset are refused with
    a RulesetError (also a ValueError) that names the fault (and a wrong type's field),
    never a KeyError."""
    from scorekeeper.families.tybet.rules import from_data
    from scorekeeper.rules.errors import RulesetError
    with pytest.raises(RulesetError) as e:
        from_data(data)
    assert words in str(e.value)
    assert isinstance(e.value, ValueError)


# -- two specials in one deal (seed 003 is silent) ------------------------------------------

STACKED = get_rules("tybet-21-stacked")


@pytest.mark.parametrize("special, rows", [
    ({"kind": "perla", "seat": 2}, [("perla", 4), ("kalanda", 4)]),
    ({"kind": "kondriona", "seat": 0}, [("kondriona", 16), ("perla", 4), ("kalanda", 4)]),
    ({"kind": "kalanda", "pair": 0}, [("kalanda", 4)]),
])
def test_stacked_specials_add_every_special_they_imply(special, rows):
    """seed 003 does not say whether a deal can score two specials. A Perła (one player
    takes every trick) is also a Kalanda (the partners take every trick), and a
    Kondriona is also a Perła and a Kalanda; the stacked ruleset adds each bonus, one
    breakdown row per special, while the seed's default counts only the one chosen."""
    raw = deal(aces=(4, 0), honours=(20, 0), last=0, special=special)
    raw["confirmed"] = True  # the Kondriona's taker declared no whole-suit cezar
    got = STACKED.breakdown(STACKED.validate(raw, leader=0))
    assert [(r["key"], r["points"][0]) for r in got[4:]] == rows
    assert all(r["points"][1] == 0 for r in got[4:])
    assert STACKED.score(STACKED.validate(raw, leader=0)) == [11 + sum(p for _, p in rows), 0]
    single = SEED.breakdown(SEED.validate(raw, leader=0))
    assert [(r["key"], r["points"][0]) for r in single[4:]] == rows[:1]


def test_stacked_sariat_adds_a_tybet():
    """seed 003: a Sariat (one player takes all tricks but one) is also a Tybet (the
    partners take all but one); stacked, both bonuses count: +6 +3."""
    raw = deal(aces=(0, 4), honours=(1, 19), last=1, special={"kind": "sariat", "seat": 3})
    rows = STACKED.breakdown(STACKED.validate(raw))
    assert [(r["key"], r["points"]) for r in rows[4:]] == [("sariat", [0, 6]), ("tybet", [0, 3])]
    assert SEED.score(SEED.validate(raw)) == [0, 11 + 6]


def test_stacking_is_off_by_default_and_refused_with_multipliers():
    """The source's silence is read as "only the special named counts" unless a ruleset
    says otherwise; multiplied specials (a house variant) never stack."""
    from scorekeeper.families.tybet.rules import from_data
    from scorekeeper.rules.errors import RulesetError
    assert not SEED.specials_stack and not ITALIAN.specials_stack and STACKED.specials_stack
    old = SEED.snapshot()
    del old["specials_stack"]  # a game stored before the option existed
    assert not from_data(old).specials_stack
    data = ITALIAN.snapshot()
    data["specials_stack"] = True
    with pytest.raises(RulesetError, match="do not stack"):
        from_data(data)
    data["specials_stack"] = "yes"
    with pytest.raises(RulesetError, match="specials_stack: Input should be a valid boolean"):
        from_data(data)
    for lang in ("en", "pl"):
        assert ("where the source is silent" if lang == "en" else "gdzie źródło milczy") \
            in STACKED.notes(lang)


def test_special_reading_says_which_reading_applies():
    """The deal screen states the reading where seed 003 is silent: stacked or not."""
    stacked = [(p.field, p.message, p.params["special"]) for p in STACKED.special_reading()]
    assert stacked == [
        ("", "A Perła also counts as a Kalanda: both bonuses are added.", "perla"),
        ("", "A Kondriona also counts as a Perła and a Kalanda: all three bonuses are added.",
         "kondriona"),
        ("", "A Sariat also counts as a Tybet: both bonuses are added.", "sariat"),
    ]
    single = [p.text() for p in SEED.special_reading()]
    assert single == [
        "Only the special win chosen counts: a Perła does not add a Kalanda.",
        "Only the special win chosen counts: a Kondriona does not add a Perła or a Kalanda.",
        "Only the special win chosen counts: a Sariat does not add a Tybet.",
    ]
    assert [p.text() for p in ITALIAN.special_reading()] == single


# -- Kondriona: one hand holds a whole suit -------------------------------------------------

WHOLE_CEZAR = {"kind": "cezar", "suit": "D", "extra": 7}  # 3-2-A-K-Q-J-7-6-5-4


def kondriona(decl=None, seat=1, **extra):
    return deal(decl, aces=(0, 4), honours=(0, 20), last=1,
                special={"kind": "kondriona", "seat": seat}) | extra


@pytest.mark.parametrize("seat, rank", [
    (0, "3"),   # an opponent's four 3s
    (2, "2"),   # the partner's four 2s
    (0, "A"),   # four aces
    (2, "5"),   # any four at all
])
@pytest.mark.parametrize("taker", [[], [WHOLE_CEZAR]])
def test_kondriona_leaves_nobody_a_four(seat, rank, taker):
    """seed 003: a Kondriona is won with a full suit, all ten cards of one suit in one
    hand. That hand has one card of every rank, so no other player can hold all four
    cards of a rank: any four declared in such a deal is refused, whether or not the
    taker declared the suit's cezar."""
    decl = [[], taker, [], []]
    decl[seat] = [{"kind": "four", "rank": rank}]
    found = problems(kondriona(decl, confirmed=True), leader=1)
    assert found[f"declarations.{seat}"].message.startswith("In a Kondriona one player holds")


@pytest.mark.parametrize("own", [
    [WHOLE_CEZAR, {"kind": "trio", "rank": "K"}],
    [WHOLE_CEZAR, {"kind": "four", "rank": "3"}],
    [{"kind": "trio", "rank": "7"}],
    [{"kind": "cezar", "suit": "D", "extra": 0}, {"kind": "cezar", "suit": "S", "extra": 0}],
])
def test_kondriona_taker_declares_only_the_suits_cezar(own):
    """seed 003: the Kondriona's taker holds ten cards of one suit, so no two cards of a
    rank and only one suit: no trio, no four, no second cezar in that hand."""
    found = problems(kondriona([[], own, [], []], confirmed=True), leader=1)
    assert found["declarations.1"].message.startswith("The Kondriona's taker holds all ten")


def test_kondriona_without_the_whole_suit_cezar_asks_for_confirmation():
    """seed 003: the Kondriona's full suit is always a cezar 3-2-A-K-Q-J-7-6-5-4. If its
    taker declared none, the deal is probably mistyped: it is accepted only once the
    table ticks a confirmation, and the stored result remembers the tick."""
    raw = kondriona([[], [{"kind": "cezar", "suit": "D", "extra": 2}], [], []])
    found = problems(raw, leader=1)
    assert set(found) == {"confirm"}
    assert found["confirm"].message == ("The Kondriona's taker declared no cezar of the whole "
                                        "suit. Tick to confirm the deal as entered.")
    for tick in (True, "1", "on", "true", "True"):
        result = SEED.validate(raw | {"confirmed": tick}, leader=1)
        assert result["confirmed"] is True
        assert SEED.score(result) == [0, 5 + 11 + 16]
    for no in (False, "", "0", "off", 1, None):
        assert "confirm" in problems(raw | {"confirmed": no}, leader=1)
    stored = SEED.validate(raw | {"confirmed": "on"}, leader=1)
    state = replay(SEED, 0, [stored])  # deal 1, dealer 0: seat 1 leads
    assert state.scored[0].result == stored and state.totals == [0, 32] and state.winner == 1


def test_kondriona_with_the_whole_suit_cezar_needs_no_tick():
    """seed 003: with the whole suit declared as a cezar (3 + 7 = 10 points) there is
    nothing to confirm, and the result carries no confirmation."""
    result = SEED.validate(kondriona([[], [WHOLE_CEZAR], [], []], confirmed=True), leader=1)
    assert "confirmed" not in result
    assert SEED.score(result) == [0, 10 + 11 + 16]
    assert "confirmed" not in SEED.validate(deal() | {"confirmed": True})  # no Kondriona


def test_other_players_may_still_declare_trios_and_other_cezars_in_a_kondriona():
    """seed 003: only fours are impossible for the others; a rank has three cards outside
    the full suit, so a trio still fits, as does a cezar of another suit."""
    decl = [[{"kind": "trio", "rank": "K"}], [WHOLE_CEZAR],
            [{"kind": "cezar", "suit": "S", "extra": 0}], []]
    result = SEED.validate(kondriona(decl), leader=1)
    assert SEED.score(result) == [1 + 3, 10 + 11 + 16]


def test_stored_results_replay_unchecked_to_the_same_state():
    won = deal(aces=(3, 1), honours=(12, 8), last=0)  # 8 : 3
    raw = [won, deal(decl=[[], [{"kind": "four", "rank": "3"}], [], []], aces=(2, 2),
                     honours=(10, 10), last=1), won]
    checked = replay(SEED, 0, raw)
    stored = [s.result for s in checked.scored]
    assert [SEED.validate(r, leader=s.deal.leader) for r, s in zip(stored, checked.scored)] \
        == stored
    unchecked = replay(SEED, 0, stored, checked=False)
    assert unchecked.totals == checked.totals and unchecked.winner == checked.winner
