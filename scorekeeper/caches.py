"""What the server keeps between requests so that a page every phone reloads is cheap.

Everything here is keyed so that it cannot go stale: a game's entries carry the game's
*version*, read from the database on every request (one indexed row), and every write,
by this process or another, raises it. What is kept is bounded (least recently used
entries go first) and lives in the process; a restart starts empty.

* :data:`.lru.games`: a loaded game (its row, its rules and its replayed state) per game id
  and version; after a write the service puts the new version in, so the next page
  needs no replay at all.
* :func:`page`: a rendered page per key (the game, its version, the language, the
  address). Forms in it carry the CSRF token of the session that asks, put in place of
  a marker on every request; a page is not cached while a message is waiting to be
  shown (a flash).
* :func:`respond`: an answer with a strong ETag from its body (one ETag per distinct
  body), ``304 Not Modified`` when the phone has that body already, and the gzip body
  kept per body, so a page asked again is not compressed again.
* :class:`SessionInterface`: the signed session cookie, verified once per cookie value
  and then read from memory.
"""
from __future__ import annotations

import copy
import hashlib
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from flask import Flask, Response, current_app, g, request, session
from flask.sessions import SecureCookieSessionInterface
from flask_wtf.csrf import generate_csrf

from .lru import LRU, games, newest
from .web import gzip_bytes

#: Rendered pages (with the CSRF marker) by key.
pages = LRU(256)
#: gzip bodies by the digest of the plain body.
gzipped = LRU(256)
#: Signed CSRF tokens by session token.
tokens = LRU(1024)

#: Put where the session's CSRF token goes while a cached page is rendered. A player's
#: name cannot contain it (names lose control characters).
CSRF_MARKER = "\x00csrf\x00"


def clear() -> None:
    from . import repeats
    for cache in (games, newest, pages, gzipped, tokens):
        cache.clear()
    repeats.clear()


@dataclass(frozen=True)
class Body:
    """An answer's bytes and their digest (its ETag)."""

    data: bytes
    digest: str

    @classmethod
    def of(cls, text: str | bytes) -> Body:
        data = text.encode() if isinstance(text, str) else text
        return cls(data, hashlib.blake2b(data, digest_size=12).hexdigest())


def page(key: Hashable, render: Callable[[], str]) -> Body:
    """The page ``render`` makes, kept under ``key`` (which must hold everything the
    page depends on but the session's CSRF token and flashed messages)."""
    if session.get("_flashes"):  # a message for this one view: render it afresh
        return Body.of(render())
    full = (current_app.secret_key, *key) if isinstance(key, tuple) else key
    html = pages.get(full)
    if html is None:
        real = g.pop("csrf_token", None)
        g.csrf_token = CSRF_MARKER  # generate_csrf() answers the marker while rendering
        try:
            html = render()
        finally:
            g.pop("csrf_token", None)
            if real is not None:
                g.csrf_token = real
        pages.put(full, html)
    if CSRF_MARKER not in html:
        return kept(("body", full), lambda: Body.of(html))
    token = csrf_token()
    return kept(("body", full, token), lambda: Body.of(html.replace(CSRF_MARKER, token)))


def csrf_token() -> str:
    """The session's CSRF token, signed once per session token and then reused (the
    token has no time limit, so a signature made earlier is as good), so the same page
    asked again by the same phone is the same bytes: its ETag and gzip body hold."""
    raw = session.get("csrf_token")
    if not isinstance(raw, str) or "csrf_token" in g \
            or current_app.config.get("WTF_CSRF_TIME_LIMIT") is not None:
        return generate_csrf()
    key = ("csrf", current_app.secret_key, raw)
    signed = tokens.get(key)
    if signed is None:
        signed = generate_csrf()
        tokens.put(key, signed)
    g.csrf_token = signed
    return signed


def kept(key: Hashable, make: Callable[[], Any]) -> Any:
    """``make()``, kept under ``key`` (which must hold everything it depends on)."""
    value = pages.get(key)
    if value is None:
        value = make()
        pages.put(key, value)
    return value


def respond(body: Body | str | bytes, mimetype: str = "text/html",
            status: int = 200) -> Response:
    """``body`` with a strong ETag of its bytes; 304 if the client has it; gzip (kept
    per body) when the client accepts it."""
    if not isinstance(body, Body):
        body = Body.of(body)
    data, digest = body.data, body.digest
    wants_gzip = "gzip" in request.headers.get("Accept-Encoding", "") \
        and len(data) >= current_app.config.get("COMPRESS_MIN_SIZE", 500)
    etag = f"{digest}:gzip" if wants_gzip else digest
    headers = {"Vary": "Accept-Encoding", "Cache-Control": "no-cache"}
    if status == 200 and request.if_none_match.contains(etag):
        resp = Response(status=304, headers=headers)
        resp.set_etag(etag)
        return resp
    if wants_gzip:
        packed = gzipped.get(digest)
        if packed is None:
            packed = gzip_bytes(data, 6)
            gzipped.put(digest, packed)
        data = packed
        headers["Content-Encoding"] = "gzip"
    resp = Response(data, status=status, mimetype=mimetype, headers=headers)
    resp.set_etag(etag)
    return resp


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed cookie session, with each cookie value verified once.

    Checking a cookie's signature and decoding it costs more than a whole hello-world
    request; a phone sends the same cookie with every request until its session changes.
    A verified cookie's contents are kept (by the cookie's value and the secret key) for
    a minute and copied for each request, so changing the session never changes what is
    kept."""

    SECONDS = 60.0

    def __init__(self) -> None:
        self._known = LRU(1024)
        self._serializers = LRU(8)

    def get_signing_serializer(self, app: Flask) -> Any:
        """Flask's serializer, made once per secret key (and fallbacks), not per request."""
        key = (app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()))
        made = self._serializers.get(key)
        if made is None:
            made = super().get_signing_serializer(app)
            if made is None:
                return None
            self._serializers.put(key, made)
        return made

    def open_session(self, app: Flask, request) -> Any:
        value = request.cookies.get(self.get_cookie_name(app))
        if not value or not app.secret_key:
            return super().open_session(app, request)
        key = (app.secret_key, value)
        known = self._known.get(key)
        if known is not None and known[0] > time.monotonic():
            return self.session_class(copy.deepcopy(known[1]))
        opened = super().open_session(app, request)
        if opened is not None and value == request.cookies.get(self.get_cookie_name(app)) \
                and dict(opened):
            self._known.put(key, (time.monotonic() + self.SECONDS, copy.deepcopy(dict(opened))))
        return opened


def init_app(app: Flask) -> None:
    app.session_interface = SessionInterface()
