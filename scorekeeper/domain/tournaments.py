"""Club night: a Kierki tournament of many tables, drawn round by round (issue 27).

A director enters the players, the number of rounds and a ruleset per table size; each
round is drawn (:mod:`..rules.draw`: tables of four where possible, as few pairs meeting
again as the search finds, seats and first dealer drawn, reproducible from the
tournament's seed) and every table's game is created by the draw, with its players
seated, through the store's one way of making a game. A table then plays its game as any
other (its phones, its join code, its corrections); the tournament only reads the games'
figures, so a game corrected after its round still moves the standings.

The next round is drawn only when every game of the current one is finished. Players
may arrive late or withdraw between rounds. No Flask here: the pages and the API call
these, and the director's token is the web layer's (an HMAC of the id, as a game's).

The projector (:func:`screen`, issue 34) keeps each tournament between versions
(:class:`_Board`): a new version reads what moved (the tables whose game's version
moved), moves only their players' standings lines (:class:`..rules.standings.Kept`), and
answers one page of the standings and one of the round's tables, whatever the field.
"""
from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

from sqlite_utils import Database

from ..rules import checks, draw
from ..rules.errors import N_, InvalidInput, Problem, UnknownRuleset
from ..rules.standings import SCORINGS, Seat, Standing, standings
from ..storage import connection, game_reads, people_writes, tournament_reads, tournament_writes
from ..storage.tournament_reads import TournamentNotFound, TournamentTable
from . import bus, service, variants
from .events import (
    PlayerArrived,
    PlayerWithdrew,
    RoundDrawn,
    TournamentClosed,
    TournamentCreated,
    TournamentReopened,
)

__all__ = ["NotNow", "Screen", "Tournament", "TournamentNotFound", "Unsigned", "add_player",
           "close", "create", "draw_next", "load", "screen", "table_of_game", "withdraw"]

MIN_PLAYERS = 8
#: The most players a tournament takes: 1,000 tables of four, a national championship
#: (the form, the API's schema and the README say this number).
MAX_PLAYERS = 4000
MAX_ROUNDS = 20
NAME_MAX = 80
SEED_MAX = 40  # a draw's seed, in characters
SIZES = (3, 4, 5)


class NotNow(Exception):
    """A change the tournament cannot take at this moment (409): a round drawn while a game
    of the current one is unfinished, a change to a closed tournament, a stale form."""

    def __init__(self, message: str, **params: Any):
        self.message = message
        self.params = params
        super().__init__(message % params)

    def text(self, translate=lambda s: s) -> str:
        return translate(self.message) % self.params


UNFINISHED = N_("Round %(round)s is still being played: the next round is drawn when every "
                "table has finished its game.")
CLOSED = N_("This tournament is closed; nothing more can be drawn or changed in it.")
NOT_CLOSED = N_("This tournament is open; there is nothing to reopen.")
CHANGED = N_("The tournament changed in the meantime (another tab of the director's?). "
             "Nothing was changed; here it is as it is now.")
DRAWN = N_("Round %(round)s is already drawn.")
ALL_DRAWN = N_("All %(rounds)s rounds are drawn; close the tournament when the last one "
               "is over.")


def confirmed(table: TournamentTable) -> bool:
    """A finished table's result counts for good once two of its players signed it, or
    the director did (until then the standings show it as provisional)."""
    return table.director_signed or table.signed_seats >= 2


