"""What the server keeps between requests so that a page every phone reloads is cheap.

One cache, :data:`pages`, of rendered answers by what they show, never by who asks: a
game's page is kept per game, version, language, address and the reader's kind (at the
table or not), so the four phones of a table share one render per version. What differs
per browser comes separately: the forms of a kept page carry a marker where the CSRF
token goes, and :func:`page` puts the asking session's signed token there (and makes the
answer's ETag from the page's and the token's, so one phone's ETag never matches
another's). A page is not kept while a message is waiting to be shown (a flash).

Everything here is keyed so that it cannot go stale: a game's entries carry the game's
*version*, read from the database on every request (one indexed row), and every write,
by this process or another, raises it. What is kept is bounded (least recently used
first) and lives in the process; a restart starts empty, and :func:`clear` empties every
kept value of the process at once (the tests call it). ETags, gzip and ``304`` are the
answer pipeline's (:mod:`.pipeline`).
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from flask import Flask, Response, current_app, g, request, session
from flask_wtf.csrf import generate_csrf

from ..common.lru import LRU
from ..domain import reads
from .db import open_db
from .pipeline import digest

#: Rendered pages (with the CSRF marker) and other answers' bodies, by what they show.
pages = LRU(512)
#: Signed CSRF tokens and their ETag parts, by session token.
tokens = LRU(1024)

#: Put where the session's CSRF token goes while a kept page is rendered. A player's
#: name cannot contain it (names lose control characters).
CSRF_MARKER = "\x00csrf\x00"
_MARKER = CSRF_MARKER.encode()


def clear() -> None:
    """Forget every kept value of this process (as after a restart)."""
    LRU.clear_every()


@dataclass(frozen=True)
class Body:
    """An answer's bytes and their ETag."""

    data: bytes
    digest: str

    @classmethod
    def of(cls, text: str | bytes) -> Body:
        data = text.encode() if isinstance(text, str) else text
        return cls(data, digest(data))


def page(key: Hashable, render: Callable[[], str]) -> Body:
    """The page ``render`` makes, kept under ``key`` (which must hold everything the
    page depends on but the session's CSRF token and flashed messages), with this
    session's CSRF token in its forms."""
    if session.get("_flashes"):  # a message for this one view: render it afresh
        return Body.of(render())
    full = ("page", current_app.secret_key, *key) if isinstance(key, tuple) else key
    kept = pages.get(full)
    if kept is None:
        kept = Body.of(_rendered(CSRF_MARKER, render))
        pages.put(full, kept)
    if _MARKER not in kept.data:
        request.environ[SHOWN] = (full, None)
        return kept
    token = csrf_token()
    request.environ[SHOWN] = (full, token)
    return _spliced(kept, token)


def _rendered(token: str, render: Callable[[], str]) -> str:
    """``render()`` with ``token`` wherever a form's CSRF token goes.

    Flask-WTF has no public way to render one page for every session: its
    generate_csrf() answers what it memoised for the request on ``g`` (under the field's
    name), so the page is rendered with ``token`` there (the marker, or nothing)."""
    real = g.pop("csrf_token", None)
    g.csrf_token = token  # generate_csrf() answers it while rendering
    try:
        return render()
    finally:
        g.pop("csrf_token", None)
        if real is not None:
            g.csrf_token = real


def part(key: tuple, render: Callable[[], str]) -> Body:
    """A live fragment ``render`` makes, kept under ``key`` (everything it depends on):
    the same bytes for every phone that asks (one gzip, one ETag, 304 while unchanged),
    so its forms' CSRF token is left empty; the page the phone shows has its own, and
    static/live.js puts it in. Flashed messages are neither shown nor taken."""
    full = ("part", current_app.secret_key, *key)
    kept = pages.get(full)
    if kept is None:
        kept = Body.of(_rendered("", render))
        pages.put(full, kept)
    request.environ[SHOWN] = (full, None)
    return kept


#: Each game version's score rows as a signature (the players' names, and per row its
#: number, result, points and totals), so that a live fragment carries only the rows that
#: changed since the version the phone shows (:func:`changed_rows`).
rows = LRU(4096)


