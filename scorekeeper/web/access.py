"""Who may read and write, as the web asks it: the request's :class:`Holder` (through the
API its bearer token alone, in a browser also what its signed session cookie remembers)
and the facts read from the domain, handed to :mod:`..domain.rights`, which decides.

What a request may not read answers the same 404 as an unknown id (:func:`check_read`,
before every view). The host is whoever logged in at ``/admin`` with
``KIERKI_ADMIN_PASSWORD`` or opened a host link, never an address: behind a proxy every
client comes from loopback, and a forwarded address is whatever the client wrote.
"""
from __future__ import annotations

import hashlib
import secrets
from dataclasses import replace
from typing import Any

from flask import current_app, request, session
from flask_babel import lazy_gettext as _l
from werkzeug.exceptions import Forbidden, NotFound, Unauthorized

from ..domain import clubs, house, people, reads, rights
from ..domain.errors import GameNotFound, PersonNotFound, TournamentNotFound
from ..domain.rights import DIRECTOR, MANAGER, MEMBER, TABLE, Holder, at_least, same
from .db import get_db
from .tokens import (
    bearer,
    club_director_token,
    club_token,
    is_club_director_link,
    is_club_manager_link,
    is_director_token,
    is_join_secret,
    join_secret,
    mac,
    normalise_code,
    reference,
    secret_key,
    token,
    tournament_token,
    variant_token,
)

#: The names the views and the API take from here (the tokens are :mod:`.tokens`').
__all__ = ["bearer", "club_director_token", "club_token", "is_club_director_link",
           "is_club_manager_link", "is_join_secret", "join_secret", "normalise_code",
           "reference", "tournament_token"]

#: How many games (clubs, variants…) a browser remembers, the most recent first.
REMEMBERED = 60


def _api() -> bool:
    """Whether this is the JSON API's request: there a cookie is no right."""
    return request.blueprint == "api"


# -- refusals ---------------------------------------------------------------------------------


class NoToken(Unauthorized):
    """A write through the API without ``Authorization: Bearer <token>`` (401)."""


class WrongToken(Forbidden):
    """A write through the API with a token that is not the one it needs (403)."""


class NotAtTable(Forbidden):
    message = _l("Only the phones at this game's table can change it. Join with the "
                 "table's code (ask a player, or scan the table card) to enter deals.")


class NoDirectorToken(NoToken):
    message = _l("Send the director's token: Authorization: Bearer <token>.")


class WrongDirectorToken(WrongToken):
    message = _l("This token is not this tournament's director's.")


class ClubRefused(Forbidden):
    """Who may read a club asked for what only a higher right in it may (403)."""

    message = _l("Only the club's manager can do this.")


class NotClubDirector(ClubRefused):
    message = _l("Only the club's manager and its directors can make its tournaments.")


class NotClubMember(ClubRefused):
    message = _l("Only the club's members can start its games. Ask the manager for an invitation.")


class NoClubToken(NoToken):
    message = _l("Send the club's token: Authorization: Bearer <token>.")


_REFUSALS = {MANAGER: ClubRefused, DIRECTOR: NotClubDirector, MEMBER: NotClubMember}


# -- what a browser remembers -----------------------------------------------------------------


def _listed(key: str) -> list[str]:
    found = session.get(key, [])
    return [x for x in found if isinstance(x, str)] if isinstance(found, list) else []


def _push(key: str, value: str) -> None:
    """``value`` first in the session's list ``key`` (the cookie rewritten only if that
    changes its order)."""
    kept = _listed(key)
    if kept[:1] != [value]:
        session[key] = [value, *(x for x in kept if x != value)][:REMEMBERED]


def _member_marks() -> list[tuple[str, str]]:
    """The (club, member token) pairs this browser keeps."""
    found = session.get("members", [])
    return [(m[0], m[1]) for m in found if isinstance(m, list) and len(m) == 2
            and all(isinstance(x, str) for x in m)] if isinstance(found, list) else []


