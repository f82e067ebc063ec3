"""The HTTP layer's hardening: versioned static URLs with a long cache lifetime, the
trusted proxies, and the answer pipeline put in front of every layer.

* ``url_for('static', filename=...)`` of an existing file adds ``?v=<hash of its
  content>``; a static file asked for with its current hash may be cached for a year,
  anything else (no hash, an old one, the bare ``/static/`` base the print page uses)
  only briefly. A small static text file leaves Flask without Flask's ETag (its file's
  time and size), so the pipeline reads it and tags and gzips it like any page.

In front of every layer (:func:`front`, the last thing the app factory does), two WSGI
middlewares that every request passes, whatever answers it (Flask, the deal PUT's
router of :mod:`.api`, the refusal of an unknown host):

* the answer pipeline (:mod:`.pipeline`): security headers, HSTS on HTTPS answers,
  ETags, gzip and ``304``;
* in front of it, behind ``PROXY_HOPS`` reverse proxies (``KIERKI_PROXY_HOPS``, default
  0), Werkzeug's ``ProxyFix`` takes the scheme, host and client address from the proxies'
  ``X-Forwarded-Proto``, ``-Host`` and ``-For`` headers, so that the layers behind it see
  the address the phone opened (the join link, the cookie's ``Secure`` flag, HSTS).
"""
from __future__ import annotations

import hashlib
import os
import threading

from flask import Flask, Response, current_app, request
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.security import safe_join

from . import pipeline
from .pipeline import COMPRESSED_TYPES

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


def _static(response: Response) -> Response:
    """A static file's lifetime: a year under its current hash, else a few minutes."""
    if request.endpoint != "static" or response.status_code not in (200, 206, 304):
        return response
    filename = (request.view_args or {}).get("filename", "")
    wanted = request.args.get("v")
    current = versions.version(current_app.static_folder, filename)
    response.headers["Cache-Control"] = \
        LONG_CACHE if wanted and wanted == current else SHORT_CACHE
    response.headers.pop("Expires", None)
    if response.status_code == 200 and response.mimetype in COMPRESSED_TYPES:
        # A small text file: tagged by its bytes and gzipped by the pipeline, like any
        # page (Flask's ETag names the file's time and size). Anything else keeps
        # Flask's, and a range answer (206) is never compressed.
        response.headers.pop("ETag", None)
    return response


def proxy_hops(value: object) -> int:
    """``KIERKI_PROXY_HOPS`` as a number of proxies to trust (0: none, the default).

    >>> proxy_hops(None), proxy_hops(2), proxy_hops("1")
    (0, 2, 1)
    >>> proxy_hops("yes")
    Traceback (most recent call last):
    ...
    ValueError: KIERKI_PROXY_HOPS must be a whole number of proxies, 0 or more, not 'yes'
    """
    if value is None or value == "":
        return 0
    try:
        hops = int(str(value).strip())
    except ValueError:
        hops = -1
    if hops < 0 or isinstance(value, bool):
        raise ValueError("KIERKI_PROXY_HOPS must be a whole number of proxies, 0 or more, "
                         f"not {value!r}")
    return hops


def init_app(app: Flask) -> None:
    app.after_request(_static)
    app.url_defaults(_add_static_version)


def front(app: Flask) -> None:
    """The outermost layers, put around everything else (so called last): the answer
    pipeline, and in front of it the trusted proxies' forwarded headers."""
    pipeline.init_app(app)
    hops = proxy_hops(app.config.get("PROXY_HOPS"))
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops,  # type: ignore[method-assign]
                                x_host=hops, x_port=hops)