def note_rows(game: Any) -> tuple:
    """Remember the rows of ``game`` (a ``service.Game``) at its version."""
    sig = (tuple(game.players), tuple(
        (s.deal.number, repr(s.result), tuple(s.points), tuple(s.totals))
        for s in game.state.scored))
    rows.put((game.id, game.version), sig)
    return sig


def changed_rows(game: Any, since: int | None) -> frozenset[int] | None:
    """The deal numbers whose score rows differ between version ``since`` of the game (as
    remembered by :func:`note_rows`) and ``game``; None (every row) when that version's
    rows are not known, or the players' names changed."""
    new = note_rows(game)
    old = rows.get((game.id, since)) if since is not None else None
    if old is None or old[0] != new[0]:
        return None
    before = {r[0]: r for r in old[1]}
    return frozenset(r[0] for r in new[1] if before.get(r[0]) != r)


#: Pieces of a rendered answer kept by what they show, under a key that holds everything
#: each depends on, its language too (a projector's line of the standings, a table's
#: cell: ``views/tournaments.py``), so that an answer of thousands of lines renders only
#: the lines that changed.
pieces = LRU(16384)


def _spliced(kept: Body, token: tuple[str, str] | None) -> Body:
    """A kept page with a session's CSRF token (signed, and its ETag part) in its forms."""
    if token is None:
        return kept
    return Body(kept.data.replace(_MARKER, token[0].encode()), f"{kept.digest}-{token[1]}")


def body(key: Hashable, make: Callable[[], Body]) -> Body:
    """``make()``, kept under ``key`` (which must hold everything it depends on)."""
    made = pages.get(key)
    if made is None:
        made = make()
        pages.put(key, made)
    request.environ[SHOWN] = (key, None)
    return made


def csrf_token() -> tuple[str, str]:
    """The session's CSRF token, signed once per session token and then reused (the
    token has no time limit, so a signature made earlier is as good), so the same page
    asked again by the same phone is the same bytes; and the part of a page's ETag that
    tells this token from another."""
    raw = session.get("csrf_token")
    if not isinstance(raw, str) or "csrf_token" in g \
            or current_app.config.get("WTF_CSRF_TIME_LIMIT") is not None:
        signed = generate_csrf()
        return signed, digest(signed.encode())[:8]
    key = ("csrf", current_app.secret_key, raw)
    known = tokens.get(key)
    if known is None:
        signed = generate_csrf()
        known = (signed, digest(signed.encode())[:8])
        tokens.put(key, known)
    g.csrf_token = known[0]
    return known


def respond(kept: Body, mimetype: str = "text/html",
            depends: Sequence[tuple[str, int]] | None = None,
            ids: Iterable[str] | None = None) -> Response:
    """A kept body as an answer, with its ETag (gzip and 304: :mod:`.pipeline`).

    ``depends``: the games (id, version, as :func:`..domain.reads.game_versions` gives
    them, for ``ids``, by default the stamp's own) the answer shows and nothing else of
    the database: the same request asked again while they stay so may be answered from
    the same kept body without Flask (:class:`Revisits`)."""
    resp = Response(kept.data, mimetype=mimetype, headers={"Cache-Control": "no-cache"})
    resp.set_etag(kept.digest)
    if depends is not None and SHOWN in request.environ:
        stamp = tuple(depends)
        request.environ[DEPENDS] = (tuple(ids) if ids is not None
                                    else tuple(gid for gid, _ in stamp), stamp)
    return resp


# -- a phone asking again ----------------------------------------------------------------

#: Where :func:`page` and :func:`body` say which kept body (and token) an answer is, and
#: :func:`respond` which games it depends on (the WSGI environ).
SHOWN = "kierki.shown"
DEPENDS = "kierki.depends_on"


