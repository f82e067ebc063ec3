"""What happened: the domain's events, raised by the service inside a write's unit of
work and handled by :mod:`.bus` (each reaction has one home, :mod:`.handlers`).

Each event is a frozen record of one fact, carrying what its handlers need: the game's
id and its new version (the live table tells the game's phones), the game after the
write where its figures are made of its state (no replay), the tournament and its
version where a handler found one.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """Something that happened to the stored games, people or tournaments."""


@dataclass(frozen=True)
class GameEvent(Event):
    """Something that happened to one game, now at ``version`` (``-1``: gone)."""

    gid: str
    version: int


@dataclass(frozen=True)
class GameCreated(GameEvent):
    pass


@dataclass(frozen=True)
class RematchStarted(GameEvent):
    """Game ``gid`` (now at ``version``) got its rematch, game ``rematch`` (made by the
    same write): every phone on the old game is offered to follow."""

    rematch: str = ""


@dataclass(frozen=True)
class DealRecorded(GameEvent):
    """Deal ``number`` entered; ``game`` is the game after it."""

    number: int = 0
    game: Any = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class GameFinished(GameEvent):
    """The game is over (its last deal recorded, or a finished game imported); ``game``
    holds the state its figures are made of."""

    game: Any = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class DealCorrected(GameEvent):
    """Deal ``number`` corrected by the right ``by``; ``game`` is the game after it
    (finished or not)."""

    number: int = 0
    by: str = "table"
    game: Any = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class DealUndone(GameEvent):
    """The last deal, ``number``, taken back by the right ``by``."""

    number: int = 0
    by: str = "table"


@dataclass(frozen=True)
class GameSigned(GameEvent):
    seat: int = 0
    by: str = "table"


@dataclass(frozen=True)
class GameDeleted(GameEvent):
    pass


@dataclass(frozen=True)
class PersonRenamed(Event):
    """A person renamed (or a rename taken back): every game they played changed."""

    pid: int
    games: tuple[str, ...] = ()


@dataclass(frozen=True)
class TournamentEvent(Event):
    """Something that happened to one tournament (``version``: its new one, when known)."""

    tid: str
    version: int | None = None


@dataclass(frozen=True)
class TournamentChanged(TournamentEvent):
    """Raised by a handler: a tournament's version moved, because one of its games did."""


@dataclass(frozen=True)
class TournamentCreated(TournamentEvent):
    pass


@dataclass(frozen=True)
class RoundDrawn(TournamentEvent):
    """Round ``number`` drawn; ``previous``: the games of the round before it (their
    phones are told where their players sit now)."""

    number: int = 0
    previous: tuple[str, ...] = ()


@dataclass(frozen=True)
class PlayerArrived(TournamentEvent):
    number: int = 0


@dataclass(frozen=True)
class PlayerWithdrew(TournamentEvent):
    number: int = 0


@dataclass(frozen=True)
class TournamentClosed(TournamentEvent):
    pass


@dataclass(frozen=True)
class TournamentReopened(TournamentEvent):
    pass


@dataclass(frozen=True)
class ClubEvent(Event):
    """Something that happened to one club (``version``: its new one, when known)."""

    cid: str
    version: int | None = None


@dataclass(frozen=True)
class ClubCreated(ClubEvent):
    pass


@dataclass(frozen=True)
class ClubChanged(ClubEvent):
    """The manager changed the club: its settings, its invitation code, its directors."""


@dataclass(frozen=True)
class MemberJoined(ClubEvent):
    """A browser or API client joined the club by its invitation link or code."""
