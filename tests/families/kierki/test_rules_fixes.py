"""Rules fixes checked against the source documents (seeds 000-004 in /work/shared/seeds)."""
import copy

import pytest

from scorekeeper.families.kierki.rules import (
    InvalidPlay,
    RulesetError,
    check_follow,
    check_lead,
    from_data,
    get_ruleset,
    new_board,
    pass_turn,
    play,
    registry,
)

# -- loading a ruleset: one clear error type --------------------------------------------


def _broken(change):
    data = copy.deepcopy(get_ruleset("standard-4").snapshot())
    change(data)
    return data


def _set(path, value):
    def change(data):
        *keys, last = path
        target = data
        for k in keys:
            target = target[k]
        target[last] = value
    return change


def _drop(path):
    def change(data):
        *keys, last = path
        target = data
        for k in keys:
            target = target[k]
        del target[last]
    return change


@pytest.mark.parametrize("change, words", [
    (_set(("contracts", "no_tricks", "kind"), "exec"),
     "contracts.no_tricks: Input tag 'exec'"),
    (_set(("contracts", "no_hearts", "set"), "harts"),
     "contracts.no_hearts.cards.set: Input should be 'hearts'"),
    (_set(("schedule",), ["no_tricks", "no_trick"]), "schedule: unknown contract 'no_trick'"),
    (_drop(("contracts", "no_queens", "points")), "contracts.no_queens.cards.points: Field required"),
    (_drop(("contracts", "no_queens", "kind")), "contracts.no_queens: Unable to extract tag"),
    (_drop(("players",)), "players: Field required"),
    (_drop(("schedule",)), "schedule: Field required"),
    (_set(("contracts", "no_tricks", "points"), "20"), "contracts.no_tricks.tricks.points: Input should be a valid integer"),
    (_set(("contracts", "no_tricks", "points"), True), "contracts.no_tricks.tricks.points: Input should be a valid integer"),
    (_set(("contracts", "no_seventh_last", "positions"), [7, 14]), "no trick 14"),
    (_set(("contracts", "no_seventh_last", "points"), [-75]), "one value per position"),
    (_set(("contracts", "robber", "parts"), ["no_tricks", "nothing"]), "unknown part 'nothing'"),
    (_set(("contracts", "robber", "parts"), ["robber"]), "robber"),
    (_set(("contracts", "robber", "parts"), ["no_tricks", "trumps"]), "part 'trumps'"),
    (_set(("contracts", "no_hearts", "lead"), ["no_spades"]), "contracts.no_hearts.cards.lead.0: Input should be"),
    (_set(("contracts", "no_hearts", "lead"), "no_hearts"), "contracts.no_hearts.cards.lead: Input should be a valid list"),
    (_set(("contracts", "trumps", "named_by"), "nobody"), "contracts.trumps.trumps.named_by: Input should be"),
    (_set(("contracts", "trumps", "cards_seen"), 14), "'cards_seen' must be from 0 to the 13"),
    (_set(("contracts", "loteryjka", "prizes"), [800, "500"]), "contracts.loteryjka.loteryjka.prizes.1: Input should be a valid integer"),
    (_set(("contracts", "loteryjka", "start"), "1"), "contracts.loteryjka.loteryjka.start: Input should be"),
    (_set(("contracts", "loteryjka", "ace"), "middle"), "contracts.loteryjka.loteryjka.ace: Input should be"),
    (_set(("contracts",), []), "contracts: Input should be a valid dictionary"),
    (_set(("removed",), ["1Z"]), "removed.0: String should match pattern"),
    (_set(("removed",), ["2C"]), "do not divide"),
    (_set(("players",), "4"), "players: Input should be 3, 4 or 5"),
    (_set(("expected_sum",), None), "expected_sum: Input should be a valid integer"),
    (_set(("contracts", "no_queens"), "queens"), "contracts.no_queens: Input should be a valid dictionary"),
])
def test_a_bad_ruleset_raises_one_clear_error(change, words):
    """Unknown kinds, card sets or schedule keys, missing fields and wrong types in a
    ruleset are refused with a RulesetError (also a ValueError) naming the fault and,
    for a field of the wrong type, its path."""
    with pytest.raises(RulesetError) as e:
        from_data(_broken(change))
    assert words in str(e.value)
    assert isinstance(e.value, ValueError) and not isinstance(e.value, KeyError)


@pytest.mark.parametrize("data", [None, [], "standard-4", {"id": "x"}])
def test_not_a_ruleset_at_all(data):
    """Data that is not a ruleset object is refused the same way."""
    with pytest.raises(RulesetError):
        from_data(data)


def test_every_built_in_ruleset_loads_from_its_own_snapshot():
    """The checks accept every ruleset shipped with the app, as stored in a game (its
    words too: a game's snapshot is loaded through the family, which checks them)."""
    for rs in registry().values():
        assert from_data(rs.snapshot()) == rs


# -- seed 001: the robber's lead rules are its own -------------------------------------

