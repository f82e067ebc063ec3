"""Club nights: Kierki tournaments of many tables, drawn round by round, and the
director's changes to them.

Each round is drawn (:mod:`..rules.draw`) and every table's game created with its players
seated; a table plays its game as any other, and the tournament only reads the games'
figures (:mod:`.night`), so a game corrected after its round still moves the standings.
"""
from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from sqlite_utils import Database

from ..rules import checks, draw
from ..rules.errors import N_, InvalidInput, Problem, UnknownRuleset
from ..rules.standings import SCORINGS
from ..storage import connection, people_writes, tournament_writes
from ..storage.tournament_reads import TournamentTable, table_of_game
from ..storage.tournament_reads import tournament_changes as changes
from . import bus, events, service, variants
from .errors import Refusal
from .night import (
    Screen,
    Tournament,
    confirmed,
    load,
    screen,
    signatures,
)

#: What callers read here though it is made elsewhere.
__all__ = ["SCORINGS", "Screen", "Tournament", "changes", "confirmed", "load", "screen",
           "signatures", "table_of_game"]

MIN_PLAYERS = 8
#: The most players a tournament takes: 1,000 tables of four.
MAX_PLAYERS = 4000
MAX_ROUNDS = 20
NAME_MAX = 80
SEED_MAX = 40  # a draw's seed, in characters
SIZES = (3, 4, 5)

#: The last line of the refusal to rank by points rulesets that do not give every player
#: the same points on average.
UNFAIR = N_("Ranking by points adds up totals from different tables, so it is fair only "
            "when every table's games add up to the same points a player. Rank by places "
            "instead (every table hands out 3 to 0), or choose rules that match.")


def _name(value: Any) -> str:
    name = checks.clean_name(value)
    if not name:
        raise InvalidInput([Problem("name", N_("Give the tournament a name."))])
    if len(name) > NAME_MAX:
        raise InvalidInput([Problem("name", N_("At most %(max)s characters."),
                                    {"max": NAME_MAX})])
    return name


def _players(given: Any) -> list[str]:
    """The players' names, each present and different."""
    if isinstance(given, str):
        given = given.splitlines()
    if not isinstance(given, (list, tuple)) or any(not isinstance(n, str) for n in given):
        raise InvalidInput([Problem("players", N_("Enter the players' names."))])
    names = [n for n in map(checks.clean_name, given) if n]
    problems = []
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        problems.append(Problem("players", N_(
            "A tournament needs %(min)s to %(max)s players; %(count)s are entered."),
            {"min": MIN_PLAYERS, "max": MAX_PLAYERS, "count": len(names)}))
    seen: dict[str, str] = {}
    for name in names:
        if len(name) > checks.NAME_MAX:
            problems.append(Problem("players", N_("%(name)s: at most %(max)s characters."),
                                    {"name": name[:24] + "…", "max": checks.NAME_MAX}))
        key = checks.person_key(name)
        if key in seen:  # named as first typed
            problems.append(Problem("players", N_("%(name)s is entered twice."),
                                    {"name": seen[key]}))
        seen.setdefault(key, name)
    if problems:
        raise InvalidInput(problems)
    return names


def _rounds(value: Any) -> int:
    n = checks.whole_number(value)
    if n is None or not 1 <= n <= MAX_ROUNDS:
        raise InvalidInput([Problem("rounds", N_("Choose 1 to %(max)s rounds."),
                                    {"max": MAX_ROUNDS})])
    return n


def _rulesets(db: Database, given: Any) -> dict[str, str]:
    """The ruleset per table size: rulesets of single players for as many as the size."""
    chosen: dict[str, str] = {}
    for size, rid in given.items() if isinstance(given, Mapping) else ():
        if rid in (None, ""):
            continue
        if str(size) not in map(str, SIZES):
            raise InvalidInput([Problem("rulesets", N_(
                "Tables are of three, four or five players."))])
        try:
            family, rules = variants.find(db, rid)
        except UnknownRuleset:
            raise InvalidInput([Problem(f"rulesets.{size}", N_("Choose a ruleset."))]) from None
        if any(len(side) != 1 for side in family.sides(rules)):
            raise InvalidInput([Problem(f"rulesets.{size}", N_(
                "A tournament draws players one by one; a game of pairs cannot be drawn "
                "yet."))])
        if rules.players != int(size):
            raise InvalidInput([Problem(f"rulesets.{size}", N_(
                "This ruleset is for %(players)s players, not %(size)s."),
                {"players": rules.players, "size": size})])
        chosen[str(size)] = str(rid)
    if not chosen:
        raise InvalidInput([Problem("rulesets", N_("Choose a ruleset for tables of four."))])
    return dict(sorted(chosen.items()))


def per_seat(rules: Any) -> Fraction | None:
    """What a game of ``rules`` gives each player on average when every game adds up to
    the same total; None when the total depends on the play or is not known."""
    total = getattr(rules, "expected_sum", None)
    deals = getattr(rules, "deals", None)
    if not isinstance(total, int) or deals is None:
        return None
    for contract in deals():
        data = getattr(contract, "data", {})
        if any(m != 1 for m in data.get("multipliers", ())) or data.get("all_tricks"):
            return None
    return Fraction(total, rules.players)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "0"