@dataclass(frozen=True)
class Visit:
    """What Flask answered to one request: which kept body with which token, made from
    which games at which versions, with which headers (length and ETag aside)."""

    key: Hashable
    token: tuple[str, str] | None
    ids: tuple[str, ...]
    stamp: tuple[tuple[str, int], ...]
    status: str
    headers: tuple[tuple[str, str], ...]


#: Requests answered, at most this many (a club evening's phones and pages, with room).
VISITS = 2048


class Revisits:
    """WSGI middleware in front of Flask: a phone asking again for a page it has.

    Every phone at the table reloads the game page (and the live table's fallback polls
    it) many times per game version. When a view answered with a kept body and said
    which games it was made from (:func:`respond`), the request is remembered, keyed by
    everything in it that can change the answer: the address with its query, the host and
    scheme (a game page's join link), the ``Cookie`` header (the session: this browser's
    games and rights, its CSRF token, its language cookie), ``Accept-Language`` and
    ``Authorization``. What is remembered is not the page but which kept page it was and
    which token went in it: the page itself stays the one render every phone shares
    (:data:`pages`). The same request is answered with that page and that token for as
    long as the games are at the same versions, which are read from the database on every
    request (one indexed query), so a write by this process or any other is seen at once,
    and a deleted game is never shown again; an evicted page goes to Flask again.

    Never remembered, nor answered from memory: a ``GET`` with a body (Flask checks its
    size), anything but a ``GET`` answered ``200``, an answer that sets a cookie (a
    session that changed, a flashed message shown, a new CSRF token), and any answer whose
    view did not name its games. The answer leaves through the pipeline as Flask's does
    (headers, gzip, 304: :mod:`.pipeline`).
    """

    def __init__(self, app: Flask, wsgi_app: Callable[..., Any], size: int = VISITS):
        self.app = app
        self.wsgi_app = wsgi_app
        self.visits = LRU(size)

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]):
        if environ.get("REQUEST_METHOD") != "GET" or environ.get("CONTENT_LENGTH", "0") \
                not in ("", "0") or "HTTP_TRANSFER_ENCODING" in environ:
            return self.wsgi_app(environ, start_response)  # a GET with a body: Flask's limits
        key = (environ.get("PATH_INFO", ""), environ.get("QUERY_STRING", ""),
               environ.get("HTTP_COOKIE", ""), environ.get("HTTP_ACCEPT_LANGUAGE", ""),
               environ.get("HTTP_AUTHORIZATION", ""), environ.get("SCRIPT_NAME", ""),
               environ.get("HTTP_HOST", ""), environ.get("wsgi.url_scheme", ""))
        visit = self.visits.get(key)
        if visit is not None and self._current(visit):
            kept = pages.get(visit.key)
            if kept is not None:
                shown = _spliced(kept, visit.token)
                start_response(visit.status, [*visit.headers, ("ETag", f'"{shown.digest}"'),
                                              ("Content-Length", str(len(shown.data)))])
                return [shown.data]
        return self._answer(key, environ, start_response)

    def _current(self, visit: Visit) -> bool:
        db = open_db(self.app)
        try:
            return tuple(reads.game_versions(db, list(visit.ids))) == visit.stamp
        finally:
            db.close()

    def _answer(self, key: tuple, environ: dict[str, Any],
                start_response: Callable[..., Any]):
        """Flask's answer, remembered when it may be."""
        def capture(status: str, headers: list[tuple[str, str]], exc_info=None):
            shown, depends = environ.get(SHOWN), environ.get(DEPENDS)
            if exc_info is None and shown is not None and depends is not None \
                    and status.startswith("200 ") \
                    and not any(name.lower() == "set-cookie" for name, _ in headers):
                self.visits.put(key, Visit(
                    shown[0], shown[1], depends[0], depends[1], status,
                    tuple(h for h in headers
                          if h[0].lower() not in ("etag", "content-length"))))
            return start_response(status, headers, exc_info) if exc_info \
                else start_response(status, headers)

        return self.wsgi_app(environ, capture)


def init_app(app: Flask) -> None:
    app.wsgi_app = Revisits(app, app.wsgi_app)  # type: ignore[method-assign]
