"""Who may see and change a game: its table, that is whoever has its link or join code.

- A game's id is unguessable (96 random bits); its *join code* is short enough to say
  across the table. Whoever has either may open the game and enter deals in the
  browser (every form also carries a CSRF token and the game's version).
- A browser remembers the games it created, opened or joined in its signed session
  cookie; the front page lists only those.
- The JSON API reads a game by its id; a write needs ``Authorization: Bearer <token>``.
  The token is given when the game is created (``POST /api/games``) or joined by code
  (``POST /api/join``); it is an HMAC of the id under the server's secret key, so it is
  never stored and cannot be guessed from the id.
- The host lists and deletes any game with ``kierki games``; with
  ``KIERKI_ADMIN_PASSWORD`` set, ``/admin`` does the same in a browser.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from typing import Any

from flask import current_app, request, session
from flask_babel import lazy_gettext as _l
from werkzeug.exceptions import Forbidden, Unauthorized

from ..storage import queries, store
from ..storage.store import CODE_ALPHABET, CODE_LENGTH
from .db import get_db

#: How many games a browser remembers (the most recently opened first).
REMEMBERED = 60


def normalise_code(text: object) -> str:
    """What a player typed as a code, case, spaces and dashes ignored; "" if it is none."""
    if not isinstance(text, str):
        return ""
    code = "".join(c for c in text.upper() if c not in " -\t")
    return code if len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET) else ""


def _same(given: object, expected: str) -> bool:
    """Whether a token (or password) given is the one expected, compared in constant time
    as UTF-8 bytes: a header or form may bring any text (``hmac.compare_digest`` refuses
    a non-ASCII ``str``), and a lone surrogate, which no UTF-8 can hold, is never equal."""
    if not isinstance(given, str):
        return False
    try:
        given_bytes = given.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return hmac.compare_digest(given_bytes, expected.encode("utf-8", "surrogateescape"))


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


def bearer(header: str) -> str | None:
    """The token an ``Authorization`` header brings; None if it brings none."""
    scheme, _, given = header.partition(" ")
    return given.strip() if scheme.lower() == "bearer" and given.strip() else None


def may_write(header: str, gid: str, secret: str | bytes | None = None) -> bool:
    """Whether this ``Authorization`` header brings ``gid``'s token."""
    given = bearer(header)
    return given is not None and _same(given, token(gid, secret))


class NoToken(Unauthorized):
    """A write through the API without ``Authorization: Bearer <token>`` (401)."""


class WrongToken(Forbidden):
    """A write through the API with another game's token, or none of ours (403)."""


def check_token(header: str, gid: str, secret: str | bytes | None = None) -> None:
    """Raise :class:`NoToken` or :class:`WrongToken` unless this ``Authorization`` header
    may write ``gid``."""
    if bearer(header) is None:
        raise NoToken()
    if not may_write(header, gid, secret):
        raise WrongToken()


def require_token(gid: str) -> None:
    """The request's own ``Authorization`` header, checked (:func:`check_token`)."""
    check_token(request.headers.get("Authorization", ""), gid)


def remember(gid: str) -> None:
    """This browser knows the game from now on (most recent first). The cookie is only
    rewritten when that order changes."""
    games = known()
    if games[:1] != [gid]:
        session["games"] = [gid, *(g for g in games if g != gid)][:REMEMBERED]


def forget(gid: str) -> None:
    session["games"] = [g for g in session.get("games", []) if g != gid]


def known() -> list[str]:
    """The games this browser created, opened or joined, most recent first."""
    games = session.get("games", [])
    return [g for g in games if isinstance(g, str)] if isinstance(games, list) else []


def _admin_pass(db: Any) -> str | None:
    """What a host's session carries: an HMAC of the current password and of the server's
    admin epoch, so a copied cookie stops working when the password changes or anyone logs
    out (:func:`end_admin_sessions`); None without a password."""
    password = current_app.config.get("ADMIN_PASSWORD")
    if not password:
        return None
    epoch = queries.setting(db, "admin_epoch") or ""
    return _mac("admin", f"{password}:{epoch}", None)


def is_host() -> bool:
    """The host: logged in at ``/admin``, or at the machine the server runs on (a request
    from its own loopback address, as the laptop at the table)."""
    address = request.remote_addr or ""
    return address in ("127.0.0.1", "::1") or is_admin()


def sat_with(db: Any, pid: int) -> bool:
    """Whether this browser knows a game the person ``pid`` played in (it created,
    opened or joined it): it sat at their table."""
    return bool(list(db.query(
        "select 1 from players where person_id = ? and game_id in "
        "(select value from json_each(?)) limit 1", [pid, json.dumps(known())])))


def variant_token(rid: str, secret: str | bytes | None = None) -> str:
    """The token a house variant's maker gets (``POST /api/rulesets``): deleting it
    through the API needs it (or the host)."""
    return _mac("variant-token", rid, secret)[:40]


def may_delete_variant(header: str, rid: str) -> bool:
    given = bearer(header)
    return given is not None and _same(given, variant_token(rid))


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
    return expected is not None and _same(given, expected)


def start_admin_session(db: Any) -> None:
    session["admin"] = _admin_pass(db)


def end_admin_sessions(db: Any) -> None:
    """Log out: this browser, and every copy of any host's cookie (a new epoch)."""
    store.set_setting(db, "admin_epoch", secrets.token_hex(16))
    session.pop("admin", None)


def check_admin_password(given: object) -> bool:
    expected = current_app.config.get("ADMIN_PASSWORD")
    return bool(expected) and _same(given, str(expected))


def tournament_token(tid: str, secret: str | bytes | None = None) -> str:
    """The director's token of a tournament (given when it is created): the only way to
    draw its rounds, seat or withdraw players and close it, through the API
    (``Authorization: Bearer``) or the director's link (``/tournaments/<id>/direct/<token>``,
    which makes this browser the director)."""
    return _mac("tournament-token", tid, secret)[:40]


def is_director_token(given: object, tid: str) -> bool:
    return _same(given, tournament_token(tid))


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
    if not is_director_token(given, tid):
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
                                 and is_director_token(bearer(header), tid))
