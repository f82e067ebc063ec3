"""The refusals the layers above the domain catch, named here so that the web and the
outputs never name the storage: a game, tournament, person or ruleset that is not there,
a database too busy to write, and the store's refusals of a write (a stale version, a
name another person has, a rename since changed, a variant still in use). The domain's
own (``service.Conflict``, ``service.Frozen``, ``tournaments.NotNow``…) stay where they
are made."""
from __future__ import annotations

from ..storage.club_reads import ClubNotFound
from ..storage.connection import Busy, StoreError
from ..storage.game_reads import GameNotFound
from ..storage.game_writes import VersionConflict
from ..storage.house_reads import RulesetNotFound
from ..storage.house_writes import RulesetInUse
from ..storage.people_reads import PersonNotFound
from ..storage.people_writes import NameTaken, RenameChanged
from ..storage.rating_writes import SeasonNotFound
from ..storage.tournament_reads import TournamentNotFound

__all__ = ["Busy", "ClubNotFound", "GameNotFound", "NameTaken", "PersonNotFound",
           "RenameChanged", "RulesetInUse", "RulesetNotFound", "SeasonNotFound", "StoreError",
           "TournamentNotFound",
           "VersionConflict"]
