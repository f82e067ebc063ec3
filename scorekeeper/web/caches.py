"""The HTTP cache layer: kept bodies, kept answers, one conditional answer, one gzip.

What the server keeps between requests so that a page every phone reloads is cheap, and
the one place where any answer gets its ETag, its ``304 Not Modified`` and its gzip:

* :func:`page`: a rendered page per key (the game, its version, the language, the
  address). Forms in it carry the CSRF token of the session that asks, put in place of
  a marker on every request; a page is not kept while a message is waiting to be shown
  (a flash). :func:`body`: any other answer's bytes per key (the API's game).
* Every ``GET`` answered ``200`` with a body leaves with a strong ETag of its bytes
  (:func:`_tag`; a view that has kept a :class:`Body` already knows it), is gzipped at
  one level for clients that accept gzip (:func:`_gzip`; weights honoured: ``gzip;q=0``
  is a refusal), with the gzip of each distinct body kept, and is answered ``304`` when
  the client has it
  (:func:`not_modified`, for pages, API answers, sheets, static files and kept answers
  alike).
* :class:`KeptAnswers`: a page asked again with the same request is answered with the
  bytes Flask gave it, before Flask runs (see its text): a kept answer is only ever
  Flask's own answer to the same request, so every guarantee Flask gave it (headers,
  access, the host it was asked by) holds for it.

Everything here is keyed so that it cannot go stale: a game's entries carry the game's
*version*, read from the database on every request (one indexed row), and every write,
by this process or another, raises it. What is kept is bounded (least recently used
first) and lives in the process; a restart starts empty, and :func:`clear` empties every
kept value of the process at once (the tests call it).
"""
from __future__ import annotations

import hashlib
import zlib
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from flask import Flask, Response, current_app, g, request, session
from flask_wtf.csrf import generate_csrf
from werkzeug.http import is_resource_modified

from ..common.lru import LRU
from ..domain import reads
from .db import pool_of

#: Rendered pages (with the CSRF marker) and answers' bodies, by key.
pages = LRU(512)
#: gzip bodies by the digest of the plain body.
gzipped = LRU(256)
#: Signed CSRF tokens by session token.
tokens = LRU(1024)

#: Put where the session's CSRF token goes while a kept page is rendered. A player's
#: name cannot contain it (names lose control characters).
CSRF_MARKER = "\x00csrf\x00"

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
        return cls(data, digest(data))


def digest(data: bytes) -> str:
    """The ETag of a body: a hash of its bytes."""
    return hashlib.blake2b(data, digest_size=12).hexdigest()


def page(key: Hashable, render: Callable[[], str]) -> Body:
    """The page ``render`` makes, kept under ``key`` (which must hold everything the
    page depends on but the session's CSRF token and flashed messages)."""
    if session.get("_flashes"):  # a message for this one view: render it afresh
        return Body.of(render())
    full = (current_app.secret_key, *key) if isinstance(key, tuple) else key
    html = pages.get(full)
    if html is None:
        # Flask-WTF has no public way to render one page for every session: its
        # generate_csrf() answers what it memoised for the request on ``g`` (under the
        # field's name), so the page is rendered with a marker there and each session's
        # signed token is put in its place (:func:`csrf_token`).
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
    """A strong ETag for every ``GET`` answered ``200`` with a body in memory."""
    if request.method in ("GET", "HEAD") and response.status_code == 200 \
            and not response.is_streamed and not response.direct_passthrough \
            and "ETag" not in response.headers:
        response.set_etag(digest(response.get_data()))
    return response


def gzip_bytes(data: bytes, level: int) -> bytes:
    """``data`` as one gzip member, with a window and tables sized to it (zlib's defaults,
    a 32 KiB window and 256 KiB of tables made and cleared per call, cost twice the
    time for a game's few kilobytes). A window as large as the data finds every match a
    larger one would.

    >>> import gzip
    >>> text = b'{"deals": [' + b'{"points": [0, -20, -40, 0]}, ' * 200 + b'{}]}'
    >>> gzip.decompress(gzip_bytes(text, 1)) == text, len(gzip_bytes(text, 1)) < 200
    (True, True)
    >>> gzip.decompress(gzip_bytes(b"", 1))
    b''
    """
    bits = min(15, max(9, (len(data) - 1).bit_length()))
    packer = zlib.compressobj(level, zlib.DEFLATED, 16 + bits, max(1, min(8, bits - 7)))
    return packer.compress(data) + packer.flush()


