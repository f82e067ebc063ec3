"""Players across games: the people of this server, their statistics, the evenings a
table plays, and settling an evening's stakes with the fewest transfers.

A person is everyone who sat at a game under one name (:func:`.rules.checks.person_key`
says when two names are one). A *table* is a set of people; an *evening* is the games a
table played one after another, less than :data:`EVENING_GAP` apart. Nothing of this
is stored beyond the people and their seats: evenings and statistics are worked out
from the games (so an imported game joins its evening and its players' figures).

Statistics count finished games. Places are per side (a seat in Kierki, a pair in the
partnership game): a higher total is better, and equal totals share a place. No Flask
here; the pages and the API call these.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from fractions import Fraction
from itertools import combinations
from typing import Any

from sqlite_utils import Database

from ..common import collation, i18n
from ..common.lru import LRU
from ..families import registry
from ..rules import checks
from ..rules.places import above_middle, places, shared_places  # noqa: F401 - settling reads them here
from ..storage import figure_reads, game_reads, game_writes, people_reads, people_writes
from . import bus, service
from .events import PersonRenamed
from .figures import streaks as figures_streaks

#: Games of one table closer together than this are one evening.
EVENING_GAP = timedelta(hours=6)
#: How many recent games a player's form shows.
FORM_GAMES = 10


@dataclass(frozen=True)
class Played:
    """One person's seat in one game."""

    game: Any  # service.Game
    seat: int
    side: int
    total: int
    place: int
    sides: int
    #: Places above the middle, equal totals sharing their places (see :func:`above_middle`).
    above: Fraction = Fraction(0)

    @property
    def won(self) -> bool:
        return self.place == 1


def _side_of(game: Any, seat: int) -> int:
    return next(i for i, seats in enumerate(game.family.sides(game.rules)) if seat in seats)


def played(game: Any, seat: int) -> Played:
    totals = list(game.state.totals)
    side = _side_of(game, seat)
    return Played(game, seat, side, totals[side], places(totals)[side], len(totals),
                  above_middle(totals)[side])


def _average(total: float, count: int, digits: int = 2) -> float | None:
    return round(total / count, digits) if count else None


def statistics(db: Database, pid: int, table: str | None = None) -> dict[str, Any]:
    """A person's figures over their finished games (or those at ``table``, its
    :func:`table_key`), per card game.

    Points of different card games never add up: ``families`` holds, for each family the
    person played (by key, in the registry's order), its ``name`` and its own figures
    (:func:`_figures`). Beside them only the person and counts of games.

    Read from the running totals the write that finished each game kept
    (:func:`.figures.keep`: a few dozen rows by primary key), the best, worst and latest
    games by index, and the few games that name the rulesets and kinds of deal shown:
    a page costs the same with ten stored games as with ten thousand (``bench/people.py``).
    """
    person = people_reads.person(db, pid)
    kept: dict[str, list[dict[str, Any]]] = {}
    for row in figure_reads.totals(db, pid, table):
        kept.setdefault(row["family"], []).append(row)
    open_ = figure_reads.unfinished_seats(db, pid, table)
    by_family: dict[str, dict[str, Any]] = {}
    rules: dict[str, Any] = {}
    done = 0
    for key, family in registry.families().items():
        if key in kept or key in open_:
            figures, named = _figures(db, pid, key, kept.get(key, []), open_.get(key, 0),
                                      table)
            by_family[key] = {"key": key, "name": str(family.title), **figures}
            rules.update(named)
            done += figures["games"]
    return {
        "id": person["id"], "name": person["name"],
        "games": done, "unfinished": sum(open_.values()),
        "families": by_family,
        "_rules": rules,  # for pages: the rules of each ruleset shown, to name it
    }