@dataclass
class Tournament:
    """A stored tournament and what follows from it (standings, who sits where)."""

    stored: tournament_reads.StoredTournament

    @property
    def id(self) -> str:
        return self.stored.id

    @property
    def name(self) -> str:
        return self.stored.name

    @property
    def version(self) -> int:
        return self.stored.version

    @property
    def closed(self) -> bool:
        return self.stored.closed

    @property
    def scoring(self) -> str:
        return self.stored.scoring

    @property
    def planned(self) -> int:
        """How many rounds the director planned."""
        return self.stored.rounds

    @property
    def rulesets(self) -> dict[str, str]:
        return self.stored.rulesets

    @cached_property
    def players(self) -> dict[int, tournament_reads.TournamentPlayer]:
        """Every player ever entered, by entry number (withdrawn ones too)."""
        return {p.number: p for p in self.stored.players}

    def name_of(self, number: int) -> str:
        return self.players[number].name

    @property
    def active(self) -> list[int]:
        """Who is drawn for the next round: everyone not withdrawn."""
        return [p.number for p in self.stored.players if p.left_after is None]

    @cached_property
    def rounds(self) -> list[list[TournamentTable]]:
        """The drawn rounds, each its tables in order (round 1 first)."""
        out: list[list[TournamentTable]] = []
        for table in self.stored.tables:
            while len(out) < table.round:
                out.append([])
            out[table.round - 1].append(table)
        return out

    @property
    def current(self) -> int:
        """The last round drawn (0 before any)."""
        return len(self.rounds)

    def round_finished(self, number: int) -> bool:
        return 1 <= number <= self.current and all(t.finished for t in self.rounds[number - 1])

    @property
    def finished(self) -> bool:
        """Every planned round drawn and played."""
        return self.current >= self.planned and self.round_finished(self.current)

    @property
    def can_draw(self) -> bool:
        return (not self.closed and self.current < self.planned
                and self.round_finished(self.current))

    def table(self, gid: str) -> TournamentTable | None:
        return next((t for t in self.stored.tables if t.game_id == gid), None)

    def seat_of(self, number: int, round_number: int) -> tuple[TournamentTable, int] | None:
        """Where a player sits in a round: (table, seat), or None (not drawn in it)."""
        if not 1 <= round_number <= self.current:
            return None
        for table in self.rounds[round_number - 1]:
            if number in table.seats:
                return table, table.seats.index(number)
        return None

    @cached_property
    def _seats_by_game(self) -> dict[str, list[Seat]]:
        by_person = {p.person_id: p.number for p in self.stored.players}
        games: dict[str, list[Seat]] = {}
        for f in self.stored.figures:
            games.setdefault(f.game_id, []).append(Seat(by_person[f.person_id], f.total))
        return games

    def standings(self, round_number: int | None = None) -> list[Standing]:
        """Overall (every finished game so far), or one round's games alone."""
        tables = self.stored.tables if round_number is None else self.rounds[round_number - 1]
        games = [self._seats_by_game[t.game_id] for t in tables
                 if t.game_id in self._seats_by_game]
        return standings(games, list(self.players), self.scoring)

    @cached_property
    def overall(self) -> list[Standing]:
        return self.standings()

    def rank_of(self, number: int) -> Standing | None:
        return next((s for s in self.overall if s.player == number), None)

    def results(self, number: int) -> list[tuple[int, TournamentTable, int | None]]:
        """A player's games: (round, table, their total or None while unfinished)."""
        out = []
        for table in self.stored.tables:
            if number in table.seats:
                seats = self._seats_by_game.get(table.game_id)
                total = next((s.total for s in seats if s.player == number), None) \
                    if seats else None
                out.append((table.round, table, total))
        return out

    @cached_property
    def unconfirmed(self) -> list[TournamentTable]:
        """The finished tables whose result is still provisional: signed by fewer than two
        of their players, and not by the director."""
        return [t for t in self.stored.tables if t.finished and not confirmed(t)]

    @cached_property
    def unsigned(self) -> list[TournamentTable]:
        """Every table whose result is not confirmed: still playing, or finished and
        signed by fewer than two of its players and not by the director."""
        return [t for t in self.stored.tables if not (t.finished and confirmed(t))]

    @property
    def final(self) -> bool:
        """Closed with every table signed: the results are final."""
        return self.closed and not self.unsigned

    @cached_property
    def _provisional(self) -> frozenset[int]:
        return frozenset(p for t in self.unconfirmed for p in t.seats)

    def provisional(self, number: int) -> bool:
        """Whether a player's standing rests on a table not yet confirmed."""
        return number in self._provisional

    def standings_now(self, running: Mapping[str, list[int]]) -> list[Standing]:
        """Overall standings as if every table still playing ended now: the finished
        games, and each unfinished one whose running totals (by seat) are in ``running``
        counted as the ranking counts a game (its totals, or the places they give)."""
        games = [self._seats_by_game[t.game_id] for t in self.stored.tables
                 if t.game_id in self._seats_by_game]
        games += [[Seat(p, total) for p, total in zip(t.seats, running[t.game_id],
                                                      strict=True)]
                  for t in self.stored.tables
                  if not t.finished and t.game_id in running]
        return standings(games, list(self.players), self.scoring)

    def met(self) -> dict[frozenset[int], int]:
        return draw.meetings([[t.seats for t in r] for r in self.rounds])