def remember(gid: str) -> None:
    """This browser created or joined the game: it may write it, and lists it first."""
    _push("table", gid)
    seen(gid)


def seen(gid: str) -> None:
    """This browser opened the game: its first page lists it."""
    _push("games", gid)


def forget(gid: str) -> None:
    for key in ("games", "table"):
        if key in session:
            session[key] = [x for x in _listed(key) if x != gid]


def known() -> list[str]:
    """The games this browser created, opened or joined, most recent first."""
    return _listed("games")


def remember_variant(rid: str) -> None:
    _push("variants", rid)


def made_variants() -> list[str]:
    return _listed("variants")


def remember_director(tid: str) -> None:
    """This browser opened the director's link: it directs the tournament."""
    _push("directs", tid)


def remember_club(cid: str, right: str, did: int | None = None) -> None:
    """This browser made the club or opened its manager's link (:data:`MANAGER`), or
    opened director ``did``'s link (:data:`DIRECTOR`)."""
    if right == MANAGER:
        _push("clubs_managed", cid)
    else:
        _push("clubs_directed", f"{cid}:{did}")


def remember_member(cid: str, given: str) -> None:
    """This browser joined the club: it keeps the member's own token."""
    kept = [[c, t] for c, t in _member_marks() if c != cid]
    session["members"] = [[cid, given], *kept][:REMEMBERED]


def my_clubs() -> list[str]:
    """The clubs this browser manages, directs or joined, most recent first of each."""
    directed = (m.partition(":")[0] for m in _listed("clubs_directed"))
    members = (c for c, _ in _member_marks())
    return list(dict.fromkeys([*_listed("clubs_managed"), *directed, *members]))


def request_holder() -> Holder:
    """What this request brings that can carry a right."""
    given = bearer(request.headers.get("Authorization", ""))
    if _api():
        return Holder(given, host=False)
    return Holder(given, frozenset(_listed("table")), frozenset(_listed("directs")),
                  frozenset(_listed("clubs_managed")), frozenset(_listed("clubs_directed")),
                  frozenset(_member_marks()))


# -- writing a game ---------------------------------------------------------------------------


def table_right(db: Any, gid: str) -> tuple[str | None, bool]:
    """(this request's right to write ``gid``, whether it may write now): the table's, or
    its tournament's director's, also by the tournament's club; a closed tournament's
    game is frozen."""
    where = reads.table_of_game(db, gid)
    tid = where.tournament_id if where else None
    holder = request_holder()
    right = rights.write_right(gid, tid, holder, secret_key())
    if right is None and tid is not None and club_directs(db, tid, holder):
        right = DIRECTOR
    return right, right is not None and not (where and where.closed)


def right_here(db: Any, gid: str) -> str | None:
    """This request's right to write ``gid``, or None."""
    return table_right(db, gid)[0]


def writes_now(db: Any, gid: str) -> bool:
    """Whether this request may write ``gid`` now."""
    return table_right(db, gid)[1]


def require_write(db: Any, gid: str, host: bool = False) -> str:
    """This request's right to write ``gid``; else through the API :class:`NoToken` (401)
    or :class:`WrongToken` (403), in a browser :class:`NotAtTable` (403). ``host``: the
    host may too."""
    right = right_here(db, gid)
    if right is not None:
        return right
    if _api():
        raise NoToken() if request_holder().bearer is None else WrongToken()
    if host and is_host():
        return "host"
    raise NotAtTable()


def may_rename(db: Any, pid: int) -> str | None:
    """The right this browser renames person ``pid`` with: the host's, or the right to
    write every game they played; None if it may not."""
    if is_host():
        return "host"
    found = set()
    for gid in reads.person_games(db, pid):
        if (right := right_here(db, gid)) is None:
            return None
        found.add(right)
    return (DIRECTOR if found == {DIRECTOR} else TABLE) if found else None


def require_variant_maker(rid: str) -> None:
    """Deleting a variant through the API: the host, or its maker's token."""
    given = request_holder().bearer
    if not is_host() and not same(given, variant_token(rid)):
        raise NoToken() if given is None else WrongToken()


