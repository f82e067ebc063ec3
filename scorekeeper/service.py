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

from . import games, store
from .families.kierki.rules import InvalidDeal, Problem
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
    state: Any  #: the family's fold: rules.GameState (Kierki) or rules.tybet.TybetState

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
    def family(self) -> str:
        return self.stored.game

    @property
    def ruleset(self) -> Any:
        return self.state.ruleset if self.family == "kierki" else self.state.rules


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
                first_dealer: int | None = None, rng: random.Random | None = None,
                target: int | None = None) -> str:
    """Start a game; ``first_dealer=None`` draws the first dealer at random.

    ``target`` is the score to reach in a game played to a target (Tybet)."""
    try:
        family, ruleset = games.find(ruleset_id)
    except UnknownRuleset:
        raise InvalidInput([Problem("ruleset", N_("Choose a ruleset."))]) from None
    players = check_players(names, ruleset.players)
    if first_dealer is None:
        first_dealer = (rng or random.SystemRandom()).randrange(ruleset.players)
    elif not (isinstance(first_dealer, int) and not isinstance(first_dealer, bool)
              and 0 <= first_dealer < ruleset.players):
        raise InvalidInput([Problem("first_dealer", N_("Choose the first dealer."))])
    settings: dict[str, Any] = {"first_dealer": first_dealer}
    if family.key == "tybet":
        target = ruleset.target if target in (None, "") else target
        if target not in ruleset.targets:
            raise InvalidInput([Problem("target", N_("Choose the score to play to."))])
        settings["target"] = target
    return store.create_game(db, family.key, ruleset.snapshot(), players, settings)


def load(db: Database, gid: str) -> Game:
    stored = store.load_game(db, gid)
    family = games.family(stored.game)
    rules = family.from_data(stored.ruleset)
    return Game(stored, family.fold(rules, stored.settings, stored.results))


def _validate(game: Game, number: int, raw: dict[str, Any]) -> dict[str, Any]:
    try:
        return games.family(game.family).validate(game.ruleset, game.state, number, raw)
    except InvalidDeal as e:
        raise InvalidInput(e.problems) from None


def _deals_total(game: Game) -> int | None:
    """The schedule's length, or None for a game played until a pair wins."""
    return len(game.state.deals) if hasattr(game.state, "deals") else None


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
    total = _deals_total(game)
    if not 1 <= number <= recorded + 1 or (total is not None and number > total):
        raise InvalidInput([Problem("", N_("Deals are entered in order; the next is deal "
                                           "%(next)s."), {"next": recorded + 1})])
    if number == recorded + 1 and game.state.finished:
        raise InvalidInput([Problem("", N_("The game is over; correct a deal instead."))])
    result = _validate(game, number, raw)
    results = list(game.stored.results)
    results[number - 1:number] = [result]
    try:
        after = games.family(game.family).fold(game.ruleset, game.stored.settings, results)
    except InvalidDeal:
        raise InvalidInput([Problem("", N_("With this correction the game would be won before "
                                           "the last deal entered; undo the later deals "
                                           "first."))]) from None
    try:
        if number == recorded + 1:
            store.record_deal(db, gid, number, result, version, after.finished)
        else:
            store.replace_deal(db, gid, number, result, version, after.finished)
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