class _Namer:
    """Names kinds of deal, counts and rulesets in the family's own words (in the page's
    language), from the games where each was first played: a few games loaded."""

    def __init__(self, db: Database):
        self.db = db
        self.games: dict[str, Any] = {}
        self.seats: dict[tuple[str, int], dict[str, Any]] = {}

    def game(self, gid: str) -> Any:
        if gid not in self.games:
            self.games[gid] = service.load(self.db, gid)
        return self.games[gid]

    def stats(self, gid: str, seat: int) -> dict[str, Any]:
        if (gid, seat) not in self.seats:
            game = self.game(gid)
            self.seats[gid, seat] = game.family.seat_stats(game, seat)
        return self.seats[gid, seat]

    def name(self, part: str, key: str, gid: str, seat: int) -> Any:
        """The name of a kind of deal or a count first played in game ``gid``: as the
        family names it in any finished game of the same stored rules (one game replayed
        per ruleset and language, kept: the players' list names twenty people's with a
        few), else in that very game."""
        game = self.game(gid)
        kept_key = (game.stored.ruleset_text, i18n.lang())
        named = _NAMES.get(kept_key)
        if named is None or key not in named.get(part + "s", {}):
            named = self.stats(gid, seat)
            if key in named.get(part + "s", {}):
                _NAMES.put(kept_key, named)
        return named[part + "s"][key]


#: The words a family names kinds of deal and counts with, per stored ruleset text and
#: language (:meth:`_Namer.name`).
_NAMES = LRU(64)


def _first(row: dict[str, Any]) -> tuple[Any, ...]:
    """The order totals are listed in: where each was first played."""
    return (row["first_played"] or "", row["first_row"] or 0, row["first_position"] or 0)


