"""The game service: every write, for every family, with the version check.

Views and the API call these functions with a sqlite-utils Database and plain
values. They raise :class:`InvalidInput` (problems per field, nothing stored),
:class:`Conflict` (the game changed under this write) or :class:`GameNotFound`;
the web layer turns those into answers in one place. A game is read afresh by every
request, and its history replayed at most once: :class:`Game` folds it on first use, a
new deal is added to the state without a replay, and a correction replays the corrected
history once.
"""
from __future__ import annotations

import logging
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
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
from . import bus, figures, handlers, ratings, variants  # noqa: F401 - handlers: registered on the bus
from .events import (
    DealCorrected,
    DealRecorded,
    DealUndone,
    GameCreated,
    GameDeleted,
    GameFinished,
    GameSigned,
    RematchStarted,
)

__all__ = ["Conflict", "Frozen", "Game", "GameNotFound", "InvalidInput", "create_game", "delete_game",
           "enter_deal", "load", "undo_last"]


class Conflict(Exception):
    """The game changed under this write (another phone, a double submit)."""

    def __init__(self, message: str, version: int, gid: str, **params: Any):
        self.message = message
        self.version = version
        self.gid = gid
        self.params = params
        super().__init__(message % params)

    def text(self, translate=lambda s: s) -> str:
        return translate(self.message) % self.params


class Frozen(Exception):
    """The game is a table of a closed tournament: no write until the director reopens
    it (checked by the store under the write lock, whichever path wrote)."""

    message = N_("This game's tournament is closed: its results are final. The director "
                 "can reopen the tournament to correct it.")

    def __init__(self, gid: str | None, tournament_id: str):
        self.gid = gid
        self.tournament_id = tournament_id
        super().__init__(self.message)

    def text(self, translate=lambda s: s) -> str:
        return translate(self.message)


#: A tournament's table asked for a rematch.
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
    #: What follows from the rules alone (what each deal can still share out, a
    #: schedule's JSON per first dealer and language): shared by every game loaded with
    #: the same stored rules, and kept with them (:func:`registry.loaded`).
    rules_parts: dict[Any, Any] = field(default_factory=dict, repr=False)

    @property
    def state(self) -> State:
        """Folded once (not a ``cached_property``: Python 3.11's takes a lock per use)."""
        if self._state is None:
            self._state = self.family.fold(self.rules, self.stored.settings,
                                           self.stored.results)
        return self._state

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
    def recorded(self) -> int:
        """How many deals are recorded (no replay needed)."""
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
    """A stored game, read now; its history is replayed only when its state is asked for
    (at most once per request: the :class:`Game` keeps its state)."""
    stored = game_reads.load_game(db, gid)
    family = registry.get(stored.family)
    if family is None:
        raise GameNotFound(gid)
    rules, rules_parts = registry.loaded(family, stored.ruleset, stored.ruleset_text)
    return Game(stored, family, rules, rules_parts=rules_parts)


log = logging.getLogger(__name__)


def at_the_cap(max_games: int, wanted: int, what: str) -> None:
    """Tell the host (the server's log) that a creation was refused for the server's game
    cap: games already there go on (deals, corrections), new ones wait for deletions."""
    log.warning("Refused %s (%d game(s)): the server keeps at most %d games "
                "(MAX_GAMES). Delete finished games at /admin or with kierki games delete.",
                what, wanted, max_games)


def _room_for_one_more(db: Database, max_games: int | None) -> None:
    if max_games is not None and game_reads.count_games(db) >= max_games:
        at_the_cap(max_games, 1, "a new game")
        raise InvalidInput([Problem("", N_(
            "This server already keeps %(max)s games, as many as it may. Delete finished "
            "games (or ask the host to) before starting another."), {"max": max_games})])


def create_game(db: Database, ruleset_id: Any, names: Any, first_dealer: Any = None,
                given: Mapping[str, Any] | None = None, rng: random.Random | None = None,
                max_games: int | None = None, club: str = connection.HOME_CLUB) -> str:
    """Start a game of a built-in ruleset; ``first_dealer=None`` draws one at random.

    ``given`` holds the family's own set-up values (a target score, say); ``max_games``
    is how many games the server may keep; ``club`` the club whose people its names
    are (the home club unless one is named)."""
    try:
        family, rules = variants.find(db, ruleset_id)
    except UnknownRuleset:
        raise InvalidInput([Problem("ruleset", N_("Choose a ruleset."))]) from None
    players = checks.names(names, rules.players)
    settings = {"first_dealer": checks.first_dealer(first_dealer, rules.players, rng),
                **family.settings(rules, given or {})}
    _room_for_one_more(db, max_games)
    unit = bus.Unit(lambda gid: [GameCreated(gid, 1)])
    gid = game_writes.create_game(db, family.key, rules.snapshot(), players, settings,
                            then=unit.then, club=club)
    unit.publish()
    return gid


