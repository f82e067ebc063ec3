"""Who may read and who may write, as the web asks it: what a request brings (its
:class:`Holder`, made from the session and the ``Authorization`` header, by blueprint) and
the facts read from the domain, handed to the one function of :mod:`..domain.rights` that
decides each right.

- **Read** (:func:`require_read`, asked before every view that names a game, tournament
  or evening, by :func:`check_read`): a public club's games and tournaments are read by
  whoever has their address (a game's id is unguessable, 96 random bits); a private
  club's by its members, directors and manager and by the game's own table (for a
  tournament, the table of any of its games, and its director). Anyone else gets the
  same 404 as an unknown id, on every page, fragment, stream, file and API answer.
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

import base64
import hashlib
import secrets
from dataclasses import replace
from typing import Any

from flask import current_app, g, request, session
from flask_babel import lazy_gettext as _l
from werkzeug.exceptions import Forbidden, NotFound, Unauthorized

from ..domain import clubs, house, people, reads, rights
from ..domain.errors import GameNotFound, PersonNotFound, TournamentNotFound
from ..domain.reads import CODE_ALPHABET, CODE_LENGTHS
from ..domain.rights import CLUB_RIGHTS, DIRECTOR, MANAGER, MEMBER, TABLE, Holder, at_least
from .db import get_db

#: How many games a browser remembers (the most recently opened first).
REMEMBERED = 60

__all__ = ["CLUB_RIGHTS", "DIRECTOR", "MANAGER", "MEMBER", "TABLE", "Holder", "at_least"]


def _api() -> bool:
    """Whether this request is the JSON API's (its blueprint): there a cookie is no right."""
    return request.blueprint == "api"


def normalise_code(text: object) -> str:
    """What a player typed as a code, case, spaces and dashes ignored; "" if it is none."""
    if not isinstance(text, str):
        return ""
    code = "".join(c for c in text.upper() if c not in " -\t")
    return code if len(code) in CODE_LENGTHS and set(code) <= set(CODE_ALPHABET) else ""


def _key(secret: str | bytes | None = None) -> str | bytes:
    return current_app.config["SECRET_KEY"] if secret is None else secret


def _mac(purpose: str, gid: str, secret: str | bytes | None) -> str:
    """An HMAC of an id for one purpose, under ``secret`` (else the app's key)."""
    return rights.mac(purpose, gid, _key(secret))


def token(gid: str, secret: str | bytes | None = None) -> str:
    """The API write token of a game (under ``secret``, else the app's secret key)."""
    return rights.game_token(gid, _key(secret))


def join_secret(gid: str, secret: str | bytes | None = None) -> str:
    """The long secret of a game's join link and table card: 96 bits of an HMAC of the id
    (as many as the id's own), in 16 URL-safe characters so the QR code stays small.
    Whoever scans it joins the table, with no limit to meet."""
    digest = bytes.fromhex(_mac("join-link", gid, secret))[:12]
    return base64.urlsafe_b64encode(digest).decode()


def is_join_secret(gid: str, given: object) -> bool:
    return same(given, join_secret(gid))


def reference(gid: str, secret: str | bytes | None = None) -> str:
    """A short reference printed on a game's sheet: a few characters of a hash of the
    id under the server's secret, so two sheets of one game can be matched, but the
    id (the game's link), its join code and its token cannot be found from it."""
    return _mac("sheet-ref", gid, secret)[:6].upper()


same = rights.same


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
        g.pop("holders", None)
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


def request_holder(api: bool | None = None) -> Holder:
    """This request's holder (read once per request): through the API (``api``, default
    the request's blueprint) only its bearer token, in a browser also what its signed
    session cookie remembers."""
    api = _api() if api is None else api
    kept = g.setdefault("holders", {})
    if api not in kept:
        given = bearer(request.headers.get("Authorization", ""))
        kept[api] = Holder(given, host=False) if api else Holder(
            given, frozenset(table_games()), frozenset(directed()),
            frozenset(_listed("clubs_managed")), frozenset(_listed("clubs_directed")),
            frozenset(_member_marks()))
    return kept[api]


def write_right(gid: str, tournament_id: str | None, holder: Holder,
                secret: str | bytes | None = None) -> str | None:
    """Who may write a game (:func:`..domain.rights.write_right`), under the app's key."""
    return rights.write_right(gid, tournament_id, holder, _key(secret))


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
        right = write_right(gid, where.tournament_id if where else None, request_holder(api))
        if right is None and where is not None and club_directs(db, where.tournament_id,
                                                                request_holder(api)):
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
    if api if api is not None else _api():
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
                                              Holder(given, host=False), secret):
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
                                                              Holder(given, host=False)):
        raise WrongDirectorToken()


def remember_director(tid: str) -> None:
    """This browser opened the director's link: it directs the tournament from now on."""
    session["directs"] = [tid, *(t for t in directed() if t != tid)][:REMEMBERED]
    g.pop("holders", None)


