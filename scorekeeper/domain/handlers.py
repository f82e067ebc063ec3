"""Every reaction in a write's transaction to an event (:mod:`.events`), each in one
home: a game's figures and its people's running totals, its tournament's version, its
club's ratings. Imported by the service, so they are registered before its first write.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..storage import tournament_writes
from . import bus, events, figures, ratings
from .events import Event

#: The events that change a game's result: its figures and its club's ratings follow.
RESULTS = (events.GameFinished, events.DealCorrected, events.DealUndone, events.GameDeleted)


@bus.handles(*RESULTS)
def keep_figures(db: Any, event: Event) -> None:
    """A finished game's figures (none once unfinished or deleted), and its people's
    running totals moved by the difference."""
    game = getattr(event, "game", None)
    figures.keep(db, event.gid,  # type: ignore[attr-defined]
                 figures.rows(game) if game is not None else None)


@bus.handles(events.DealRecorded, events.DealCorrected, events.DealUndone, events.GameSigned)
def bump_tournament(db: Any, event: Event) -> Iterable[Event]:
    """A tournament's game changed: so did its tournament. A game the event carries says
    whether it is a tournament's table; a deal of any other game asks nothing."""
    game = getattr(event, "game", None)
    if game is not None and game.stored.tournament is None:
        return []
    touched = tournament_writes.touch_tournament_of(db, event.gid)  # type: ignore[attr-defined]
    return [events.TournamentChanged(*touched)] if touched else []


@bus.handles(*RESULTS)
def keep_ratings(db: Any, event: Event) -> None:
    """A club's ratings follow its finished games (after :func:`keep_figures`, whose
    places they read)."""
    ratings.keep(db, event.gid, getattr(event, "game", None))  # type: ignore[attr-defined]
