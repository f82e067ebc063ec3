"""The app's JSON: read with a bound on nesting, written with orjson.

Python's parser recurses once per level, so ``[[[[…]]]]`` 100,000 deep would end in a
``RecursionError`` (a server error); here anything deeper than :data:`MAX_DEPTH` is a
``ValueError`` like any other malformed JSON, which the callers answer with 400/422.

>>> loads('{"a": [1, {"b": "[[["}]}')
{'a': [1, {'b': '[[['}]}
>>> loads("[" * 100 + "]" * 100)
Traceback (most recent call last):
ValueError: JSON nested deeper than 32 levels
>>> loads(b'{"big": 18446744073709551616, "n": NaN}'), loads("[18446744073709551616]")
({'big': 18446744073709551616, 'n': nan}, [18446744073709551616])

Writing is Flask's JSON (sorted keys, Flask's ``default``) done by orjson
(:class:`scorekeeper.web.jsonprovider.BoundedJSONProvider`, with :class:`Written` parts);
what orjson does not take (an integer past 64 bits, indented output) goes to the
standard library.
"""
from __future__ import annotations

import json
import re
from contextlib import suppress
from itertools import accumulate
from typing import Any

import orjson

#: This app's deepest JSON (an export with a ruleset snapshot) is about 6 levels.
MAX_DEPTH = 32


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


def check_depth(text: str | bytes) -> None:
    """Raise ValueError if brackets outside strings nest deeper than :data:`MAX_DEPTH`."""
    if isinstance(text, (bytes, bytearray)):
        if text.count(b"[") + text.count(b"{") <= MAX_DEPTH:
            return  # too few brackets to nest that deep (most bodies: one pass in C)
        try:  # as the standard library reads bytes: UTF-8, or UTF-16/32 by their zeros
            text = bytes(text).decode(json.detect_encoding(text), "surrogatepass")
        except UnicodeDecodeError:
            return  # not text at all: the parser refuses it before any nesting
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    steps = (1 if b in "[{" else -1 for b in _BRACKETS.findall(_STRING.sub("", text)))
    if max(accumulate(steps), default=0) > MAX_DEPTH:
        raise ValueError(f"JSON nested deeper than {MAX_DEPTH} levels")


def loads(text: str | bytes, **kwargs: Any) -> Any:
    """JSON text as Python, read by orjson when it can; the standard library reads what
    orjson refuses (broken JSON, ``NaN``, UTF-16) and any run of 19 digits or more (orjson
    would read an integer past 64 bits as a float), so what is accepted, every value and
    every error message are the standard library's."""
    check_depth(text)
    if not kwargs and _LONG_DIGITS[type(text) is str].search(text) is None:
        with suppress(orjson.JSONDecodeError):
            return orjson.loads(text)
    return json.loads(text, **kwargs)


#: 19 digits in a row (bytes, text): a number orjson might not read as it is written.
_LONG_DIGITS = (re.compile(rb"\d{19}"), re.compile(r"\d{19}"))


#: Sorted keys as Flask writes them; dates and dataclasses go to Flask's ``default``, so
#: that they come out as they always did (an HTTP date, a dict).
_OPTIONS = (orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME
            | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_SUBCLASS)


class Written:
    """A part of many answers that never changes (a recorded deal, a game's schedule),
    written as JSON once: orjson copies its bytes into each answer rather than writing
    it again. Keys are sorted inside it as everywhere, so an answer is the same text as
    if it had been written whole; the standard library's path writes ``obj`` itself.

    >>> import flask
    >>> from scorekeeper.web.jsonprovider import BoundedJSONProvider
    >>> provider = BoundedJSONProvider(flask.Flask("doc"))
    >>> deal = Written({"points": [0, -20], "number": 1})
    >>> provider.dumps({"deals": [deal], "id": "g"})
    '{"deals":[{"number":1,"points":[0,-20]}],"id":"g"}'
    >>> provider.dumps({"deals": [deal], "id": 2**70})
    '{"deals":[{"number":1,"points":[0,-20]}],"id":1180591620717411303424}'
    """

    __slots__ = ("fragment", "obj")

    def __init__(self, obj: Any):
        self.obj = obj
        try:
            data = orjson.dumps(obj, default=_default, option=_OPTIONS)
        except (TypeError, orjson.JSONEncodeError):  # past orjson's range (2**70)
            data = json.dumps(obj, default=_default, sort_keys=True, ensure_ascii=False,
                              separators=(",", ":")).encode()
        self.fragment = orjson.Fragment(data)


def _default(o: Any) -> Any:
    """Flask's ``default`` (dates, dataclasses, ``__html__``…) for the standard library, a
    :class:`Written` part as itself. Flask is imported when something JSON has no type for
    is written: never on the pure side's own data."""
    from flask.json.provider import _default as flask_default

    return o.obj if isinstance(o, Written) else flask_default(o)


def _orjson_default(o: Any) -> Any:
    """Flask's ``default`` for orjson: a :class:`Written` part as its bytes."""
    return o.fragment if isinstance(o, Written) else _default(o)
