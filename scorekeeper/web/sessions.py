"""The session cookie: Flask's signed cookie, with each cookie value verified once.

Checking a cookie's signature and decoding it costs more than a whole hello-world
request; a phone sends the same cookie with every request until its session changes.
A verified cookie's contents are kept (by the cookie's value and the secret key) for a
minute and copied for each request, so changing the session never changes what is kept.

The cookie is ``SameSite=Lax`` always, and ``Secure`` on an answer to an HTTPS request
(behind a trusted proxy: the scheme the phone used), so one server serves both a plain
HTTP table and an HTTPS one; :func:`secure` says the same for the app's other cookie (the
language chosen).
"""
from __future__ import annotations

import copy
import time
from typing import Any

from flask import Flask, has_request_context, request
from flask.sessions import SecureCookieSessionInterface

from ..common.lru import LRU


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed cookie session, with each cookie value verified once."""

    SECONDS = 60.0

    def __init__(self) -> None:
        #: Verified cookies' contents, by secret key and cookie value.
        self.verified = LRU(1024)
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

    def get_cookie_secure(self, app: Flask) -> bool:
        """``Secure`` when set so (``SESSION_COOKIE_SECURE``) or when this request is HTTPS."""
        return super().get_cookie_secure(app) \
            or (has_request_context() and request.scheme == "https")

    def open_session(self, app: Flask, request) -> Any:
        value = request.cookies.get(self.get_cookie_name(app))
        if not value or not app.secret_key:
            return super().open_session(app, request)
        key = (app.secret_key, value)
        known = self.verified.get(key)
        if known is not None and known[0] > time.monotonic():
            return self.session_class(copy.deepcopy(known[1]))
        opened = super().open_session(app, request)
        if opened is not None and value == request.cookies.get(self.get_cookie_name(app)) \
                and dict(opened):
            self.verified.put(key, (time.monotonic() + self.SECONDS,
                                    copy.deepcopy(dict(opened))))
        return opened


def secure(app: Flask) -> bool:
    """Whether a cookie set in answer to this request is ``Secure``: as the session's is
    (every cookie of the app is ``SameSite=Lax`` too)."""
    return app.session_interface.get_cookie_secure(app)


def init_app(app: Flask) -> None:
    app.session_interface = SessionInterface()