def _gzip(response: Response) -> Response:
    """The one gzip: answers to reads, of a text type and at least ``GZIP_MIN_SIZE``
    bytes, for a client whose ``Accept-Encoding`` gives gzip a weight above 0 (werkzeug's
    parser: ``gzip;q=0`` is a refusal), at ``GZIP_LEVEL``; the gzip of each distinct body
    is kept by its ETag, which says ``:gzip`` after it.

    A write's answer (the game after a deal) is read once by the phone that sent it and
    never kept: gzipping it would cost the server's processor on every write (a third of
    a deal's own work) to save a few kilobytes on the table's Wi-Fi."""
    if response.mimetype not in COMPRESSED_TYPES or request.method not in ("GET", "HEAD"):
        return response
    response.vary.add("Accept-Encoding")
    config = current_app.config
    etag, weak = response.get_etag()
    if response.status_code != 200 or response.is_streamed or response.direct_passthrough \
            or "Content-Encoding" in response.headers \
            or (response.content_length or 0) < config["GZIP_MIN_SIZE"] \
            or request.accept_encodings.quality("gzip") <= 0:
        return response
    packed = gzipped.get(etag) if etag and not weak else None
    if packed is None:
        packed = gzip_bytes(response.get_data(), config["GZIP_LEVEL"])
        if etag and not weak:
            gzipped.put(etag, packed)
    response.set_data(packed)
    response.headers["Content-Encoding"] = "gzip"
    if etag:
        response.set_etag(f"{etag}:gzip", weak=weak)
    return response


#: Headers a 304 leaves out (it has no body).
BODY_HEADERS = frozenset({"content-length", "content-type", "content-encoding"})


def not_modified(environ: dict[str, Any], etag: str | None) -> bool:
    """Whether the client already has the answer with this (unquoted) ETag: the one
    conditional check of every answer, Flask's and kept ones alike."""
    return bool(etag) and "HTTP_IF_NONE_MATCH" in environ \
        and not is_resource_modified(environ, etag=etag)


def _without_body(headers: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(k, v) for k, v in headers if k.lower() not in BODY_HEADERS]


def _conditional(response: Response) -> Response:
    """``304 Not Modified`` when the client has this answer (its ETag, gzip or not)."""
    if request.method in ("GET", "HEAD") and response.status_code == 200 \
            and not_modified(request.environ, response.get_etag()[0]):
        return Response(status=304, headers=_without_body(response.headers.items()))
    return response


# -- kept answers ----------------------------------------------------------------------

#: Where a view says which games its answer was made from (the WSGI environ).
DEPENDS_ON = "kierki.depends_on"


def depends_on(stamp: Sequence[tuple[str, int]], ids: Iterable[str] | None = None) -> None:
    """Declare that this request's answer depends on these games at these versions only
    (``stamp``: (id, version) pairs as :func:`..domain.reads.game_versions` gives them, for
    ``ids``, which defaults to the stamp's own ids): it may be kept and answered again
    while they stay so (:class:`KeptAnswers`)."""
    ids = tuple(ids) if ids is not None else tuple(gid for gid, _ in stamp)
    request.environ[DEPENDS_ON] = (ids, tuple(stamp))


@dataclass(frozen=True)
class Answer:
    """An answer Flask gave, as it was sent, and the games (at their versions) it shows."""

    ids: tuple[str, ...]
    stamp: tuple[tuple[str, int], ...]
    status: str
    headers: list[tuple[str, str]]
    body: bytes
    etag: str | None


#: Answers kept, at most this many (a club evening's phones and pages, with room).
ANSWERS = 1024


