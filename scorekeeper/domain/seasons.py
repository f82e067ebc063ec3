"""A club's season: a name and a date range of the club, its nights the club's
tournaments begun within it, added up by :mod:`..rules.season` (by the nights' points or
places, every night or the best N); each player's history across the nights, two players
head to head, and their ratings. A club that named no season has the calendar year's.
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from datetime import date
from fractions import Fraction
from typing import Any

from sqlite_utils import Database

from ..rules import ratings
from ..rules import season as rules
from ..rules.errors import N_, InvalidInput, Problem
from ..rules.standings import Seat
from ..storage import connection, figure_reads, people_reads, rating_reads, rating_writes

SCORINGS = rules.SCORINGS
NAME_MAX = 60
MAX_BEST = 100


class Season(rating_reads.StoredSeason):
    """A season of the club (``id`` None: the calendar year of a club that named none)."""

    def json(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if k != "club_id"}


@dataclass(frozen=True)
class Night:
    id: str
    name: str
    day: str
    lines: list[rules.NightLine]


@dataclass(frozen=True)
class Line(rules.SeasonLine):
    """A player's line of the season table, with their rating now."""

    name: str = "?"
    rating: float | None = None
    mu: float | None = None
    sigma: float | None = None
    #: The player's rated games (every club game that counts, not this season's alone).
    rated: int = 0

    @property
    def shown(self) -> int | None:
        """The rating as a page shows it (:func:`..rules.ratings.shown`)."""
        return None if self.mu is None else ratings.shown(self.mu)

    @property
    def provisional(self) -> bool:
        return ratings.provisional(self.rated)

    def json(self) -> dict[str, Any]:
        return {"player": self.name, "person_id": self.player,
                "points": _number(self.points), "nights": self.nights, "games": self.games,
                "wins": self.wins, "counted": self.counted, "rank": self.rank,
                "rating": _round(self.rating), "mu": _round(self.mu),
                "sigma": _round(self.sigma), "shown": self.shown, "rated_games": self.rated,
                "provisional": self.provisional}


def _number(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else float(x)


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 3)


def _of(stored: rating_reads.StoredSeason) -> Season:
    return Season(**asdict(stored))


def current(db: Database, club: str) -> Season:
    """The club's season today falls in (else the last one before it, else the calendar
    year)."""
    today = date.today()
    found = rating_reads.season_on(db, club, today.isoformat())
    year = today.year
    return _of(found) if found else Season(None, club, str(year), f"{year}-01-01",
                                           f"{year}-12-31", "points", None)


def find(db: Database, club: str, sid: str | None) -> Season:
    """Season ``sid`` of the club (``SeasonNotFound``), or the current one."""
    if not sid:
        return current(db, club)
    found = rating_reads.season(db, club, sid)
    if found is None:
        raise rating_writes.SeasonNotFound(sid)
    return _of(found)


def all_of(db: Database, club: str) -> list[Season]:
    return [_of(s) for s in rating_reads.seasons(db, club)]


_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _day(value: Any) -> str | None:
    text = value.strip() if isinstance(value, str) else ""
    try:
        return date.fromisoformat(text).isoformat() if _DAY.fullmatch(text) else None
    except ValueError:  # a month or day that no calendar has
        return None


def define(db: Database, club: str, name: Any, starts: Any, ends: Any, scoring: Any,
           best: Any = None, sid: str | None = None) -> Season:
    """The manager names a season (or changes season ``sid``): its name, first and last
    day, how it adds up and how many best nights count (none or empty: all)."""
    problems: list[Problem] = []
    text = name.strip() if isinstance(name, str) else ""
    if not 0 < len(text) <= NAME_MAX:
        problems.append(Problem("name", N_("Name the season (up to 60 characters).")))
    days = {field: _day(value) for field, value in (("starts", starts), ("ends", ends))}
    problems += [Problem(field, N_("Give a date as YYYY-MM-DD.")) for field, day in days.items()
                 if day is None]
    if None not in days.values() and days["ends"] < days["starts"]:  # type: ignore[operator]
        problems.append(Problem("ends", N_("A season ends on or after the day it starts.")))
    if scoring not in SCORINGS:
        problems.append(Problem("scoring", N_("Add up points or places.")))
    kept: int | None = None
    if best not in (None, ""):
        try:
            kept = int(best)
            if not 1 <= kept <= MAX_BEST:
                raise ValueError
        except (TypeError, ValueError):
            problems.append(Problem("best", N_("Count the best 1 to 100 nights, or leave it "
                                               "empty to count them all.")))
    if problems:
        raise InvalidInput(problems)
    if sid is not None and rating_reads.season(db, club, sid) is None:
        raise rating_writes.SeasonNotFound(sid)
    sid = sid or connection.new_id()
    rating_writes.put_season(db, sid, club, text, days["starts"], days["ends"], scoring, kept)
    return find(db, club, sid)


