"""Typed errors of the rules core; messages are translatable ids with parameters."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


def N_(message: str) -> str:
    """Mark a message for translation; the web layer translates it on display."""
    return message


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an entered deal.

    ``field`` names the input (``"tricks"``, ``"hearts.2"``, ``"positions.0"``,
    or ``""`` for the deal as a whole); ``message`` is an untranslated id that
    uses ``%(name)s`` placeholders filled from ``params``.
    """

    field: str
    message: str
    params: dict[str, Any] = field(default_factory=dict)

    def text(self, translate=lambda s: s) -> str:
        return translate(self.message) % self.params


class RulesError(Exception):
    """Base of every error the rules core raises on purpose."""


class InvalidInput(RulesError):
    """Input the app refuses (a set-up, a deal, an import); carries every problem found.

    Nothing is stored when it is raised. The web layer shows each problem at its field.
    """

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(p.text() for p in problems))


class InvalidDeal(InvalidInput):
    """A deal result the rules make impossible."""


class UnknownRuleset(RulesError):
    """No ruleset of that name is registered."""


class RulesetError(RulesError, ValueError):
    """Ruleset data that cannot be loaded (a built-in file, a stored snapshot, an import).

    The message names what is wrong, e.g. ``contract 'no_hearts': unknown card set
    'harts'``; it is for logs and developers, not translated. A ``ValueError`` too,
    so callers that catch ``ValueError`` keep working.
    """


class InvalidPlay(InvalidDeal):
    """A card play, trick or table move the rules forbid; carries the problems.

    A subclass of :class:`InvalidDeal` so that code showing a deal's problems
    by field shows these the same way.
    """