def rematch(db: Database, game: Game, names: list[str], first_dealer: int,
            max_games: int | None = None) -> tuple[str, bool]:
    """The next game of ``game``'s table, one per game (none at a tournament's table:
    :data:`NO_REMATCH`, or :class:`Frozen` when its night is closed): the rematch it has, or
    a new game of the same rules and settings with ``names`` seated and ``first_dealer``
    dealing first, made now and linked as its rematch. Returns (its id, whether this call
    made it): the first phone to ask makes it, every later one (any phone of the table,
    at any time, even at the same moment) gets the same game. Making it raises
    :class:`GameCreated` and :class:`RematchStarted` (the old game's version moved, so
    every phone on it is told)."""
    where = tournament_reads.table_of_game(db, game.id)
    if where is not None:  # a tournament's table: the director draws the next round
        if where.closed:
            raise Frozen(game.id, where.tournament_id)
        raise InvalidInput([Problem("", NO_REMATCH)])
    there = game_reads.rematch_of(db, game.id)
    if there is not None:
        return there, False
    family, rules = variants.find(db, game.rules.id)  # UnknownRuleset: gone from here
    players = checks.names(names, rules.players)
    settings = {"first_dealer": checks.first_dealer(first_dealer, rules.players),
                **family.settings(rules, dict(game.stored.settings))}
    _room_for_one_more(db, max_games)
    bumped: list[int] = []
    unit = bus.Unit(lambda gid: [GameCreated(gid, 1),
                                 RematchStarted(game.id, bumped[0], gid)])

    def then(wdb: Database, gid: str) -> None:
        bumped.append(game_reads.game_version(wdb, game.id))  # the old game's, in this write
        unit.then(wdb, gid)

    gid, made = game_writes.start_rematch(db, game.id, family.key, rules.snapshot(), players,
                                    settings, then=then)
    if made:
        unit.publish()
    return gid, made


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
    """Record the next deal or correct an earlier one, by the right ``by`` (the table or
    the director; a correction is kept with it); returns the game after it."""
    _check_version(game, number, version)
    new = number == game.recorded + 1
    total = game.deals_total
    # the next deal's context is the family's advance's own: asked here only to refuse a
    # number out of order (past the schedule's end too) or for a correction
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
        try:
            after = game.family.fold(game.rules, game.stored.settings, results)
        except InvalidDeal:
            raise InvalidInput([Problem("", N_(
                "With this correction the game would be won before the last deal entered; "
                "undo the later deals first."))]) from None
    result = after.scored[number - 1].result
    results = [s.result for s in after.scored]
    stored = replace(game.stored, results=results, version=game.version + 1,
                     finished=after.finished)
    now = Game(stored, game.family, game.rules, after, game.rules_parts)
    v = now.version
    unit = bus.Unit([DealRecorded(game.id, v, number, now),
                     *([GameFinished(game.id, v, now)] if after.finished else [])] if new
                    else [DealCorrected(game.id, v, number, by, now)])
    try:
        if new:
            game_writes.record_deal(db, game.id, number, result, version, after.finished,
                              then=unit.then)
        else:
            game_writes.replace_deal(db, game.id, number, result, version, after.finished, by,
                               then=unit.then)
    except game_writes.VersionConflict as e:
        raise Conflict(ALREADY, e.current_version, game.id, number=number) from None
    except game_writes.Frozen as e:
        raise Frozen(game.id, e.tournament_id) from None
    unit.publish()
    return now


