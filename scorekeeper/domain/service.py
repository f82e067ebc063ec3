"""The game service: every write of a game, for every family, with the version check.

Each raises :class:`InvalidInput` (nothing stored), :class:`Conflict` (the game changed
under this write), :class:`Frozen` or :class:`GameNotFound`. A game's history is replayed
at most once a request: :class:`Game` folds it on first use.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from operator import attrgetter
from typing import Any

from sqlite_utils import Database

from ..families import registry
from ..families.base import DealLike, Family, State
from ..rules import checks, named
from ..rules.errors import N_, InvalidDeal, InvalidInput, Problem, RulesetError, UnknownRuleset
from ..storage import (
    connection,
    figure_reads,
    figure_writes,
    game_reads,
    game_writes,
    house_reads,
    rating_writes,
    tournament_reads,
)
from ..storage.game_reads import GameNotFound
from . import bus, events, figures, handlers, ratings, variants  # noqa: F401 - handlers: registered
from .errors import Refusal

__all__ = ["GameNotFound", "InvalidInput"]  # asked here by the web


class Conflict(Refusal):
    """The game changed under this write (another phone, a double submit)."""

    def __init__(self, message: str, version: int, gid: str, **params: Any):
        self.version = version
        self.gid = gid
        super().__init__(message, **params)


class Frozen(Refusal):
    """The game is a table of a closed tournament: no write until the director reopens
    it (the store checks, under the write lock)."""

    def __init__(self, gid: str | None = None):
        self.gid = gid
        super().__init__(N_("This game's tournament is closed: its results are final. The "
                            "director can reopen the tournament to correct it."))


NO_REMATCH = N_("A tournament's table has no rematch: the director draws the next round.")

CHANGED = N_("The game changed on another phone (or this form was sent twice). "
             "Nothing was saved; here is the game as it is now.")
ALREADY = N_("Deal %(number)s was already entered, maybe on another phone. "
             "Nothing was changed; check it below.")


@dataclass
class Game:
    """A stored game, its family and rules; its state is folded on first use."""

    stored: game_reads.StoredGame
    family: Family
    rules: Any
    _state: State | None = field(default=None, repr=False)
    #: What follows from the rules alone, shared by every game of the same stored rules.
    rules_parts: dict[Any, Any] = field(default_factory=dict, repr=False)

    @property
    def state(self) -> State:
        if self._state is None:
            self._state = self.family.fold(self.rules, self.stored.settings,
                                           self.stored.results, checked=False)
        return self._state

    id = property(attrgetter("stored.id"))
    players = property(attrgetter("stored.players"))
    version = property(attrgetter("stored.version"))

    @property
    def recorded(self) -> int:
        return len(self.stored.results)

    @property
    def deals_total(self) -> int | None:
        return self.family.deals_total(self.rules)

    def deal(self, number: int) -> DealLike:
        """Deal ``number``'s context; ``InvalidInput`` unless it is recorded or next."""
        total = self.deals_total
        if not 1 <= number <= self.recorded + 1 or (total is not None and number > total):
            raise InvalidInput([Problem("", N_("Deals are entered in order; the next is deal "
                                               "%(next)s."), {"next": self.recorded + 1})])
        return self.family.deal(self.rules, self.stored.settings, number)


def load(db: Database, gid: str) -> Game:
    """A stored game, read now; its history is replayed when its state is asked for."""
    stored = game_reads.load_game(db, gid)
    family = registry.get(stored.family)
    if family is None:
        raise GameNotFound(gid)
    rules, rules_parts = registry.loaded(family, stored.ruleset, stored.ruleset_text)
    return Game(stored, family, rules, rules_parts=rules_parts)


log = logging.getLogger(__name__)


FULL = N_("This server already keeps %(max)s games, as many as it may. Delete finished "
          "games (or ask the host to) before starting another.")


def room_for(db: Database, max_games: int | None, wanted: int = 1, what: str = "a new game",
             refusal: str = FULL) -> None:
    """Refuse ``wanted`` new games past the server's cap, and tell the host's log."""
    if max_games is not None and game_reads.count_games(db) + wanted > max_games:
        log.warning("Refused %s (%d game(s)): the server keeps at most %d games "
                    "(MAX_GAMES). Delete finished games at /admin or with kierki games "
                    "delete.", what, wanted, max_games)
        raise InvalidInput([Problem("", refusal, {"max": max_games, "count": wanted})])