# -- the host ---------------------------------------------------------------------------------


def _admin_pass(db: Any) -> str | None:
    """A host's session mark: an HMAC of the password and the admin epoch, so that a
    copied cookie stops working at a new password or a logout."""
    password = current_app.config.get("ADMIN_PASSWORD")
    return mac("admin", f"{password}:{house.admin_epoch(db)}") if password else None


def _host_mark(db: Any) -> str | None:
    """A host link's session mark: an HMAC of the host epoch (None before any link)."""
    epoch = house.host_epoch(db)
    return mac("host-link", epoch) if epoch else None


def _token_hash(given: str) -> str:
    return hashlib.sha256(given.encode()).hexdigest()


def _holds(key: str, mark: Any, db: Any) -> bool:
    """Whether the session's ``key`` is the host's mark now (``mark(db)``)."""
    given = session.get(key)
    if not isinstance(given, str):
        return False
    expected = mark(db)
    return expected is not None and same(given, expected)


def holds_host_link() -> bool:
    """Whether this browser opened a host link still in force."""
    return _holds("host", _host_mark, get_db())


def is_host() -> bool:
    db = get_db()
    return _holds("admin", _admin_pass, db) or _holds("host", _host_mark, db)


def new_host_link(db: Any) -> str:
    """A new host link's token: random, kept as its hash, usable once; the browsers older
    links made the host are the host no longer."""
    given = secrets.token_urlsafe(24)
    house.new_host_link(db, _token_hash(given))
    return given


def open_host_link(db: Any, given: object) -> bool:
    """Make this browser the host if ``given`` is the unused host link's token."""
    if not isinstance(given, str) or not 16 <= len(given) <= 100 \
            or not house.use_host_link(db, _token_hash(given)):
        return False
    session["host"] = _host_mark(db)
    return True


def start_admin_session(db: Any) -> None:
    session["admin"] = _admin_pass(db)


def end_admin_sessions(db: Any) -> None:
    """Log out this browser and every copy of any host's cookie (new epochs)."""
    house.end_host_sessions(db)
    session.pop("admin", None)
    session.pop("host", None)


def check_admin_password(given: object) -> bool:
    expected = current_app.config.get("ADMIN_PASSWORD")
    return bool(expected) and same(given, str(expected))


# -- tournaments and clubs --------------------------------------------------------------------


def directs(tid: str) -> bool:
    """Whether this request directs the tournament: the director's link or token, or its
    club's right."""
    held = request_holder()
    return tid in held.directs or is_director_token(held.bearer, tid) \
        or club_directs(get_db(), tid, held)


def check_director(tid: str) -> None:
    """The API's check: :class:`NoDirectorToken` (401) or :class:`WrongDirectorToken`
    (403) unless the request's token is the tournament's director's (or its club's)."""
    if request_holder().bearer is None:
        raise NoDirectorToken()
    if not directs(tid):
        raise WrongDirectorToken()


def club_right(db: Any, cid: str, holder: Holder | None = None) -> str | None:
    """This request's (or ``holder``'s) right in club ``cid``: :data:`MANAGER`,
    :data:`DIRECTOR`, :data:`MEMBER` or None."""
    held = holder or request_holder()
    home = cid == reads.HOME_CLUB
    if home and held.host is None:
        held = replace(held, host=is_host())
    return rights.club_right(
        cid, held, secret_key(), home,
        directors=lambda: [d["id"] for d in reads.club_directors(db, cid)],
        is_member=lambda tokens: clubs.is_member(db, cid, tokens))


def club_directs(db: Any, tid: str, holder: Holder | None = None) -> bool:
    """Whether ``holder`` directs tournament ``tid`` as the manager or a director of its
    club (not the home club's)."""
    held = holder or request_holder()
    if not (held.bearer or held.manages or held.club_directs):
        return False
    try:
        cid = reads.club_of_tournament(db, tid)
    except TournamentNotFound:
        return False
    return cid != reads.HOME_CLUB and rights.may_direct_club(club_right(db, cid, held))