def directed() -> list[str]:
    made = session.get("directs", [])
    return [t for t in made if isinstance(t, str)] if isinstance(made, list) else []


def directs(tid: str) -> bool:
    """Whether this browser (or the request's ``Authorization`` header) is the director's."""
    header = request.headers.get("Authorization", "")
    return tid in directed() or (bearer(header) is not None
                                 and is_director_token(bearer(header), tid)) \
        or club_directs(get_db(), tid)


# -- clubs ---------------------------------------------------------------------------------
#
# A club's rights, weakest first: a **member** reads the club's pages (a private club's
# too) and starts its games; a **director** (named by the manager) also makes and directs
# the club's tournaments; the **manager** also changes the club (public or private, its
# casual games in the ratings, its default ruleset), invites, names directors and removes
# members. The manager's token is an HMAC of the club's id (given once, when the club is
# made; the browser that made it remembers it, and the manager's link makes another
# browser the manager); a director's is an HMAC of the club and the director's row (it
# stops when the manager removes the director); a member's is random, their own, kept by
# the store as its hash (:func:`..domain.clubs.join`): the browser that joined keeps it
# in its session, an API client gets it; removing the member ends it. The home club's
# manager is the host, and everyone who uses the server is its member.


def club_token(cid: str, secret: str | bytes | None = None) -> str:
    """The manager's token of a club (``POST /api/clubs`` gives it, once)."""
    return rights.club_token(cid, _key(secret))


def club_director_token(cid: str, did: int, secret: str | bytes | None = None) -> str:
    """The token of director ``did`` of a club (in the director's link too)."""
    return rights.club_director_token(cid, did, _key(secret))


def _listed(key: str) -> list[str]:
    found = session.get(key, [])
    return [c for c in found if isinstance(c, str)] if isinstance(found, list) else []


def _member_marks() -> list[tuple[str, str]]:
    """The (club, member token) pairs this browser keeps."""
    found = session.get("members", [])
    return [(m[0], m[1]) for m in found if isinstance(m, list) and len(m) == 2
            and all(isinstance(x, str) for x in m)] if isinstance(found, list) else []


#: Kept for the names the views use: one holder carries every right.
ClubHolder = Holder


def club_right(db: Any, cid: str, holder_: Holder | None = None,
               secret: str | bytes | None = None) -> str | None:
    """This request's (or ``holder_``'s) right in club ``cid``
    (:func:`..domain.rights.club_right`): :data:`MANAGER`, :data:`DIRECTOR`,
    :data:`MEMBER` or None."""
    held = holder_ if holder_ is not None else request_holder()
    home = cid == reads.HOME_CLUB
    if home and held.host is None:
        held = replace(held, host=is_host())
    return rights.club_right(
        cid, held, _key(secret), home,
        directors=lambda: [d["id"] for d in reads.club_directors(db, cid)],
        is_member=lambda tokens: clubs.is_member(db, cid, tokens))


def may_read_club(db: Any, club: Any, holder_: Holder | None = None) -> bool:
    """Who may read a club's own pages (its players, nights, season): anyone when the
    club is public, else whoever holds a right in it (:func:`..domain.rights.may_read`)."""
    return rights.may_read(bool(club.public), None if club.public
                           else club_right(db, club.id, holder_), None)


def readable_club(db: Any, cid: str, holder_: Holder | None = None) -> Any:
    """The club ``cid`` if this request may read it; ``ClubNotFound`` (404: a private
    club's id is not told to strangers) otherwise."""
    club = clubs.load(db, cid)
    if not may_read_club(db, club, holder_):
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
    held = holder if holder is not None else request_holder()
    club = clubs.load(db, cid)
    right = club_right(db, cid, held)
    if at_least(right, wanted):
        return club
    if right is None and not club.public:
        raise clubs.ClubNotFound(cid)
    if right is None and held.bearer is None and _api():
        raise NoClubToken()
    raise _REFUSALS[wanted]()


def remember_club(cid: str, right: str, did: int | None = None) -> None:
    """This browser holds ``right`` in the club from now on: it made the club or opened
    the manager's link (:data:`MANAGER`), or opened a director's link (:data:`DIRECTOR`,
    director ``did``). A member is remembered by their token (:func:`remember_member`)."""
    key, value = {MANAGER: ("clubs_managed", cid),
                  DIRECTOR: ("clubs_directed", f"{cid}:{did}")}[right]
    kept = _listed(key)
    if kept[:1] != [value]:
        session[key] = [value, *(c for c in kept if c != value)][:REMEMBERED]
    g.pop("holders", None)


def remember_member(cid: str, given: str) -> None:
    """This browser joined the club: it keeps the member's own token (its right ends
    when the manager removes that member)."""
    kept = [[c, t] for c, t in _member_marks() if c != cid]
    session["members"] = [[cid, given], *kept][:REMEMBERED]
    g.pop("holders", None)


