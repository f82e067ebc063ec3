"""What every family's ruleset has: an id, a name, a one-line summary and notes in each
language, a snapshot; and a family's built-in rulesets, found by id."""
from __future__ import annotations

import copy
import hashlib
import json
import re
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Any, TypeVar

from .errors import UnknownRuleset

ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
TEXT_MAX = {"name": 80, "summary": 400, "notes": 600}
#: What an imported ruleset's name says in each language the app speaks.
IMPORTED = {"en": "imported", "pl": "zaimportowane"}


def named_text(data: Any, key: str, lang: str) -> str:
    """A ruleset's ``name``, ``summary`` or ``notes`` in ``lang`` (English if missing).

    >>> named_text({"name": {"en": "Standard", "pl": "Standardowe"}}, "name", "pl")
    'Standardowe'
    """
    texts = data.get(key) if isinstance(data, dict) else None
    if not isinstance(texts, dict):
        return ""
    text = texts.get(lang) or texts.get("en") or ""
    return text if isinstance(text, str) else ""


class Named:
    """Name, summary and notes in the UI language, read from ``data`` (any game family)."""

    data: dict[str, Any]

    @property
    def id(self) -> str:
        return self.data["id"]

    def name(self, lang: str) -> str:
        return named_text(self.data, "name", lang) or self.id

    def summary(self, lang: str) -> str:
        """One line: what is special in this ruleset, for the set-up form and rules page."""
        return named_text(self.data, "summary", lang)

    def notes(self, lang: str) -> str:
        return named_text(self.data, "notes", lang)

    def snapshot(self) -> dict[str, Any]:
        """A deep copy of the data, to store with a game."""
        return copy.deepcopy(self.data)


Rules = TypeVar("Rules", bound=Named)


def bundled(package: str, load: Callable[[dict[str, Any]], Rules]) -> dict[str, Rules]:
    """The rulesets ``load`` makes of the JSON files in ``package``'s ``rulesets`` folder,
    by id, in the order of the files' names."""
    folder = resources.files(package) / "rulesets"
    return {r.id: r for r in (load(json.loads(e.read_text(encoding="utf-8")))
                              for e in sorted(folder.iterdir(), key=lambda e: e.name)
                              if e.name.endswith(".json"))}


def by_id(found: Mapping[str, Rules], rules_id: str) -> Rules:
    """The ruleset ``rules_id`` of ``found``, else :class:`UnknownRuleset`."""
    try:
        return found[rules_id]
    except KeyError:
        raise UnknownRuleset(rules_id) from None


def family_of(data: dict[str, Any]) -> Any:
    """Which family ruleset data is for (``game`` in older snapshots)."""
    return data.get("family", data.get("game"))


def as_imported(data: dict[str, Any]) -> dict[str, Any]:
    """A copy of ruleset data under its own id, its names marked as imported, so that it
    never passes for a built-in ruleset."""
    out = copy.deepcopy(data)
    digest = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:10]
    out["id"] = f"imported-{digest}"
    names = out.get("name") or {"en": str(data.get("id"))}
    out["name"] = {lang: f"{text[:60]} ({IMPORTED.get(lang, IMPORTED['en'])})"
                   for lang, text in names.items()}
    out["imported"] = True
    return out
