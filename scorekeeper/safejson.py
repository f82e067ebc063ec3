"""The app's JSON: read with a bound on nesting, written with orjson.

Reading: a bound on nesting, for request bodies and imported files.

Python's parser recurses once per level, so ``[[[[…]]]]`` 100,000 deep would end in a
``RecursionError`` (a server error); here anything deeper than :data:`MAX_DEPTH` is a
``ValueError`` like any other malformed JSON, which the callers answer with 400/422.

>>> loads('{"a": [1, {"b": "[[["}]}')
{'a': [1, {'b': '[[['}]}
>>> loads("[" * 100 + "]" * 100)
Traceback (most recent call last):
ValueError: JSON nested deeper than 32 levels

Writing: Flask's JSON with the same keys sorted and the same ``default`` for what JSON
has no type for, done by orjson, which writes a game (5 KB) ten times faster than the
standard library; the text is UTF-8 rather than ``\\u`` escapes. Anything orjson does not
take (an integer past 64 bits, indented output for debugging) goes to the standard
library as before.

>>> import flask
>>> provider = BoundedJSONProvider(flask.Flask("doc"))
>>> provider.dumps({"b": "Żaneta", "a": [1, 2**70]})
'{"a":[1,1180591620717411303424],"b":"Żaneta"}'
>>> provider.dumps({"b": "Żaneta", "a": (1, None)})
'{"a":[1,null],"b":"Żaneta"}'
"""
from __future__ import annotations

import json
import re
from typing import Any

import orjson
from flask.json.provider import DefaultJSONProvider

#: This app's deepest JSON (an export with a ruleset snapshot) is about 6 levels.
MAX_DEPTH = 32


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


def check_depth(text: str | bytes, limit: int = MAX_DEPTH) -> None:
    """Raise ValueError if brackets outside strings nest deeper than ``limit``."""
    if isinstance(text, (bytes, bytearray)):
        text = text.decode("utf-8", "replace")
    if text.count("[") + text.count("{") <= limit:
        return  # too few brackets to nest that deep (most bodies: one pass in C)
    depth = 0
    for match in _BRACKETS.finditer(_STRING.sub("", text)):
        if match.group() in "[{":
            depth += 1
            if depth > limit:
                raise ValueError(f"JSON nested deeper than {limit} levels")
        else:
            depth -= 1


def loads(text: str | bytes, **kwargs: Any) -> Any:
    check_depth(text)
    return json.loads(text, **kwargs)


#: Sorted keys as Flask writes them; dates and dataclasses go to Flask's ``default``, so
#: that they come out as they always did (an HTTP date, a dict).
_OPTIONS = (orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME
            | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_SUBCLASS)


class BoundedJSONProvider(DefaultJSONProvider):
    """Flask's JSON, with the depth bound on everything it reads, written by orjson."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs.get("indent") is None and kwargs.get("separators", (",", ":")) == (",", ":") \
                and kwargs.get("ensure_ascii") is not True:
            try:
                return orjson.dumps(obj, default=self.default, option=_OPTIONS).decode()
            except (TypeError, orjson.JSONEncodeError):
                pass  # past orjson's range: the standard library below
        kwargs.setdefault("ensure_ascii", False)
        if kwargs.get("indent") is None:
            kwargs.setdefault("separators", (",", ":"))
        return super().dumps(obj, **kwargs)

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        check_depth(s)
        return super().loads(s, **kwargs)
