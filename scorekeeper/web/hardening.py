"""The HTTP layer's hardening: Flask's hooks and config, and the trusted proxies.

* Every answer carries the security headers, and an answer over HTTPS
  ``Strict-Transport-Security`` (:func:`_headers`, one ``after_request``).
* A ``GET`` answered ``200`` with a whole body carries an ETag (the view's, of what it
  shows: :func:`tagged`; else one of its bytes), and a client that has it gets ``304``.
  Compression is the proxy's in front (Caddy's ``encode``), not the app's.
* Only the names this server is known by are answered (Flask's ``TRUSTED_HOSTS``, against
  DNS rebinding; the join link is built from the request's host): ``KIERKI_ALLOWED_HOSTS``
  (comma-separated; ``*`` for any; a leading dot for a domain's subdomains), by default
  this machine's names and addresses, ``localhost`` and the host of ``KIERKI_PUBLIC_URL``.
  Any other is refused 400 in plain text before any view runs.
* ``url_for('static', filename=...)`` of a file adds ``?v=<hash of its content>``; a
  static file asked for with its current hash may be cached for a year, anything else
  only briefly.
* Behind ``KIERKI_PROXY_HOPS`` reverse proxies, Werkzeug's ``ProxyFix`` takes the scheme,
  host and client address from their ``X-Forwarded-*`` headers.
"""
from __future__ import annotations

import hashlib
import os
import socket
import stat
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, request, session
from werkzeug.exceptions import SecurityError
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.security import safe_join

from ..outputs.share import lan_address

#: Inline ``style="--n: …"`` attributes (the seat count of a grid, set by templates) are
#: the only inline thing the pages use: allowed for attributes alone, never for
#: ``<style>`` elements and never for scripts.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; "
    "img-src 'self' data:; media-src 'self'; font-src 'self'; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")

SECURITY_HEADERS = {"Content-Security-Policy": CONTENT_SECURITY_POLICY,
                    "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY",
                    "Referrer-Policy": "same-origin"}

#: What an HTTPS answer says: use HTTPS for this host for a year (its subdomains are left
#: alone: a LAN name's neighbours may well be plain-HTTP devices).
HSTS = ("Strict-Transport-Security", "max-age=31536000")


class StaticVersions:
    """Short content hashes of the static files, made again when a file changes."""

    def __init__(self) -> None:
        self._known: dict[str, tuple[tuple[int, int], str]] = {}

    def version(self, folder: str | None, filename: str) -> str | None:
        """The hash of ``filename`` under ``folder``; None if it is not a file there."""
        path = safe_join(folder, filename) if folder and filename else None
        try:
            st = os.stat(path or "")  # "": no such file
        except OSError:
            return None
        if not stat.S_ISREG(st.st_mode):
            return None
        seen = (st.st_mtime_ns, st.st_size)
        if path not in self._known or self._known[path][0] != seen:
            with open(path, "rb") as f:
                self._known[path] = (seen, hashlib.sha256(f.read()).hexdigest()[:12])
        return self._known[path][1]


versions = StaticVersions()


def _add_static_version(endpoint: str, values: dict) -> None:
    """``url_for('static', filename='app.css')`` -> ``/static/app.css?v=<hash>``.

    Only a full file name is versioned: ``url_for('static', filename='')`` stays the bare
    ``/static/`` base that the print page puts in front of ``sheet.css``.
    """
    if endpoint == "static" and "v" not in values and (
            v := versions.version(current_app.static_folder, values.get("filename") or "")):
        values["v"] = v


def _headers(response: Response) -> Response:
    """Every answer's security headers, HSTS over HTTPS, a static file's lifetime, and the
    ETag and 304 of a whole ``GET`` answered 200."""
    if request.endpoint == "static" and response.status_code in (200, 206, 304):
        # a year under its current hash, else a few minutes
        current = versions.version(current_app.static_folder,
                                   (request.view_args or {}).get("filename", ""))
        response.headers["Cache-Control"] = "public, max-age=31536000, immutable" \
            if current and request.args.get("v") == current else "public, max-age=300"
        response.headers.pop("Expires", None)
    response.headers.update(SECURITY_HEADERS)
    if request.is_secure:
        response.headers[HSTS[0]] = HSTS[1]
    if request.method in ("GET", "HEAD") and response.status_code == 200 \
            and not response.is_streamed and not response.direct_passthrough:
        response.add_etag()  # of the bytes, unless the view tagged what it shows
        response.make_conditional(request)
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
    try:
        hops = int(str(value or 0).strip())
    except ValueError:
        hops = -1
    if hops < 0 or isinstance(value, bool):
        raise ValueError("KIERKI_PROXY_HOPS must be a whole number of proxies, 0 or more, "
                         f"not {value!r}")
    return hops


def default_hosts(public_url: str | None) -> list[str]:
    """This machine's names and addresses, loopback, and the public URL's host."""
    names = {"localhost", "127.0.0.1", "::1", "[::1]", lan_address(),
             urlsplit(public_url or "").hostname}
    try:
        name = socket.gethostname()
        names |= {name, f"{name}.local", socket.getfqdn()}
    except OSError:  # pragma: no cover - a machine without a name
        pass
    return sorted(n for n in names if n)


def allowed_hosts(config: Any) -> list[str] | None:
    """The names this server answers to, from ``ALLOWED_HOSTS`` (None: any)."""
    given = config.get("ALLOWED_HOSTS")
    if isinstance(given, str):
        given = [h.strip() for h in given.split(",") if h.strip()]
    if given and "*" in given:
        return None
    return list(given) if given else default_hosts(config.get("PUBLIC_URL"))


def _refuse_unknown_host() -> Response | None:
    """First of every request's hooks: a name not trusted is refused before anything
    reads the request (Flask noted it as the request's routing exception)."""
    if isinstance(request.routing_exception, SecurityError):
        return Response("This server does not answer to that name.\n", 400, mimetype="text/plain")
    return None


def init_app(app: Flask) -> None:
    """The hooks, the allowed names and the trusted proxies (call after every other
    ``before_request`` is registered: the host check goes first of them)."""
    app.config["TRUSTED_HOSTS"] = allowed_hosts(app.config)
    app.before_request_funcs.setdefault(None, []).insert(0, _refuse_unknown_host)
    app.after_request(_headers)
    app.url_defaults(_add_static_version)
    hops = app.config["PROXY_HOPS"]  # a number: create_app converted it
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops,  # type: ignore[method-assign]
                                x_host=hops, x_port=hops)


def tagged(render: Callable[[], Any], *shown: Any) -> Response:
    """The answer ``render()`` makes, its ETag made from ``shown``, everything the answer
    shows (a game's version, the language, the reader's right, the address), and the
    session's CSRF token (a page's forms carry it): a client that has that ETag is
    answered 304 without ``render`` being called. A page that shows a flashed message
    is tagged by its bytes instead (the message is shown once)."""
    def tag() -> str:
        return hashlib.blake2b(repr((*shown, session.get("csrf_token"))).encode(),
                               digest_size=12).hexdigest()

    flashed = bool(session.get("_flashes"))
    if not flashed and request.if_none_match.contains(known := tag()):
        return Response(status=304, headers={"ETag": f'"{known}"', "Cache-Control": "no-cache"})
    response = current_app.make_response(render())
    response.headers["Cache-Control"] = "no-cache"
    if not flashed:
        response.set_etag(tag())  # with the CSRF token the render may have made
    return response