def create_game(db: Database, ruleset_id: Any, names: Any, first_dealer: Any = None,
                given: Mapping[str, Any] | None = None, max_games: int | None = None,
                club: str = connection.HOME_CLUB) -> str:
    """Start a game of ``club``; ``first_dealer=None`` draws one at random, ``given``
    holds the family's own set-up values (a target score, say)."""
    try:
        family, rules = variants.find(db, ruleset_id)
    except UnknownRuleset:
        raise InvalidInput([Problem("ruleset", N_("Choose a ruleset."))]) from None
    players = checks.names(names, rules.players)
    settings = {"first_dealer": checks.first_dealer(first_dealer, rules.players),
                **family.settings(rules, given or {})}
    room_for(db, max_games)
    unit = bus.Unit(lambda gid: [events.GameCreated(gid, 1)])
    gid = game_writes.create_game(db, family.key, rules.snapshot(), players, settings,
                                  then=unit.then, club=club)
    unit.publish()
    return gid


def rematch(db: Database, game: Game, names: list[str], first_dealer: int,
            max_games: int | None = None) -> tuple[str, bool]:
    """The next game of ``game``'s table (none at a tournament's): the rematch it has, or a
    new game of the same rules with ``names`` seated, made now and linked as its rematch.
    Returns (its id, whether this call made it): every phone that asks gets the same."""
    _not_a_table(db, game, NO_REMATCH)
    there = game_reads.rematch_of(db, game.id)
    if there is not None:
        return there, False
    family, rules = variants.find(db, game.rules.id)  # UnknownRuleset: gone from here
    players = checks.names(names, rules.players)
    settings = {"first_dealer": checks.first_dealer(first_dealer, rules.players),
                **family.settings(rules, dict(game.stored.settings))}
    room_for(db, max_games)
    bumped: list[int] = []
    unit = bus.Unit(lambda gid: [events.GameCreated(gid, 1),
                                 events.RematchStarted(game.id, bumped[0], gid)])

    def then(wdb: Database, gid: str) -> None:
        bumped.append(game_reads.game_version(wdb, game.id))  # the old game's, in this write
        unit.then(wdb, gid)

    gid, made = game_writes.start_rematch(db, game.id, family.key, rules.snapshot(),
                                          players, settings, then=then)
    if made:
        unit.publish()
    return gid, made


def _not_a_table(db: Database, game: Game, refusal: str) -> None:
    """Refuse a tournament's game (:class:`Frozen` once its night is closed)."""
    where = tournament_reads.table_of_game(db, game.id)
    if where is not None:
        raise Frozen(game.id) if where.closed else InvalidInput([Problem("", refusal)])


def _write(game: Game, happened: list[Any], write: Callable[..., Any], *args: Any,
           **params: Any) -> None:
    """One write of a game with its events (handled in it, published after it); the
    store's refusals told as :class:`Conflict` (``params``: the deal a deal's write was
    for) or :class:`Frozen`."""
    unit = bus.Unit(happened)
    try:
        write(*args, then=unit.then)
    except game_writes.VersionConflict as e:
        raise Conflict(ALREADY if params else CHANGED, e.current_version, game.id,
                       **params) from None
    except game_writes.Frozen:
        raise Frozen(game.id) from None
    unit.publish()


def _check_version(game: Game, number: int | None, version: Any) -> None:
    if number is not None and number <= game.recorded and version != game.version:
        raise Conflict(ALREADY, game.version, game.id, number=number)
    if version != game.version or isinstance(version, bool):
        raise Conflict(CHANGED, game.version, game.id)


def holds(game: Game, number: int, raw: Any) -> bool:
    """Whether deal ``number`` of ``game`` is already recorded as exactly ``raw``: a phone
    that sent it before, whose answer was lost with the Wi-Fi, sending it again."""
    if not isinstance(raw, dict) or not 1 <= number <= game.recorded:
        return False
    try:
        result = game.family.validate(game.rules, game.deal(number), raw)
    except (InvalidInput, InvalidDeal):
        return False
    return result == game.stored.results[number - 1]


