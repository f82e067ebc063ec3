"""Typed errors of the rules core; messages are translatable ids with parameters."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


def N_(message: str) -> str:
    """Mark a message for translation; the web layer translates it on display."""
    return message


@dataclass(frozen=True)
class Problem:
    """One thing wrong: ``field`` names the input (``"hearts.2"``, ``""`` for the whole),
    ``message`` is an untranslated id with ``%(name)s`` placeholders from ``params``."""

    field: str
    message: str
    params: dict[str, Any] = field(default_factory=dict)

    def text(self, translate=lambda s: s) -> str:
        return translate(self.message) % self.params


class InvalidInput(Exception):
    """Input the app refuses (a set-up, a deal, an import), with every problem found."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(p.text() for p in problems))


class InvalidDeal(InvalidInput):
    """A deal result the rules make impossible."""


class UnknownRuleset(Exception):
    """No ruleset of that name is registered."""


class RulesetError(ValueError):
    """Ruleset data that cannot be loaded; the untranslated message names the fault."""


class InvalidPlay(InvalidDeal):
    """A card play, trick or table move the rules forbid, shown as a deal's problems."""
