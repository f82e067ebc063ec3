"""A finished game's figures (what the people's pages sum), made by :func:`rows` from the
state the service holds, and the running totals kept from them (:func:`keep`)."""
from __future__ import annotations

from typing import Any

from ..rules.places import places
from ..storage import figure_reads, figure_writes


def rows(game: Any) -> figure_writes.Figures | None:
    """The figures of ``game``: a row per seat and the family's numbers per seat, or None
    while it is unfinished."""
    if not game.state.finished:
        return None
    family = game.family
    totals = list(game.state.totals)
    placed = places(totals)
    figures: list[tuple[Any, ...]] = []
    parts: list[tuple[Any, ...]] = []
    for side, seats in enumerate(family.sides(game.rules)):
        for seat in seats:
            figures.append((seat, side, len(totals), totals[side], placed[side],
                            int(placed[side] == 1)))
            numbers = family.seat_numbers(game, seat)
            for position, (key, (points, deals, group)) in enumerate(
                    numbers.get("kinds", {}).items()):
                parts.append((seat, "kind", key, position, group, points, deals))
            for position, (key, n) in enumerate(numbers.get("counts", {}).items()):
                parts.append((seat, "count", key, position, None, n, None))
    return figures, parts


#: Every game of a person's (the other scope a total is kept for: one table's games).
EVERYWHERE = ""


def _scopes(table: str | None) -> tuple[str, ...]:
    return (EVERYWHERE, table) if table else (EVERYWHERE,)


def _totals(seats: list[dict[str, Any]], parts: list[dict[str, Any]], gid: str,
            sign: int) -> list[figure_writes.Total]:
    """What one game's figures add to the running totals (``sign`` 1) or take off (-1)."""
    out: list[figure_writes.Total] = []
    for f in seats:
        first = (f["played"], f["game_row"], 0, gid, f["seat"])
        for scope in _scopes(f["table_key"]):
            for part, key in (("game", ""), ("ruleset", f["ruleset_id"] or "")):
                out.append((f["person_id"], scope, f["family"], part, key, sign,
                            sign * f["won"], sign * f["place"], sign * f["total"], 0, None,
                            *first))
    for p in parts:
        first = (p["played"], p["game_row"], p["position"], gid, p["seat"])
        for scope in _scopes(p["table_key"]):
            out.append((p["person_id"], scope, p["family"], p["part"], p["key"], sign, 0, 0,
                        sign * p["points"], sign * (p["deals"] or 0), p["grp"], *first))
    return out


def streaks(wins: Any) -> dict[str, int]:
    """Wins in a row: the run the player is on now, and the longest.

    >>> streaks([True, True, False, True, True, True, False, True])
    {'current': 1, 'longest': 3}
    """
    longest = run = 0
    for won in wins:
        run = run + 1 if won else 0
        longest = max(longest, run)
    return {"current": run, "longest": longest}


def keep(db: Any, gid: str, made: figure_writes.Figures | None) -> None:
    """Inside a write: game ``gid``'s figures replaced by ``made`` (None: it counts no
    more), and every running total moved by the difference. Wins in a row are carried on
    from the games next to the one added, and counted again only when that cannot say."""
    old = figure_reads.game_figures(db, gid)
    new = figure_writes.put_figures(db, gid, made)
    if not old[0] and not new[0]:
        return
    taken, added = _totals(*old, gid, -1), _totals(*new, gid, 1)
    figure_writes.add_totals(db, taken + added)
    gone = {t[:5] for t in taken} - {t[:5] for t in added}
    for pid, scope, family, part, key in sorted(gone):
        first = figure_reads.first_figure(db, pid, scope, family, part, key)
        if first is not None:
            figure_writes.set_first(db, pid, scope, family, part, key, first)
    was = {(f["person_id"], s, f["family"]): f for f in old[0] for s in _scopes(f["table_key"])}
    now = {(f["person_id"], s, f["family"]): f for f in new[0] for s in _scopes(f["table_key"])}
    carried = figure_writes.carry_runs(db, [
        (*key, after["won"], after["played"], after["game_row"])
        for key, after in sorted(now.items()) if key not in was])
    for key in sorted(set(was) | set(now)):
        before, after = was.get(key), now.get(key)
        if key in carried or (before and after and before["won"] == after["won"]):
            continue  # carried on, or a correction that leaves the win as it was: the runs too
        pid, scope, family = key
        # a game finished before another they finished already
        moved = _runs_with(db, pid, scope, family, after) if after and not before else None
        if moved is None:
            runs = streaks(figure_reads.figure_wins(db, pid, family, scope))
            moved = (runs["current"], runs["longest"],
                     figure_reads.last_figure(db, pid, scope, family))
        figure_writes.set_runs(db, pid, scope, family, *moved)


def _runs_with(db: Any, pid: int, scope: str, family: str, game: dict[str, Any]
               ) -> tuple[int, int, tuple[Any, Any]] | None:
    """A person's wins in a row (now, at most, the last game they count) once ``game`` is
    added before their last game, from the games won next to it; None when a loss splits
    a run as long as their longest."""
    kept = figure_reads.runs(db, pid, scope, family)
    if kept is None or kept[2] is None:
        return None
    current, longest, last = kept[0], kept[1], (kept[2], kept[3])
    before, after, to_end = figure_reads.wins_beside(db, pid, family, scope,
                                                     (game["played"], game["game_row"]))
    if game["won"]:
        longest = max(longest, before + 1 + after)
        return (before + 1 + after if to_end else current), longest, last
    if before + after and before + after >= longest:
        return None  # it split a run as long as their longest: another may be as long
    return (after if to_end else current), longest, last


def recomputed(db: Any) -> list[tuple[Any, ...]]:
    """Every running total made afresh from every figure kept, in key order (the columns
    of ``figure_reads.all_totals``)."""
    seats, parts = figure_reads.all_figures(db)
    totals: dict[tuple[Any, ...], list[Any]] = {}
    wins: dict[tuple[Any, ...], list[Any]] = {}

    def add(key: tuple[Any, ...], games: int, won: int, place: int, points: int, deals: int,
            grp: Any, first: tuple[Any, ...]) -> None:
        row = totals.setdefault(key, [0, 0, 0, 0, 0, grp, *first])
        row[:5] = [a + b for a, b in zip(row[:5], (games, won, place, points, deals), strict=True)]
        row[5] = grp if grp is not None else row[5]
        if first < tuple(row[6:11]):
            row[6:11] = first

    for gid, seat, pid, family, ruleset, table, played, game_row, total, place, won in seats:
        for scope in _scopes(table):
            for part, key in (("game", ""), ("ruleset", ruleset or "")):
                add((pid, scope, family, part, key), 1, won, place, total, 0, None,
                    (played, game_row, 0, gid, seat))
            wins.setdefault((pid, scope, family), []).append((won, (played, game_row)))
    for gid, seat, pid, family, table, played, game_row, part, key, position, grp, points, \
            deals in parts:
        for scope in _scopes(table):
            add((pid, scope, family, part, key), 1, 0, 0, points, deals or 0, grp,
                (played, game_row, position, gid, seat))
    out = []
    for key in sorted(totals):
        runs, last = {"current": 0, "longest": 0}, (None, None)
        if key[3] == "game":
            games = wins[key[:3]]  # already in the order played
            runs = streaks(w for w, _ in games)
            last = games[-1][1]
        out.append((*key, *totals[key], runs["current"], runs["longest"], *last))
    return out


def rebuild(db: Any) -> None:
    """Every running total made afresh from the figures kept, in one write."""
    figure_writes.replace_totals(db, recomputed(db))
