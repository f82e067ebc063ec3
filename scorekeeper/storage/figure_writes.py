"""A finished game's figures (what the people's pages read) and the running totals
kept from them, written inside the write that finished, corrected or undid the game."""
from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from . import figure_reads
from .connection import Then, _packed
from .transaction import writes

#: The setting that says the figures' running totals must be made from every figure kept
#: (set by migration 0011; the domain's backfill at the app's start clears it).
TOTALS_WANTED = "figure_totals_wanted"


#: A finished game's figures as the domain makes them, plain rows: per seat ``(seat, side,
#: sides, total, place, won)``, and per seat and kind ``(seat, part, key, position, grp,
#: points, deals)``; the store adds what it knows (person, family, ruleset, table, when).
Figures = tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]


def put_figures(db: Database, gid: str, figures: Figures | None
                ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Inside a write: the game's figures replaced by ``figures`` (none: an unfinished or
    undone game has none); what is kept now, as :func:`.figure_reads.game_figures` reads
    it."""
    db.conn.execute("delete from figures where game_id = ?", [gid])
    if figures and figures[0]:
        rows, parts = figures
        by_seat: dict[int, list[list[Any]]] = {}
        for seat, *part in sorted(parts, key=lambda p: (p[0], p[1], p[3])):
            by_seat.setdefault(seat, []).append(part)
        db.conn.executemany(
            "insert into figures (game_id, seat, person_id, family, ruleset_id, table_key, "
            "played, game_row, side, sides, total, place, won, parts) select g.id, p.seat, "
            "p.person_id, g.family, g.ruleset_id, g.table_key, g.created_at, g.rowid, ?, ?, ?, "
            "?, ?, ? from games g join players p on p.game_id = g.id where g.id = ? and p.seat = ?",
            [(side, sides, total, place, won, _packed(by_seat.get(seat)), gid, seat)
             for seat, side, sides, total, place, won in rows])
    return figure_reads.game_figures(db, gid)


@writes
def write_figures(db: Database, gid: str, then: Then) -> None:
    """A write of its own for a game's figures (the domain's backfill of older databases)."""
    if then is not None:
        then(db, gid)


#: A running total as the domain hands it to :func:`add_totals`: ``(person_id,
#: table_key, family, part, key, games, wins, places, points, deals, grp, first_played,
#: first_row, first_position, first_game, first_seat)``; the counts are what to add
#: (a game taken out adds -1 game and minus its numbers).
Total = tuple[Any, ...]


_TOTAL_COLUMNS = ("person_id, table_key, family, part, key, games, wins, places, points, "
                  "deals, grp, first_played, first_row, first_position, first_game, "
                  "first_seat")

#: The totals kept as rows of their own; every other part's ride in the ``game`` row.
WHOLE_PARTS = ("game", "ruleset")

#: A person's ``game`` total of one family, everywhere or at one table.
_GAME_ROW = "person_id = ? and table_key = ? and family = ? and part = 'game' and key = ''"


def add_totals(db: Database, totals: list[Total]) -> None:
    """Inside a write: each running total moved by the numbers given (made if new); where
    the one added was played before the total's first game, it is the first now. A
    total left with no game goes."""
    whole = [t for t in totals if t[3] in WHOLE_PARTS]
    if whole:
        db.conn.executemany(
            f"insert into figure_totals ({_TOTAL_COLUMNS}) values "
            "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "on conflict (person_id, table_key, family, part, key) do update set "
            "games = games + excluded.games, wins = wins + excluded.wins, "
            "places = places + excluded.places, points = points + excluded.points, "
            "deals = deals + excluded.deals, grp = coalesce(excluded.grp, grp), "
            + ", ".join(f"{c} = case when excluded.games > 0 and first_played is null or "
                        "(excluded.games > 0 and (excluded.first_played, excluded.first_row, "
                        "excluded.first_position) < (first_played, first_row, "
                        f"first_position)) then excluded.{c} else {c} end"
                        for c in ("first_played", "first_row", "first_position",
                                  "first_game", "first_seat")), whole)
    if len(whole) < len(totals):
        _move_parts(db, [t for t in totals if t[3] not in WHOLE_PARTS])
    taken = sorted({tuple(t[:5]) for t in whole if t[5] < 0})
    if taken:
        db.conn.executemany("delete from figure_totals where person_id = ? and table_key = ? "
                            "and family = ? and part = ? and key = ? and games <= 0", taken)


def _move_parts(db: Database, totals: list[Total]) -> None:
    """The parts' totals moved inside their ``game`` totals, as :func:`add_totals` moves
    a row: numbers added, the group kept unless given, the first game replaced by an
    earlier one added, an entry left with no game gone."""
    kept = {owner: _parts(db, owner) for owner in sorted({tuple(t[:3]) for t in totals})}
    for (pid, scope, family, part, key, games, _wins, _places, points, deals, grp,
         *first) in totals:
        keyed = kept[(pid, scope, family)].setdefault(part, {})
        entry = keyed.get(key)
        if entry is None:
            keyed[key] = [games, points, deals, grp, *first]
            continue
        entry[:4] = [entry[0] + games, entry[1] + points, entry[2] + deals,
                     entry[3] if grp is None else grp]
        if games > 0 and (entry[4] is None or tuple(first[:3]) < tuple(entry[4:7])):
            entry[4:9] = first
    db.conn.executemany(
        f"update figure_totals set parts = ? where {_GAME_ROW}",
        [(_packed({p: left for p, keyed in parts.items()
                   if (left := {k: e for k, e in keyed.items() if e[0] > 0})}), *owner)
         for owner, parts in kept.items()])


def _parts(db: Database, owner: tuple[Any, ...]) -> dict[str, dict[str, list[Any]]]:
    row = db.conn.execute(f"select parts from figure_totals where {_GAME_ROW}",
                          list(owner)).fetchone()
    return figure_reads.unpack(row[0] if row else None)


def set_first(db: Database, person_id: int, table_key: str, family: str, part: str,
              key: str, first: tuple[Any, ...]) -> None:
    """Inside a write: where a total was first played (``(played, row, position, game,
    seat)``), once the game that was its first counts no more."""
    if part in WHOLE_PARTS:
        db.conn.execute("update figure_totals set first_played = ?, first_row = ?, "
                        "first_position = ?, first_game = ?, first_seat = ? where "
                        "person_id = ? and table_key = ? and family = ? and part = ? and "
                        "key = ?", [*first, person_id, table_key, family, part, key])
        return
    owner = [person_id, table_key, family]
    parts = _parts(db, tuple(owner))
    if key in parts.get(part, {}):
        parts[part][key][4:9] = first
        db.conn.execute(f"update figure_totals set parts = ? where {_GAME_ROW}",
                        [_packed(parts), *owner])


def set_runs(db: Database, person_id: int, table_key: str, family: str, streak: int,
             longest: int, last: tuple[Any, Any] | None) -> None:
    """Inside a write: a person's wins in a row (now and at most) in one family (at one
    table, or ``''``: everywhere), and the last game they count to (played, row)."""
    db.conn.execute("update figure_totals set streak = ?, longest = ?, last_played = ?, "
                    f"last_row = ? where {_GAME_ROW}",
                    [streak, longest, *(last or (None, None)), person_id, table_key, family])


def carry_runs(db: Database, games: list[tuple[int, str, str, int, str, int]]
               ) -> set[tuple[int, str, str]]:
    """Inside a write: each person's wins in a row carried on by one more game ``(person,
    table, family, won, played, row)``, where that game comes after the last they count;
    the totals it moved, as ``(person, table, family)``."""
    if not games:
        return set()
    given = " union all ".join(
        ["select ? as pid, ? as scope, ? as family, ? as won, ? as played, ? as game_row",
         *["select ?, ?, ?, ?, ?, ?"] * (len(games) - 1)])
    run = "case when g.won then t.streak + 1 else 0 end"
    return {(int(pid), scope, family) for pid, scope, family in db.conn.execute(
        f"update figure_totals as t set streak = {run}, longest = max(t.longest, {run}), "
        f"last_played = g.played, last_row = g.game_row from ({given}) as g "
        "where t.person_id = g.pid and t.table_key = g.scope and t.family = g.family and "
        "t.part = 'game' and t.key = '' and (t.last_played is null or "
        "(t.last_played, t.last_row) < (g.played, g.game_row)) "
        "returning person_id, table_key, family",
        [x for game in games for x in game]).fetchall()}


@writes
def replace_totals(db: Database, totals: list[tuple[Any, ...]]) -> None:
    """Every running total replaced by ``totals`` (``Total`` then streak, longest,
    last_played, last_row; the parts' totals as rows of their own, kept here inside their
    ``game`` total), and the setting that asked for it cleared."""
    parts: dict[tuple[Any, ...], dict[str, dict[str, list[Any]]]] = {}
    for pid, scope, family, part, key, games, _w, _p, points, deals, grp, *first in totals:
        if part not in WHOLE_PARTS:
            parts.setdefault((pid, scope, family), {}).setdefault(part, {})[key] = [
                games, points, deals, grp, *first[:5]]
    db.conn.execute("delete from figure_totals")
    db.conn.executemany(
        f"insert into figure_totals ({_TOTAL_COLUMNS}, streak, longest, last_played, "
        "last_row, parts) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
        "?, ?)", [(*t, _packed(parts.get(tuple(t[:3]))) if t[3] == "game" else None)
                  for t in totals if t[3] in WHOLE_PARTS])
    db.conn.execute("delete from settings where key = ?", [TOTALS_WANTED])
