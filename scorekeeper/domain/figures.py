"""A finished game's figures (what the people's pages sum): made here, from the state the
service already holds, as plain rows the store keeps (:func:`..storage.store.put_figures`).

:func:`rows` is the one function that makes them; :mod:`.handlers` calls it in the write
that finishes, corrects or undoes a game, and :func:`.service.backfill_figures` for the
finished games of a database made before the figures were kept (migration 0007 left
them to the domain).
"""
from __future__ import annotations

from typing import Any

from ..rules.places import places
from ..storage import store


def rows(game: Any) -> store.Figures | None:
    """The figures of ``game`` (its ``family``, ``rules`` and ``state``): a row per seat
    and the family's numbers per seat (:meth:`Family.seat_numbers`), or None while it is
    unfinished."""
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
