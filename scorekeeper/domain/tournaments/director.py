"""The director's changes to a tournament: made with its first round, the next rounds
drawn, players arriving and withdrawing, closed and reopened."""
from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlite_utils import Database

from ...rules import checks, draw
from ...rules.errors import N_, InvalidInput, Problem
from ...storage import connection, people_writes, tournament_writes
from ...storage.tournament_reads import TournamentTable
from .. import bus, events, service, variants
from ..errors import Refusal
from . import entry
from .night import Tournament, load


class NotNow(Refusal):
    """A change the tournament cannot take at this moment (409)."""


UNFINISHED = N_("Round %(round)s is still being played: the next round is drawn when every "
                "table has finished its game.")
CLOSED = N_("This tournament is closed; nothing more can be drawn or changed in it.")
NOT_CLOSED = N_("This tournament is open; there is nothing to reopen.")
CHANGED = N_("The tournament changed in the meantime (another tab of the director's?). "
             "Nothing was changed; here it is as it is now.")
DRAWN = N_("Round %(round)s is already drawn.")
ALL_DRAWN = N_("All %(rounds)s rounds are drawn; close the tournament when the last one "
               "is over.")
UNSIGNED = N_("The tournament is not closed; not signed yet: %(tables)s. Sign them (two of a "
              "table's players, or the director), or close it anyway with their results "
              "provisional.")
TABLE_OF_ROUND = N_("round %(round)s table %(table)s")
TABLE_PLAYING = N_("round %(round)s table %(table)s (still playing)")


class Unsigned(NotNow):
    """Closing refused while ``tables`` (in round and table order) are not signed."""

    def __init__(self, tables: Sequence[TournamentTable]):
        self.tables = list(tables)
        super().__init__(UNSIGNED, tables="")

    def text(self, translate=lambda s: s) -> str:
        named = "; ".join(
            translate(TABLE_OF_ROUND if t.finished else TABLE_PLAYING)
            % {"round": t.round, "table": t.number} for t in self.tables)
        return translate(self.message) % {"tables": named}


def _write(number: int, write: Callable[..., Any], *args: Any) -> Any:
    """A write of the store's, its refusal told as :class:`NotNow` (``number``: the round
    the change is for)."""
    try:
        return write(*args)
    except tournament_writes.TournamentChanged as e:
        refusals = {"unfinished": NotNow(UNFINISHED, round=number - 1),
                    "closed": NotNow(CLOSED), "drawn": NotNow(DRAWN, round=number),
                    "open": NotNow(NOT_CLOSED)}
        raise refusals.get(e.reason, NotNow(CHANGED)) from None


def _open(db: Database, tid: str) -> Tournament:
    """The tournament, unless it is closed. A director's change needs no version: each is
    safe to send twice, and the version moves with every save at a table."""
    t = load(db, tid)
    if t.closed:
        raise NotNow(CLOSED)
    return t


def _sizes(rulesets: Mapping[str, str]) -> list[int]:
    return sorted(int(s) for s in rulesets)


def _tables(db: Database, rulesets: dict[str, str], names: Mapping[int, str],
            drawn: list[draw.Table], max_games: int | None) -> list[tournament_writes.NewTable]:
    """Each drawn table as a game to store, if the server has room for them all."""
    service.room_for(db, max_games, len(drawn), "a tournament's round", N_(
        "This server keeps at most %(max)s games; the round's %(count)s games would not "
        "fit. Delete finished games (or ask the host to) first."))
    out = []
    for table in drawn:
        family, rules = variants.find(db, rulesets[str(len(table.players))])
        settings = {"first_dealer": table.first_dealer, **family.settings(rules, {})}
        out.append(tournament_writes.NewTable(family.key, rules.snapshot(), settings,
                                              list(table.players),
                                              [names[p] for p in table.players]))
    return out


