"""The figures of finished games and the running totals made of them: what the people's
pages read."""
from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from sqlite_utils import Database


def _only(table: str | None, alias: str = "f") -> tuple[str, list[Any]]:
    """The filter to the games of one table (its key, ``3-5-7-9``; all games when None or
    ``""``, the key the running totals of every game are kept under)."""
    return (f" and {alias}.table_key = ?", [table]) if table else ("", [])


#: The order games were played in, oldest first.
_ORDER = "f.played, f.game_row"


def unfinished_seats(db: Database, pid: int, only: str | None = None) -> dict[str, int]:
    """How many unfinished games a person sits at, per family."""
    where, params = _only(only, "g")
    return dict(db.conn.execute(f"""
        select g.family, count(*) from games g indexed by idx_games_finished
        where g.finished = 0 and exists (select 1 from players p where p.game_id = g.id
                                         and p.person_id = ?){where}
        group by g.family""", [pid, *params]).fetchall())


def figure_wins(db: Database, pid: int, family: str, only: str | None = None
                ) -> list[bool]:
    """Whether the person won each of their finished games of ``family``, oldest first."""
    where, params = _only(only)
    return [bool(w) for (w,) in db.conn.execute(f"""
        select won from figures f where person_id = ? and family = ?{where}
        order by {_ORDER}""", [pid, family, *params])]


def _lines(rows: list[tuple[Any, ...]]) -> list[dict[str, Any]]:
    return [{"game": g, "seat": s, "date": (d or "")[:10], "ruleset": r, "total": t,
             "place": p, "sides": n} for g, s, d, r, t, p, n in rows]


def figure_lines(db: Database, pid: int, family: str, last: int,
                 only: str | None = None) -> dict[str, Any]:
    """A person's ``recent`` finished games of ``family`` (up to ``last``, oldest first),
    their ``best`` and ``worst`` (the highest and the lowest total; of equal totals the
    earliest game), each a line: game, seat, date, ruleset, total, place, sides."""
    where, params = _only(only)
    base = ("select f.game_id, f.seat, f.played, f.ruleset_id, f.total, f.place, f.sides "
            f"from figures f where person_id = ? and family = ?{where}")
    args = [pid, family, *params]
    extreme = (f"{base} and f.total = (select {{}}(f.total) from figures f where "
               f"person_id = ? and family = ?{where}) order by {_ORDER} limit 1")
    best, worst = ((_lines(db.conn.execute(extreme.format(f), args * 2).fetchall()) or [None])[0]
                   for f in ("max", "min"))
    return {"best": best, "worst": worst, "recent": _lines(db.conn.execute(
        f"{base} order by f.played desc, f.game_row desc limit ?", [*args, last]).fetchall())[::-1]}


#: A running total's columns as its readers get them (:func:`totals`, :func:`all_totals`).
TOTAL_KEYS = ("family", "part", "key", "games", "wins", "places", "points", "deals", "grp",
              "first_played", "first_row", "first_position", "first_game", "first_seat",
              "streak", "longest", "last_played", "last_row")


def unpack(text: str | None) -> dict[str, dict[str, list[Any]]]:
    """A kept ``figure_totals.parts`` text as ``{part: {key: entry}}``."""
    return json.loads(text) if text else {}


