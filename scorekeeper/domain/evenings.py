"""Evenings: the games a table (a set of people) played one after another, less than
:data:`EVENING_GAP` apart, worked out from the games; each person's standing in one, and
its stakes settled in the fewest transfers."""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from fractions import Fraction
from functools import cache
from itertools import combinations, count
from typing import Any

from sqlite_utils import Database

from ..common import collation
from ..families import registry
from ..rules import checks
from ..rules.places import above_middle, places
from ..storage import game_reads, game_writes, people_reads
from . import service

#: Games of one table closer together than this are one evening.
EVENING_GAP = timedelta(hours=6)
#: Games read at a time while looking for the latest evenings.
_CHUNK = 64
#: The most games an evening shows (the first of them); a longer sitting is cut there.
EVENING_GAMES = 60
#: How far back the games before an evening's are read to tell where it starts.
EVENING_LOOKBACK = timedelta(days=7)


@dataclass(frozen=True)
class Played:
    """How one seat's side finished one finished game."""

    total: int
    place: int
    #: Places above the middle, equal totals sharing their places.
    above: Fraction

    @property
    def won(self) -> bool:
        return self.place == 1


def played(game: Any, seat: int) -> Played:
    totals = list(game.state.totals)
    side = next(i for i, seats in enumerate(game.family.sides(game.rules)) if seat in seats)
    return Played(totals[side], places(totals)[side], above_middle(totals)[side])


def average(total: float, count: int, digits: int = 2) -> float | None:
    return round(total / count, digits) if count else None


def table_key(people: Iterable[int]) -> str:
    """A table's name in addresses: its people's ids, sorted (``3-5-7-9``)."""
    return "-".join(str(p) for p in sorted(people))


@dataclass
class Evening:
    id: str
    people: tuple[int, ...]
    games: list[str] = field(default_factory=list)
    seats: dict[str, list[int]] = field(default_factory=dict)  #: people by seat, per game
    started: str = ""
    last: str = ""
    #: More games followed in the same sitting than :data:`EVENING_GAMES`.
    cut: bool = False
    #: game → the game of this evening it is the rematch of.
    rematches: dict[str, str] = field(default_factory=dict)


class EveningNotFound(LookupError):
    """No evening has this id."""


def _when(text: str) -> datetime | None:
    try:
        return datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return None


def _evenings_of(rows: Iterable[dict[str, Any]]) -> list[Evening]:
    """The evenings of seating rows, oldest first."""
    open_: dict[tuple[int, ...], Evening] = {}
    found: list[Evening] = []
    for row in rows:
        if None in row["people"] or not row["people"]:
            continue
        table = tuple(sorted(row["people"]))
        current = open_.get(table)
        start, last = _when(row["created_at"]), _when(current.last) if current else None
        of = row.get("rematch_of")  # a game's id, or None
        rematch = current is not None and of in current.seats
        if not rematch and (start is None or last is None or start - last > EVENING_GAP):
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
    """Every evening on this server, the latest first (reads every game)."""
    return sorted(_evenings_of(people_reads.seatings(db)), key=lambda e: e.started, reverse=True)


def _around(db: Database, place: game_reads.Place) -> list[Evening]:
    """The evenings of one table's games around one of them: the week's games before it
    and up to :data:`EVENING_GAMES` from it on, by index."""
    gid, key, created, row = place
    start = _when(created)
    since = (start - EVENING_LOOKBACK).isoformat() if start else ""
    rows = game_reads.table_window(db, key or "", created, row, since, EVENING_GAMES,
                                   EVENING_GAMES + 1)
    at = next((i for i, r in enumerate(rows) if r["id"] == gid), len(rows))
    extra = rows[-1]["id"] if len(rows) - at > EVENING_GAMES else None
    found = _evenings_of(rows)
    if extra is not None and found and extra in found[-1].games:
        last = found[-1]  # the extra game tells only whether the evening goes on
        last.games.remove(extra)
        last.seats.pop(extra, None)
        last.cut = bool(last.games)
        if not last.games:
            found.pop()
    return found


def _latest_places(db: Database, club: str | None) -> Iterator[game_reads.Place]:
    for offset in count(0, _CHUNK):
        rows = game_reads.latest_games(db, offset, _CHUNK, club)
        yield from rows
        if len(rows) < _CHUNK:
            return


def latest_evenings(db: Database, n: int, club: str | None = None) -> list[Evening]:
    """The ``n`` latest evenings (of ``club``'s games; None: every club's), the latest
    first: games are read from the latest back until ``n`` evenings started no earlier
    than the game reached."""
    found: dict[str, Evening] = {}
    seen: set[str] = set()
    for place in _latest_places(db, club):
        gid, key, created = place[:3]
        if key is not None and gid not in seen:
            for e in _around(db, place):
                if gid in e.games:
                    found[e.id] = e
                    seen.update(e.games)
        if sum(1 for e in found.values() if e.started >= (created or "")) >= n:
            break
    return sorted(found.values(), key=lambda e: e.started, reverse=True)[:n]


