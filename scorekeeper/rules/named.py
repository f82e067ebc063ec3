"""What every family's ruleset has: an id, a name and notes in each language, a snapshot."""
from __future__ import annotations

import copy
from typing import Any


class Named:
    """Name and notes in the UI language, read from ``data`` (any game family)."""

    data: dict[str, Any]

    @property
    def id(self) -> str:
        return self.data["id"]

    def name(self, lang: str) -> str:
        names = self.data.get("name", {})
        return names.get(lang) or names.get("en") or self.id

    def notes(self, lang: str) -> str:
        notes = self.data.get("notes", {})
        return notes.get(lang) or notes.get("en") or ""

    def snapshot(self) -> dict[str, Any]:
        """A deep copy of the data, to store with a game."""
        return copy.deepcopy(self.data)
