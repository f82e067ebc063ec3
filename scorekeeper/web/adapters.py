"""Each family's web adapter (its pages, forms, words, charts, tools): the ``Web`` class of
the ``web`` package beside the family's own (``scorekeeper/families/<key>/web/``), made
once per family, since the pure family knows no Flask."""
from __future__ import annotations

import importlib
from typing import Any

from ..families import registry
from ..families.base import Family, WebFamily

_ADAPTERS: dict[str, WebFamily] = {}


def of(family: Family) -> WebFamily:
    """The web adapter of ``family``."""
    adapter = _ADAPTERS.get(family.key)
    if adapter is None or adapter.family is not family:
        package = type(family).__module__.rpartition(".")[0]
        adapter = importlib.import_module(f"{package}.web").Web(family)
        _ADAPTERS[family.key] = adapter
    return adapter


def every() -> list[WebFamily]:
    """Every family's adapter, in the registry's order."""
    return [of(family) for family in registry.families().values()]


def init_app(app: Any) -> None:
    """Templates reach a family's adapter as ``web_family(family)``."""
    app.jinja_env.globals["web_family"] = of