def evening(db: Database, eid: str) -> Evening:
    """The evening of this id, the one its first game opens."""
    place = game_reads.evening_game(db, eid) if isinstance(eid, str) else None
    for e in _around(db, place) if place is not None and place[1] else []:
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
    """An evening's games and, per card game played, each person's standing over its
    finished games: wins, points, places; ties by name in ``language``'s order."""
    games = []
    names = {pid: people_reads.person(db, pid)["name"] for pid in ev.people}
    tables: dict[str, dict[int, dict[str, Any]]] = {}
    for gid in ev.games:
        try:
            game = service.load(db, gid)
        except game_reads.GameNotFound:
            continue
        games.append(game)
        if not game.state.finished:
            continue
        rows = tables.setdefault(game.family.key, {
            pid: {"id": pid, "name": names[pid], "games": 0, "wins": 0, "points": 0,
                  "places": 0, "above": []} for pid in ev.people})
        for seat, pid in enumerate(ev.seats[gid]):
            p, row = played(game, seat), rows[pid]
            row["games"], row["wins"] = row["games"] + 1, row["wins"] + p.won
            row["points"] += p.total
            row["places"] += p.place
            row["above"].append(p.above)
    families = []
    for key, family in registry.families().items():
        if key not in tables:
            continue
        people = sorted((r for r in tables[key].values() if r["games"]),
                        key=lambda r: (-r["wins"], -r["points"],
                                       collation.key(r["name"], language)))
        for row in people:
            row["average_place"] = average(row["places"], row["games"])
        families.append({"key": key, "name": str(family.title), "people": people,
                         "settles_per_point": family.settles_per_point})
    return {"games": games, "families": families,
            "people": [{"id": pid, "name": names[pid]} for pid in ev.people]}


def owed(people: Sequence[dict[str, Any]], stake_cents: int, per: str) -> dict[int, int]:
    """What each person wins (+) or pays (−) in cents, adding up to exactly zero.

    ``per="point"``: their points above the table's average, times the stake.
    ``per="place"``: for each game, the places they finished above the middle place
    (``above``: tied players share the places they cover), times the stake.
    """
    raw = {r["id"]: sum(r["above"], Fraction(0)) if per == "place" else Fraction(r["points"])
           for r in people}
    mean = sum(raw.values(), Fraction(0)) / (len(raw) or 1)
    exact = {pid: (v - mean) * stake_cents for pid, v in raw.items()}
    # whole cents: each rounded down, the missing cents to the largest remainders
    floors = {pid: v.numerator // v.denominator for pid, v in exact.items()}
    missing = -sum(floors.values())
    for pid in sorted(exact, key=lambda pid: (-(exact[pid] - floors[pid]), pid))[:missing]:
        floors[pid] += 1
    return floors


def settle(families: Sequence[dict[str, Any]], stake_cents: int,
           per: str) -> tuple[dict[int, int], list[dict[str, Any]]]:
    """An evening's stakes, each card game on its own terms, added up per person:
    ``(total, parts)``. Per point, a family that does not ``settles_per_point`` is left
    out, its ``owed`` None."""
    total: Counter[int] = Counter()
    parts = []
    for fam in families:
        amounts = None if per == "point" and not fam["settles_per_point"] \
            else owed(fam["people"], stake_cents, per)
        total.update(amounts or {})
        parts.append({"key": fam["key"], "name": fam["name"], "owed": amounts})
    return dict(total), parts


def transfers(amounts: dict[int, int]) -> list[tuple[int, int, int]]:
    """Who pays whom how much, ``(payer, payee, cents)``, in the fewest transfers: as
    many groups whose balances add up to zero as there can be, each settled by itself.

    >>> transfers({1: 500, 2: 500, 3: -300, 4: -200, 5: -400, 6: -100})
    [(3, 1, 300), (4, 1, 200), (5, 2, 400), (6, 2, 100)]
    """
    if sum(amounts.values()) != 0:
        raise ValueError("balances must add up to zero")
    out: list[tuple[int, int, int]] = []
    for group in _zero_groups(sorted(p for p, v in amounts.items() if v), amounts):
        out += _settle_group({p: amounts[p] for p in group})
    return sorted(out)


def _zero_groups(people: list[int], amounts: dict[int, int]) -> list[list[int]]:
    """The people split into as many zero-sum groups as possible (searched whole)."""
    @cache
    def split(rest: frozenset[int]) -> list[list[int]]:
        if not rest:
            return []
        first = min(rest)
        others = sorted(rest - {first})
        result: list[list[int]] = [sorted(rest)]
        for size in range(len(others)):  # a group smaller than the rest, with its first
            for combo in combinations(others, size):
                group = frozenset((first, *combo))
                if sum(amounts[p] for p in group) == 0:
                    candidate = [sorted(group), *split(rest - group)]
                    if len(candidate) > len(result):
                        result = candidate
        return result

    return split(frozenset(people))


def _settle_group(group: dict[int, int]) -> list[tuple[int, int, int]]:
    """One zero-sum group: the largest debt paid to the largest claim, in turn."""
    left = dict(group)  # the person's balance still to settle
    out = []
    while any(v < 0 for v in left.values()) and any(v > 0 for v in left.values()):
        payer = min((p for p, v in left.items() if v < 0), key=lambda p: (left[p], p))
        payee = min((p for p, v in left.items() if v > 0), key=lambda p: (-left[p], p))
        pay = min(-left[payer], left[payee])
        out.append((payer, payee, pay))
        left[payer] += pay
        left[payee] -= pay
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
    whole, _, frac = text.strip().replace(",", ".").partition(".")
    if not (whole or frac) or not checks.digits(whole or "0") \
            or (frac and not checks.digits(frac)) or len(frac) > 2 or len(whole) > 6:
        return None
    return int(whole or "0") * 100 + int((frac + "00")[:2]) or None
