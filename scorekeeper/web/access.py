"""Who may read and who may write: the one place each right is decided.

- **Read**: whoever has a game's address (its id is unguessable, 96 random bits) sees it
  read-only: the score table, the live updates, the sheet and the exports. Public pages
  (a tournament's, the projector, results, players, evenings) link that view.
- **Write** (enter, correct, undo, delete, rematch, sign) is the table's right, decided by
  :func:`write_right` alone for every path (form, API, deal router, offline queue,
  rematch): a browser that created the game or joined it with its join code (typed, or
  the table card's QR code) remembers it in its signed session cookie
  (:func:`remember`); an API client brings the game's token (``Authorization: Bearer``,
  an HMAC of the id under the server's secret, given when the game is created or joined
  by code); a tournament's director (the director's link in this browser, or the
  director's token) writes every game of the tournament. The join code and the token are
  shown only to those who can already write. A closed tournament's games are frozen for
  everyone: the store refuses the write under its lock (``service.Frozen``).
- **Direct**: a tournament's director (:func:`directs`).
- **Host**: :func:`is_host`: whoever logged in at ``/admin`` with
  ``KIERKI_ADMIN_PASSWORD``, or the browser that opened a host link (``kierki serve``
  prints one, ``kierki host-link`` makes another). No address is the host: a proxy on the
  same machine makes every stranger a loopback client, and a forwarded address is whatever
  the client wrote. The host lists and deletes any game (``kierki games``, ``/admin``) and
  takes back a rename.
- A person is renamed only by a browser that may write every game they played, or the
  host (:func:`may_rename`): typing a name into a new game gives no right over it.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any

from flask import current_app, g, request, session
from flask_babel import lazy_gettext as _l
from werkzeug.exceptions import Forbidden, Unauthorized

from ..domain import clubs, house, reads
from ..domain.errors import PersonNotFound, TournamentNotFound
from ..domain.reads import CODE_ALPHABET, CODE_LENGTHS
from .db import get_db

#: How many games a browser remembers (the most recently opened first).
REMEMBERED = 60

#: The rights a write is made with (kept beside each correction, undo and signature).
TABLE, DIRECTOR = "table", "director"


def normalise_code(text: object) -> str:
    """What a player typed as a code, case, spaces and dashes ignored; "" if it is none."""
    if not isinstance(text, str):
        return ""
    code = "".join(c for c in text.upper() if c not in " -\t")
    return code if len(code) in CODE_LENGTHS and set(code) <= set(CODE_ALPHABET) else ""


def _mac(purpose: str, gid: str, secret: str | bytes | None) -> str:
    """An HMAC of a game's id for one purpose, under ``secret`` (else the app's key)."""
    key = current_app.config["SECRET_KEY"] if secret is None else secret
    key = key.encode() if isinstance(key, str) else key
    return hmac.new(key, f"{purpose}:{gid}".encode(), hashlib.sha256).hexdigest()


def token(gid: str, secret: str | bytes | None = None) -> str:
    """The API write token of a game (under ``secret``, else the app's secret key)."""
    return _mac("game-token", gid, secret)[:40]


def reference(gid: str, secret: str | bytes | None = None) -> str:
    """A short reference printed on a game's sheet: a few characters of a hash of the
    id under the server's secret, so two sheets of one game can be matched, but the
    id (the game's link), its join code and its token cannot be found from it."""
    return _mac("sheet-ref", gid, secret)[:6].upper()


def same(given: object, expected: str) -> bool:
    """Whether a token a client sent is ``expected``, compared in constant time as UTF-8
    bytes (a client's text may hold any character; ``hmac.compare_digest`` refuses a str
    that is not ASCII)."""
    if not isinstance(given, str):
        return False
    try:
        given_bytes = given.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate, which no UTF-8 holds: never equal
        return False
    return hmac.compare_digest(given_bytes, expected.encode("utf-8", "surrogateescape"))


def bearer(header: str) -> str | None:
    """The token an ``Authorization`` header brings; None if it brings none."""
    scheme, _, given = header.partition(" ")
    return given.strip() if scheme.lower() == "bearer" and given.strip() else None




class NoToken(Unauthorized):
    """A write through the API without ``Authorization: Bearer <token>`` (401)."""


class WrongToken(Forbidden):
    """A write through the API with another game's token, or none of ours (403)."""


def remember(gid: str) -> None:
    """This browser is at the game's table from now on: it created or joined the game, so
    it may write it, and its first page lists it (most recent first). The cookie is only
    rewritten when that order changes."""
    games = table_games()
    if games[:1] != [gid]:
        session["table"] = [gid, *(g for g in games if g != gid)][:REMEMBERED]
    seen(gid)


def seen(gid: str) -> None:
    """This browser opened the game (read-only unless it is at the table): its first page
    lists it."""
    games = known()
    if games[:1] != [gid]:
        session["games"] = [gid, *(g for g in games if g != gid)][:REMEMBERED]


def forget(gid: str) -> None:
    for key in ("games", "table"):
        if key in session:
            session[key] = [g for g in _ids(key) if g != gid]


def _ids(key: str) -> list[str]:
    found = session.get(key, [])
    return [g for g in found if isinstance(g, str)] if isinstance(found, list) else []


def known() -> list[str]:
    """The games this browser created, opened or joined, most recent first."""
    return _ids("games")


def table_games() -> list[str]:
    """The games this browser may write: it created or joined them."""
    return _ids("table")


@dataclass(frozen=True)
class Holder:
    """What a request brings that can carry a right: the token of its ``Authorization``
    header, the games its browser is at the table of and the tournaments it directs. The
    API brings only a token (a cookie is never a right there: the API takes no CSRF
    token)."""

    bearer: str | None = None
    games: frozenset[str] = frozenset()
    directs: frozenset[str] = frozenset()

    @classmethod
    def of_request(cls, api: bool | None = None) -> Holder:
        """This request's holder; ``api`` (default: the path is under ``/api/``) leaves
        the browser's cookie out."""
        given = bearer(request.headers.get("Authorization", ""))
        if api if api is not None else request.path.startswith("/api/"):
            return cls(given)
        return cls(given, frozenset(table_games()), frozenset(directed()))


def write_right(gid: str, tournament_id: str | None, holder: Holder,
                secret: str | bytes | None = None) -> str | None:
    """**The one function that decides who may write a game**: :data:`TABLE` (this browser
    created or joined it, or the game's token), :data:`DIRECTOR` (the game is a table of a
    tournament this browser or token directs), or None (a reader). Whether the game can
    be written at all (a closed tournament's cannot) is the store's to say."""
    if gid in holder.games or (holder.bearer is not None
                               and same(holder.bearer, token(gid, secret))):
        return TABLE
    if tournament_id is not None and (
            tournament_id in holder.directs
            or (holder.bearer is not None
                and same(holder.bearer, tournament_token(tournament_id, secret)))):
        return DIRECTOR
    return None


class NotAtTable(Forbidden):
    """A browser that is not at the game's table tried to change it (403)."""

    message = _l("Only the phones at this game's table can change it. Join with the "
                 "table's code (ask a player, or scan the table card) to enter deals.")


def _asked(db: Any, gid: str, api: bool | None) -> tuple[str | None, bool]:
    """(this request's right to write ``gid``, whether its tournament is closed), read
    once per request."""
    kept = g.setdefault("write_rights", {})
    if (gid, api) not in kept:
        where = reads.table_of_game(db, gid)
        right = write_right(gid, where.tournament_id if where else None,
                            Holder.of_request(api))
        if right is None and where is not None and club_directs(db, where.tournament_id):
            right = DIRECTOR  # the manager or a director of the tournament's club
        kept[gid, api] = (right, bool(where and where.closed))
    return kept[gid, api]


def right_here(db: Any, gid: str, api: bool | None = None) -> str | None:
    """This request's right to write ``gid`` (:func:`write_right`)."""
    return _asked(db, gid, api)[0]


def writes_now(db: Any, gid: str) -> bool:
    """Whether this request may write ``gid`` now: it has the right, and the game is not
    frozen (a closed tournament's). What a page offers follows this."""
    right, closed = _asked(db, gid, None)
    return right is not None and not closed


def require_write(db: Any, gid: str, api: bool | None = None, host: bool = False) -> str:
    """This request's right to write ``gid``, or the refusal: through the API
    :class:`NoToken` (401) or :class:`WrongToken` (403), in a browser :class:`NotAtTable`.
    ``host``: the host may too (deleting a game from the host's list)."""
    if api if api is not None else request.path.startswith("/api/"):
        return api_right(db, gid, request.headers.get("Authorization", ""))
    right = right_here(db, gid, api)
    if right is None and host and is_host():
        return "host"
    if right is None:
        raise NotAtTable()
    return right


def api_right(db: Any, gid: str, authorization: str, secret: str | bytes | None = None) -> str:
    """An API client's right to write ``gid`` by the token its ``Authorization`` header
    brings (:func:`write_right`): :class:`NoToken` (401) without one, :class:`WrongToken`
    (403) with one that is neither the game's nor its tournament director's. Needs no
    request (the deal router asks it too)."""
    given = bearer(authorization)
    if given is None:
        raise NoToken()
    holder = Holder(given)
    right = write_right(gid, None, holder, secret)  # the game's own token: no query
    if right is None:  # a director's token, or a wrong one: the game's tournament decides
        where = reads.table_of_game(db, gid)
        if where is not None:
            right = write_right(gid, where.tournament_id, holder, secret)
            if right is None and club_directs(db, where.tournament_id,
                                              ClubHolder(given, host=False), secret):
                right = DIRECTOR
    if right is None:
        raise WrongToken()
    return right


def may_rename(db: Any, pid: int) -> str | None:
    """Whether this browser may rename person ``pid``: the host may; else a browser that
    may write every game the person played (it entered them all), by the same
    :func:`write_right`. Returns the right it renames with, or None."""
    if is_host():
        return "host"
    rights = set()
    for gid in reads.person_games(db, pid):
        right = right_here(db, gid, api=False)
        if right is None:  # the first game it may not write settles it (a regular's
            return None    # page, seen by anyone else, asks one game, not thousands)
        rights.add(right)
    if not rights:
        return None
    return DIRECTOR if rights == {DIRECTOR} else TABLE


def _admin_pass(db: Any) -> str | None:
    """What a host's session carries: an HMAC of the current password and of the server's
    admin epoch, so a copied cookie stops working when the password changes or anyone logs
    out (:func:`end_admin_sessions`); None without a password."""
    password = current_app.config.get("ADMIN_PASSWORD")
    if not password:
        return None
    epoch = house.admin_epoch(db)
    return _mac("admin", f"{password}:{epoch}", None)


def is_host() -> bool:
    """The host: logged in at ``/admin`` with the host's password (:func:`is_admin`), or
    the browser that opened a host link (:func:`holds_host_link`). Never decided by the
    request's address or any header: behind a proxy on the same machine every client
    comes from loopback, and ``X-Forwarded-For`` is whatever the client wrote."""
    db = get_db()
    return is_admin(db) or holds_host_link(db)


#: Settings: the hash of the one unused host link's token, and the host epoch the
#: sessions it opened carry (a new link or a logout makes a new one: they end).
HOST_LINK, HOST_EPOCH = house.HOST_LINK, house.HOST_EPOCH


def _token_hash(given: str) -> str:
    return hashlib.sha256(given.encode()).hexdigest()


def new_host_link(db: Any) -> str:
    """A new host link's token (``/host/<token>``): random, kept only as its hash, usable
    once. Every browser a link made the host before is the host no longer (a new epoch)."""
    given = secrets.token_urlsafe(24)
    house.new_host_link(db, _token_hash(given))
    return given


def _host_mark(db: Any) -> str | None:
    """What a host link's session carries: an HMAC of the server's host epoch under the
    secret key (None before any link was made)."""
    epoch = house.host_epoch(db)
    return _mac("host-link", epoch, None) if epoch else None


def open_host_link(db: Any, given: object) -> bool:
    """Make this browser the host if ``given`` is the unused host link's token (it is
    then used up); False for any other."""
    if not isinstance(given, str) or not 16 <= len(given) <= 100:
        return False
    if not house.use_host_link(db, _token_hash(given)):
        return False
    session["host"] = _host_mark(db)
    return True


def holds_host_link(db: Any | None = None) -> bool:
    """Whether this browser opened a host link still in force (no logout, no newer link)."""
    given = session.get("host")
    if not isinstance(given, str):
        return False
    expected = _host_mark(db if db is not None else get_db())
    return expected is not None and same(given, expected)


def variant_token(rid: str, secret: str | bytes | None = None) -> str:
    """The token a house variant's maker gets (``POST /api/rulesets``): deleting it
    through the API needs it (or the host)."""
    return _mac("variant-token", rid, secret)[:40]


def may_delete_variant(header: str, rid: str) -> bool:
    given = bearer(header)
    return given is not None and same(given, variant_token(rid))


def remember_variant(rid: str) -> None:
    """This browser made the variant: it may delete it."""
    session["variants"] = [rid, *(v for v in made_variants() if v != rid)][:REMEMBERED]


def made_variants() -> list[str]:
    made = session.get("variants", [])
    return [v for v in made if isinstance(v, str)] if isinstance(made, list) else []


def is_admin(db: Any | None = None) -> bool:
    given = session.get("admin")
    if not isinstance(given, str) or not current_app.config.get("ADMIN_PASSWORD"):
        return False
    expected = _admin_pass(db if db is not None else get_db())
    return expected is not None and same(given, expected)


def start_admin_session(db: Any) -> None:
    session["admin"] = _admin_pass(db)


def end_admin_sessions(db: Any) -> None:
    """Log out: this browser, and every copy of any host's cookie, by password or by host
    link (new epochs)."""
    house.end_host_sessions(db)
    session.pop("admin", None)
    session.pop("host", None)


def check_admin_password(given: object) -> bool:
    expected = current_app.config.get("ADMIN_PASSWORD")
    return bool(expected) and same(given, str(expected))


def tournament_token(tid: str, secret: str | bytes | None = None) -> str:
    """The director's token of a tournament (given when it is created): the only way to
    draw its rounds, seat or withdraw players and close it, through the API
    (``Authorization: Bearer``) or the director's link (``/tournaments/<id>/direct/<token>``,
    which makes this browser the director)."""
    return _mac("tournament-token", tid, secret)[:40]


def is_director_token(given: object, tid: str) -> bool:
    return same(given, tournament_token(tid))


class NoDirectorToken(NoToken):
    """A director's change through the API without a token (401)."""

    message = _l("Send the director's token: Authorization: Bearer <token>.")


class WrongDirectorToken(WrongToken):
    """A director's change with a token that is not this tournament's director's (403)."""

    message = _l("This token is not this tournament's director's.")


def check_director(header: str, tid: str) -> None:
    """The API's check: :class:`NoDirectorToken` (401) or :class:`WrongDirectorToken` (403)
    unless the ``Authorization`` header brings the tournament's director token."""
    given = bearer(header)
    if given is None:
        raise NoDirectorToken()
    if not is_director_token(given, tid) and not club_directs(get_db(), tid,
                                                              ClubHolder(given, host=False)):
        raise WrongDirectorToken()


def remember_director(tid: str) -> None:
    """This browser opened the director's link: it directs the tournament from now on."""
    session["directs"] = [tid, *(t for t in directed() if t != tid)][:REMEMBERED]


def directed() -> list[str]:
    made = session.get("directs", [])
    return [t for t in made if isinstance(t, str)] if isinstance(made, list) else []


def directs(tid: str) -> bool:
    """Whether this browser (or the request's ``Authorization`` header) is the director's."""
    header = request.headers.get("Authorization", "")
    return tid in directed() or (bearer(header) is not None
                                 and is_director_token(bearer(header), tid)) \
        or club_directs(get_db(), tid)


# -- clubs (issue 36) ----------------------------------------------------------------------
#
# A club's rights, weakest first: a **member** reads the club's pages (a private club's
# too) and starts its games; a **director** (named by the manager) also makes and directs
# the club's tournaments; the **manager** also changes the club (public or private, its
# casual games in the ratings, its default ruleset), invites and names directors. The
# manager's token is an HMAC of the club's id (given once, when the club is made; the
# browser that made it remembers it, and the manager's link makes another browser the
# manager); a director's is an HMAC of the club and the director's row (it stops when the
# manager removes the director); a member's browser remembers the club it joined by its
# invitation link or code, and an API client that joined by code gets the member's token.
# The home club's manager is the host, and everyone who uses the server is its member.

MANAGER, MEMBER = "manager", "member"
#: A club's rights, strongest first (a director's is :data:`DIRECTOR`).
CLUB_RIGHTS = (MANAGER, DIRECTOR, MEMBER)


def club_token(cid: str, secret: str | bytes | None = None) -> str:
    """The manager's token of a club (``POST /api/clubs`` gives it, once)."""
    return _mac("club-token", cid, secret)[:40]


def club_director_token(cid: str, did: int, secret: str | bytes | None = None) -> str:
    """The token of director ``did`` of a club (in the director's link too)."""
    return _mac("club-director", f"{cid}:{did}", secret)[:40]


def club_member_token(cid: str, secret: str | bytes | None = None) -> str:
    """A member's token of a club, for the API (``POST /api/join-club`` gives it)."""
    return _mac("club-member", cid, secret)[:40]


def _listed(key: str) -> list[str]:
    found = session.get(key, [])
    return [c for c in found if isinstance(c, str)] if isinstance(found, list) else []


@dataclass(frozen=True)
class ClubHolder:
    """What a request brings that can carry a club's right: its bearer token, and the
    clubs its browser manages, is a member of and directs (``club:director`` marks). The
    API brings only the token."""

    bearer: str | None = None
    manages: frozenset[str] = frozenset()
    member_of: frozenset[str] = frozenset()
    directs: frozenset[str] = frozenset()
    #: Whether it is the host (the home club's manager); None: ask :func:`is_host` when
    #: the home club's right is asked (no other club's needs it).
    host: bool | None = None

    @classmethod
    def of_request(cls, api: bool | None = None) -> ClubHolder:
        given = bearer(request.headers.get("Authorization", ""))
        if api if api is not None else request.path.startswith("/api/"):
            return cls(given, host=False)
        return cls(given, frozenset(_listed("clubs_managed")),
                   frozenset(_listed("clubs_joined")), frozenset(_listed("clubs_directed")))


def club_right(db: Any, cid: str, holder: ClubHolder | None = None,
               secret: str | bytes | None = None) -> str | None:
    """**The one function that decides a club right**: :data:`MANAGER`, :data:`DIRECTOR`,
    :data:`MEMBER` or None (a stranger) for the club ``cid``, by what ``holder`` (default:
    this request's) brings. The home club's manager is the host, and everyone else is
    its member (a server that never asks for clubs works as before)."""
    holder = holder if holder is not None else _club_holder()
    given = holder.bearer
    if cid == reads.HOME_CLUB:
        return MANAGER if (is_host() if holder.host is None else holder.host) else MEMBER
    if cid in holder.manages or (given is not None and same(given, club_token(cid, secret))):
        return MANAGER
    marks = {m.partition(":")[2] for m in holder.directs if m.partition(":")[0] == cid}
    if marks or given is not None:
        named = {str(d["id"]) for d in reads.club_directors(db, cid)}
        if marks & named or (given is not None and any(
                same(given, club_director_token(cid, int(d), secret)) for d in named)):
            return DIRECTOR
    if cid in holder.member_of or (given is not None
                                   and same(given, club_member_token(cid, secret))):
        return MEMBER
    return None


def _club_holder() -> ClubHolder:
    kept = g.setdefault("club_holder", {})
    api = request.path.startswith("/api/")
    if api not in kept:
        kept[api] = ClubHolder.of_request(api)
    return kept[api]


def at_least(right: str | None, wanted: str) -> bool:
    """Whether ``right`` is ``wanted`` or stronger (:data:`CLUB_RIGHTS`)."""
    return right in CLUB_RIGHTS and CLUB_RIGHTS.index(right) <= CLUB_RIGHTS.index(wanted)


def may_read_club(db: Any, club: Any, holder: ClubHolder | None = None) -> bool:
    """**The one function that decides who may read a club's pages** (its players, nights,
    season): anyone when the club is public, its members, directors and manager when it
    is private."""
    return bool(club.public) or club_right(db, club.id, holder) is not None


def readable_club(db: Any, cid: str, holder: ClubHolder | None = None) -> Any:
    """The club ``cid`` if this request may read it; ``ClubNotFound`` (404: a private
    club's id is not told to strangers) otherwise."""
    club = clubs.load(db, cid)
    if not may_read_club(db, club, holder):
        raise clubs.ClubNotFound(cid)
    return club


class ClubRefused(Forbidden):
    """Who may read a club asked for what only a higher right in it may (403)."""

    message = _l("Only the club's manager can do this.")


class NotClubManager(ClubRefused):
    """A member (or director) of a club asked for what only its manager may."""


class NotClubDirector(ClubRefused):
    message = _l("Only the club's manager and its directors can make its tournaments.")


class NotClubMember(ClubRefused):
    message = _l("Only the club's members can start its games. Ask the manager for an "
                 "invitation.")


class NoClubToken(NoToken):
    """A club's write through the API without a token (401)."""

    message = _l("Send the club's token: Authorization: Bearer <token>.")


_REFUSALS = {MANAGER: NotClubManager, DIRECTOR: NotClubDirector, MEMBER: NotClubMember}


def require_club(db: Any, cid: str, wanted: str, holder: ClubHolder | None = None) -> Any:
    """The club ``cid`` if this request holds ``wanted`` in it (or a stronger right); else
    404 to a stranger of a private club (``ClubNotFound``), 401 to an API client without a
    token, and 403 (:class:`NotClubManager`…) to one who may read the club."""
    holder = holder if holder is not None else _club_holder()
    club = clubs.load(db, cid)
    right = club_right(db, cid, holder)
    if at_least(right, wanted):
        return club
    if right is None and not club.public:
        raise clubs.ClubNotFound(cid)
    if right is None and holder.bearer is None and request.path.startswith("/api/"):
        raise NoClubToken()
    raise _REFUSALS[wanted]()


def remember_club(cid: str, right: str, did: int | None = None) -> None:
    """This browser holds ``right`` in the club from now on: it made the club or opened
    the manager's link (:data:`MANAGER`), opened a director's link (:data:`DIRECTOR`,
    director ``did``) or joined by the invitation (:data:`MEMBER`)."""
    key, value = {MANAGER: ("clubs_managed", cid), DIRECTOR: ("clubs_directed", f"{cid}:{did}"),
                  MEMBER: ("clubs_joined", cid)}[right]
    kept = _listed(key)
    if kept[:1] != [value]:
        session[key] = [value, *(c for c in kept if c != value)][:REMEMBERED]
    g.pop("club_holder", None)


def my_clubs() -> list[str]:
    """The clubs this browser manages, directs or joined, most recent first of each."""
    seen: dict[str, None] = {}
    for cid in (*_listed("clubs_managed"), *(m.partition(":")[0]
                                              for m in _listed("clubs_directed")),
                *_listed("clubs_joined")):
        seen.setdefault(cid)
    return list(seen)


def is_club_director_link(cid: str, did: object, given: object) -> bool:
    return isinstance(did, int) and same(given, club_director_token(cid, did))


def is_club_manager_link(cid: str, given: object) -> bool:
    return same(given, club_token(cid))


def club_directs(db: Any, tid: str, holder: ClubHolder | None = None,
                 secret: str | bytes | None = None) -> bool:
    """Whether ``holder`` (default: this request's) directs tournament ``tid`` by its
    club's right: the manager or a director of the club it belongs to (not the home
    club's: there a tournament's director is the one its link made, as before). Asks
    nothing of the database unless the holder brings a club's mark or a token."""
    holder = holder if holder is not None else _club_holder()
    if not (holder.bearer or holder.manages or holder.directs):
        return False
    try:
        cid = reads.club_of_tournament(db, tid)
    except TournamentNotFound:
        return False
    return cid != reads.HOME_CLUB and at_least(club_right(db, cid, holder, secret), DIRECTOR)


def club_of_person_readable(db: Any, pid: Any) -> Any:
    """The club of person ``pid`` when this request may read it (None: the home club's,
    read by anyone); ``PersonNotFound`` (404) for a private club's person and a stranger,
    as for no person at all (a person's id is a small number: it must not tell that a
    private club has them)."""
    cid = reads.club_of_person(db, pid)
    if cid == reads.HOME_CLUB:
        return None
    try:
        return readable_club(db, cid)
    except clubs.ClubNotFound:
        raise PersonNotFound(pid) from None
