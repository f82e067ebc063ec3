"""What every family's ruleset has: an id, a name and notes in each language, a snapshot."""
from __future__ import annotations

import copy
from typing import Any


def named_text(data: Any, key: str, lang: str) -> str:
    """``data[key]`` in ``lang`` (English if missing): a ruleset's ``name`` or ``notes``.

    >>> named_text({"name": {"en": "Standard", "pl": "Standardowe"}}, "name", "pl")
    'Standardowe'
    """
    texts = data.get(key) if isinstance(data, dict) else None
    if not isinstance(texts, dict):
        return ""
    text = texts.get(lang) or texts.get("en") or ""
    return text if isinstance(text, str) else ""


class Named:
    """Name and notes in the UI language, read from ``data`` (any game family)."""

    data: dict[str, Any]

    @property
    def id(self) -> str:
        return self.data["id"]

    def name(self, lang: str) -> str:
        return named_text(self.data, "name", lang) or self.id

    def notes(self, lang: str) -> str:
        return named_text(self.data, "notes", lang)

    def snapshot(self) -> dict[str, Any]:
        """A deep copy of the data, to store with a game."""
        return copy.deepcopy(self.data)
