"""People across games: everyone who sat at a game under one name
(:func:`..rules.checks.person_key` says when two names are one), their figures over
their finished games, renames, and the evenings and stakes of :mod:`.evenings`."""
from __future__ import annotations

from functools import cache
from typing import Any

from sqlite_utils import Database

from ..families import registry
from ..storage import figure_reads, game_writes, people_reads, people_writes
from . import bus, service
from .evenings import (
    Evening,
    EveningNotFound,
    average,
    evening,
    evening_of,
    latest_evenings,
    parse_stake,
    settle,
    standings,
    table_key,
    transfers,
)
from .events import PersonRenamed

__all__ = ["Evening", "EveningNotFound", "evening", "evening_of", "latest_evenings",
           "parse_stake", "settle", "standings", "table_key", "transfers"]

#: How many recent games a player's form shows.
FORM_GAMES = 10


def statistics(db: Database, pid: int, table: str | None = None) -> dict[str, Any]:
    """A person's figures over their finished games (or those at ``table``), per card
    game in ``families`` (points of different card games never add up), read from the
    running totals kept as each game finished."""
    person = people_reads.person(db, pid)
    kept: dict[str, list[dict[str, Any]]] = {}
    for row in figure_reads.totals(db, pid, table):
        kept.setdefault(row["family"], []).append(row)
    open_ = figure_reads.unfinished_seats(db, pid, table)
    load = cache(lambda gid: service.load(db, gid))
    by_family: dict[str, dict[str, Any]] = {}
    rules: dict[str, Any] = {}
    for key, family in registry.families().items():
        if key in kept or key in open_:
            figures = _figures(db, pid, key, kept.get(key, []), open_.get(key, 0), table, load)
            by_family[key] = {"key": key, "name": str(family.title), **figures}
            rules.update({r["key"] or None: load(r["first_game"]).rules
                          for r in kept.get(key, []) if r["part"] == "ruleset"})
    return {
        "id": person["id"], "name": person["name"],
        "games": sum(f["games"] for f in by_family.values()), "unfinished": sum(open_.values()),
        "families": by_family,
        "_rules": rules,  # for pages: the rules of each ruleset shown, to name it
    }


def _figures(db: Database, pid: int, family: str, kept: list[dict[str, Any]],
             unfinished: int, only: str | None, load: Any) -> dict[str, Any]:
    """One family's figures from its running totals (``kept``): points per deal kind,
    the family's counts, best and worst totals, wins in a row, by ruleset, recent form.
    Kinds and counts are named as the family names them in the game first played."""
    parts: dict[str, list[dict[str, Any]]] = {}
    for row in sorted(kept, key=lambda r: (r["first_played"] or "", r["first_row"] or 0,
                                           r["first_position"] or 0)):  # as first played
        parts.setdefault(row["part"], []).append(row)
    sums = (parts.get("game") or [{"games": 0, "wins": 0, "places": 0, "points": 0,
                                   "streak": 0, "longest": 0}])[0]

    @cache
    def named(gid: str, seat: int) -> dict[str, Any]:
        return load(gid).family.seat_stats(load(gid), seat)

    kinds = []
    for k in parts.get("kind", []):
        name, _, _, (_, group_name) = named(k["first_game"], k["first_seat"])["kinds"][k["key"]]
        kinds.append({"key": k["key"], "name": name, "deals": k["deals"],
                      "points": k["points"], "group": k["grp"], "group_name": group_name,
                      "average": average(k["points"], k["deals"], 1)})
    counts = [{"key": c["key"], "count": c["points"],
               "name": named(c["first_game"], c["first_seat"])["counts"][c["key"]][0]}
              for c in parts.get("count", [])]
    by_ruleset = [{"ruleset": r["key"] or None, "games": r["games"], "wins": r["wins"],
                   "average_place": average(r["places"], r["games"])}
                  for r in parts.get("ruleset", [])]
    lines = figure_reads.figure_lines(db, pid, family, FORM_GAMES, only) if sums["games"] \
        else {"best": None, "worst": None, "recent": []}
    return {
        "games": sums["games"], "unfinished": unfinished, "wins": sums["wins"],
        "average_place": average(sums["places"], sums["games"]), "points": sums["points"],
        "kinds": kinds,  # in the order the deals are played
        "counts": counts, "best": _game_line(lines["best"]), "worst": _game_line(lines["worst"]),
        "streaks": {"current": sums["streak"], "longest": sums["longest"]},
        "by_ruleset": by_ruleset, "form": [_game_line(line) for line in lines["recent"]],
    }


def _game_line(line: dict[str, Any] | None) -> dict[str, Any] | None:
    return line and {k: line[k] for k in ("game", "date", "ruleset", "total", "place", "sides")}


def public(stats: dict[str, Any]) -> dict[str, Any]:
    """The figures without game ids (a game's id lets whoever has it play it)."""
    def without(line: dict[str, Any] | None) -> dict[str, Any] | None:
        return line and {k: v for k, v in line.items() if k != "game"}

    out = {k: v for k, v in stats.items() if not k.startswith("_")}
    out["families"] = {key: {**f, "best": without(f["best"]), "worst": without(f["worst"]),
                             "form": [without(g) for g in f["form"]]}
                       for key, f in stats["families"].items()}
    return out


def rematch_seats(players: list[str], first_dealer: int) -> tuple[list[str], int]:
    """The next game of a table: the seats turned one place and the deal starting one
    player to the left of the last game's first dealer.

    >>> rematch_seats(["A", "B", "C", "D"], 0)
    (['B', 'C', 'D', 'A'], 0)
    """
    turned = players[1:] + players[:1]
    return turned, turned.index(players[(first_dealer + 1) % len(players)])


def _renamed(write: Any, *args: Any) -> Any:
    """A rename's write, refused as :class:`service.Frozen` when the person played a
    closed night (its names are final)."""
    try:
        return write(*args)
    except game_writes.Frozen:
        raise service.Frozen() from None


def rename(db: Database, pid: int, name: str, by: str = "host") -> None:
    """Give person ``pid`` a new name everywhere (kept with the right ``by``); ``NameTaken``
    if another has it."""
    games = _renamed(people_writes.rename_person, db, pid, name, by)
    bus.publish([PersonRenamed(pid, tuple(games))])


def undo_rename(db: Database, rename_id: int) -> int:
    """Take a rename back (the host's); the person's id."""
    pid = _renamed(people_writes.undo_rename, db, rename_id)
    bus.publish([PersonRenamed(pid)])
    return pid
