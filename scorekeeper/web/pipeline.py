"""The answer pipeline: the one layer every answer leaves through.

Whatever made the answer (a Flask view, an error handler, the deal PUT's router of
:mod:`.api`, the refusal of an unknown host, a static file), it passes :class:`Pipeline`,
a WSGI middleware just inside the trusted proxies' (:func:`.hardening.front`), which:

* sets the security headers (:data:`SECURITY_HEADERS`) on every answer, and
  ``Strict-Transport-Security`` on every answer to an HTTPS request (:data:`HSTS`; one
  over plain HTTP, a laptop on the table's Wi-Fi, never has it); drops ``Server``;
* gives every ``GET`` answered ``200`` with a whole body a strong ETag of its bytes
  (:func:`digest`, the one function that makes an ETag; an answer made from a kept page
  brings one made by it already, :mod:`.caches`);
* gzips a text answer of at least ``GZIP_MIN_SIZE`` bytes for a client whose
  ``Accept-Encoding`` gives gzip a weight above 0 (``gzip;q=0`` is a refusal), at
  ``GZIP_LEVEL``, keeping the gzip of each distinct body by its ETag, which then ends in
  ``:gzip``;
* answers ``304 Not Modified`` when the client already has that ETag (:func:`not_modified`).

A write's answer (the game after a deal) is read once by the phone that sent it: it is
neither tagged nor gzipped (gzip would cost the server's processor on every write, a third
of a deal's own work, to save a few kilobytes on the table's Wi-Fi). A streamed answer (the
live table's event stream) passes untouched but for its headers.

The error shape is here too: :func:`refusal_json` is the one body of every refused API
request (``{"error": …}`` and what the refusal adds), whoever refuses it.
"""
from __future__ import annotations

import hashlib
import zlib
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

from flask import Flask
from werkzeug.http import is_resource_modified, parse_accept_header

from ..common.lru import LRU

#: Inline ``style="--n: …"`` attributes (the seat count of a grid, set by templates) are
#: the only inline thing the pages use: allowed for attributes alone, never for
#: ``<style>`` elements and never for scripts.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; "
    "script-src 'self'; "
    "style-src 'self'; "
    "style-src-attr 'unsafe-inline'; "
    "img-src 'self' data:; "
    "media-src 'self'; "
    "font-src 'self'; "
    "connect-src 'self'; "
    "object-src 'none'; "
    "base-uri 'none'; "
    "form-action 'self'; "
    "frame-ancestors 'none'"
)

SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}

#: What an HTTPS answer says: use HTTPS for this host for a year (its subdomains are left
#: alone: a LAN name's neighbours may well be plain-HTTP devices).
HSTS = ("Strict-Transport-Security", "max-age=31536000")

#: Answers compressed for clients that accept it (PDFs are not).
COMPRESSED_TYPES = frozenset({
    "text/html", "text/css", "text/javascript", "application/javascript",
    "application/json", "text/csv", "image/svg+xml",
})

#: Headers the pipeline sets itself, and those it drops, by lower-case name.
_OWN = frozenset({*(name.lower() for name in SECURITY_HEADERS), HSTS[0].lower(), "server",
                  "x-powered-by"})
#: Headers a 304 leaves out (it has no body).
BODY_HEADERS = frozenset({"content-length", "content-type", "content-encoding"})
_SECURITY = tuple(SECURITY_HEADERS.items())

#: gzip bodies by the ETag of the plain body.
gzipped = LRU(256)


def digest(data: bytes) -> str:
    """The ETag of a body: a hash of its bytes (the only function that makes one).

    >>> digest(b"a") == digest(b"a") != digest(b"b"), len(digest(b""))
    (True, 24)
    """
    return hashlib.blake2b(data, digest_size=12).hexdigest()


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


def not_modified(environ: dict[str, Any], etag: str | None) -> bool:
    """Whether the client already has the answer with this (unquoted) ETag."""
    return bool(etag) and "HTTP_IF_NONE_MATCH" in environ \
        and not is_resource_modified(environ, etag=etag)


@lru_cache(maxsize=64)
def accepts_gzip(header: str) -> bool:
    """Whether an ``Accept-Encoding`` header gives gzip a weight above 0 (werkzeug's
    parser, as Flask reads it).

    >>> accepts_gzip("gzip, deflate, br"), accepts_gzip("gzip;q=0"), accepts_gzip("")
    (True, False, False)
    >>> accepts_gzip("*"), accepts_gzip("identity, *;q=0.5")
    (True, True)
    """
    return bool(header) and parse_accept_header(header).quality("gzip") > 0


def refusal_json(message: str, **extra: Any) -> dict[str, Any]:
    """The body of every refused API request: what went wrong in the asker's language,
    and what the refusal adds (``version`` of a conflict, ``errors`` by field).

    >>> refusal_json("Not found.")
    {'error': 'Not found.'}
    >>> refusal_json("The input was refused.", errors={"result": ["Wrong."]})
    {'error': 'The input was refused.', 'errors': {'result': ['Wrong.']}}
    """
    return {"error": str(message), **extra}


def _etag_of(headers: list[tuple[str, str]]) -> tuple[str | None, bool]:
    """The ETag header's value unquoted, and whether it is weak."""
    for name, value in headers:
        if name.lower() == "etag":
            weak = value.startswith("W/")
            return value[2:].strip('"') if weak else value.strip('"'), weak
    return None, False


