"""The store's refusals the layers above catch, named here so that the web and the
outputs never name the storage, and :class:`Refusal`, the base of the domain's own
(``service.Conflict``, ``service.Frozen``, ``tournaments.NotNow``)."""
from __future__ import annotations

import errno
import sqlite3
from collections.abc import Callable
from typing import Any

from ..storage.club_reads import ClubNotFound
from ..storage.connection import Busy
from ..storage.game_reads import GameNotFound
from ..storage.house_writes import RulesetInUse
from ..storage.people_reads import PersonNotFound
from ..storage.people_writes import NameTaken, RenameChanged
from ..storage.rating_writes import SeasonNotFound
from ..storage.tournament_reads import TournamentNotFound

__all__ = ["Busy", "ClubNotFound", "GameNotFound", "NameTaken", "PersonNotFound", "RenameChanged",
           "RulesetInUse", "SeasonNotFound", "TournamentNotFound"]


class Refusal(Exception):
    """A change refused; its message is translated when shown."""

    def __init__(self, message: str, **params: Any):
        self.message = message
        self.params = params
        super().__init__(message % params)

    def text(self, translate: Callable[[str], str] = lambda s: s) -> str:
        return translate(self.message) % self.params


#: What keeps the server from saving: its disk is full, or its database is read-only.
DISK_FULL, READ_ONLY = "disk_full", "read_only"


def write_fault(error: BaseException | None) -> str | None:
    """:data:`DISK_FULL` or :data:`READ_ONLY` when ``error`` (or what caused it) is the
    disk refusing a write, else None."""
    for _ in range(4):  # the error, and the few it may have been raised from
        if error is None:
            return None
        if isinstance(error, sqlite3.DatabaseError):
            name = getattr(error, "sqlite_errorname", "") or ""
            text = str(error)
            if name == "SQLITE_FULL" or "database or disk is full" in text:
                return DISK_FULL
            if name.startswith("SQLITE_READONLY") or "readonly database" in text:
                return READ_ONLY
        elif isinstance(error, OSError):
            if error.errno in (errno.ENOSPC, errno.EDQUOT):
                return DISK_FULL
            if error.errno == errno.EROFS:
                return READ_ONLY
        error = error.__cause__ or error.__context__
    return None