@pytest.mark.parametrize("ruleset", ["seed001-4-robber", "seed001-3-robber"])
def test_seed001_robber_only_forbids_heart_leads(ruleset):
    """seed 001: in the robber (deal 7) no heart may be led while the leader holds
    another suit; the duty to throw the K♥ away at the first chance belongs to deal 5
    alone, so in the robber its holder may keep it when void in the suit led."""
    rs = get_ruleset(ruleset)
    robber = rs.contract("robber")
    assert robber.lead_rules == ("no_hearts",)
    assert check_lead(robber, "AH", hand=["AH", "2C"]).key == "no_hearts"
    ruling = check_follow(robber, "3C", "QS", ["QS", "KH", "2H"])
    assert (ruling.allowed, ruling.key) == (True, "void_any_card")
    deal5 = rs.contract("no_king_of_hearts")
    assert "discard_king_of_hearts" in deal5.lead_rules
    assert check_follow(deal5, "3C", "QS", ["QS", "KH", "2H"]).key == \
        "must_discard_king_of_hearts"


@pytest.mark.parametrize("ruleset_id", sorted(registry()))
def test_no_other_robber_changes_what_it_shows(ruleset_id):
    """The robber used to show its own rules plus every part's; now it shows exactly its
    own list. Only seed 001's robbers lose a rule (the K♥ discard, see above); every
    other ruleset lists the same rules as before, explicitly."""
    rs = get_ruleset(ruleset_id)
    if "robber" not in rs.schedule:
        return
    robber = rs.contract("robber")
    inherited = list(robber.data.get("lead", ()))
    for part in robber.parts:
        inherited += [r for r in part.lead_rules if r not in inherited]
    if rs.data["source"] == "001":
        assert [r for r in inherited if r not in robber.lead_rules] == ["discard_king_of_hearts"]
    else:
        assert list(robber.lead_rules) == inherited
    assert list(robber.lead_rules) == robber.data["lead"]


# -- seed 002: no heart led in any negative deal ---------------------------------------

@pytest.mark.parametrize("number", range(1, 8))
def test_seed002_no_heart_lead_in_every_negative_deal(number):
    """seed 002: in all seven deals of the negative part the leader may lead any card
    except a heart (a heart only when nothing else is left in the hand)."""
    c = get_ruleset("seed002-4").deals()[number - 1]
    assert "no_hearts" in c.lead_rules
    r = check_lead(c, "5H", hand=["5H", "9H", "3D"])
    assert (r.allowed, r.key) == (False, "no_hearts")
    assert check_lead(c, "5H", hand=["5H", "9H"]).key == "only_hearts_left"
    assert check_lead(c, "3D", hand=["5H", "3D"]).allowed is True


def test_seed002_deal_5_keeps_its_king_of_hearts_rule_and_trumps_lead_freely():
    """seed 002: deal 5 also forbids leading the K♥; the trump deals have no lead limit."""
    rs = get_ruleset("seed002-4")
    assert rs.contract("no_king_of_hearts").lead_rules == ("no_hearts", "no_king_of_hearts")
    assert check_lead(rs.contract("trumps"), "5H", hand=["5H", "3D"]).key == "free_lead"


# -- seed 000: the loteryjka opens with any card ------------------------------------------

@pytest.mark.parametrize("ruleset", ["kurnik-4", "kurnik-3"])
def test_kurnik_loteryjka_first_turn_may_not_pass(ruleset):
    """seed 000: the dealer lays the first card of the loteryjka, and it may be any
    card; so the very first turn always has a card to play and passing is refused,
    whether or not the hands were entered."""
    c = get_ruleset(ruleset).contract("loteryjka")
    board = new_board(c, 0)
    with pytest.raises(InvalidPlay) as e:
        pass_turn(board)
    [problem] = e.value.problems
    assert (problem.field, problem.message) == (
        "pass", "The first player lays any card; passing is not allowed.")
    after = play(board, "9D")
    assert pass_turn(after).turn == 2  # once a card is down, passing is a table matter


def test_kurnik_loteryjka_with_a_chosen_start_rank_may_pass_first():
    """A start rank chosen before play (seed 004's house variant) is not the free first
    card of seed 000: the first player may lack that rank, so a pass stays possible."""
    board = new_board(get_ruleset("kurnik-4").contract("loteryjka"), 0, start_rank="Q")
    assert pass_turn(board).turn == 1


def test_seven_start_first_turn_may_still_pass():
    """seed 004 (and 002): play starts with a 7; a player without one passes, even first."""
    board = new_board(get_ruleset("standard-4").contract("loteryjka"), 2)
    assert pass_turn(board).turn == 3


# -- seed 000: how many deals -------------------------------------------------------------

def test_kurnik4_notes_explain_the_deal_count():
    """seed 000: the kurnik.pl page says a full game has 11 deals, yet its own rules for
    four players give 7 negative deals, 4 trump deals (one per player) and one loteryjka:
    12 (11 is the three-player count). The ruleset plays 12 and its notes say why."""
    rs = get_ruleset("kurnik-4")
    assert len(rs.schedule) == 12 == 7 + 4 + 1
    assert len(get_ruleset("kurnik-3").schedule) == 11
    for lang in ("en", "pl"):
        notes = rs.notes(lang)
        assert "11" in notes and "7 + 4 + 1 = 12" in notes, lang
    assert "plays 12" in rs.notes("en") and "gramy 12 rozdań" in rs.notes("pl")