def _fair_by_points(db: Database, rulesets: Mapping[str, str]) -> list[Problem]:
    """Problems with ranking by points: every ruleset's games must add up to one fixed
    total, the same per player at every table size."""
    found = {size: variants.find(db, rid)[1] for size, rid in rulesets.items()}
    shares = {size: per_seat(rules) for size, rules in found.items()}
    if None not in shares.values() and len(set(shares.values())) <= 1:
        return []
    problems = []
    for size, share in sorted(shares.items()):
        params = {"size": int(size), "points": getattr(found[size], "expected_sum", 0)}
        if share is None:
            message, params = N_(
                "Tables of %(size)s: with these rules what a game adds up to depends on "
                "the play (multipliers, or the others paying when one player takes every "
                "trick)."), {"size": int(size)}
        elif share.denominator == 1:
            message, params["each"] = N_("Tables of %(size)s: a game of these rules adds up "
                                         "to %(points)s, %(each)s a player."), _signed(int(share))
        else:
            message = N_("Tables of %(size)s: a game of these rules adds up to %(points)s.")
        problems.append(Problem("scoring", message, params))
    return [*problems, Problem("scoring", UNFAIR)]


def _checked(db: Database, name: Any, players: Any, rounds: Any, rulesets: Any,
             scoring: Any, seed: Any) -> tuple[str, list[str], int, dict[str, str]]:
    """The form's name, players, rounds and rulesets, checked; ``InvalidInput`` names
    every problem of the form at once."""
    problems: list[Problem] = []
    found: dict[str, Any] = {}
    for key, check in (("name", lambda: _name(name)), ("players", lambda: _players(players)),
                       ("rounds", lambda: _rounds(rounds)),
                       ("rulesets", lambda: _rulesets(db, rulesets))):
        try:
            found[key] = check()
        except InvalidInput as e:
            problems.extend(e.problems)
    if scoring not in SCORINGS:
        problems.append(Problem("scoring", N_("Rank by points or by places.")))
    elif scoring == "points" and "rulesets" in found:
        problems.extend(_fair_by_points(db, found["rulesets"]))
    if seed is not None and (not isinstance(seed, str) or not 0 < len(seed) <= SEED_MAX):
        problems.append(Problem("seed", N_("A seed is a word of up to 40 characters.")))
    if problems:
        raise InvalidInput(problems)
    return found["name"], found["players"], found["rounds"], found["rulesets"]


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


def _write(write: Callable[..., Any], *args: Any, number: int = 0) -> Any:
    """A write of the store's, its refusal told as :class:`NotNow` (``number``: the round
    a round's write draws)."""
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
    name, entered, planned, rulesets = _checked(db, name, players, rounds, rulesets,
                                                scoring, seed)
    names = dict(enumerate(entered, start=1))
    seed = seed or secrets.token_hex(4)
    drawn = draw.draw_round(list(names), _sizes(rulesets), seed, 1)
    tables = _tables(db, rulesets, names, drawn, max_games)
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
    meant = checks.whole_number(number)
    if number is not None and meant != nxt:
        raise NotNow(DRAWN, round=t.current) if meant == t.current else NotNow(CHANGED)
    if t.closed:
        raise NotNow(CLOSED)
    if t.current >= t.planned:
        raise NotNow(ALL_DRAWN, rounds=t.planned)
    if not t.round_finished(t.current):
        raise NotNow(UNFINISHED, round=t.current)
    met = draw.meetings([[table.seats for table in r] for r in t.rounds])
    drawn = draw.draw_round(t.active, _sizes(t.rulesets), t.stored.seed, nxt, met)
    names = {n: p.name for n, p in t.players.items()}
    _write(tournament_writes.add_round, db, tid, nxt,
           _tables(db, t.rulesets, names, drawn, max_games), number=nxt)
    bus.publish([events.RoundDrawn(tid, None, nxt, tuple(tb.game_id for tb in t.rounds[-1]))])
    return load(db, tid)


def add_player(db: Database, tid: str, name: Any) -> int:
    """A late arrival, drawn from the next round on; their entry number."""
    t = _open(db, tid)
    typed = checks.typed_name(name, "name", N_("Enter a name."))
    draw.table_sizes(len(t.active) + 1, _sizes(t.rulesets))
    try:
        number = _write(tournament_writes.add_tournament_player, db, tid, typed, t.current + 1)
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
    _write(tournament_writes.withdraw_tournament_player, db, tid, n, t.current)
    bus.publish([events.PlayerWithdrew(tid, None, n)])


def close(db: Database, tid: str, confirm_unsigned: bool = False) -> None:
    """The tournament is over; while a table is not signed it closes only with
    ``confirm_unsigned`` (:class:`Unsigned` names those tables)."""
    t = _open(db, tid)
    if t.unsigned and confirm_unsigned is not True:
        raise Unsigned(t.unsigned)
    _write(tournament_writes.set_closed, db, tid, True)
    bus.publish([events.TournamentClosed(tid)])


def reopen(db: Database, tid: str) -> None:
    """A closed tournament opened again: its games can be corrected, its rounds drawn."""
    _write(tournament_writes.set_closed, db, tid, False)
    bus.publish([events.TournamentReopened(tid)])

