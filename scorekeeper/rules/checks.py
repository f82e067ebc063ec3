"""Every input check, once: whole numbers, counts that add up, seats, names, a first dealer.

A problem is reported as a :class:`~.errors.Problem` naming the field, wherever the value
comes from (the API, a form, an import, a family's rules).

>>> whole_number("12"), whole_number(" 3 "), whole_number("-2")
(12, 3, -2)
>>> whole_number("²"), whole_number("--3"), whole_number(True), whole_number(21.0)
(None, None, None, None)
"""
from __future__ import annotations

import random
import unicodedata
from collections.abc import Sequence
from typing import Any

from .errors import N_, InvalidInput, Problem

#: More digits than any score, count or seat needs; longer strings are not numbers here.
MAX_DIGITS = 9
NAME_MAX = 40
TOO_LONG = N_("A name can have at most %(max)s characters; this one has %(count)s.")


def is_int(value: Any) -> bool:
    """A whole number as JSON gives it: an int, not a bool.

    >>> is_int(3), is_int(True), is_int(3.0), is_int("3")
    (True, False, False, False)
    """
    return isinstance(value, int) and not isinstance(value, bool)


def whole_number(value: Any) -> int | None:
    """An int from an int or from ASCII digits with one optional minus; else None."""
    if is_int(value):
        return value
    text = value.strip() if isinstance(value, str) else ""
    number = text.removeprefix("-")
    return int(text) if digits(number) and len(number) <= MAX_DIGITS else None


def digits(text: Any) -> bool:
    """ASCII digits, at least one (``str.isdigit`` is true of "²" and "٣" too).

    >>> digits("12"), digits("²"), digits("٣"), digits(""), digits("-1"), digits(12)
    (True, False, False, False, False, False)
    """
    return isinstance(text, str) and text.isascii() and text.isdigit()


def page(value: Any, pages: int) -> int | None:
    """A page's number from ``?page=``: ASCII digits from 1 to ``pages - 1``; else None.

    >>> page("2", 100), page("²", 100), page("0", 100), page("100", 100), page(None, 9)
    (2, None, None, None, None)
    """
    number = int(value) if digits(value) and len(value) <= MAX_DIGITS else 0
    return number if 0 < number < pages else None


def blank(value: Any) -> bool:
    """Nothing entered: None or an empty string."""
    return value is None or (isinstance(value, str) and not value.strip())


def fill_last(values: list[int | None], total: int) -> list[int | None]:
    """Fill the one missing count so that the counts add up to ``total``.

    >>> fill_last([3, None, 4, 4], 13)
    [3, 2, 4, 4]
    >>> fill_last([3, None, None, 4], 13)
    [3, None, None, 4]
    """
    missing = [i for i, v in enumerate(values) if v is None]
    rest = total - sum(v for v in values if v is not None)
    if len(missing) != 1 or rest < 0:
        return values
    return [rest if v is None else v for v in values]


def counts(values: Any, size: int, total: int, name: str, problems: list[Problem],
           shape_message: str = N_("Enter a number for each of the %(players)s players."),
           ) -> list[int] | None:
    """``size`` whole numbers from 0 to ``total`` that add up to ``total``, one blank
    filled with what is left; else None, the problems (at ``name`` or ``name.i``) added.

    >>> found = []
    >>> counts(["3", "", 4, 4], 4, 13, "tricks", found), found
    ([3, 2, 4, 4], [])
    >>> counts([9, 9, None, 0], 4, 13, "tricks", found)
    >>> found[0].text()
    'These must add up to 13; they add up to 18.'
    """
    if not isinstance(values, (list, tuple)) or len(values) != size:
        problems.append(Problem(name, shape_message, {"players": size}))
        return None
    parsed = [None if blank(v) else whole_number(v) for v in values]
    bad = [Problem(f"{name}.{i}", N_("Enter a whole number from 0 to %(max)s."), {"max": total})
           for i, (v, n) in enumerate(zip(values, parsed))
           if not blank(v) and (n is None or not 0 <= n <= total)]
    problems += bad
    if bad:
        return None
    got = sum(v for v in parsed if v is not None)
    if got <= total:
        parsed = fill_last(parsed, total)
        bad = [Problem(f"{name}.{i}", N_("Enter a number.")) for i, v in enumerate(parsed)
               if v is None]
        problems += bad
        if bad:
            return None
        got = sum(parsed)  # type: ignore[arg-type]
    if got != total:
        problems.append(Problem(name, N_("These must add up to %(total)s; they add up to "
                                         "%(got)s."), {"total": total, "got": got}))
        return None
    return parsed  # type: ignore[return-value]


