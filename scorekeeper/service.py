"""The game service: load a game, apply the rules to an entered deal, save.

Views and the API call these functions; they take a sqlite-utils Database and
plain values and raise :class:`InvalidInput` (with field problems),
:class:`Conflict` or :class:`store.GameNotFound`.
"""
from __future__ import annotations

import random
import unicodedata
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from . import store
from .rules import GameState, InvalidDeal, Problem, Ruleset, from_data, get_ruleset, replay
from .rules.errors import N_, UnknownRuleset

NAME_MAX = 40


class InvalidInput(Exception):
    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(p.text() for p in problems))


class Conflict(Exception):
    """The game changed under this write (another phone, a double submit)."""

    def __init__(self, message: str, version: int, **params: Any):
        self.message = message
        self.version = version
        self.params = params
        super().__init__(message % params)

    def text(self, translate=lambda s: s) -> str:
        return translate(self.message) % self.params


@dataclass(frozen=True)
class Game:
    """A stored game with its computed state."""

    stored: store.StoredGame
    state: GameState

    @property
    def id(self) -> str:
        return self.stored.id

    @property
    def players(self) -> list[str]:
        return self.stored.players

    @property
    def version(self) -> int:
        return self.stored.version

    @property
    def ruleset(self) -> Ruleset:
        return self.state.ruleset


def clean_name(name: Any) -> str:
    """Trim and normalise a player's name (NFC, single spaces)."""
    if not isinstance(name, str):
        return ""
    return " ".join(unicodedata.normalize("NFC", name).split())


def check_players(names: list[Any], players: int) -> list[str]:
    cleaned = [clean_name(n) for n in names]
    problems = []
    while len(cleaned) > players and not cleaned[-1]:
        cleaned.pop()
    if len(cleaned) != players:
        problems.append(Problem("players", N_("This ruleset is for %(players)s players."),
                                {"players": players}))
    seen: set[str] = set()
    for seat, name in enumerate(cleaned):
        if not name:
            problems.append(Problem(f"players.{seat}", N_("Enter a name.")))
        elif len(name) > NAME_MAX:
            problems.append(Problem(f"players.{seat}", N_("At most %(max)s characters."),
                                    {"max": NAME_MAX}))
        elif name.casefold() in seen:
            problems.append(Problem(f"players.{seat}", N_("Each player needs a different name.")))
        seen.add(name.casefold())
    if problems:
        raise InvalidInput(problems)
    return cleaned


def create_game(db: Database, ruleset_id: str, names: list[Any],
                first_dealer: int | None = None, rng: random.Random | None = None) -> str:
    """Start a game; ``first_dealer=None`` draws the first dealer at random."""
    try:
        ruleset = get_ruleset(ruleset_id)
    except UnknownRuleset:
        raise InvalidInput([Problem("ruleset", N_("Choose a ruleset."))]) from None
    players = check_players(names, ruleset.players)
    if first_dealer is None:
        first_dealer = (rng or random.SystemRandom()).randrange(ruleset.players)
    elif not (isinstance(first_dealer, int) and 0 <= first_dealer < ruleset.players):
        raise InvalidInput([Problem("first_dealer", N_("Choose the first dealer."))])
    return store.create_game(db, ruleset.game, ruleset.snapshot(), players,
                             {"first_dealer": first_dealer})


def load(db: Database, gid: str) -> Game:
    stored = store.load_game(db, gid)
    ruleset = from_data(stored.ruleset)
    state = replay(ruleset, stored.settings["first_dealer"], stored.results)
    return Game(stored, state)


def _validate(game: Game, number: int, raw: dict[str, Any]) -> dict[str, Any]:
    try:
        return game.state.deals[number - 1].contract.validate(raw)
    except InvalidDeal as e:
        raise InvalidInput(e.problems) from None


def _stale(game: Game, version: Any) -> None:
    if version != game.version:
        raise Conflict(N_("The game changed on another phone (or this form was sent twice). "
                          "Nothing was saved; here is the game as it is now."), game.version)


def enter_deal(db: Database, gid: str, number: int, raw: dict[str, Any], version: int) -> Game:
    """Record the current deal, or correct an earlier one; returns the new state."""
    game = load(db, gid)
    recorded = len(game.state.scored)
    if number <= recorded and version != game.version:
        raise Conflict(N_("Deal %(number)s was already entered, maybe on another phone. "
                          "Nothing was changed; check it below."), game.version, number=number)
    _stale(game, version)
    if not 1 <= number <= recorded + 1 or number > len(game.state.deals):
        raise InvalidInput([Problem("", N_("Deals are entered in order; the next is deal "
                                           "%(next)s."), {"next": recorded + 1})])
    result = _validate(game, number, raw)
    try:
        if number == recorded + 1:
            finished = number == len(game.state.deals)
            store.record_deal(db, gid, number, result, version, finished)
        else:
            store.replace_deal(db, gid, number, result, version)
    except store.VersionConflict as e:
        raise Conflict(N_("Deal %(number)s was already entered, maybe on another phone. "
                          "Nothing was changed; check it below."), e.current_version,
                       number=number) from None
    return load(db, gid)


def undo_last(db: Database, gid: str, version: int) -> Game:
    game = load(db, gid)
    _stale(game, version)
    if not game.state.scored:
        raise InvalidInput([Problem("", N_("There is no deal to undo."))])
    try:
        store.remove_last_deal(db, gid, version)
    except store.VersionConflict as e:
        raise Conflict(N_("The game changed on another phone (or this form was sent twice). "
                          "Nothing was saved; here is the game as it is now."),
                       e.current_version) from None
    return load(db, gid)