def my_clubs() -> list[str]:
    """The clubs this browser manages, directs or joined, most recent first of each."""
    seen: dict[str, None] = {}
    for cid in (*_listed("clubs_managed"), *(m.partition(":")[0]
                                              for m in _listed("clubs_directed")),
                *(c for c, _ in _member_marks())):
        seen.setdefault(cid)
    return list(seen)


def is_club_director_link(cid: str, did: object, given: object) -> bool:
    return isinstance(did, int) and same(given, club_director_token(cid, did))


def is_club_manager_link(cid: str, given: object) -> bool:
    return same(given, club_token(cid))


def club_directs(db: Any, tid: str, holder: Holder | None = None,
                 secret: str | bytes | None = None) -> bool:
    """Whether ``holder`` (default: this request's) directs tournament ``tid`` by its
    club's right: the manager or a director of the club it belongs to (not the home
    club's: there a tournament's director is the one its link made, as before). Asks
    nothing of the database unless the holder brings a club's mark or a token."""
    holder = holder if holder is not None else request_holder()
    if not (holder.bearer or holder.manages or holder.club_directs):
        return False
    try:
        cid = reads.club_of_tournament(db, tid)
    except TournamentNotFound:
        return False
    return cid != reads.HOME_CLUB and rights.may_direct_club(club_right(db, cid, holder, secret))


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


# -- reading ---------------------------------------------------------------------------------


def _club_reader(db: Any, cid: str) -> bool | None:
    """Whether the club's right settles reading: True when club ``cid`` is public or this
    request holds a right in it (or is the host); None when only a table's right can."""
    if cid == reads.HOME_CLUB:
        return True
    club = clubs.load(db, cid)
    if club.public:
        return True
    g.private_read = True  # what a kept-page layer must never answer without asking
    if rights.may_read(False, club_right(db, cid), None) or is_host():
        return True
    return None


def may_read_game(db: Any, gid: str) -> bool:
    """Whether this request may read game ``gid`` (:func:`..domain.rights.may_read`: its
    club's right, else its table's); ``GameNotFound`` if there is none."""
    return bool(_club_reader(db, reads.club_of_game(db, gid))) or rights.may_read(
        False, None, right_here(db, gid))


def may_read_tournament(db: Any, tid: str) -> bool:
    """Whether this request may read tournament ``tid``: its club's right, else its
    director's, else the table of any of its games (a phone or a game's token);
    ``TournamentNotFound`` if there is none."""
    if _club_reader(db, reads.club_of_tournament(db, tid)):
        return True
    held = request_holder()
    table = None
    if tid in held.directs or (held.bearer is not None and is_director_token(held.bearer,
                                                                             tid)):
        table = DIRECTOR
    elif clubs.tables_among(db, tid, sorted(held.games)) or (
            held.bearer is not None and any(same(held.bearer, token(gid))
                                            for gid in clubs.tournament_games(db, tid))):
        table = TABLE
    return rights.may_read(False, None, table)


def require_read(db: Any, gid: str | None = None, tid: str | None = None,
                 eid: str | None = None, cid: str | None = None) -> None:
    """This request may read what it names, or the same 404 as for an unknown id."""
    if cid is not None:
        readable_club(db, cid)
    if gid is not None and not may_read_game(db, gid):
        raise GameNotFound(gid)
    if tid is not None and not may_read_tournament(db, tid):
        raise TournamentNotFound(tid)
    if eid is not None:
        try:
            ev = people.evening(db, eid)
        except people.EveningNotFound:
            raise NotFound() from None
        if ev.games and not (_club_reader(db, reads.club_of_game(db, ev.games[0]))
                             or any(right_here(db, gid) for gid in ev.games)):
            raise NotFound()


#: Views that take their own credential in the address (a director's or manager's link):
#: they decide for themselves, and make this browser a reader.
OWN_CREDENTIAL = frozenset({"tournaments.direct", "clubs.manager_link",
                            "clubs.director_link"})


def check_read() -> None:
    """Before every view: the game, tournament, evening or club its address names must be
    readable by this request (:func:`require_read`)."""
    args = request.view_args
    if not args or request.endpoint in OWN_CREDENTIAL or request.method == "OPTIONS":
        return  # (OPTIONS names the methods of an address, nothing of what it holds)
    named = {k: args[k] for k in ("gid", "tid", "eid", "cid") if isinstance(args.get(k), str)}
    if named:
        require_read(get_db(), **named)


def _private_answer(response: Any) -> Any:
    """A private club's answer is never remembered by a layer in front of Flask: each
    request is asked again (a removed member's cookie reads nothing more)."""
    if g.get("private_read"):
        request.environ.pop("kierki.depends_on", None)
    return response


def init_app(app: Any) -> None:
    missing = OWN_CREDENTIAL - set(app.view_functions)
    if missing:
        raise LookupError(f"no views {sorted(missing)} to leave their own check to")
    app.before_request(check_read)
    app.after_request(_private_answer)