def enter_deal(db: Database, game: Game, number: int, raw: Any, version: Any,
               by: str = "table") -> Game:
    """Record the next deal or correct an earlier one, by the right ``by`` (kept with a
    correction); returns the game after it."""
    _check_version(game, number, version)
    new = number == game.recorded + 1
    total = game.deals_total
    # the next deal's context is the family's advance's own: asked here only to refuse a
    # number out of order or for a correction
    deal = game.deal(number) if not new or (total is not None and number > total) else None
    if not isinstance(raw, dict):
        raise InvalidInput([Problem("result", N_("Send the deal's result."))])
    if new:
        if game.state.finished:
            raise InvalidInput([Problem("", N_("The game is over; correct a deal instead."))])
        after = game.family.advance(game.state, raw)
    else:
        result = game.family.validate(game.rules, deal, raw)
        results = list(game.stored.results)
        results[number - 1] = result
        try:  # the other results are stored ones and this one was just checked
            after = game.family.fold(game.rules, game.stored.settings, results, checked=False)
        except InvalidDeal:
            raise InvalidInput([Problem("", N_(
                "With this correction the game would be won before the last deal entered; "
                "undo the later deals first."))]) from None
    stored = replace(game.stored, results=[s.result for s in after.scored],
                     version=game.version + 1, finished=after.finished)
    now = Game(stored, game.family, game.rules, after, game.rules_parts)
    result, v = after.scored[number - 1].result, now.version
    if new:
        _write(game, [events.DealRecorded(game.id, v, number, now),
                      *([events.GameFinished(game.id, v, now)] if after.finished else [])],
               game_writes.record_deal, db, game.id, number, result, version, after.finished,
               after.totals, number=number)
    else:
        _write(game, [events.DealCorrected(game.id, v, number, by, now)],
               game_writes.replace_deal, db, game.id, number, result, version, after.finished,
               by, after.totals, number=number)
    return now


def undo_last(db: Database, game: Game, version: Any, by: str = "table") -> Game:
    """Take back the last deal (kept in the history, and the undo with the right ``by``)."""
    _check_version(game, None, version)
    if not game.recorded:
        raise InvalidInput([Problem("", N_("There is no deal to undo."))])
    stored = replace(game.stored, results=game.stored.results[:-1], version=game.version + 1,
                     finished=False)
    now = Game(stored, game.family, game.rules, rules_parts=game.rules_parts)
    _write(game, [events.DealUndone(game.id, game.version + 1, game.recorded, by)],
           game_writes.remove_last_deal, db, game.id, version, by, now.state.totals)
    return now


#: The version a deleted game's event carries.
GONE = -1

#: The seat a director's signature is kept under.
DIRECTOR_SEAT = -1


def signatures(db: Database, game: Game) -> dict[int, dict[str, Any]]:
    """Who signed the game, by seat (the director under :data:`DIRECTOR_SEAT`)."""
    return game_reads.signatures(db, game.id)


def changes(db: Database, game: Game) -> list[dict[str, Any]]:
    """The game's corrections, undos and signatures taken off, oldest first."""
    return game_reads.game_changes(db, game.id)


def sign(db: Database, game: Game, seat: Any, version: Any, by: str = "table") -> Game:
    """The finished game signed for ``seat`` (a player's, or :data:`DIRECTOR_SEAT` by the
    director's right alone); a later correction or undo takes every signature off."""
    _check_version(game, None, version)
    if not game.state.finished:
        raise InvalidInput([Problem("", N_("A game is signed when it is over."))])
    if not (checks.is_int(seat) and (0 <= seat < len(game.players)
                                     or (seat == DIRECTOR_SEAT and by == "director"))):
        raise InvalidInput([Problem("seat", N_("Choose who signs: one of the players."))])
    _write(game, [events.GameSigned(game.id, game.version + 1, seat, by)],
           game_writes.sign_game, db, game.id, seat, version, by)
    return load(db, game.id)


