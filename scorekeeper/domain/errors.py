"""The refusals the layers above the domain catch, named here so that the web and the
outputs never name the storage: a game, tournament, person or ruleset that is not there,
a database too busy to write, and the store's refusals of a write (a stale version, a
name another person has, a rename since changed, a variant still in use). The domain's
own (``service.Conflict``, ``service.Frozen``, ``tournaments.NotNow``…) stay where they
are made."""
from __future__ import annotations

from ..storage.commits import Busy, StoreError
from ..storage.queries import (
    ClubNotFound,
    GameNotFound,
    PersonNotFound,
    RulesetNotFound,
    TournamentNotFound,
)
from ..storage.store import (
    NameTaken,
    RenameChanged,
    RulesetInUse,
    SeasonNotFound,
    VersionConflict,
)

__all__ = ["Busy", "ClubNotFound", "GameNotFound", "NameTaken", "PersonNotFound",
           "RenameChanged", "RulesetInUse", "RulesetNotFound", "SeasonNotFound", "StoreError",
           "TournamentNotFound",
           "VersionConflict"]
