"""Rules fixes checked against the source documents (seeds 000-004 in /work/shared/seeds)."""
import copy

import pytest

from scorekeeper.families.kierki.rules import RulesetError, from_data, get_ruleset

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
     "contract 'no_tricks': unknown contract kind 'exec'"),
    (_set(("contracts", "no_hearts", "set"), "harts"),
     "contract 'no_hearts': unknown card set 'harts'"),
    (_set(("schedule",), ["no_tricks", "no_trick"]), "schedule: unknown contract 'no_trick'"),
    (_drop(("contracts", "no_queens", "points")), "contract 'no_queens': missing field 'points'"),
    (_drop(("contracts", "no_queens", "kind")), "contract 'no_queens': missing field 'kind'"),
    (_drop(("players",)), "missing field 'players'"),
    (_drop(("schedule",)), "missing field 'schedule'"),
    (_set(("contracts", "no_tricks", "points"), "20"), "'points' must be a whole number"),
    (_set(("contracts", "no_tricks", "points"), True), "'points' must be a whole number"),
    (_set(("contracts", "no_seventh_last", "positions"), [7, 14]), "no trick 14"),
    (_set(("contracts", "no_seventh_last", "points"), [-75]), "one value per position"),
    (_set(("contracts", "robber", "parts"), ["no_tricks", "nothing"]), "unknown part 'nothing'"),
    (_set(("contracts", "robber", "parts"), ["robber"]), "robber"),
    (_set(("contracts", "robber", "parts"), ["no_tricks", "trumps"]), "part 'trumps'"),
    (_set(("contracts", "no_hearts", "lead"), ["no_spades"]), "unknown lead rule 'no_spades'"),
    (_set(("contracts", "no_hearts", "lead"), "no_hearts"), "'lead' must be a list"),
    (_set(("contracts", "trumps", "named_by"), "nobody"), "'named_by' must be one of"),
    (_set(("contracts", "loteryjka", "prizes"), [800, "500"]), "'prizes' must be a list"),
    (_set(("contracts", "loteryjka", "start"), "1"), "'start' must be one of"),
    (_set(("contracts", "loteryjka", "ace"), "middle"), "'ace' must be one of"),
    (_set(("contracts",), []), "'contracts' must map"),
    (_set(("removed",), ["1Z"]), "not a card"),
    (_set(("removed",), ["2C"]), "do not divide"),
    (_set(("players",), "4"), "'players' must be 3 or 4"),
    (_set(("expected_sum",), None), "'expected_sum' must be a whole number"),
    (_set(("contracts", "no_queens"), "queens"), "contract 'no_queens': not an object"),
])
def test_a_bad_ruleset_raises_one_clear_error(change, words):
    """Unknown kinds, card sets or schedule keys, missing fields and wrong types in a
    ruleset are refused with a RulesetError (also a ValueError) naming the fault."""
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
    """The checks accept every ruleset shipped with the app, as stored in a game."""
    from scorekeeper.families.kierki.rules import registry
    for rs in registry().values():
        assert from_data(rs.snapshot()) == rs
