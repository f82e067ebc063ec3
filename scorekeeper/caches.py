"""The HTTP cache layer: kept bodies, one conditional answer, one gzip.

What the server keeps between requests so that a page every phone reloads is cheap, and
the one place where any answer gets its ETag, its ``304 Not Modified`` and its gzip:

* :func:`page`: a rendered page per key (the game, its version, the language, the
  address). Forms in it carry the CSRF token of the session that asks, put in place of
  a marker on every request; a page is not kept while a message is waiting to be shown
  (a flash). :func:`body`: any other answer's bytes per key (the API's game).
* Every ``GET`` answered ``200`` with a body leaves with a strong ETag of its bytes
  (:func:`_tag`; a view that has kept a :class:`Body` already knows it), is gzipped by
  Flask-Compress at one level for clients that accept gzip (weights honoured:
  ``gzip;q=0`` is a refusal), with the gzip of each distinct body kept
  (:class:`GzipKept`), and is answered ``304`` when the client has it
  (:func:`_conditional`, for pages, API answers, sheets and static files alike).

Everything here is keyed so that it cannot go stale: a game's entries carry the game's
*version*, read from the database on every request (one indexed row), and every write,
by this process or another, raises it. What is kept is bounded (least recently used
first) and lives in the process; a restart starts empty, and :func:`clear` empties every
kept value of the process at once (the tests call it).
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from flask import Flask, Response, current_app, g, request, session
from flask_compress import Compress
from flask_wtf.csrf import generate_csrf

from .lru import LRU

#: Rendered pages (with the CSRF marker) and answers' bodies, by key.
pages = LRU(512)
#: gzip bodies by the digest of the plain body.
gzipped = LRU(256)
#: Signed CSRF tokens by session token.
tokens = LRU(1024)

#: Put where the session's CSRF token goes while a kept page is rendered. A player's
#: name cannot contain it (names lose control characters).
CSRF_MARKER = "\x00csrf\x00"

#: Where an answer's digest waits for Flask-Compress's cache (the WSGI environ).
DIGEST = "kierki.digest"

#: Answers compressed for clients that accept it (PDFs are not).
COMPRESSED_TYPES = [
    "text/html", "text/css", "text/javascript", "application/javascript",
    "application/json", "text/csv", "image/svg+xml",
]


def clear() -> None:
    """Forget every kept value of this process (as after a restart)."""
    LRU.clear_every()


@dataclass(frozen=True)
class Body:
    """An answer's bytes and their digest (its ETag)."""

    data: bytes
    digest: str

    @classmethod
    def of(cls, text: str | bytes) -> Body:
        data = text.encode() if isinstance(text, str) else text
        return cls(data, _digest(data))


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=12).hexdigest()


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
        return body(("body", full), lambda: Body.of(html))
    token = csrf_token()
    return body(("body", full, token), lambda: Body.of(html.replace(CSRF_MARKER, token)))


def body(key: Hashable, make: Callable[[], Body]) -> Body:
    """``make()``, kept under ``key`` (which must hold everything it depends on)."""
    made = pages.get(key)
    if made is None:
        made = make()
        pages.put(key, made)
    return made


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


def respond(kept: Body, mimetype: str = "text/html") -> Response:
    """A kept body as an answer, with its ETag (gzip and 304 follow in the hooks)."""
    resp = Response(kept.data, mimetype=mimetype, headers={"Cache-Control": "no-cache"})
    resp.set_etag(kept.digest)
    return resp


def _tag(response: Response) -> Response:
    """A strong ETag for every ``GET`` answered ``200`` with a body in memory; its
    digest, for the gzip kept of it."""
    if request.method not in ("GET", "HEAD") or response.status_code != 200 \
            or response.is_streamed or response.direct_passthrough:
        return response
    etag, weak = response.get_etag()
    if etag is None:
        etag = _digest(response.get_data())
        response.set_etag(etag)
    if not weak:
        request.environ[DIGEST] = etag
    return response


def _conditional(response: Response) -> Response:
    """``304 Not Modified`` when the client has this answer (its ETag, gzip or not)."""
    if request.method in ("GET", "HEAD") and response.status_code == 200 \
            and "ETag" in response.headers:
        response.make_conditional(request)
    return response


def _digest_of(req) -> str:
    return req.environ.get(DIGEST, "")


class GzipKept:
    """Flask-Compress's cache: the gzip of each distinct body, by its digest.
    Flask-Compress asks it by the request alone, so the key is the digest :func:`_tag`
    left there; an answer without one (a write's answer) has the key ``gzip;`` and is
    compressed afresh each time, never kept."""

    def get(self, key: str) -> bytes | None:
        return None if key.endswith(";") else gzipped.get(key)

    def set(self, key: str, value: bytes) -> None:
        if not key.endswith(";"):
            gzipped.put(key, value)


def init_app(app: Flask) -> None:
    app.config.setdefault("COMPRESS_MIMETYPES", COMPRESSED_TYPES)
    # Browsers offer br and zstd over HTTPS only; the table's phones talk plain HTTP on
    # the LAN, so gzip is what they get.
    app.config.setdefault("COMPRESS_ALGORITHM", ["gzip"])
    app.config.setdefault("COMPRESS_STREAMS", False)
    app.config.setdefault("COMPRESS_MIN_SIZE", 500)
    # Level 1: a game page (38 KB) in 0.13 ms to 7.3 KB, where level 6 takes 0.5 ms for
    # 6.2 KB; on a Raspberry Pi the processor is what is short, not the table's Wi-Fi.
    app.config.setdefault("COMPRESS_LEVEL", 1)
    app.config["COMPRESS_CACHE_BACKEND"] = GzipKept
    app.config["COMPRESS_CACHE_KEY"] = _digest_of
    app.config["COMPRESS_EVALUATE_CONDITIONAL_REQUEST"] = False  # _conditional, for all
    # after_request functions run last-registered first: tag, compress, then 304.
    app.after_request(_conditional)
    app.extensions["compress"] = Compress(app)
    app.after_request(_tag)