def load(db: Database, tid: str) -> Tournament:
    """A stored tournament (``TournamentNotFound``)."""
    return Tournament(tournament_reads.load_tournament(db, tid))


@dataclass(frozen=True)
class LiveStandings:
    """The standings mid-round (the projector's): ``rows`` count every table still playing
    as if its game ended now; ``in_play`` are the players whose line holds such a game
    (provisional until it ends), ``tables`` how many tables that is."""

    rows: list[Standing]
    in_play: frozenset[int]
    tables: int


def live_standings(db: Database, t: Tournament) -> LiveStandings:
    """The standings from the deals entered so far, every line (what the projector pages
    through, :func:`screen`): each unfinished table with at least one deal recorded counts
    with its game's running totals, a finished one with its figures."""
    running: dict[str, list[int]] = {}
    for table in t.stored.tables:
        if not table.finished and table.deals:
            game = service.load(db, table.game_id)
            if game.recorded and not game.state.finished:
                running[table.game_id] = [int(x) for x in game.state.totals]
    in_play = frozenset(p for table in t.stored.tables if table.game_id in running
                        for p in table.seats)
    return LiveStandings(t.standings_now(running), in_play, len(running))


@dataclass(frozen=True)
class ScreenLine:
    """One line of the projector's standings: the standing, the player's name now,
    whether a table of theirs is in play, whether their standing is provisional."""

    standing: Standing
    name: str
    playing: bool
    provisional: bool


@dataclass(frozen=True)
class Screen:
    """What the projector shows of a tournament at one version: its heading's facts, one
    page of the standings and one page of the current round's tables, each from a given
    line or cell on (``start``, 0-based: a screen that could not show a page's last lines
    whole starts the next page at them), with what the page counters need: how many in
    all, and this page's number of how many at this size of a page."""

    id: str
    name: str
    version: int
    closed: bool
    scoring: str
    current: int
    planned: int
    lines: list[ScreenLine]
    players: int         # lines in all
    start: int
    per_page: int
    page: int
    pages: int
    in_play: int         # tables in play (their deals so far counted)
    tables: list[TournamentTable]
    table_count: int     # of the current round
    done: int            # of them finished
    unconfirmed: int     # finished tables not signed (every round)
    table_start: int
    per_table_page: int
    table_page: int
    table_pages: int


