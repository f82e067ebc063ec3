"""The one home of every input check: numbers, counts, seats, names."""
import pytest

from scorekeeper.rules import checks
from scorekeeper.rules.errors import InvalidInput


@pytest.mark.parametrize("value", ["²", "٣", "--3", "3.0", "1e3", "9" * 5000, True, False,
                                   21.0, None, [], {}, "", " ", "0x10", "+3"])
def test_only_ascii_whole_numbers_are_numbers(value):
    assert checks.whole_number(value) is None


@pytest.mark.parametrize("value, number", [("7", 7), (" 13 ", 13), ("-20", -20), (0, 0),
                                           ("007", 7)])
def test_whole_numbers(value, number):
    assert checks.whole_number(value) == number


def test_counts_fill_the_last_and_say_what_they_add_up_to():
    found = []
    assert checks.counts(["3", "", 4, 4], 4, 13, "tricks", found) == [3, 2, 4, 4]
    assert checks.counts([13, 13, None, None], 4, 13, "tricks", found) is None
    assert [p.text() for p in found] == ["These must add up to 13; they add up to 26."]
    found.clear()
    assert checks.counts(["²", 0, 0, 0], 4, 13, "tricks", found) is None
    assert [p.field for p in found] == ["tricks.0"]


@pytest.mark.parametrize("names, field, message", [
    (["Ola", "O\u200bla", "Ela", "Iza"], "players.1", "Each player needs a different name."),
    (["OLA", "ola", "Ela", "Iza"], "players.1", "Each player needs a different name."),
    (["\u200b\u200d", "Ala", "Ela", "Iza"], "players.0", "Enter a name."),
    (["\x07\x1b", "Ala", "Ela", "Iza"], "players.0", "Enter a name."),
    (["Ala", "Ela", "Iza"], "players", "This ruleset is for %(players)s players."),
    ("Ala", "players", "Enter the players' names."),
])
def test_names_are_compared_as_players_read_them(names, field, message):
    with pytest.raises(InvalidInput) as e:
        checks.names(names, 4)
    assert (e.value.problems[0].field, e.value.problems[0].message) == (field, message)


def test_names_are_kept_clean():
    assert checks.names([" Łucja\u200b ", "Żaneta  Kowalska", "Ścibor", "Ola"], 4) == \
        ["Łucja", "Żaneta Kowalska", "Ścibor", "Ola"]