class Pipeline:
    """WSGI middleware: every answer's headers, ETag, gzip and 304 (see the module)."""

    def __init__(self, app: Flask, wsgi_app: Callable[..., Any]):
        self.config = app.config
        self.wsgi_app = wsgi_app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]):
        seen: list[Any] = []

        def capture(status: str, headers: list[tuple[str, str]], exc_info=None):
            if exc_info is not None and seen:
                raise exc_info[1].with_traceback(exc_info[2])
            seen[:] = [status, headers, exc_info]
            return _refuse_write

        result = self.wsgi_app(environ, capture)
        status, headers, exc_info = seen
        headers = [h for h in headers if h[0].lower() not in _OWN]
        headers.extend(_SECURITY)
        if environ.get("wsgi.url_scheme") == "https":
            headers.append(HSTS)
        method = environ.get("REQUEST_METHOD")
        if method not in ("GET", "HEAD"):
            return _sent(start_response, status, headers, exc_info, result)
        kind = self._type(headers)
        if kind in COMPRESSED_TYPES:
            headers = _vary(headers)
        if method != "GET" or not status.startswith("200 ") or exc_info is not None:
            return _sent(start_response, status, headers, exc_info, result)
        length = self._length(headers)
        etag, weak = _etag_of(headers)
        encoded = any(n.lower() == "content-encoding" for n, _ in headers)
        config = self.config
        pack = kind in COMPRESSED_TYPES and not encoded and length is not None \
            and length >= config["GZIP_MIN_SIZE"] \
            and accepts_gzip(environ.get("HTTP_ACCEPT_ENCODING", ""))
        if length is None or (etag and not pack):  # streamed, or nothing to add but 304
            if etag and not_modified(environ, etag):
                return _unchanged(start_response, headers, result)
            return _sent(start_response, status, headers, exc_info, result)
        data = _read(result)
        if etag is None:
            etag, weak = digest(data), False
            headers.append(("ETag", f'"{etag}"'))
        if pack:
            packed = gzipped.get(etag) if not weak else None
            shown = f"{etag}:gzip"
            if not_modified(environ, shown):
                return _unchanged(start_response, _retag(headers, shown, weak), [])
            if packed is None:
                packed = gzip_bytes(data, config["GZIP_LEVEL"])
                if not weak:
                    gzipped.put(etag, packed)
            headers = [h for h in _retag(headers, shown, weak)
                       if h[0].lower() != "content-length"]
            headers += [("Content-Encoding", "gzip"), ("Content-Length", str(len(packed)))]
            data = packed
        elif not_modified(environ, etag):
            return _unchanged(start_response, headers, [])
        start_response(status, headers)
        return [data]

    @staticmethod
    def _type(headers: list[tuple[str, str]]) -> str:
        for name, value in headers:
            if name.lower() == "content-type":
                return value.partition(";")[0].strip().lower()
        return ""

    @staticmethod
    def _length(headers: list[tuple[str, str]]) -> int | None:
        for name, value in headers:
            if name.lower() == "content-length":
                return int(value) if value.isdigit() else None
        return None


def _refuse_write(data: bytes) -> None:  # pragma: no cover - nothing here writes so
    raise RuntimeError("the answer pipeline takes answers as iterables, not write()")


def _read(result: Iterable[bytes]) -> bytes:
    try:
        return b"".join(result)
    finally:
        if hasattr(result, "close"):
            result.close()


def _vary(headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``Vary`` says ``Accept-Encoding`` beside what it said (``Cookie``: a session).

    >>> _vary([("Vary", "Cookie")]), _vary([])
    ([('Vary', 'Cookie, Accept-Encoding')], [('Vary', 'Accept-Encoding')])
    """
    for i, (name, value) in enumerate(headers):
        if name.lower() == "vary":
            if "accept-encoding" not in value.lower():
                headers[i] = (name, f"{value}, Accept-Encoding")
            return headers
    headers.append(("Vary", "Accept-Encoding"))
    return headers


def _retag(headers: list[tuple[str, str]], etag: str, weak: bool) -> list[tuple[str, str]]:
    tag = f'W/"{etag}"' if weak else f'"{etag}"'
    return [(n, tag if n.lower() == "etag" else v) for n, v in headers]


def _sent(start_response: Callable[..., Any], status: str, headers: list[tuple[str, str]],
          exc_info: Any, result: Iterable[bytes]) -> Iterable[bytes]:
    if exc_info is not None:
        start_response(status, headers, exc_info)
    else:
        start_response(status, headers)
    return result


def _unchanged(start_response: Callable[..., Any], headers: list[tuple[str, str]],
               result: Iterable[bytes]) -> list[bytes]:
    if result:
        _read(result)  # closed: a file, a kept page's view
    start_response("304 NOT MODIFIED", [h for h in headers if h[0].lower() not in BODY_HEADERS])
    return [b""]


def init_app(app: Flask) -> None:
    # Level 1: a game page (38 KB) in 0.13 ms to 7.3 KB, where level 6 takes 0.5 ms for
    # 6.2 KB; on a Raspberry Pi the processor is what is short, not the table's Wi-Fi.
    app.config.setdefault("GZIP_LEVEL", 1)
    app.config.setdefault("GZIP_MIN_SIZE", 500)
    app.wsgi_app = Pipeline(app, app.wsgi_app)  # type: ignore[method-assign]