def _paged(count: int, per: int, start: int) -> tuple[int, int, int]:
    """(the first item shown, the page's number, how many pages): ``per`` items a page
    from item ``start`` on, which turns round to the first past the last."""
    start = start if 0 <= start < count else 0
    page = -(-start // per) + 1
    return start, page, page + max(0, -(-(count - start - per) // per))


def screen(db: Database, tid: str, start: int = 0, per_page: int = 40,
           table_start: int = 0, per_table_page: int = 45) -> Screen:
    """The projector's live part of tournament ``tid`` now: ``per_page`` lines of its
    standings mid-round from line ``start`` on, and ``per_table_page`` of its current
    round's tables from ``table_start`` on (``TournamentNotFound``)."""
    per_page, per_table_page = max(1, per_page), max(1, per_table_page)
    t = load(db, tid)
    live = live_standings(db, t)
    start, page, pages = _paged(len(live.rows), per_page, start)
    rows = live.rows[start:start + per_page]
    current = t.rounds[-1] if t.rounds else []
    table_start, table_page, table_pages = _paged(len(current), per_table_page, table_start)
    return Screen(
        t.id, t.name, t.version, t.closed, t.scoring, t.current, t.planned,
        [ScreenLine(r, t.name_of(r.player), r.player in live.in_play,
                    t.provisional(r.player)) for r in rows],
        len(live.rows), start, per_page, page, pages, live.tables,
        current[table_start:table_start + per_table_page], len(current),
        sum(1 for table in current if table.finished), len(t.unconfirmed), table_start,
        per_table_page, table_page, table_pages)


def _name(value: Any) -> str:
    name = checks.clean_name(value)
    if not name:
        raise InvalidInput([Problem("name", N_("Give the tournament a name."))])
    if len(name) > NAME_MAX:
        raise InvalidInput([Problem("name", N_("At most %(max)s characters."),
                                    {"max": NAME_MAX})])
    return name


def _players(given: Any) -> list[str]:
    """The players' names, each present and different; :data:`MIN_PLAYERS` to
    :data:`MAX_PLAYERS` of them."""
    if isinstance(given, str):
        given = given.splitlines()
    if not isinstance(given, (list, tuple)):
        raise InvalidInput([Problem("players", N_("Enter the players' names."))])
    names = [checks.clean_name(n) for n in given]
    if any(not isinstance(n, str) for n in given):
        raise InvalidInput([Problem("players", N_("Enter the players' names."))])
    names = [n for n in names if n]
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
        if key in seen:
            problems.append(Problem("players", N_("%(name)s is entered twice."),
                                    {"name": seen[key]}))  # as first typed, not casefolded
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
    """The ruleset per table size: Kierki rulesets for as many players as their size."""
    if not isinstance(given, Mapping):
        raise InvalidInput([Problem("rulesets", N_("Choose a ruleset for tables of four."))])
    chosen: dict[str, str] = {}
    for size, rid in given.items():
        if rid in (None, ""):
            continue
        if str(size) not in {str(s) for s in SIZES}:
            raise InvalidInput([Problem("rulesets", N_(
                "Tables are of three, four or five players."))])
        try:
            family, rules = variants.find(db, rid)
        except UnknownRuleset:
            raise InvalidInput([Problem(f"rulesets.{size}", N_("Choose a ruleset."))]) from None
        if any(len(side) != 1 for side in family.sides(rules)):
            # Each player is drawn alone: a game of pairs (Tybet) is not drawn yet.
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


def _tables(db: Database, rulesets: dict[str, str], names: Mapping[int, str],
            drawn: list[draw.Table]) -> list[tournament_writes.NewTable]:
    """Each drawn table as a game to store: its ruleset's snapshot and settings."""
    out = []
    for table in drawn:
        family, rules = variants.find(db, rulesets[str(len(table.players))])
        settings = {"first_dealer": table.first_dealer, **family.settings(rules, {})}
        out.append(tournament_writes.NewTable(family.key, rules.snapshot(), settings,
                                  list(table.players), [names[p] for p in table.players]))
    return out


def _room_for(db: Database, games: int, max_games: int | None) -> None:
    if max_games is not None and game_reads.count_games(db) + games > max_games:
        service.at_the_cap(max_games, games, "a tournament's round")
        raise InvalidInput([Problem("", N_(
            "This server keeps at most %(max)s games; the round's %(count)s games would not "
            "fit. Delete finished games (or ask the host to) first."),
            {"max": max_games, "count": games})])


#: Why ranking by points is refused for rulesets whose games do not give every player the
#: same points on average (issue 35, item 7); the last line of the refusal.
UNFAIR = N_("Ranking by points adds up totals from different tables, so it is fair only "
            "when every table's games add up to the same points a player. Rank by places "
            "instead (every table hands out 3 to 0), or choose rules that match.")


def per_seat(rules: Any) -> Fraction | None:
    """What a game of ``rules`` gives each player on average, when every game adds up to
    the same total (its ruleset's expected sum over its players); None when the total
    depends on the play (multipliers, a sweep that the others pay) or is not known."""
    total = getattr(rules, "expected_sum", None)
    deals = getattr(rules, "deals", None)
    if not isinstance(total, int) or deals is None:
        return None
    for contract in deals():
        data = getattr(contract, "data", {})
        if any(m != 1 for m in data.get("multipliers", ())) or data.get("all_tricks"):
            return None
    return Fraction(total, rules.players)


def _fair_by_points(db: Database, rulesets: Mapping[str, str]) -> list[Problem]:
    """Problems with ranking these rulesets by points: every ruleset's games must add up
    to one fixed total, the same per player at every table size (standard-4 and
    standard-3 end at 0; zdanowicz-5 at +220, +44 a player; kurnik-3 at −255)."""
    shares: dict[str, Fraction | None] = {}
    totals: dict[str, int] = {}
    for size, rid in rulesets.items():
        _, rules = variants.find(db, rid)
        shares[size] = per_seat(rules)
        totals[size] = getattr(rules, "expected_sum", 0)
    known = {v for v in shares.values() if v is not None}
    if len(known) <= 1 and None not in shares.values():
        return []
    problems = []
    for size, share in sorted(shares.items()):
        if share is None:
            problems.append(Problem("scoring", N_(
                "Tables of %(size)s: with these rules what a game adds up to depends on "
                "the play (multipliers, or the others paying when one player takes every "
                "trick)."), {"size": int(size)}))
        elif share.denominator == 1:
            problems.append(Problem("scoring", N_(
                "Tables of %(size)s: a game of these rules adds up to %(points)s, "
                "%(each)s a player."),
                {"size": int(size), "points": totals[size], "each": _signed(int(share))}))
        else:
            problems.append(Problem("scoring", N_(
                "Tables of %(size)s: a game of these rules adds up to %(points)s."),
                {"size": int(size), "points": totals[size]}))
    problems.append(Problem("scoring", UNFAIR))
    return problems


def _signed(n: int) -> str:
    """A whole number with its sign, the minus a real one (as the pages write points)."""
    return f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "0"


def _sizes(rulesets: Mapping[str, str]) -> list[int]:
    return sorted(int(s) for s in rulesets)


def create(db: Database, name: Any, players: Any, rounds: Any, rulesets: Any,
           scoring: Any = "points", seed: Any = None, max_games: int | None = None,
           club: str = connection.HOME_CLUB) -> Tournament:
    """A new tournament of ``club`` (its players that club's people) with its first
    round drawn and its games created."""
    problems: list[Problem] = []
    checked: dict[str, Any] = {}
    for key, check in (("name", lambda: _name(name)), ("players", lambda: _players(players)),
                       ("rounds", lambda: _rounds(rounds)),
                       ("rulesets", lambda: _rulesets(db, rulesets))):
        try:
            checked[key] = check()
        except InvalidInput as e:
            problems.extend(e.problems)
    if scoring not in SCORINGS:
        problems.append(Problem("scoring", N_("Rank by points or by places.")))
    elif scoring == "points" and "rulesets" in checked:
        problems.extend(_fair_by_points(db, checked["rulesets"]))
    if seed is not None and (not isinstance(seed, str) or not 0 < len(seed) <= SEED_MAX):
        problems.append(Problem("seed", N_("A seed is a word of up to 40 characters.")))
    if problems:
        raise InvalidInput(problems)
    names = dict(enumerate(checked["players"], start=1))
    seed = seed or secrets.token_hex(4)
    drawn = draw.draw_round(list(names), _sizes(checked["rulesets"]), seed, 1)
    _room_for(db, len(drawn), max_games)
    tid = connection.new_id()
    tournament_writes.create_tournament(db, tid, checked["name"], checked["rounds"], checked["rulesets"],
                            scoring, seed, checked["players"],
                            _tables(db, checked["rulesets"], names, drawn), club=club)
    bus.publish([TournamentCreated(tid, 1)])
    return load(db, tid)


def _refused(e: tournament_writes.TournamentChanged, number: int) -> NotNow:
    if e.reason == "unfinished":
        return NotNow(UNFINISHED, round=number - 1)
    if e.reason == "closed":
        return NotNow(CLOSED)
    if e.reason == "drawn":
        return NotNow(DRAWN, round=number)
    return NotNow(CHANGED)


def draw_next(db: Database, tid: str, number: Any = None,
              max_games: int | None = None) -> Tournament:
    """Draw the next round (``number``: the round the form or request meant, so that a
    form sent twice draws it once) and create its games."""
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
    _room_for(db, len(drawn), max_games)
    names = {n: p.name for n, p in t.players.items()}
    try:
        tournament_writes.add_round(db, tid, nxt, _tables(db, t.rulesets, names, drawn))
    except tournament_writes.TournamentChanged as e:
        raise _refused(e, nxt) from None
    bus.publish([RoundDrawn(tid, None, nxt,
                            tuple(table.game_id for table in t.rounds[t.current - 1]))])
    return load(db, tid)


def _open(t: Tournament) -> None:
    """Director's changes need no version: each is safe to send twice (a name entered
    twice is refused, a player withdrawn is withdrawn, a closed tournament stays closed),
    and every save at a table moves the tournament's version, so a form would be stale
    the moment it is shown."""
    if t.closed:
        raise NotNow(CLOSED)


def add_player(db: Database, tid: str, name: Any) -> int:
    """A late arrival, drawn from the next round on; their entry number."""
    t = load(db, tid)
    _open(t)
    typed = checks.clean_name(name)
    if not typed:
        raise InvalidInput([Problem("name", N_("Enter a name."))])
    if len(typed) > checks.NAME_MAX:
        raise InvalidInput([Problem("name", N_("A name can have at most %(max)s characters; this one has %(count)s."),
                                    {"max": checks.NAME_MAX, "count": len(typed)})])
    try:
        _check_sizes(len(t.active) + 1, t.rulesets)
        number = tournament_writes.add_tournament_player(db, tid, typed, t.current + 1)
    except people_writes.NameTaken:
        key = checks.person_key(typed)  # named as it is on the list, not as typed now
        entered = next((p.name for p in t.players.values()
                        if checks.person_key(p.name) == key), typed)
        raise InvalidInput([Problem("name", N_("%(name)s is entered twice."),
                                    {"name": entered})]) from None
    except tournament_writes.TournamentChanged as e:
        raise _refused(e, t.current + 1) from None
    bus.publish([PlayerArrived(tid, None, number)])
    return number


def withdraw(db: Database, tid: str, number: Any) -> None:
    """A player leaves after the current round; their games so far stay and count."""
    t = load(db, tid)
    _open(t)
    n = checks.whole_number(number)
    if n not in t.players or t.players[n].left_after is not None:
        raise InvalidInput([Problem("player", N_("Choose a player still playing."))])
    _check_sizes(len(t.active) - 1, t.rulesets)
    try:
        tournament_writes.withdraw_tournament_player(db, tid, n, t.current)
    except tournament_writes.TournamentChanged as e:
        raise _refused(e, t.current + 1) from None
    bus.publish([PlayerWithdrew(tid, None, n)])


def _check_sizes(count: int, rulesets: Mapping[str, str]) -> None:
    """The next round can still be drawn with ``count`` players (InvalidInput if not)."""
    draw.table_sizes(count, _sizes(rulesets))


class Unsigned(NotNow):
    """Closing refused while tables are not signed: ``tables`` are those tables (each
    still playing or finished without its signatures), in round and table order."""

    def __init__(self, tables: Sequence[TournamentTable]):
        self.tables = list(tables)
        super().__init__(UNSIGNED, tables="")

    def text(self, translate=lambda s: s) -> str:
        named = "; ".join(
            translate(TABLE_OF_ROUND if t.finished else TABLE_PLAYING)
            % {"round": t.round, "table": t.number} for t in self.tables)
        return translate(self.message) % {"tables": named}


UNSIGNED = N_("The tournament is not closed; not signed yet: %(tables)s. Sign them (two of a "
              "table's players, or the director), or close it anyway with their results "
              "provisional.")
TABLE_OF_ROUND = N_("round %(round)s table %(table)s")
TABLE_PLAYING = N_("round %(round)s table %(table)s (still playing)")


def close(db: Database, tid: str, confirm_unsigned: bool = False) -> None:
    """The tournament is over: its results stand (a game corrected later still moves them).
    While a table is not signed (:attr:`Tournament.unsigned`) it closes only when the
    director says so (``confirm_unsigned``); :class:`Unsigned` names those tables."""
    t = load(db, tid)
    _open(t)
    if t.unsigned and confirm_unsigned is not True:
        raise Unsigned(t.unsigned)
    try:
        tournament_writes.close_tournament(db, tid)
    except tournament_writes.TournamentChanged as e:
        raise _refused(e, t.current + 1) from None
    bus.publish([TournamentClosed(tid)])


def reopen(db: Database, tid: str) -> None:
    """A closed tournament opened again by its director (kept in its list of changes): its
    games can be corrected and its rounds drawn again."""
    t = load(db, tid)
    try:
        tournament_writes.reopen_tournament(db, tid)
    except tournament_writes.TournamentChanged as e:
        raise NotNow(NOT_CLOSED) if e.reason == "open" else _refused(e, t.current + 1) \
            from None
    bus.publish([TournamentReopened(tid)])


def changes(db: Database, tid: str) -> list[dict[str, Any]]:
    """What was changed after the fact, the latest first: every correction and undo of its
    games (with its round, table, and the right that made it), every signature set taken
    off, and the tournament closed and reopened."""
    return tournament_reads.tournament_changes(db, tid)


def signatures(db: Database, t: Tournament) -> dict[str, dict[int, dict[str, Any]]]:
    """Who signed each finished table's game, by game and seat (the director's under -1):
    by which right and when, as the results sheet prints them."""
    return {table.game_id: game_reads.signatures(db, table.game_id) for table in t.stored.tables
            if table.finished and (table.signed_seats or table.director_signed)}


def table_of_game(db: Database, gid: str) -> tournament_reads.TableOfGame | None:
    """The tournament, round and table a game was drawn for, if any: a game's page says
    so with this one small read (loading the tournament costs milliseconds at a club's
    size, on every phone's page after every deal)."""
    return tournament_reads.table_of_game(db, gid)

