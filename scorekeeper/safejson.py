"""JSON read with a bound on nesting, for request bodies and imported files.

Python's parser recurses once per level, so ``[[[[…]]]]`` 100,000 deep would end in a
``RecursionError`` (a server error); here anything deeper than :data:`MAX_DEPTH` is a
``ValueError`` like any other malformed JSON, which the callers answer with 400/422.

>>> loads('{"a": [1, {"b": "[[["}]}')
{'a': [1, {'b': '[[['}]}
>>> loads("[" * 100 + "]" * 100)
Traceback (most recent call last):
ValueError: JSON nested deeper than 32 levels
"""
from __future__ import annotations

import json
import re
from typing import Any

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


class BoundedJSONProvider(DefaultJSONProvider):
    """Flask's JSON, with the depth bound on everything it reads."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        check_depth(s)
        return super().loads(s, **kwargs)
