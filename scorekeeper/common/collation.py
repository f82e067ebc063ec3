"""People's names in the order the language reads them, not by code point.

The Unicode Collation Algorithm (:mod:`pyuca`'s root order, English's) puts accented
letters with their base letter (``Émile`` beside ``Emil``). Polish reads ``ą ć ę ł ń ó ś
ź ż`` as letters of their own, each after its base letter (``Czesław`` before ``Ćwikła``
before ``Dorota``), as CLDR's Polish tailoring says (``&A<ą &C<ć … &Z<ź<ż``): each such
letter weighs here as its base letter followed by one weight above every letter's (``ż``:
two), so it sorts after every word of its base letter and before the next letter's.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import TypeVar

from pyuca import Collator

T = TypeVar("T")

#: A primary weight above every letter's in the table (its implicit weights end below it).
_AFTER_ALL = 0xFFFE
#: Polish letters of their own: each letter, its base letter, how many weights follow it.
_POLISH = [("ą", "a", 1), ("ć", "c", 1), ("ę", "e", 1), ("ł", "l", 1), ("ń", "n", 1),
           ("ó", "o", 1), ("ś", "s", 1), ("ź", "z", 1), ("ż", "z", 2)]


@lru_cache(maxsize=2)
def _collator(language: str) -> Collator:
    collator = Collator()
    for letter, base, extra in _POLISH if language == "pl" else ():
        for own, of in ((letter, base), (letter.upper(), base.upper())):
            _, elements, _ = collator.table.find_prefix([ord(of)])
            collator.table.add([ord(c) for c in unicodedata.normalize("NFD", own)],
                               [*elements, *[[_AFTER_ALL, 0x0020, 0x0002]] * extra])
    return collator


def warm(languages: Iterable[str]) -> None:
    """Build each language's collator now: a server reads pyuca's table at start rather
    than inside the first request that sorts names."""
    for language in languages:
        _collator("pl" if language == "pl" else "en")


def key(name: str, language: str) -> tuple:
    """What to sort a name by in ``language`` (``"pl"``, else English): its collation
    key, then the name itself so that different names never tie."""
    text = unicodedata.normalize("NFC", name)
    return (_collator("pl" if language == "pl" else "en").sort_key(text), text)


def by_name(items: Iterable[T], language: str, name: Callable[[T], str]) -> list[T]:
    """``items`` in the order of their names in ``language``.

    >>> by_name(["Żaneta", "Zenon", "Łukasz", "Lucyna", "Małgorzata"], "pl", str)
    ['Lucyna', 'Łukasz', 'Małgorzata', 'Zenon', 'Żaneta']
    >>> by_name(["zoe", "Émile", "Emil", "adam"], "en", str)
    ['adam', 'Emil', 'Émile', 'zoe']
    """
    return sorted(items, key=lambda item: key(name(item), language))