def _expanded(row: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
    """A kept total (:data:`TOTAL_KEYS` then ``parts``) and its parts' totals, each as a
    row of its own (with no wins, places or runs)."""
    yield row[:-1]
    for part, keyed in unpack(row[-1]).items():
        for key, (games, points, deals, grp, *first) in keyed.items():
            yield (row[0], part, key, games, 0, 0, points, deals, grp, *first, 0, 0, None, None)


def totals(db: Database, pid: int, table: str | None = None) -> list[dict[str, Any]]:
    """A person's running totals (of every game, or of those at ``table``), in key order:
    one row per family, part and key."""
    rows = db.conn.execute(
        f"select {', '.join(TOTAL_KEYS)}, parts from figure_totals where person_id = ? "
        "and table_key = ?", [pid, table or ""]).fetchall()
    return [dict(zip(TOTAL_KEYS, r, strict=True))
            for r in sorted((x for row in rows for x in _expanded(row)), key=lambda r: r[:3])]


def runs(db: Database, pid: int, table: str, family: str
         ) -> tuple[int, int, str | None, int | None] | None:
    """A person's wins in a row now and at most in one family (everywhere: ``""``, or at
    ``table``), and (played, row) of the last game they count."""
    row = db.conn.execute("select streak, longest, last_played, last_row from figure_totals "
                          "where person_id = ? and table_key = ? and family = ? and "
                          "part = 'game' and key = ''", [pid, table, family]).fetchone()
    return tuple(row) if row else None  # type: ignore[return-value]


def wins_beside(db: Database, pid: int, family: str, only: str | None,
                at: tuple[str, int]) -> tuple[int, int, bool]:
    """How many games in a row a person won just before the game played at ``at``
    ``(played, row)`` and just after it, and whether those after reach their last game:
    the nearest game lost on each side, then the games between counted, both in SQL."""
    where, params = _only(only)
    conn, counted = db.conn, []
    for op, back, order in (("<", ">", "desc"), (">", "<", "asc")):
        within = (f"from figures f where person_id = ? and family = ?{where} and "
                  f"(f.played, f.game_row) {op} (?, ?)")
        args = [pid, family, *params, *at]
        lost = conn.execute(f"select f.played, f.game_row {within} and f.won = 0 order by "
                            f"f.played {order}, f.game_row {order} limit 1", args).fetchone()
        if lost is not None:
            within += f" and (f.played, f.game_row) {back} (?, ?)"
            args += list(lost)
        counted.append((int(conn.execute(f"select count(*) {within}", args).fetchone()[0]),
                        lost is not None))
    (before, _), (after, lost_after) = counted
    return before, after, not lost_after


def all_totals(db: Database) -> list[tuple[Any, ...]]:
    """Every running total, in key order, the parts' totals as rows of their own."""
    return sorted(((pid, scope, *x) for pid, scope, *row in db.conn.execute(
        f"select person_id, table_key, {', '.join(TOTAL_KEYS)}, parts from figure_totals")
        for x in _expanded(tuple(row))), key=lambda r: r[:5])


#: A seat's figures' columns as :func:`game_figures` gives them, and its parts'.
SEAT_KEYS = ("seat", "person_id", "family", "ruleset_id", "table_key", "played", "game_row",
             "total", "place", "won")
_PART_KEYS = ("seat", "person_id", "family", "table_key", "played", "game_row", "part", "key",
              "position", "grp", "points", "deals")


def seat_parts(text: str | None) -> list[tuple[Any, ...]]:
    """A seat's parts as kept in ``figures.parts``: ``(part, key, position, grp, points,
    deals)`` each, by part and position."""
    return [tuple(p) for p in json.loads(text)] if text else []


def _figures(db: Database, where: str, params: list[Any]
             ) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Figures' seats and parts, each row its game's id first."""
    seats, parts = [], []
    for gid, *row, text in db.conn.execute(
            f"select game_id, {', '.join(SEAT_KEYS)}, parts from figures {where}", params):
        seat, pid, family, _ruleset, table, played, game_row = row[:7]
        seats.append((gid, *row))
        parts += [(gid, seat, pid, family, table, played, game_row, *p) for p in seat_parts(text)]
    return seats, parts


def game_figures(db: Database, gid: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A game's figures as kept (its seats', then their parts), with their person, family,
    ruleset, table and when."""
    seats, parts = _figures(db, "where game_id = ? order by seat", [gid])
    return ([dict(zip(SEAT_KEYS, s[1:], strict=True)) for s in seats],
            [dict(zip(_PART_KEYS, p[1:], strict=True)) for p in parts])


def all_figures(db: Database) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every figure kept, oldest game first: seats ``(game_id, seat, person_id, family,
    ruleset_id, table_key, played, game_row, total, place, won)`` and parts ``(game_id,
    seat, person_id, family, table_key, played, game_row, part, key, position, grp,
    points, deals)``."""
    return _figures(db, "order by played, game_row, seat", [])


def first_figure(db: Database, pid: int, table: str | None, family: str, part: str,
                 key: str) -> tuple[Any, ...] | None:
    """Where a person's total of ``part`` and ``key`` was first played now: ``(played,
    row, position, game, seat)`` of the earliest finished game counted in it."""
    where, params = _only(table)
    if part in ("game", "ruleset"):
        if part == "ruleset":
            where += " and coalesce(f.ruleset_id, '') = ?"
            params = [*params, key]
        sql = (f"select played, game_row, 0, game_id, seat from figures f where person_id = ? "
               f"and family = ?{where} order by {_ORDER} limit 1")
        row = db.conn.execute(sql, [pid, family, *params]).fetchone()
    else:  # the first of the person's games whose parts count it
        row = db.conn.execute(
            "select f.played, f.game_row, p.value ->> 2, f.game_id, f.seat from figures f, "
            f"json_each(f.parts) p where f.person_id = ? and f.family = ?{where} and "
            f"p.value ->> 0 = ? and p.value ->> 1 = ? order by {_ORDER} limit 1",
            [pid, family, *params, part, key]).fetchone()
    return tuple(row) if row else None


def last_figure(db: Database, pid: int, table: str | None, family: str
                ) -> tuple[Any, Any] | None:
    """(played, row) of a person's latest finished game of ``family``."""
    where, params = _only(table)
    row = db.conn.execute(f"select played, game_row from figures f where person_id = ? and "
                          f"family = ?{where} order by f.played desc, f.game_row desc limit 1",
                          [pid, family, *params]).fetchone()
    return tuple(row) if row else None  # type: ignore[return-value]


def finished_without_figures(db: Database) -> list[str]:
    """The finished games that have no figures (a database made before they were kept),
    oldest first."""
    return [r[0] for r in db.conn.execute(
        "select id from games g where finished = 1 and not exists "
        "(select 1 from figures f where f.game_id = g.id) order by rowid")]


def games_together(db: Database, a: int, b: int, club: str, starts: str, ends: str
                   ) -> list[tuple[str, str, int, int, int, int]]:
    """The finished games of the club's nights from ``starts`` to ``ends`` at which ``a``
    and ``b`` both sat: (game, tournament, a's total, a's place, b's total, b's place)."""
    return db.conn.execute(
        "select fa.game_id, n.id, fa.total, fa.place, fb.total, fb.place "
        "from figures fa join figures fb on fb.game_id = fa.game_id and fb.person_id = ? "
        "join tournament_tables t on t.game_id = fa.game_id "
        "join tournaments n on n.id = t.tournament_id "
        "where fa.person_id = ? and n.club_id = ? and n.created_at >= ? "
        "and n.created_at < date(?, '+1 day') order by fa.played, fa.game_row",
        [b, a, club, starts, ends]).fetchall()