def seat(value: Any, players: int) -> int | None:
    """A seat from 0 to ``players - 1``, or None."""
    number = whole_number(value)
    return number if number is not None and 0 <= number < players else None


def clean_name(name: Any) -> str:
    """A player's name as kept: NFC, no control or invisible characters, single spaces.

    >>> clean_name("  O\u200bla \t Nowak\x07 ")
    'Ola Nowak'
    """
    if not isinstance(name, str):
        return ""
    visible = "".join(c for c in unicodedata.normalize("NFC", name)
                      if unicodedata.category(c) not in ("Cc", "Cf") or c.isspace())
    return " ".join(visible.split())


def person_key(name: Any) -> str:
    """What makes two names one person: case, compatibility forms and spacing aside.

    >>> person_key(" ALA\u200b ") == person_key("ala") == person_key("Ａｌａ")
    True
    """
    return unicodedata.normalize("NFKC", clean_name(name)).casefold()


def typed_name(value: Any, field: str, empty: str, limit: int = NAME_MAX) -> str:
    """A name entered at ``field``, cleaned: ``empty`` if there is none, or too long."""
    name = clean_name(value)
    if not name:
        raise InvalidInput([Problem(field, empty)])
    if len(name) > limit:
        raise InvalidInput([Problem(field, TOO_LONG, {"max": limit, "count": len(name)})])
    return name


def names(given: Any, players: int) -> list[str]:
    """The players' names in seat order, each present, short enough and different
    (trailing blanks beyond ``players`` dropped)."""
    if not isinstance(given, (list, tuple)):
        raise InvalidInput([Problem("players", N_("Enter the players' names."))])
    cleaned = [clean_name(n) for n in given]
    problems = []
    while len(cleaned) > players and not cleaned[-1]:
        cleaned.pop()
    if len(cleaned) != players:
        problems.append(Problem("players", N_("This ruleset is for %(players)s players."),
                                {"players": players}))
    seen: set[str] = set()
    for i, name in enumerate(cleaned):
        if not name:
            problems.append(Problem(f"players.{i}", N_("Enter a name.")))
        elif len(name) > NAME_MAX:
            problems.append(Problem(f"players.{i}", TOO_LONG,
                                    {"max": NAME_MAX, "count": len(name)}))
        elif person_key(name) in seen:
            problems.append(Problem(f"players.{i}", N_("Each player needs a different name.")))
        seen.add(person_key(name))
    if problems:
        raise InvalidInput(problems)
    return cleaned


def first_dealer(value: Any, players: int, rng: random.Random | None = None) -> int:
    """The first dealer's seat; ``None``, ``""`` or ``"random"`` draws one at random."""
    if value is None or value in ("", "random"):
        return (rng or random.SystemRandom()).randrange(players)
    chosen = seat(value, players)
    if chosen is None:
        raise InvalidInput([Problem("first_dealer", N_("Choose the first dealer."))])
    return chosen


def one_of(value: Any, allowed: Sequence[int], name: str, message: str) -> int:
    """A whole number that must be one of ``allowed`` (a target score, say)."""
    number = whole_number(value)
    if number is None or number not in allowed:
        raise InvalidInput([Problem(name, message)])
    return number