def _figures(db: Database, pid: int, family: str, kept: list[dict[str, Any]],
             unfinished: int, only: str | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """One family's figures over a person's finished games, and the rules of the rulesets
    they were played by (by id), from its running totals (``kept``).

    ``kinds``: points per deal kind (key, name, deals, points, average per deal);
    ``counts``: what the game's family counts for a seat (hearts taken, K♥ caught,
    loteryjka won, …); ``best``/``worst``: the highest and lowest total; ``streaks``: wins
    in a row now and at most; ``by_ruleset``; ``form``: the last games' places.
    """
    parts: dict[str, list[dict[str, Any]]] = {}
    for row in sorted(kept, key=_first):
        parts.setdefault(row["part"], []).append(row)
    sums = (parts.get("game") or [{"games": 0, "wins": 0, "places": 0, "points": 0,
                                   "streak": 0, "longest": 0}])[0]
    namer = _Namer(db)
    kinds = []
    for k in parts.get("kind", []):
        name, _, _, (_, group_name) = namer.name("kind", k["key"], k["first_game"],
                                                 k["first_seat"])
        kinds.append({"key": k["key"], "name": name, "deals": k["deals"],
                      "points": k["points"], "group": k["grp"], "group_name": group_name,
                      "average": _average(k["points"], k["deals"], 1)})
    counts = [{"key": c["key"], "count": c["points"],
               "name": namer.name("count", c["key"], c["first_game"], c["first_seat"])[0]}
              for c in parts.get("count", [])]
    rulesets = parts.get("ruleset", [])
    by_ruleset = [{"ruleset": r["key"] or None, "games": r["games"], "wins": r["wins"],
                   "average_place": _average(r["places"], r["games"])} for r in rulesets]
    lines = figure_reads.figure_lines(db, pid, family, FORM_GAMES, only) if sums["games"] \
        else {"best": None, "worst": None, "recent": []}
    figures = {
        "games": sums["games"], "unfinished": unfinished,
        "wins": sums["wins"],
        "average_place": _average(sums["places"], sums["games"]),
        "points": sums["points"],
        "kinds": kinds,  # in the order the deals are played
        "counts": counts,
        "best": _game_line(lines["best"]),
        "worst": _game_line(lines["worst"]),
        "streaks": {"current": sums["streak"], "longest": sums["longest"]},
        "by_ruleset": by_ruleset,
        "form": [_game_line(line) for line in lines["recent"]],
    }
    return figures, {r["key"] or None: namer.game(r["first_game"]).rules for r in rulesets}


def _game_line(line: dict[str, Any] | None) -> dict[str, Any] | None:
    if line is None:
        return None
    return {k: line[k] for k in ("game", "date", "ruleset", "total", "place", "sides")}


#: Wins in a row (kept with the running totals; counted by :func:`.figures.streaks`).
_streaks = figures_streaks


def public(stats: dict[str, Any]) -> dict[str, Any]:
    """The figures without game ids (a game's id lets whoever has it play it)."""
    out = {k: v for k, v in stats.items() if not k.startswith("_")}
    out["families"] = {key: _without_ids(f) for key, f in stats["families"].items()}
    return out


def _without_ids(figures: dict[str, Any]) -> dict[str, Any]:
    out = dict(figures)
    for key in ("best", "worst"):
        if out[key]:
            out[key] = {k: v for k, v in out[key].items() if k != "game"}
    out["form"] = [{k: v for k, v in g.items() if k != "game"} for g in out["form"]]
    return out


# -- tables and evenings -----------------------------------------------------------

def table_key(people: Iterable[int]) -> str:
    """A table's name in addresses: its people's ids, sorted (``3-5-7-9``)."""
    return "-".join(str(p) for p in sorted(people))


@dataclass
class Evening:
    """Games one table played one after another."""

    id: str
    people: tuple[int, ...]
    games: list[str] = field(default_factory=list)
    seats: dict[str, list[int]] = field(default_factory=dict)  #: people by seat, per game
    started: str = ""
    last: str = ""
    #: More games followed in the same sitting than a page shows (:data:`EVENING_GAMES`).
    cut: bool = False
    #: The rematches among the games: game → the game of this evening it is the rematch of.
    rematches: dict[str, str] = field(default_factory=dict)


def _when(text: str) -> datetime | None:
    try:
        return datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return None


def _evenings_of(rows: Iterable[dict[str, Any]]) -> list[Evening]:
    """The evenings of games (:func:`.queries.seatings` rows, oldest first)."""
    open_: dict[tuple[int, ...], Evening] = {}
    found: list[Evening] = []
    for row in rows:
        if None in row["people"] or not row["people"]:
            continue
        table = tuple(sorted(row["people"]))
        current = open_.get(table)
        start, last = _when(row["created_at"]), _when(current.last) if current else None
        of = row.get("rematch_of")
        rematch = current is not None and of is not None and of in current.seats
        if not rematch and (current is None or start is None or last is None
                            or start - last > EVENING_GAP):
            current = Evening(game_writes.evening_id(row["id"]), table,
                              started=row["created_at"] or "")
            open_[table] = current
            found.append(current)
        if rematch:  # a rematch is of its game's evening, however long the pause
            current.rematches[row["id"]] = of
        current.games.append(row["id"])
        current.seats[row["id"]] = row["people"]
        current.last = max(current.last, row["played_at"] or "")  # a rename moves no evening
    return found


def evenings(db: Database) -> list[Evening]:
    """Every evening on this server, the latest first (reads every game: the pages ask
    :func:`latest_evenings`, :func:`evening` and :func:`evening_of` instead)."""
    return sorted(_evenings_of(people_reads.seatings(db)), key=lambda e: e.started, reverse=True)


#: Games read at a time while looking for the latest evenings.
_CHUNK = 64
#: The most games an evening page shows (the first of them): an evening is what a table
#: plays in one sitting, a few to a few dozen games; a longer one is cut there, so a page
#: never grows with the table's history.
EVENING_GAMES = 60
#: How far back, at most, the games before an evening's are read to tell where it starts
#: (and at most :data:`EVENING_GAMES` of them): the evening a game belongs to is worked out
#: from the games its table played in the week before it, by index. Only a game whose last
#: deal was recorded more than a week after the game was made (a correction long after)
#: could have moved an evening beyond that; it is not looked for.
EVENING_LOOKBACK = timedelta(days=7)


def _around(db: Database, place: game_reads.Place) -> list[Evening]:
    """The evenings of one table's games around one of them (``place``): the games of
    the week before it (at most :data:`EVENING_GAMES`) and up to :data:`EVENING_GAMES`
    from it on, read by index. The evening of that game is right (the earlier ones may
    be cut at the start); one it starts holds at most :data:`EVENING_GAMES` games."""
    gid, key, created, row = place
    start = _when(created)
    since = (start - EVENING_LOOKBACK).isoformat() if start else ""
    rows = game_reads.table_window(db, key or "", created, row, since, EVENING_GAMES,
                                EVENING_GAMES + 1)
    at = next((i for i, r in enumerate(rows) if r["id"] == gid), len(rows))
    extra = rows[-1]["id"] if len(rows) - at > EVENING_GAMES else None
    found = _evenings_of(rows)
    if extra is not None and found and extra in found[-1].games:
        last = found[-1]  # the extra game: read only to know whether the evening goes on
        last.games.remove(extra)
        last.seats.pop(extra, None)
        last.cut = bool(last.games)
        if not last.games:
            found.pop()
    return found


def latest_evenings(db: Database, n: int, club: str | None = None) -> list[Evening]:
    """The ``n`` latest evenings (of ``club``'s games; None: of every club's), the latest
    first, as :func:`evenings` lists them.

    Reads games from the latest started back, and the evening of each game met that is
    in none found yet (:func:`_around`: its table's games around it, by index); it stops
    once ``n`` evenings started no earlier than the game it is at: any evening that
    started later opens with a game already read."""
    found: dict[str, Evening] = {}
    seen: set[str] = set()
    offset = 0
    while True:
        rows = game_reads.latest_games(db, offset, _CHUNK, club)
        for place in rows:
            gid, key, created = place[0], place[1], place[2]
            if key is not None and gid not in seen:
                for e in _around(db, place):
                    if gid in e.games:
                        found[e.id] = e
                        seen.update(e.games)
            if sum(1 for e in found.values() if e.started >= (created or "")) >= n:
                rows = []
                break
        if len(rows) < _CHUNK:
            break
        offset += _CHUNK
    return sorted(found.values(), key=lambda e: e.started, reverse=True)[:n]


class EveningNotFound(LookupError):
    """No evening has this id."""


def evening(db: Database, eid: str) -> Evening:
    """The evening of this id: the evening its first game opens, among that game's
    table's evenings around it (:func:`_around`)."""
    place = game_reads.evening_game(db, eid) if isinstance(eid, str) else None
    if place is not None and place[1]:
        for e in _around(db, place):
            if e.id == eid:
                return e
    raise EveningNotFound(eid)


def evening_of(db: Database, gid: str) -> Evening:
    """The evening game ``gid`` was played in (``GameNotFound``, ``EveningNotFound``)."""
    place = game_reads.game_place(db, gid)
    for e in _around(db, place) if place[1] else []:
        if gid in e.games:
            return e
    raise EveningNotFound(gid)


def standings(db: Database, ev: Evening, language: str = "en") -> dict[str, Any]:
    """An evening's games and, per card game played (``families``, in the registry's
    order), each person's standing over its finished games: games won, points (their
    side's totals added up, within that card game only) and places; a tie in both by
    name, in the order of ``language``. Each family says whether it ``settles_per_point``.
    """
    games = []
    names = {pid: people_reads.person(db, pid)["name"] for pid in ev.people}
    tables: dict[str, dict[int, dict[str, Any]]] = {}
    for gid in ev.games:
        try:
            game = service.load(db, gid)
        except game_reads.GameNotFound:
            continue
        seats = ev.seats[gid]
        games.append(game)
        if not game.state.finished:
            continue
        rows = tables.setdefault(game.family.key, {
            pid: {"id": pid, "name": names[pid], "games": 0, "wins": 0, "points": 0,
                  "places": [], "above": []} for pid in ev.people})
        for seat, pid in enumerate(seats):
            p = played(game, seat)
            row = rows[pid]
            row["games"] += 1
            row["wins"] += p.won
            row["points"] += p.total
            row["places"].append((p.place, p.sides))
            row["above"].append(p.above)
    families = []
    for key, family in registry.families().items():
        if key not in tables:
            continue
        people = sorted((r for r in tables[key].values() if r["games"]),
                        key=lambda r: (-r["wins"], -r["points"],
                                       collation.key(r["name"], language)))
        for row in people:
            row["average_place"] = _average(sum(pl for pl, _ in row["places"]),
                                            len(row["places"]))
        families.append({"key": key, "name": str(family.title), "people": people,
                         "games": max(r["games"] for r in people),
                         "settles_per_point": family.settles_per_point})
    return {"games": games, "families": families,
            "people": [{"id": pid, "name": names[pid]} for pid in ev.people]}


# -- settling stakes ---------------------------------------------------------------

def owed(people: Sequence[dict[str, Any]], stake_cents: int, per: str) -> dict[int, int]:
    """What each person wins (+) or pays (−) in cents.

    ``per="point"``: their points above the table's average, times the stake (for rules
    that add up to zero the average is 0). ``per="place"``: for each game, how many
    places they finished above the middle place (``above``, from :func:`above_middle`:
    tied players share the places they cover, so every game adds up to zero and nobody
    outside a tie pays for it), times the stake. Rounded to cents so that the amounts
    add up to exactly zero.
    """
    if per == "place":
        raw = {r["id"]: sum(r["above"], Fraction(0)) for r in people}
    else:
        raw = {r["id"]: Fraction(r["points"]) for r in people}
    mean = sum(raw.values(), Fraction(0)) / len(raw) if raw else Fraction(0)
    exact = {pid: (v - mean) * stake_cents for pid, v in raw.items()}
    return _round_to_zero(exact)


def settle(families: Sequence[dict[str, Any]], stake_cents: int,
           per: str) -> tuple[dict[int, int], list[dict[str, Any]]]:
    """An evening's stakes, each card game on its own terms (:func:`owed` per family of
    :func:`standings`), the money then added up per person: ``(total, parts)``.

    ``per="place"`` settles every family by place. ``per="point"`` settles per point the
    families that ``settles_per_point``; the others (a pair's points are not each
    player's) are left out, with ``owed`` None in their part: settle them by place.
    """
    total: dict[int, int] = {}
    parts = []
    for fam in families:
        if per == "point" and not fam["settles_per_point"]:
            parts.append({"key": fam["key"], "name": fam["name"], "owed": None})
            continue
        amounts = owed(fam["people"], stake_cents, per)
        for pid, cents in amounts.items():
            total[pid] = total.get(pid, 0) + cents
        parts.append({"key": fam["key"], "name": fam["name"], "owed": amounts})
    return total, parts


def _round_to_zero(exact: dict[int, Fraction]) -> dict[int, int]:
    """Whole cents adding up to zero: each amount rounded down, the missing cents given
    to the largest remainders (ties to the lower id)."""
    floors = {pid: v.numerator // v.denominator for pid, v in exact.items()}
    missing = -sum(floors.values())
    order = sorted(exact, key=lambda pid: (-(exact[pid] - floors[pid]), pid))
    for pid in order[:missing]:
        floors[pid] += 1
    return floors


def transfers(amounts: dict[int, int]) -> list[tuple[int, int, int]]:
    """Who pays whom how much, ``(payer, payee, cents)``, in the fewest transfers.

    The fewest is the number of people with a balance less the largest number of groups
    among them whose balances add up to zero (each group settles by itself, one fewer
    transfer than its size); small tables are searched exhaustively.

    >>> transfers({1: 500, 2: 500, 3: -300, 4: -200, 5: -400, 6: -100})
    [(3, 1, 300), (4, 1, 200), (5, 2, 400), (6, 2, 100)]
    """
    if sum(amounts.values()) != 0:
        raise ValueError("balances must add up to zero")
    people = sorted(p for p, v in amounts.items() if v)
    out: list[tuple[int, int, int]] = []
    for group in _zero_groups(people, amounts):
        out += _settle_group({p: amounts[p] for p in group})
    return sorted(out)


def _zero_groups(people: list[int], amounts: dict[int, int]) -> list[list[int]]:
    """The people split into as many zero-sum groups as possible (a table is small)."""
    if len(people) > 12:  # no table is this large: one group, still correct
        return [people] if people else []
    best: dict[frozenset[int], list[list[int]]] = {frozenset(): []}

    def split(rest: frozenset[int]) -> list[list[int]]:
        if rest in best:
            return best[rest]
        first = min(rest)
        others = sorted(rest - {first})
        result: list[list[int]] = [sorted(rest)]
        for size in range(len(others)):
            for combo in combinations(others, size):
                group = frozenset((first, *combo))
                if group != rest and sum(amounts[p] for p in group) == 0:
                    candidate = [sorted(group), *split(rest - group)]
                    if len(candidate) > len(result):
                        result = candidate
        best[rest] = result
        return result

    return split(frozenset(people)) if people else []


def _settle_group(group: dict[int, int]) -> list[tuple[int, int, int]]:
    """One zero-sum group: the largest debt paid to the largest claim, in turn."""
    debts = [[-v, p] for p, v in group.items() if v < 0]  # [cents, person]
    claims = [[v, p] for p, v in group.items() if v > 0]
    out = []
    while debts and claims:
        debt, claim = (min(side, key=lambda x: (-x[0], x[1])) for side in (debts, claims))
        pay = min(debt[0], claim[0])
        out.append((debt[1], claim[1], pay))
        debt[0] -= pay
        claim[0] -= pay
        debts = [d for d in debts if d[0]]
        claims = [c for c in claims if c[0]]
    return out


def parse_stake(text: Any) -> int | None:
    """A stake typed as money (``0.05``, ``0,05``, ``2``) in cents; None if it is none.

    >>> parse_stake("0,05"), parse_stake("2"), parse_stake("1.5"), parse_stake("x")
    (5, 200, 150, None)
    >>> parse_stake("²"), parse_stake("0,٥")
    (None, None)
    """
    if not isinstance(text, str):
        return None
    t = text.strip().replace(",", ".")
    whole, _, frac = t.partition(".")
    if not (whole or frac) or not checks.digits(whole or "0") \
            or (frac and not checks.digits(frac)) \
            or len(frac) > 2 or len(whole) > 6:
        return None
    cents = int(whole or "0") * 100 + int((frac + "00")[:2])
    return cents or None


def rematch_seats(players: list[str], first_dealer: int) -> tuple[list[str], int]:
    """The next game of a table: the seats turned one place (the second player first) and
    the deal starting one player to the left of the last game's first dealer.

    >>> rematch_seats(["A", "B", "C", "D"], 0)
    (['B', 'C', 'D', 'A'], 0)
    """
    turned = players[1:] + players[:1]
    next_dealer = players[(first_dealer + 1) % len(players)]
    return turned, turned.index(next_dealer)


def rename(db: Database, pid: int, name: str, by: str = "host") -> list[str]:
    """Give person ``pid`` a new name everywhere (kept with the right ``by``); the games
    they played (each at a new version). ``people_writes.NameTaken`` if another has it."""
    try:
        games = people_writes.rename_person(db, pid, name, by)
    except game_writes.Frozen as e:  # they played a closed night: its names are final
        raise service.Frozen(None, e.tournament_id) from None
    bus.publish([PersonRenamed(pid, tuple(games))])
    return games


def undo_rename(db: Database, rename_id: int) -> int:
    """Take a rename back (the host's); the person's id."""
    try:
        pid = people_writes.undo_rename(db, rename_id)
    except game_writes.Frozen as e:
        raise service.Frozen(None, e.tournament_id) from None
    bus.publish([PersonRenamed(pid)])
    return pid
