"""Sentences the rules say to players, kept untranslated: a message id and its parameters.

The web layer translates them (``i18n.localized``); the rules own every number in them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Text:
    """``message`` is an English id with ``%(name)s`` placeholders filled from ``params``.

    A ``points`` parameter is shown signed; a ``player`` parameter is a seat, shown as
    that player's name.

    >>> Text("%(points)s for each trick", {"points": -20}).text()
    '-20 for each trick'
    """

    message: str
    params: dict[str, Any] = field(default_factory=dict)

    def text(self) -> str:
        return self.message % self.params
