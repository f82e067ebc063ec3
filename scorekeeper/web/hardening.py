"""The HTTP layer's hardening, in one place: security headers on every response, and
versioned static URLs with a long cache lifetime.

* Every response carries a strict Content-Security-Policy (scripts only from this
  origin, no inline script), ``nosniff``, ``X-Frame-Options: DENY``, a same-origin
  referrer policy and no ``Server`` header.
* ``url_for('static', filename=...)`` of an existing file adds ``?v=<hash of its
  content>``; a static file asked for with its current hash may be cached for a year,
  anything else (no hash, an old one, the bare ``/static/`` base the print page uses)
  only briefly.

ETags, gzip and ``304`` are :mod:`.caches`' (one layer for every answer).
"""
from __future__ import annotations

import hashlib
import os
import threading

from flask import Flask, Response, current_app, request
from werkzeug.security import safe_join

from .caches import COMPRESSED_TYPES, digest

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

#: A static file fetched with its current content hash never changes under that URL.
LONG_CACHE = "public, max-age=31536000, immutable"
#: Without it (or with an old one) the browser keeps it for a few minutes only.
SHORT_CACHE = "public, max-age=300"

class StaticVersions:
    """Short content hashes of the static files, recomputed when a file changes."""

    def __init__(self) -> None:
        self._known: dict[str, tuple[int, int, str]] = {}
        self._lock = threading.Lock()

    def version(self, folder: str | None, filename: str) -> str | None:
        """The hash of ``filename`` under ``folder``; None if it is not a file there."""
        if not folder or not filename:
            return None
        path = safe_join(folder, filename)
        if path is None:
            return None
        try:
            st = os.stat(path)
        except OSError:
            return None
        if not os.path.isfile(path):
            return None
        known = self._known.get(path)
        if known and known[:2] == (st.st_mtime_ns, st.st_size):
            return known[2]
        with open(path, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()[:12]
        with self._lock:
            self._known[path] = (st.st_mtime_ns, st.st_size, digest)
        return digest


versions = StaticVersions()


def _add_static_version(endpoint: str, values: dict) -> None:
    """``url_for('static', filename='app.css')`` -> ``/static/app.css?v=<hash>``.

    Only a full file name is versioned: ``url_for('static', filename='')`` stays the bare
    ``/static/`` base that the print page puts in front of ``sheet.css``.
    """
    if endpoint != "static" or "v" in values:
        return
    v = versions.version(current_app.static_folder, values.get("filename") or "")
    if v:
        values["v"] = v


def _harden(response: Response) -> Response:
    for name, value in SECURITY_HEADERS.items():
        response.headers[name] = value
    response.headers.pop("Server", None)
    response.headers.pop("X-Powered-By", None)
    if request.endpoint == "static" and response.status_code in (200, 206, 304):
        filename = (request.view_args or {}).get("filename", "")
        wanted = request.args.get("v")
        current = versions.version(current_app.static_folder, filename)
        response.headers["Cache-Control"] = \
            LONG_CACHE if wanted and wanted == current else SHORT_CACHE
        response.headers.pop("Expires", None)
        if response.status_code == 200 and response.direct_passthrough \
                and response.mimetype in COMPRESSED_TYPES:
            # A small text file: read it whole and close it, so that it is compressed
            # like any page, with its length and a strong ETag of its bytes (Flask's
            # names the file's time and size). Anything else stays streamed and is never
            # compressed (a range answer, 206, included).
            response.direct_passthrough = False
            file, body = response.response, b"".join(response.iter_encoded())
            if hasattr(file, "close"):
                file.close()
            response.set_data(body)
            response.set_etag(digest(body))
    return response


def init_app(app: Flask) -> None:
    app.after_request(_harden)
    app.url_defaults(_add_static_version)