def readable_club(db: Any, cid: str) -> Any:
    """The club ``cid`` if this request may read it; else ``ClubNotFound`` (404)."""
    club = clubs.load(db, cid)
    if not rights.may_read(club.public, club_right(db, cid), None):
        raise clubs.ClubNotFound(cid)
    return club


def require_club(db: Any, cid: str, wanted: str) -> Any:
    """The club ``cid`` if this request holds ``wanted`` in it (or more); else 404 to a
    stranger of a private club, 401 to an API client without a token, 403 to others."""
    held = request_holder()
    club = clubs.load(db, cid)
    right = club_right(db, cid, held)
    if at_least(right, wanted):
        return club
    if right is None and not club.public:
        raise clubs.ClubNotFound(cid)
    if right is None and held.bearer is None and _api():
        raise NoClubToken()
    raise _REFUSALS[wanted]()


def club_of_person_readable(db: Any, pid: Any) -> Any:
    """The club of person ``pid`` if this request may read it (None: the home club's);
    ``PersonNotFound`` (404) for a private club's person and a stranger."""
    cid = reads.club_of_person(db, pid)
    if cid == reads.HOME_CLUB:
        return None
    try:
        return readable_club(db, cid)
    except clubs.ClubNotFound:
        raise PersonNotFound(pid) from None


# -- reading ----------------------------------------------------------------------------------


def _reads_club(db: Any, cid: str) -> bool:
    """Whether the right in club ``cid`` (or the host's) reads its games and tournaments."""
    if cid == reads.HOME_CLUB:
        return True
    club = clubs.load(db, cid)
    return rights.may_read(club.public, club_right(db, cid), None) or is_host()


def _may_read_tournament(db: Any, tid: str) -> bool:
    """Its club's right, else its director's, else the table of any of its games."""
    if _reads_club(db, reads.club_of_tournament(db, tid)):
        return True
    held = request_holder()
    if directs(tid):
        return rights.may_read(False, None, DIRECTOR)
    at_table = clubs.tables_among(db, tid, sorted(held.games)) or (
        held.bearer is not None
        and any(same(held.bearer, token(gid)) for gid in clubs.tournament_games(db, tid)))
    return rights.may_read(False, None, TABLE if at_table else None)


def require_read(db: Any, gid: str | None = None, tid: str | None = None,
                 eid: str | None = None, cid: str | None = None) -> None:
    """This request may read what it names, or the same 404 as for an unknown id."""
    if cid is not None:
        readable_club(db, cid)
    if gid is not None and not (_reads_club(db, reads.club_of_game(db, gid))
                                or rights.may_read(False, None, right_here(db, gid))):
        raise GameNotFound(gid)
    if tid is not None and not _may_read_tournament(db, tid):
        raise TournamentNotFound(tid)
    if eid is not None:
        try:
            ev = people.evening(db, eid)
        except people.EveningNotFound:
            raise NotFound() from None
        if ev.games and not (_reads_club(db, reads.club_of_game(db, ev.games[0]))
                             or any(right_here(db, gid) for gid in ev.games)):
            raise NotFound()


#: Views that take their own credential in the address (a director's or manager's link).
OWN_CREDENTIAL = frozenset({"tournaments.direct", "clubs.manager_link", "clubs.director_link"})


def check_read() -> None:
    """Before every view: what its address names must be readable by this request."""
    args = request.view_args
    if not args or request.endpoint in OWN_CREDENTIAL or request.method == "OPTIONS":
        return
    named = {k: args[k] for k in ("gid", "tid", "eid", "cid") if isinstance(args.get(k), str)}
    if named:
        require_read(get_db(), **named)


def init_app(app: Any) -> None:
    if missing := OWN_CREDENTIAL - set(app.view_functions):
        raise LookupError(f"no views {sorted(missing)} to leave their own check to")
    app.before_request(check_read)