def create(db: Database, name: Any, players: Any, rounds: Any, rulesets: Any,
           scoring: Any = "points", seed: Any = None, max_games: int | None = None,
           club: str = connection.HOME_CLUB) -> Tournament:
    """A new tournament of ``club`` with its first round drawn and its games created."""
    name, entered, planned, rulesets = entry.checked(db, name, players, rounds, rulesets,
                                                     scoring, seed)
    names = dict(enumerate(entered, start=1))
    seed = seed or secrets.token_hex(4)
    tables = _tables(db, rulesets, names, draw.draw_round(list(names), _sizes(rulesets), seed, 1),
                     max_games)
    tid = connection.new_id()
    tournament_writes.create_tournament(db, tid, name, planned, rulesets, scoring, seed,
                                        entered, tables, club=club)
    bus.publish([events.TournamentCreated(tid, 1)])
    return load(db, tid)


def draw_next(db: Database, tid: str, number: Any = None,
              max_games: int | None = None) -> Tournament:
    """Draw the next round and create its games; ``number`` is the round the form meant,
    so that a form sent twice draws it once."""
    t = load(db, tid)
    nxt = t.current + 1
    if number is not None and checks.whole_number(number) != nxt:
        raise NotNow(DRAWN, round=t.current) if checks.whole_number(number) == t.current \
            else NotNow(CHANGED)
    if t.closed:
        raise NotNow(CLOSED)
    if t.current >= t.planned:
        raise NotNow(ALL_DRAWN, rounds=t.planned)
    if not t.round_finished(t.current):
        raise NotNow(UNFINISHED, round=t.current)
    drawn = draw.draw_round(t.active, _sizes(t.rulesets), t.stored.seed, nxt, t.met())
    names = {n: p.name for n, p in t.players.items()}
    _write(nxt, tournament_writes.add_round, db, tid, nxt,
           _tables(db, t.rulesets, names, drawn, max_games))
    bus.publish([events.RoundDrawn(tid, None, nxt,
                            tuple(table.game_id for table in t.rounds[t.current - 1]))])
    return load(db, tid)


def add_player(db: Database, tid: str, name: Any) -> int:
    """A late arrival, drawn from the next round on; their entry number."""
    t = _open(db, tid)
    typed = checks.clean_name(name)
    if not typed:
        raise InvalidInput([Problem("name", N_("Enter a name."))])
    if len(typed) > checks.NAME_MAX:
        raise InvalidInput([Problem("name", N_("A name can have at most %(max)s characters; this one has %(count)s."),
                                    {"max": checks.NAME_MAX, "count": len(typed)})])
    draw.table_sizes(len(t.active) + 1, _sizes(t.rulesets))
    try:
        number = _write(t.current + 1, tournament_writes.add_tournament_player, db, tid,
                        typed, t.current + 1)
    except people_writes.NameTaken:
        key = checks.person_key(typed)  # named as it is on the list, not as typed now
        entered = next((p.name for p in t.players.values()
                        if checks.person_key(p.name) == key), typed)
        raise InvalidInput([Problem("name", N_("%(name)s is entered twice."),
                                    {"name": entered})]) from None
    bus.publish([events.PlayerArrived(tid, None, number)])
    return number


def withdraw(db: Database, tid: str, number: Any) -> None:
    """A player leaves after the current round; their games so far stay and count."""
    t = _open(db, tid)
    n = checks.whole_number(number)
    if n not in t.players or t.players[n].left_after is not None:
        raise InvalidInput([Problem("player", N_("Choose a player still playing."))])
    draw.table_sizes(len(t.active) - 1, _sizes(t.rulesets))
    _write(t.current + 1, tournament_writes.withdraw_tournament_player, db, tid, n, t.current)
    bus.publish([events.PlayerWithdrew(tid, None, n)])


def close(db: Database, tid: str, confirm_unsigned: bool = False) -> None:
    """The tournament is over; while a table is not signed it closes only with
    ``confirm_unsigned`` (:class:`Unsigned` names those tables)."""
    t = _open(db, tid)
    if t.unsigned and confirm_unsigned is not True:
        raise Unsigned(t.unsigned)
    _write(t.current + 1, tournament_writes.close_tournament, db, tid)
    bus.publish([events.TournamentClosed(tid)])


def reopen(db: Database, tid: str) -> None:
    """A closed tournament opened again: its games can be corrected, its rounds drawn."""
    t = load(db, tid)
    _write(t.current + 1, tournament_writes.reopen_tournament, db, tid)
    bus.publish([events.TournamentReopened(tid)])