def delete_game(db: Database, game: Game, version: Any) -> None:
    """Delete a game for good, if nobody changed it since ``version``; never a
    tournament's game."""
    _check_version(game, None, version)
    _not_a_table(db, game, N_("This game is a table of a tournament; it cannot be deleted "
                              "(correct its deals instead)."))
    _write(game, [events.GameDeleted(game.id, GONE)], game_writes.delete_game, db, game.id,
           version)


def _plain(data: dict[str, Any]) -> dict[str, Any]:
    """Ruleset data as far as it decides the game: without its words and its family's
    name (``game`` in older snapshots)."""
    return {k: v for k, v in data.items()
            if k not in ("family", "game", "name", "summary", "notes")}


def _is_builtin(rules: Any) -> bool:
    """Exactly a built-in ruleset (an unchanged snapshot), or one that is already marked as
    imported and takes no built-in name."""
    builtins = registry.all_rulesets()
    same = builtins.get(rules.id)
    if same is not None:
        return _plain(same.data) == _plain(rules.data)
    taken = {text for r in builtins.values() for text in r.data.get("name", {}).values()}
    return bool(rules.data.get("imported")) and not taken & set(rules.data["name"].values())


def import_game(db: Database, family_key: Any, snapshot: Any, names: Any, settings: Any,
                results: Any, history: Callable[[int], list[dict[str, Any]]],
                created_at: str | None, max_games: int | None = None,
                max_variants: int | None = None, club: str = connection.HOME_CLUB) -> str:
    """Check a whole game read from a file and store it under a new id; ``history(deals)``
    gives its checked correction history. Rules that are not exactly a built-in ruleset
    are kept as a house variant (:func:`variants.from_file`) or marked as imported."""
    family = registry.get(family_key)
    if family is None:
        raise InvalidInput([Problem("file", N_("This app cannot import games of this kind "
                                               "yet."))])
    try:
        rules = family.load_rules(snapshot)
        builtin = _is_builtin(rules)
        variant = None if builtin else variants.from_file(db, family, rules, max_variants)
        if not builtin and variant is None:
            rules = family.load_rules(named.as_imported(rules.data))
    except RulesetError:
        raise InvalidInput([Problem("file", N_("The rules in the file are damaged."))]) from None
    given = settings if isinstance(settings, dict) else {}
    first = checks.seat(given.get("first_dealer"), rules.players)
    if first is None:
        raise InvalidInput([Problem("file", N_("The first dealer in the file is not one of "
                                               "the players."))])
    checked = {"first_dealer": first, **family.settings(rules, given)}
    players = checks.names(names, rules.players)
    state = family.fold(rules, checked, results)
    if not all(checks.is_int(t) for t in state.totals):
        raise InvalidInput([Problem("file", N_("The rules in the file are damaged."))])
    room_for(db, max_games)
    scored = [s.result for s in state.scored]

    def made(gid: str) -> list[Any]:
        game = Game(game_reads.StoredGame(gid, family.key, rules.snapshot(), checked, players,
                                       scored, 1, state.finished, "", ""),
                    family, rules, state)
        return [events.GameCreated(gid, 1),
                *([events.GameFinished(gid, 1, game)] if state.finished else [])]

    unit = bus.Unit(made)
    gid = game_writes.import_game(db, family.key, rules.snapshot(), players, checked, scored,
                                  history(len(state.scored)), state.finished, created_at,
                                  keep_variant=variant == "new", then=unit.then, club=club)
    unit.publish()
    return gid


def backfill_figures(db: Database) -> int:
    """At start: figures for every finished game that has none, each in a write of its own
    that handles its ``GameFinished`` (nothing published); then the running totals and the
    ratings made afresh if a migration asked. How many games got figures."""
    done = 0
    for gid in figure_reads.finished_without_figures(db):
        try:
            game = load(db, gid)
            unit = bus.Unit([events.GameFinished(gid, game.version, game)])
            figure_writes.write_figures(db, gid, then=unit.then)
        except Exception:  # one damaged game must not stop the server from starting
            log.exception("no figures for game %s: it could not be replayed", gid)
            continue
        done += 1
    if house_reads.setting(db, figure_writes.TOTALS_WANTED):
        figures.rebuild(db)
    if house_reads.setting(db, rating_writes.RATINGS_WANTED):
        ratings.rebuild(db)
    return done
