"""The app's JSON provider for Flask: the depth bound of :mod:`scorekeeper.common.safejson`
on everything it reads, written by orjson (its :class:`~scorekeeper.common.safejson.Written`
parts copied as bytes).

>>> import flask
>>> provider = BoundedJSONProvider(flask.Flask("doc"))
>>> provider.dumps({"b": "Żaneta", "a": (1, None)})
'{"a":[1,null],"b":"Żaneta"}'
"""
from __future__ import annotations

from typing import Any

import orjson
from flask.json.provider import DefaultJSONProvider

from ..common.safejson import _OPTIONS, _default, _orjson_default, loads


class BoundedJSONProvider(DefaultJSONProvider):
    """Flask's JSON, with the depth bound on everything it reads, written by orjson."""

    default = staticmethod(_default)
    ensure_ascii = False

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs.get("indent") is None and kwargs.get("separators", (",", ":")) == (",", ":") \
                and kwargs.get("ensure_ascii") is not True:
            try:
                return orjson.dumps(obj, default=_orjson_default, option=_OPTIONS).decode()
            except (TypeError, orjson.JSONEncodeError):
                pass  # past orjson's range: the standard library below
        if kwargs.get("indent") is None:
            kwargs.setdefault("separators", (",", ":"))
        return super().dumps(obj, **kwargs)

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return whole_numbers(loads(s, **kwargs))


def refusal_json(message: str, **extra: Any) -> dict[str, Any]:
    """The body of every refused API request: what went wrong in the asker's language,
    and what the refusal adds (``version`` of a conflict, ``errors`` by field).

    >>> refusal_json("Not found.")
    {'error': 'Not found.'}
    >>> refusal_json("The input was refused.", errors={"result": ["Wrong."]})
    {'error': 'The input was refused.', 'errors': {'result': ['Wrong.']}}
    """
    return {"error": str(message), **extra}


def whole_numbers(value: Any) -> Any:
    """``value`` with every whole float read as the integer it is: JSON has one kind of
    number, so a client's ``5.0`` is the ``5`` the API's documents call an integer.

    >>> whole_numbers({"version": 5.0, "result": {"tricks": [3.0, 2.5, None]}})
    {'version': 5, 'result': {'tricks': [3, 2.5, None]}}
    """
    if isinstance(value, float):
        # (2**53: the largest whole number a float spells exactly)
        return int(value) if value.is_integer() and -2**53 <= value <= 2**53 else value
    if isinstance(value, list):
        return [whole_numbers(v) for v in value]
    if isinstance(value, dict):
        return {k: whole_numbers(v) for k, v in value.items()}
    return value