def undo_last(db: Database, game: Game, version: Any, by: str = "table") -> Game:
    """Take back the last deal (kept in the history, and the undo with the right ``by``)."""
    _check_version(game, None, version)
    if not game.recorded:
        raise InvalidInput([Problem("", N_("There is no deal to undo."))])
    unit = bus.Unit([DealUndone(game.id, game.version + 1, game.recorded, by)])
    try:
        game_writes.remove_last_deal(db, game.id, version, by, then=unit.then)
    except game_writes.VersionConflict as e:
        raise Conflict(CHANGED, e.current_version, game.id) from None
    except game_writes.Frozen as e:
        raise Frozen(game.id, e.tournament_id) from None
    unit.publish()
    stored = replace(game.stored, results=game.stored.results[:-1], version=game.version + 1,
                     finished=False)
    return Game(stored, game.family, game.rules, rules_parts=game.rules_parts)


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
    """The finished game signed for ``seat`` (one of its players' seats, or
    :data:`DIRECTOR_SEAT` by the director's right alone), as on the paper sheet. A
    correction or an undo later takes every signature off."""
    _check_version(game, None, version)
    if not game.state.finished:
        raise InvalidInput([Problem("", N_("A game is signed when it is over."))])
    seats = range(len(game.players))
    if not (checks.is_int(seat) and (seat in seats or (seat == DIRECTOR_SEAT
                                                        and by == "director"))):
        raise InvalidInput([Problem("seat", N_("Choose who signs: one of the players."))])
    unit = bus.Unit([GameSigned(game.id, game.version + 1, seat, by)])
    try:
        game_writes.sign_game(db, game.id, seat, version, by, then=unit.then)
    except game_writes.VersionConflict as e:
        raise Conflict(CHANGED, e.current_version, game.id) from None
    except game_writes.Frozen as e:
        raise Frozen(game.id, e.tournament_id) from None
    unit.publish()
    return load(db, game.id)


def delete_game(db: Database, game: Game, version: Any) -> None:
    """Delete a game for good, if nobody changed it since ``version`` was read; never a
    tournament's game (its table's result is part of the standings)."""
    _check_version(game, None, version)
    where = tournament_reads.table_of_game(db, game.id)
    if where is not None and where.closed:
        raise Frozen(game.id, where.tournament_id)
    if where is not None:
        raise InvalidInput([Problem("", N_(
            "This game is a table of a tournament; it cannot be deleted (correct its deals "
            "instead)."))])
    unit = bus.Unit([GameDeleted(game.id, GONE)])
    try:
        game_writes.delete_game(db, game.id, version, then=unit.then)
    except game_writes.VersionConflict as e:
        raise Conflict(CHANGED, e.current_version, game.id) from None
    unit.publish()


def _plain(data: dict[str, Any]) -> dict[str, Any]:
    """Ruleset data as far as it decides the game: without its words (names, summary,
    notes, which change between versions) and the family's name (older snapshots call it
    ``game``)."""
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


def import_game(db: Database, family_key: Any, snapshot: Any, names: Any,
                settings: Any, results: Any,
                history: Callable[[int], list[dict[str, Any]]],
                created_at: str | None, max_games: int | None = None,
                max_variants: int | None = None, club: str = connection.HOME_CLUB) -> str:
    """Check a whole game read from a file and store it under a new id.

    ``history(deals)`` returns the checked correction history of a game of that many
    deals (it is checked after the deals themselves). A ruleset that is not exactly a
    built-in one is kept under its own id and marked as imported; a house variant is
    added to the server's with the game unless it keeps ``max_variants`` already (see
    :func:`variants.from_file`)."""
    family = registry.get(family_key)
    if family is None:
        raise InvalidInput([Problem("file", N_("This app cannot import games of this kind "
                                               "yet."))])
    try:
        rules = family.load_rules(snapshot)
        variant = None if _is_builtin(rules) \
            else variants.from_file(db, family, rules, max_variants)
        if not _is_builtin(rules) and variant is None:
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
    _room_for_one_more(db, max_games)
    scored = [s.result for s in state.scored]

    def made(gid: str) -> list[Any]:
        game = Game(game_reads.StoredGame(gid, family.key, rules.snapshot(), checked, players,
                                       scored, 1, state.finished, "", ""),
                    family, rules, state)
        return [GameCreated(gid, 1), *([GameFinished(gid, 1, game)] if state.finished else [])]

    unit = bus.Unit(made)
    gid = game_writes.import_game(db, family.key, rules.snapshot(), players, checked, scored,
                            history(len(state.scored)), state.finished,
                            created_at, keep_variant=variant == "new", then=unit.then,
                            club=club)
    unit.publish()
    return gid


def backfill_figures(db: Database) -> int:
    """Figures for every finished game that has none (a database older than them; run when
    the app starts): each such game loaded and replayed once, and its ``GameFinished``
    handled in a write of its own, as when it ended (its rows by :func:`.figures.rows`,
    its people's running totals moved; nothing is published: no page changed under
    anyone); how many games got them. A game that cannot be replayed is logged and left
    without. Then, if migration 0011 asked for them, every running total made from the
    figures kept (:func:`.figures.rebuild`), and if migration 0014 asked, every rating
    (:func:`.ratings.rebuild`)."""
    done = 0
    for gid in figure_reads.finished_without_figures(db):
        try:
            game = load(db, gid)
            unit = bus.Unit([GameFinished(gid, game.version, game)])
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