def nights(db: Database, season: Season, person: int | None = None) -> list[Night]:
    """The season's nights, oldest first, each with its lines (its own standings: its
    director's points or places); with ``person``, only those they played."""
    by_night: dict[str, tuple[str, str, str, dict[str, list[Seat]]]] = {}
    for f in rating_reads.season_figures(db, season.club_id, season.starts, season.ends, person):
        night = by_night.setdefault(f.tournament_id, (f.name, f.created_at, f.scoring, {}))
        night[3].setdefault(f.game_id, []).append(Seat(f.person_id, f.total))
    return [Night(tid, name, created[:10], rules.night(games.values(), scoring))
            for tid, (name, created, scoring, games) in by_night.items()]


def table(db: Database, season: Season) -> list[Line]:
    """The season table, best first, with each player's rating now."""
    rows = rules.season([n.lines for n in nights(db, season)], season.scoring, season.best)
    ids = [r.player for r in rows]
    names = people_reads.names(db, ids)
    rated = rating_reads.rating_rows(db, ids)
    out = []
    for r in rows:
        mu, sigma, conservative, games = rated.get(r.player, (None, None, None, 0))
        out.append(Line(**vars(r), name=names.get(r.player, "?"), rating=conservative, mu=mu,
                        sigma=sigma, rated=games))
    return out


@dataclass(frozen=True)
class HistoryLine:
    night: str
    name: str
    day: str
    points: Fraction
    place: Fraction
    field: int
    games: int
    wins: int
    scored: Fraction


def _member(db: Database, season: Season, pid: int) -> str:
    """The name of a person of the season's club (``PersonNotFound``)."""
    name = people_reads.person_in_club(db, pid, season.club_id)
    if name is None:
        raise people_reads.PersonNotFound(pid)
    return name


def history(db: Database, season: Season, pid: int) -> tuple[str, list[HistoryLine],
                                                              tuple[Any, ...] | None]:
    """A player's season night by night (their name, their lines oldest first, their
    rating now: mu, sigma, conservative, games); ``PersonNotFound`` if not the club's."""
    name = _member(db, season, pid)
    out = []
    for n in nights(db, season, pid):
        line = next((x for x in n.lines if x.player == pid), None)
        if line is not None:
            out.append(HistoryLine(n.id, n.name, n.day, line.points, line.place,
                                   line.field, line.games, line.wins,
                                   line.scored(season.scoring)))
    return name, out, rating_reads.rating_rows(db, [pid]).get(pid)


@dataclass(frozen=True)
class HeadToHead:
    a: str
    b: str
    games: int
    a_above: int
    b_above: int
    level: int
    a_points: int
    b_points: int


def head_to_head(db: Database, season: Season, a: int, b: int) -> HeadToHead:
    """Two players of the club over the season's nights: the games they sat at together,
    how often each finished above the other, and their points in those games."""
    names = [_member(db, season, pid) for pid in (a, b)]
    games = figure_reads.games_together(db, a, b, season.club_id, season.starts, season.ends)
    return HeadToHead(*names, len(games), sum(g[3] < g[5] for g in games),
                      sum(g[5] < g[3] for g in games), sum(g[3] == g[5] for g in games),
                      sum(g[2] for g in games), sum(g[4] for g in games))


def people(db: Database, season: Season) -> list[tuple[int, str]]:
    """Who played in the season (for choosing two to compare), by the table's order."""
    return [(line.player, line.name) for line in table(db, season)]
