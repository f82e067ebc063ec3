"""Repeated requests answered before Flask: a phone asking again for a page it has.

Every phone at the table reloads the game page (and the live table's fallback polls it)
many times per game version. A page that a view declares as made from some games only
(:func:`depends_on`) is kept as it was sent, keyed by everything in the request that
can change the answer: the host and scheme (a game page's join link), the address with
its query, the ``Cookie`` header (the session: this browser's games, its CSRF token, its
language cookie), ``Accept-Language``, whether gzip is accepted, and ``Authorization``. The same request bytes are answered with the
same response bytes for as long as the games it was made from are at the same versions,
which are read from the database on every request (one indexed query), so a write by
this process or by any other is seen at once, and a deleted game is never shown again.

What is never kept: anything but a ``GET`` answered ``200``, an answer that sets a
cookie (a session that changed, a flashed message that was shown, a new CSRF token), a
streamed answer, and any answer whose view did not call :func:`depends_on`.

A kept answer skips the whole of Flask (session, locale, CSRF, routing, headers), so it
costs a dictionary lookup and the version query. ``If-None-Match`` with the kept ETag
is answered ``304`` as Flask would.
"""
from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from flask import Flask, request
from werkzeug.http import parse_etags, unquote_etag

from . import queries
from .db import pool_of
from .lru import LRU

#: Where a view says which games its answer was made from (the WSGI environ).
ENVIRON_KEY = "kierki.depends_on"

#: Answers kept, at most this many (a club evening's phones and pages, with room).
SIZE = 1024

#: Headers a 304 leaves out (it has no body).
BODY_HEADERS = frozenset({"content-length", "content-type", "content-encoding"})


def depends_on(stamp: Sequence[tuple[str, int]], ids: Iterable[str] | None = None) -> None:
    """Declare that this request's answer depends on these games at these versions
    only (``stamp``: (id, version) pairs as :func:`.queries.game_versions` gives them, for
    ``ids``, which defaults to the stamp's own ids)."""
    ids = tuple(ids) if ids is not None else tuple(gid for gid, _ in stamp)
    request.environ[ENVIRON_KEY] = (ids, tuple(stamp))


@dataclass(frozen=True)
class Kept:
    ids: tuple[str, ...]
    stamp: tuple[tuple[str, int], ...]
    status: str
    headers: list[tuple[str, str]]
    body: bytes
    etag: str | None


class Repeats:
    """WSGI middleware in front of ``app.wsgi_app``; see the module's text."""

    def __init__(self, app: Flask, wsgi_app: Callable[..., Any], size: int = SIZE):
        self.app = app
        self.wsgi_app = wsgi_app
        self.kept = LRU(size)
        answers.add(self.kept)

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]):
        if environ.get("REQUEST_METHOD") != "GET":
            return self.wsgi_app(environ, start_response)
        key = (environ.get("PATH_INFO", ""), environ.get("QUERY_STRING", ""),
               environ.get("HTTP_COOKIE", ""), environ.get("HTTP_ACCEPT_LANGUAGE", ""),
               "gzip" in environ.get("HTTP_ACCEPT_ENCODING", ""),
               environ.get("HTTP_AUTHORIZATION", ""), environ.get("SCRIPT_NAME", ""),
               environ.get("HTTP_HOST", ""), environ.get("wsgi.url_scheme", ""))
        kept = self.kept.get(key)
        if kept is not None and self._current(kept):
            return self._replay(kept, environ, start_response)
        return self._answer(key, environ, start_response)

    def _current(self, kept: Kept) -> bool:
        pool = pool_of(self.app)
        db = pool.take()
        try:
            return tuple(queries.game_versions(db, list(kept.ids))) == kept.stamp
        finally:
            pool.give(db)

    @staticmethod
    def _replay(kept: Kept, environ: dict[str, Any], start_response: Callable[..., Any]):
        asked = environ.get("HTTP_IF_NONE_MATCH", "")
        if kept.etag and asked and parse_etags(asked).contains(unquote_etag(kept.etag)[0]):
            start_response("304 NOT MODIFIED",
                           [h for h in kept.headers if h[0].lower() not in BODY_HEADERS])
            return [b""]
        start_response(kept.status, list(kept.headers))
        return [kept.body]

    def _answer(self, key: tuple, environ: dict[str, Any],
                start_response: Callable[..., Any]):
        """Flask's answer, kept when it may be."""
        seen: dict[str, Any] = {}

        def capture(status: str, headers: list[tuple[str, str]], exc_info=None):
            seen["status"], seen["headers"] = status, headers
            return start_response(status, headers, exc_info) if exc_info \
                else start_response(status, headers)

        result = self.wsgi_app(environ, capture)
        declared = environ.get(ENVIRON_KEY)
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
        self.kept.put(key, Kept(declared[0], declared[1], seen["status"],
                                list(seen["headers"]), body, etag))
        return [body]


#: Every app's kept answers (for :func:`clear`).
answers: weakref.WeakSet[LRU] = weakref.WeakSet()


def clear() -> None:
    for kept in answers:
        kept.clear()


def init_app(app: Flask) -> None:
    app.wsgi_app = Repeats(app, app.wsgi_app)  # type: ignore[method-assign]
