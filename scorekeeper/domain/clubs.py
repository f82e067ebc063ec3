"""Clubs: on one shared host, each club its own people, games, evenings,
tournaments and default ruleset.

Every server has one club made for it, the home club (:data:`HOME_CLUB`, made by the
storage's migration 0013 with every person, game and tournament made before): whatever
is made without naming a club goes there, so a table that never asks for clubs sees no
change. Anyone may make another (:func:`create`); its manager decides whether its pages
are public or for its members only, whether its casual games count for ratings, its
default ruleset, and names its directors. Who holds which right is the web's to decide
(``web/access.py``); here a club is made, read and changed.
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
from . import bus, ratings, rights, variants
from .events import ClubChanged, ClubCreated, MemberJoined

HOME_CLUB = connection.HOME_CLUB

__all__ = ["HOME_CLUB", "Club", "ClubNotFound", "by_code", "create", "load"]

#: The longest club name (and a director's name: a person's name's limit).
NAME_MAX = 60


@dataclass(frozen=True)
class Club:
    """A club as its pages and the API read it."""

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
        """The server's own club (its name is the server's, its manager the host)."""
        return self.id == HOME_CLUB


def _club(row: dict[str, Any]) -> Club:
    return Club(row["id"], row["name"], bool(row["public"]), bool(row["casual_rated"]),
                row["default_ruleset"], row["invite_code"], int(row["version"]),
                row["created_at"])


def load(db: Database, cid: Any) -> Club:
    """A club by id; ``ClubNotFound`` for any other id."""
    return _club(club_reads.club(db, cid))


def by_code(db: Database, code: str) -> Club:
    """The club a (normalised) invitation code invites to; ``ClubNotFound`` if none.
    The home club invites nobody by code: it is everyone's who uses this server."""
    club = load(db, club_reads.club_by_code(db, code))
    if club.home:
        raise ClubNotFound(code)
    return club


def _name(value: Any, field: str = "name", empty: str = N_("Enter the club's name.")) -> str:
    name = checks.clean_name(value) if isinstance(value, str) else ""
    if not name:
        raise InvalidInput([Problem(field, empty)])
    if len(name) > NAME_MAX:
        raise InvalidInput([Problem(field, N_(
            "A name can have at most %(max)s characters; this one has %(count)s."),
            {"max": NAME_MAX, "count": len(name)})])
    return name


def create(db: Database, name: Any, public: Any = True) -> Club:
    """A new club, public unless ``public`` is false; raises :class:`ClubCreated`."""
    checked = _name(name)
    if not isinstance(public, bool):
        raise InvalidInput([Problem("public", N_("Say whether the club's pages are public "
                                                 "(true or false)."))])
    cid = connection.new_id()
    club_writes.create_club(db, cid, checked, public)
    bus.publish([ClubCreated(cid, 1)])
    return load(db, cid)


def change(db: Database, club: Club, name: Any = None, public: Any = None,
           casual_rated: Any = None, default_ruleset: Any = None) -> Club:
    """The manager's choices: the club's name, whether its pages are public, whether its
    casual games count for ratings, its default ruleset (``""``: the server's). Only what
    is given changes; raises :class:`ClubChanged`."""
    changes: dict[str, Any] = {}
    if name is not None:
        changes["name"] = _name(name)
    for key, value in (("public", public), ("casual_rated", casual_rated)):
        if value is not None:
            changes[key] = int(bool(value))
    if default_ruleset is not None:
        if default_ruleset == "":
            changes["default_ruleset"] = None
        else:
            try:
                variants.find(db, default_ruleset)
            except UnknownRuleset:
                raise InvalidInput([Problem("ruleset", N_("Choose a ruleset."))]) from None
            changes["default_ruleset"] = default_ruleset
    if club.home and "name" in changes:
        raise InvalidInput([Problem("name", N_("This server's own club keeps its name."))])
    if not changes:
        return club
    counts = changes.get("casual_rated")
    then = None if counts is None or bool(counts) == club.casual_rated else (
        lambda wdb, cid: ratings.casual_switched(wdb, cid, bool(counts)))
    version = club_writes.change_club(db, club.id, changes, then=then)
    bus.publish([ClubChanged(club.id, version)])
    return load(db, club.id)


def renew_code(db: Database, club: Club) -> Club:
    """A new invitation code: the old link and code invite nobody more (those who joined
    stay members)."""
    club_writes.renew_club_code(db, club.id)
    bus.publish([ClubChanged(club.id)])
    return load(db, club.id)


def joined(club: Club) -> None:
    """A director opened their link: told to whoever listens (:class:`MemberJoined`)."""
    bus.publish([MemberJoined(club.id)])


def join(db: Database, club: Club) -> str:
    """A new member of the club, by its invitation: the member's own token (given this
    once; the store keeps its hash), which :func:`is_member` knows until the manager
    removes the member."""
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


def remove_member(db: Database, club: Club, mid: Any, by: str = "manager") -> bool:
    """Member ``mid`` is one no more: their token and browser read nothing of a private
    club from then on. Whether there was such a member."""
    if not checks.is_int(mid) or isinstance(mid, bool):
        return False
    gone = store_members.remove_member(db, club.id, int(mid), by)
    if gone:
        bus.publish([ClubChanged(club.id)])
    return gone


def renew_members(db: Database, club: Club, by: str = "manager") -> int:
    """Every member removed at once, and a new invitation (the old link and code invite
    nobody more): whoever should stay joins again by the new one. How many there were."""
    count = store_members.remove_every_member(db, club.id, by)
    club_writes.renew_club_code(db, club.id)
    bus.publish([ClubChanged(club.id)])
    return count


def tables_among(db: Database, tid: str, gids: list[str]) -> bool:
    """Whether any of the games ``gids`` is a table of tournament ``tid``."""
    return store_members.tables_among(db, tid, gids)


def tournament_games(db: Database, tid: str) -> list[str]:
    return store_members.tournament_games(db, tid)


def name_director(db: Database, club: Club, name: Any) -> int:
    """A director named by the manager; the director's id."""
    did = club_writes.add_club_director(db, club.id, _name(name, "director",
                                                     N_("Enter the director's name.")))
    bus.publish([ClubChanged(club.id)])
    return did


def remove_director(db: Database, club: Club, did: Any) -> bool:
    """A director no more; whether there was one of that id."""
    if isinstance(did, str) and did.isdigit() and len(did) < 18:
        did = int(did)
    if not checks.is_int(did):
        return False
    gone = club_writes.remove_club_director(db, club.id, did)
    if gone:
        bus.publish([ClubChanged(club.id)])
    return gone


def directors(db: Database, club: Club) -> list[dict[str, Any]]:
    return club_reads.club_directors(db, club.id)


def default_ruleset(db: Database, club: Club) -> str | None:
    """The ruleset a new game of the club starts with: the club's choice, else (the home
    club, or a club that chose none) the server's."""
    return club.default_ruleset or house_reads.setting(db, "default_ruleset")


def count(db: Database) -> int:
    """How many clubs the server keeps (the home club among them)."""
    return club_reads.count_clubs(db)
