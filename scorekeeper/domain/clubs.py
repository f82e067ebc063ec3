"""Clubs: on one shared host, each club its own people, games, evenings, tournaments and
default ruleset. Whatever is made without naming a club is the home club's; its manager
chooses whether its pages are public, whether its casual games count for ratings, its
default ruleset and its directors.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from ..rules import checks
from ..rules.errors import N_, InvalidInput, Problem, UnknownRuleset
from ..storage import club_reads, club_writes, connection, house_reads
from ..storage import members as store_members
from ..storage.club_reads import ClubNotFound
from ..storage.members import tables_among, tournament_games
from . import bus, ratings, rights, variants
from .events import ClubChanged, ClubCreated, MemberJoined

__all__ = ["ClubNotFound", "tables_among", "tournament_games"]  # asked here by the web

#: The longest club name, and director's name.
NAME_MAX = 60


@dataclass(frozen=True)
class Club:
    id: str
    name: str
    public: bool
    casual_rated: bool
    default_ruleset: str | None
    invite_code: str
    version: int
    created_at: str

    @property
    def home(self) -> bool:
        """The server's own club (its manager is the host)."""
        return self.id == connection.HOME_CLUB


def load(db: Database, cid: Any) -> Club:
    """A club by id; ``ClubNotFound`` for any other id."""
    row = club_reads.club(db, cid)
    return Club(row["id"], row["name"], bool(row["public"]), bool(row["casual_rated"]),
                row["default_ruleset"], row["invite_code"], int(row["version"]),
                row["created_at"])


def by_code(db: Database, code: str) -> Club:
    """The club a (normalised) invitation code invites to; ``ClubNotFound`` if none (the
    home club is everyone's: it invites nobody)."""
    club = load(db, club_reads.club_by_code(db, code))
    if club.home:
        raise ClubNotFound(code)
    return club


def create(db: Database, name: Any, public: Any = True) -> Club:
    """A new club, public unless ``public`` is false."""
    checked = checks.typed_name(name, "name", N_("Enter the club's name."), NAME_MAX)
    if not isinstance(public, bool):
        raise InvalidInput([Problem("public", N_("Say whether the club's pages are public "
                                                 "(true or false)."))])
    cid = connection.new_id()
    club_writes.create_club(db, cid, checked, public)
    bus.publish([ClubCreated(cid, 1)])
    return load(db, cid)


def change(db: Database, club: Club, name: Any = None, public: Any = None,
           casual_rated: Any = None, default_ruleset: Any = None) -> Club:
    """The manager's choices, each changed only when given (a ``default_ruleset`` of
    ``""``: the server's)."""
    changes: dict[str, Any] = {}
    if name is not None:
        changes["name"] = checks.typed_name(name, "name", N_("Enter the club's name."), NAME_MAX)
    for key, value in (("public", public), ("casual_rated", casual_rated)):
        if value is not None:
            changes[key] = int(bool(value))
    if default_ruleset not in (None, ""):
        try:
            variants.find(db, default_ruleset)
        except UnknownRuleset:
            raise InvalidInput([Problem("ruleset", N_("Choose a ruleset."))]) from None
    if default_ruleset is not None:
        changes["default_ruleset"] = default_ruleset or None
    if club.home and "name" in changes:
        raise InvalidInput([Problem("name", N_("This server's own club keeps its name."))])
    if not changes:
        return club
    counts = changes.get("casual_rated")
    then = None if counts in (None, club.casual_rated) else (
        lambda wdb, cid: ratings.casual_switched(wdb, cid, bool(counts)))
    version = club_writes.change_club(db, club.id, changes, then=then)
    bus.publish([ClubChanged(club.id, version)])
    return load(db, club.id)


def renew_code(db: Database, club: Club) -> None:
    """A new invitation code: the old link and code invite nobody more."""
    club_writes.renew_club_code(db, club.id)
    bus.publish([ClubChanged(club.id)])


def joined(club: Club) -> None:
    """A director opened their link."""
    bus.publish([MemberJoined(club.id)])


def join(db: Database, club: Club) -> str:
    """A new member of the club by its invitation: the member's token, given this once
    (the store keeps its hash)."""
    given = secrets.token_urlsafe(24)
    store_members.add_member(db, club.id, rights.member_hash(given))
    bus.publish([MemberJoined(club.id)])
    return given


def is_member(db: Database, cid: str, tokens: list[str]) -> bool:
    """Whether any of ``tokens`` is a current member's of club ``cid``."""
    return store_members.is_member(db, cid, [rights.member_hash(t) for t in tokens
                                             if isinstance(t, str) and 0 < len(t) <= 100])


def members(db: Database, club: Club) -> list[dict[str, Any]]:
    """The club's members (``id``, ``joined_at``), in the order they joined."""
    return store_members.members(db, club.id)


def log(db: Database, club: Club, limit: int = 100) -> list[dict[str, Any]]:
    """The club's log (members joined, removed, renewed), newest first."""
    return store_members.log(db, club.id, limit)


def remove_member(db: Database, club: Club, mid: Any) -> bool:
    """Member ``mid`` is one no more; whether there was such a member."""
    if not checks.is_int(mid):
        return False
    gone = store_members.remove_member(db, club.id, int(mid), "manager")
    if gone:
        bus.publish([ClubChanged(club.id)])
    return gone


def renew_members(db: Database, club: Club) -> int:
    """Every member removed at once, and a new invitation; how many there were."""
    count = store_members.remove_every_member(db, club.id, "manager")
    club_writes.renew_club_code(db, club.id)
    bus.publish([ClubChanged(club.id)])
    return count


def name_director(db: Database, club: Club, name: Any) -> None:
    """A director named by the manager."""
    club_writes.add_club_director(db, club.id, checks.typed_name(
        name, "director", N_("Enter the director's name."), NAME_MAX))
    bus.publish([ClubChanged(club.id)])


def remove_director(db: Database, club: Club, did: Any) -> bool:
    """A director no more; whether there was one of that id."""
    did = checks.whole_number(did)
    if did is None:
        return False
    gone = club_writes.remove_club_director(db, club.id, did)
    if gone:
        bus.publish([ClubChanged(club.id)])
    return gone


def default_ruleset(db: Database, club: Club) -> str | None:
    """The ruleset a new game of the club starts with: the club's choice, else the
    server's."""
    return club.default_ruleset or house_reads.setting(db, "default_ruleset")
