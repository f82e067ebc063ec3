"""Who may do what: each right one plain function over a :class:`Holder` (what a request
brings) and the facts the web read; every path asks the same one. Tokens are HMACs of an
id under the server's secret, but a member's, which is random and kept as its hash.
"""
from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Iterable
from dataclasses import dataclass

#: The rights a write is made with (kept beside each correction, undo and signature).
TABLE, DIRECTOR = "table", "director"
#: A club's rights, strongest first (a director's is :data:`DIRECTOR`).
MANAGER, MEMBER = "manager", "member"
CLUB_RIGHTS = (MANAGER, DIRECTOR, MEMBER)


def mac(purpose: str, subject: str, key: str | bytes) -> str:
    """An HMAC of ``subject`` for one ``purpose`` under ``key``."""
    key = key.encode() if isinstance(key, str) else key
    return hmac.new(key, f"{purpose}:{subject}".encode(), hashlib.sha256).hexdigest()


def same(given: object, expected: str) -> bool:
    """Whether a token a client sent is ``expected``, compared in constant time as UTF-8
    bytes (``hmac.compare_digest`` refuses a str that is not ASCII; a lone surrogate,
    which no UTF-8 holds, is never equal)."""
    try:
        return isinstance(given, str) and hmac.compare_digest(
            given.encode(), expected.encode("utf-8", "surrogateescape"))
    except UnicodeEncodeError:
        return False


def game_token(gid: str, key: str | bytes) -> str:
    return mac("game-token", gid, key)[:40]


def tournament_token(tid: str, key: str | bytes) -> str:
    return mac("tournament-token", tid, key)[:40]


def club_token(cid: str, key: str | bytes) -> str:
    return mac("club-token", cid, key)[:40]


def club_director_token(cid: str, did: int, key: str | bytes) -> str:
    return mac("club-director", f"{cid}:{did}", key)[:40]


def member_hash(given: str) -> str:
    """What the store keeps of a member's token (the token itself is given once)."""
    return hashlib.sha256(f"club-member:{given}".encode("utf-8", "surrogateescape")
                          ).hexdigest()


@dataclass(frozen=True)
class Holder:
    """What a request brings that can carry a right (through the API only ``bearer``)."""

    bearer: str | None = None
    #: Games this browser created or joined (it is at their table).
    games: frozenset[str] = frozenset()
    #: Tournaments this browser opened the director's link of.
    directs: frozenset[str] = frozenset()
    #: Clubs this browser made or opened the manager's link of.
    manages: frozenset[str] = frozenset()
    #: ``club:director`` marks: director links this browser opened.
    club_directs: frozenset[str] = frozenset()
    #: Member tokens this browser keeps, by club (``(club, token)`` pairs).
    members: frozenset[tuple[str, str]] = frozenset()
    #: Whether it is the host (the home club's manager); None: not asked yet.
    host: bool | None = None


def write_right(gid: str, tournament_id: str | None, holder: Holder, key: str | bytes
                ) -> str | None:
    """**Who may write a game**: :data:`TABLE` (this browser is at its table, or the
    game's token), :data:`DIRECTOR` (of its tournament), or None."""
    if gid in holder.games or same(holder.bearer, game_token(gid, key)):
        return TABLE
    if tournament_id is not None and (tournament_id in holder.directs or same(
            holder.bearer, tournament_token(tournament_id, key))):
        return DIRECTOR
    return None


def club_right(cid: str, holder: Holder, key: str | bytes, home: bool,
               directors: Callable[[], Iterable[int]],
               is_member: Callable[[list[str]], bool]) -> str | None:
    """**Who holds which right in a club**: :data:`MANAGER`, :data:`DIRECTOR`,
    :data:`MEMBER` or None; ``directors()`` and ``is_member(tokens)`` are asked only when
    needed. The home club's manager is the host, and everyone is its member."""
    given = holder.bearer
    if home:
        return MANAGER if holder.host else MEMBER
    if cid in holder.manages or same(given, club_token(cid, key)):
        return MANAGER
    marks = {m.partition(":")[2] for m in holder.club_directs if m.partition(":")[0] == cid}
    if marks or given is not None:
        named = {str(d) for d in directors()}
        if marks & named or any(same(given, club_director_token(cid, int(d), key))
                                for d in named):
            return DIRECTOR
    tokens = [t for c, t in holder.members if c == cid] + ([given] if given is not None else [])
    return MEMBER if tokens and is_member(tokens) else None


def at_least(right: str | None, wanted: str) -> bool:
    """Whether ``right`` is ``wanted`` or stronger (:data:`CLUB_RIGHTS`)."""
    return right in CLUB_RIGHTS and CLUB_RIGHTS.index(right) <= CLUB_RIGHTS.index(wanted)


def may_read(public: bool, club: str | None, table: str | None) -> bool:
    """**Who may read a game or tournament**: anyone when its club is public; else whoever
    holds a right in the club or at the table (for a tournament, at any of its tables)."""
    return public or club is not None or table is not None


def may_direct_club(club: str | None) -> bool:
    """Whether a club right makes and directs the club's tournaments."""
    return at_least(club, DIRECTOR)

