"""The domain's events (:mod:`.bus`, :mod:`.handlers`): each a frozen record of one fact
and of what its handlers need. An event without fields of its own is a plain subclass of
its frozen base."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """Something that happened to the stored games, people, tournaments or clubs."""


@dataclass(frozen=True)
class GameEvent(Event):
    """Something that happened to one game, now at ``version`` (``-1``: gone)."""

    gid: str
    version: int


class GameCreated(GameEvent):
    """A game made (a new one, a rematch or an import)."""


@dataclass(frozen=True)
class RematchStarted(GameEvent):
    """Game ``gid`` got its rematch, game ``rematch``."""

    rematch: str = ""


@dataclass(frozen=True)
class DealRecorded(GameEvent):
    """Deal ``number`` entered; ``game`` is the game after it."""

    number: int = 0
    game: Any = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class GameFinished(GameEvent):
    """The game is over (its last deal recorded, or a finished game imported)."""

    game: Any = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class DealCorrected(GameEvent):
    """Deal ``number`` corrected by the right ``by``; ``game`` is the game after it."""

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


class GameDeleted(GameEvent):
    """A game deleted for good."""


@dataclass(frozen=True)
class PersonRenamed(Event):
    """A person renamed (or a rename taken back): every game of ``games`` changed."""

    pid: int
    games: tuple[str, ...] = ()


@dataclass(frozen=True)
class TournamentEvent(Event):
    """Something that happened to one tournament (``version``: its new one, when known)."""

    tid: str
    version: int | None = None


class TournamentChanged(TournamentEvent):
    """A tournament's version moved because one of its games did."""


class TournamentCreated(TournamentEvent):
    """A tournament made, its first round drawn."""


@dataclass(frozen=True)
class RoundDrawn(TournamentEvent):
    """Round ``number`` drawn; ``previous``: the games of the round before it."""

    number: int = 0
    previous: tuple[str, ...] = ()


@dataclass(frozen=True)
class PlayerArrived(TournamentEvent):
    number: int = 0


@dataclass(frozen=True)
class PlayerWithdrew(TournamentEvent):
    number: int = 0


class TournamentClosed(TournamentEvent):
    """A tournament closed: its results stand."""


class TournamentReopened(TournamentEvent):
    """A closed tournament opened again."""


@dataclass(frozen=True)
class ClubEvent(Event):
    """Something that happened to one club (``version``: its new one, when known)."""

    cid: str
    version: int | None = None


class ClubCreated(ClubEvent):
    """A club made."""


class ClubChanged(ClubEvent):
    """The manager changed the club's settings, invitation code or directors."""


class MemberJoined(ClubEvent):
    """A browser or API client joined the club by its invitation link or code."""
