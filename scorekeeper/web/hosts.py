"""Which names the server answers to: a request for any other ``Host`` is refused 400.

A page on the internet can make a phone's browser send requests to this server under a
name that page's owner controls (DNS rebinding), and the join link and QR code are built
from the request's host. So the server answers only to the names it is known by:
``KIERKI_ALLOWED_HOSTS`` (comma-separated; ``*`` for any; a leading dot allows a domain's
subdomains, as Werkzeug's ``host_is_trusted`` reads it), by default this machine's own
names and addresses (those ``kierki serve`` prints), ``localhost`` and the host of
``KIERKI_PUBLIC_URL``.

It stands in front of every layer but the proxy's (which first puts the forwarded host in
place) and the answer pipeline (which gives its refusal the security headers), so no
request path can skip it: not the deal router, not a kept page.
"""
from __future__ import annotations

import socket
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

from flask import Flask
from werkzeug.exceptions import SecurityError
from werkzeug.wsgi import get_host

from ..outputs.share import lan_address

LOOPBACK = ("localhost", "127.0.0.1", "::1", "[::1]")


def default_hosts(public_url: str | None) -> list[str]:
    """This machine's names and addresses, loopback, and the public URL's host."""
    names = {*LOOPBACK, lan_address()}
    try:
        name = socket.gethostname()
        names |= {name, f"{name}.local", socket.getfqdn()}
    except OSError:  # pragma: no cover - a machine without a name
        pass
    if public_url:
        host = urlsplit(public_url).hostname
        if host:
            names.add(host)
    return sorted(n for n in names if n)


def allowed_hosts(config: Any) -> list[str] | None:
    """The configured names (None: any)."""
    given = config.get("ALLOWED_HOSTS")
    if isinstance(given, str):
        given = [h.strip() for h in given.split(",") if h.strip()]
    if given and "*" in given:
        return None
    return list(given) if given else default_hosts(config.get("PUBLIC_URL"))


class AllowedHosts:
    """Refuse a request for a name this server is not known by (400, plain text)."""

    BODY = b"This server does not answer to that name.\n"
    HEADERS = (("Content-Type", "text/plain; charset=utf-8"),
               ("Content-Length", str(len(BODY))))

    def __init__(self, wsgi_app: Callable[..., Any], hosts: Iterable[str] | None):
        self.wsgi_app = wsgi_app
        self.hosts = tuple(hosts) if hosts is not None else None

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        if self.hosts is not None and not known(
                environ.get("HTTP_HOST"), environ.get("SERVER_NAME"),
                environ.get("SERVER_PORT"), environ.get("wsgi.url_scheme", "http"), self.hosts):
            start_response("400 BAD REQUEST", list(self.HEADERS))
            return [self.BODY]
        return self.wsgi_app(environ, start_response)


@lru_cache(maxsize=64)
def known(host: str | None, server: str | None, port: str | None, scheme: str | None,
          hosts: tuple[str, ...]) -> bool:
    """Whether a request for this ``Host`` (else server name and port) under ``scheme`` is
    for one of ``hosts`` (Werkzeug's ``get_host``), decided once per distinct value: every
    phone of a club sends the same one (a forged value costs a decision and stays
    refused)."""
    environ = {"HTTP_HOST": host, "SERVER_NAME": server, "SERVER_PORT": port,
               "wsgi.url_scheme": scheme}
    try:
        get_host({k: v for k, v in environ.items() if v is not None}, hosts)
    except SecurityError:
        return False
    return True


def init_app(app: Flask) -> None:
    app.wsgi_app = AllowedHosts(app.wsgi_app, allowed_hosts(app.config))  # type: ignore[method-assign]