class KeptAnswers:
    """WSGI middleware in front of Flask: a phone asking again for a page it has.

    Every phone at the table reloads the game page (and the live table's fallback polls
    it) many times per game version. A ``GET`` answer whose view declared the games it
    was made from (:func:`depends_on`) is kept as it was sent, keyed by everything in the
    request that can change the answer: the host and scheme (a game page's join link),
    the address with its query, the ``Cookie`` header (the session: this browser's games,
    its CSRF token, its language cookie), ``Accept-Language``, ``Accept-Encoding`` and
    ``Authorization``. The same request is answered with the same bytes for as long as
    those games are at the same versions, which are read from the database on every
    request (one indexed query), so a write by this process or any other is seen at
    once, and a deleted game is never shown again. ``If-None-Match`` is answered by
    :func:`not_modified`, as Flask's answers are.

    Never kept, nor answered from what is kept: a ``GET`` with a body (Flask checks its
    size), anything but a ``GET`` answered ``200`` with its length, an answer that
    sets a cookie (a session that changed, a flashed message shown, a new CSRF token),
    and any answer whose view did not call :func:`depends_on`. A kept answer costs a
    dictionary lookup and the version query, less than a hello-world through Flask.
    """

    def __init__(self, app: Flask, wsgi_app: Callable[..., Any], size: int = ANSWERS):
        self.app = app
        self.wsgi_app = wsgi_app
        self.kept = LRU(size)

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]):
        if environ.get("REQUEST_METHOD") != "GET" or environ.get("CONTENT_LENGTH", "0") \
                not in ("", "0") or "HTTP_TRANSFER_ENCODING" in environ:
            return self.wsgi_app(environ, start_response)  # a GET with a body: Flask's limits
        key = (environ.get("PATH_INFO", ""), environ.get("QUERY_STRING", ""),
               environ.get("HTTP_COOKIE", ""), environ.get("HTTP_ACCEPT_LANGUAGE", ""),
               environ.get("HTTP_ACCEPT_ENCODING", ""),
               environ.get("HTTP_AUTHORIZATION", ""), environ.get("SCRIPT_NAME", ""),
               environ.get("HTTP_HOST", ""), environ.get("wsgi.url_scheme", ""))
        kept = self.kept.get(key)
        if kept is not None and self._current(kept):
            if not_modified(environ, kept.etag):
                start_response("304 NOT MODIFIED", _without_body(kept.headers))
                return [b""]
            start_response(kept.status, list(kept.headers))
            return [kept.body]
        return self._answer(key, environ, start_response)

    def _current(self, kept: Answer) -> bool:
        pool = pool_of(self.app)
        db = pool.take()
        try:
            return tuple(reads.game_versions(db, list(kept.ids))) == kept.stamp
        finally:
            pool.give(db)

    def _answer(self, key: tuple, environ: dict[str, Any],
                start_response: Callable[..., Any]):
        """Flask's answer, kept when it may be."""
        seen: dict[str, Any] = {}

        def capture(status: str, headers: list[tuple[str, str]], exc_info=None):
            seen["status"], seen["headers"] = status, headers
            return start_response(status, headers, exc_info) if exc_info \
                else start_response(status, headers)

        result = self.wsgi_app(environ, capture)
        declared = environ.get(DEPENDS_ON)
        if declared is None or not seen.get("status", "").startswith("200") \
                or any(name.lower() == "set-cookie" for name, _ in seen["headers"]):
            return result
        lengths = [v for n, v in seen["headers"] if n.lower() == "content-length"]
        if not lengths:
            return result  # streamed: not kept
        try:
            body = b"".join(result)
        finally:
            if hasattr(result, "close"):
                result.close()
        if len(body) != int(lengths[0]):
            return [body]
        etag = next((v for n, v in seen["headers"] if n.lower() == "etag"), None)
        self.kept.put(key, Answer(declared[0], declared[1], seen["status"],
                                  list(seen["headers"]), body,
                                  etag.strip('"') if etag else None))
        return [body]


def init_app(app: Flask) -> None:
    # Level 1: a game page (38 KB) in 0.13 ms to 7.3 KB, where level 6 takes 0.5 ms for
    # 6.2 KB; on a Raspberry Pi the processor is what is short, not the table's Wi-Fi.
    app.config.setdefault("GZIP_LEVEL", 1)
    app.config.setdefault("GZIP_MIN_SIZE", 500)
    # after_request functions run last-registered first: tag, gzip, then 304.
    app.after_request(_conditional)
    app.after_request(_gzip)
    app.after_request(_tag)
    app.wsgi_app = KeptAnswers(app, app.wsgi_app)  # type: ignore[method-assign]
