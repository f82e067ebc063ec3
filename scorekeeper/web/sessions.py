"""The session cookie: Flask's signed cookie, ``SameSite=Lax`` always, and ``Secure`` on an
answer to an HTTPS request (behind a trusted proxy: the scheme the phone used), so one
server serves both a plain HTTP table and an HTTPS one. The app's other cookie (the
language chosen) asks it the same (``get_cookie_secure``).
"""
from __future__ import annotations

from flask import Flask, has_request_context, request
from flask.sessions import SecureCookieSessionInterface


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed cookie session, ``Secure`` over HTTPS."""

    def get_cookie_secure(self, app: Flask) -> bool:
        """``Secure`` when set so (``SESSION_COOKIE_SECURE``) or when this request is HTTPS."""
        return super().get_cookie_secure(app) \
            or (has_request_context() and request.scheme == "https")


def init_app(app: Flask) -> None:
    app.session_interface = SessionInterface()
