"""Every reaction to an event (:mod:`.events`), each in one home, registered on the bus
(:mod:`.bus`). Imported by the service, so they are registered before its first write.

In the write's transaction:

* a game's **figures** follow its end: written when it finishes, rewritten when it is
  corrected, taken off when a deal is undone or the game deleted (:func:`.figures.rows`,
  from the state the service holds: no replay), and its people's **running totals**
  (``figure_totals``: what their pages read) move by the difference
  (:func:`.figures.keep`);
* its **tournament's version** moves with any change of one of its games (the
  projector and the players' pages follow that one number).

After the commit, the web layer's subscribers (the live table, ``web/live.py``).
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..storage import tournament_writes
from . import bus, figures, ratings
from .events import (
    DealCorrected,
    DealRecorded,
    DealUndone,
    Event,
    GameDeleted,
    GameFinished,
    GameSigned,
    TournamentChanged,
)


@bus.handles(GameFinished, DealCorrected, DealUndone, GameDeleted, in_write=True)
def keep_figures(db: Any, event: Event) -> None:
    """A finished game's figures, written in the write that finished or corrected it;
    none for a game a correction or an undo left unfinished, or a game deleted. The
    running totals of its people (every game of theirs, and their table's) move by the
    difference in the same write (:func:`.figures.keep`)."""
    game = getattr(event, "game", None)
    figures.keep(db, event.gid,  # type: ignore[attr-defined]
                 figures.rows(game) if game is not None else None)


@bus.handles(DealRecorded, DealCorrected, DealUndone, GameSigned, in_write=True)
def bump_tournament(db: Any, event: Event) -> Iterable[Event]:
    """A tournament game changed: so did its tournament (its standings, its tables'
    progress, its unsigned tables). A game the event carries says whether it is a
    tournament's table (fixed when it was made): a deal of any other game asks nothing."""
    game = getattr(event, "game", None)
    if game is not None and game.stored.tournament is None:
        return []
    touched = tournament_writes.touch_tournament_of(db, event.gid)  # type: ignore[attr-defined]
    return [TournamentChanged(*touched)] if touched else []


@bus.handles(GameFinished, DealCorrected, DealUndone, GameDeleted, in_write=True)
def keep_ratings(db: Any, event: Event) -> None:
    """A club's ratings follow its finished games (after :func:`keep_figures`, whose
    places they read): a newly finished game moves its players alone; a correction, an
    undo or a deletion of a finished one replays the club's rated games from it on
    (:func:`.ratings.keep`)."""
    ratings.keep(db, event.gid, getattr(event, "game", None))  # type: ignore[attr-defined]
