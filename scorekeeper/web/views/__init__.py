"""HTML views (blueprints), CSRF, the language switch, and the one place where a missing
game (or ruleset), a version conflict or a forged form become an answer."""
from __future__ import annotations

import io
import sqlite3
from urllib.parse import urlparse

from flask import Flask, flash, jsonify, make_response, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf.csrf import CSRFError, CSRFProtect
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from ...common.formats import number
from ...domain import variants as stored_rules
from ...domain.errors import (
    DISK_FULL,
    READ_ONLY,
    Busy,
    ClubNotFound,
    GameNotFound,
    TournamentNotFound,
    write_fault,
)
from ...domain.service import Conflict, Frozen, load
from ...outputs import share
from ...outputs.renders import Full
from ...rules.errors import UnknownRuleset
from .. import access, adapters
from ..access import ClubRefused, NotAtTable
from ..db import get_db
from ..jsonprovider import refusal_json

csrf = CSRFProtect()

#: What an API client is told for each HTTP error, in its language.
API_ERRORS = {
    400: _l("The request could not be read; send JSON."),
    401: _l("Send the game's token: Authorization: Bearer <token>."),
    403: _l("This token does not belong to this game."),
    404: _l("Not found."),
    405: _l("This address does not take this method."),
    415: _l("Send JSON (Content-Type: application/json)."),
    500: _l("Something went wrong on the server; nothing was saved."),
}


#: How much of a body over the limit is read (and dropped) before its 413, as a multiple
#: of the limit: a client that sends its whole body before reading then gets the answer
#: rather than a reset connection. Past it the connection is closed unread.
DRAIN_FACTOR = 4

#: What a user is told when the disk refuses a write, and what the log names.
FAULTS = {DISK_FULL: _l("The server's disk is full; nothing was saved. Tell the host: "
                        "once there is room again, try again."),
          READ_ONLY: _l("The server cannot write its database (it is read-only); nothing "
                        "was saved. Tell the host.")}
FAULT_LOG = {DISK_FULL: "disk full", READ_ONLY: "database read-only"}


def _drain(limit: int) -> None:
    """Read and drop the rest of a body over the limit, up to the bound (not at all for a
    client that waits to be told before sending it, ``Expect: 100-continue``)."""
    left = DRAIN_FACTOR * limit
    if request.headers.get("Expect", "").lower() == "100-continue" \
            or (request.content_length or 0) > left:
        return
    stream = request.environ["wsgi.input"]
    try:
        while left > 0 and (chunk := stream.read(min(65536, left))):
            left -= len(chunk)
    except Exception:  # noqa: BLE001 - a broken chunk, a client gone: the 413 all the same
        return


def _safe_next(target: str | None) -> str:
    """Only local paths: never redirect to another site."""
    parsed = urlparse(target or "")
    local = target and target.startswith("/") and not target.startswith("//")
    return target if local and not (parsed.scheme or parsed.netloc) else "/"


def _refusal(message: str, status: int, headers: dict | None = None, *, api: bool = True,
             kept: bool = True, back: bool = False, title: str | None = None):
    """A refusal as JSON to the API (``api``) and to a phone's kept deal (``kept``), else
    the error page (``back``: with a link back to the request's game)."""
    if (api and request.path.startswith("/api/")) or (kept and request.headers.get("X-Kierki-Kept")):
        return refusal_json(message), status, headers or {}
    gid = (request.view_args or {}).get("gid") if back else None
    return render_template("error.html", message=message, title=title,
                           back=url_for("games.show", gid=gid) if gid else None), \
        status, headers or {}


def init_app(app: Flask) -> None:
    from . import (
        admin,
        clubs,
        games,
        health,
        installable,
        people,
        seasons,
        sheets,
        tournament_sheets,
        tournaments,
        variants,
    )

    csrf.init_app(app)
    app.jinja_env.filters["code"] = share.grouped  # a join code in two groups of four
    for blueprint in (games.bp, admin.bp, admin.host_bp, sheets.bp, tournament_sheets.bp,
                      variants.bp, people.bp, tournaments.bp, clubs.bp, seasons.bp,
                      installable.bp, health.bp):
        app.register_blueprint(blueprint)
    for family in adapters.every():
        blueprint = family.blueprint(lambda gid: load(get_db(), gid),
                                     find_rules=lambda rid: stored_rules.find(get_db(), rid))
        if blueprint is not None:
            app.register_blueprint(blueprint)
    access.init_app(app)  # every view's game, tournament, evening or club: readable?

    @app.get("/lang/<code>")
    def set_language(code: str):
        resp = make_response(redirect(_safe_next(request.args.get("next"))))
        if code in app.config["LANGUAGES"]:  # Secure as the session's cookie is
            resp.set_cookie("lang", code, max_age=365 * 24 * 3600, samesite="Lax",
                            secure=app.session_interface.get_cookie_secure(app), httponly=True)
        return resp

    # refusals answered the same way wherever they come from: JSON to the API and to a
    # phone's kept deal, else the error page (a reader at a game: a link back to it)
    for refused, answer in {
        CSRFError: lambda e: _refusal(gettext(
            "This form has expired or was not sent by this app. Go back, reload the page "
            "and try again; nothing was saved."), 400, api=False, kept=False),
        NotAtTable: lambda e: _refusal(str(e.message), 403, api=False, back=True),
        ClubRefused: lambda e: _refusal(str(e.message), 403, kept=False),
        # the database's write lock held for the whole busy timeout
        Busy: lambda e: _refusal(gettext(Busy.message), 503,
                                 {"Retry-After": str(e.retry_after)}, back=True),
        # more PDFs wait for a worker than the queue holds (``PDF_QUEUE``)
        Full: lambda e: _refusal(gettext(Full.message), 503, {
            "Retry-After": str(e.retry_after), "Cache-Control": "no-store"},
            api=False, kept=False),
    }.items():
        app.register_error_handler(refused, answer)

    @app.errorhandler(Conflict)
    def conflict(e: Conflict):
        """Another phone was faster: nothing was saved; show the game as it is now. A
        deal kept on a phone during a Wi-Fi drop (static/offline.js) is told so by 409."""
        if request.headers.get("X-Kierki-Kept"):
            return refusal_json(e.text(gettext), version=e.version), 409
        flash(e.text(gettext), "error")
        return redirect(url_for("games.show", gid=e.gid))

    @app.errorhandler(Frozen)
    def frozen(e: Frozen):
        """A closed tournament's game: its results are final until the director reopens
        the tournament (a closed night's player renamed: no one game to go back to)."""
        if e.gid is None or request.path.startswith("/api/") \
                or request.headers.get("X-Kierki-Kept"):
            return _refusal(e.text(gettext), 409)
        flash(e.text(gettext), "error")
        return redirect(url_for("games.show", gid=e.gid))

    @app.errorhandler(sqlite3.DatabaseError)
    @app.errorhandler(OSError)
    def write_refused(e: Exception):
        """The disk refused a write (full, or the database read-only): 507 or 503, one
        line in the log naming the cause. Any other error stays a 500."""
        fault = write_fault(e)
        if fault is None:
            raise e
        app.logger.error("%s: %s %s refused, nothing saved (%s)", FAULT_LOG[fault],
                         request.method, request.path, e)
        return _refusal(gettext(FAULTS[fault]), 507 if fault == DISK_FULL else 503,
                        {"Cache-Control": "no-store"})

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException):
        """Under /api/ every error is JSON; pages keep the framework's answer."""
        if not request.path.startswith("/api/"):
            return e
        code = e.code or 500
        response = jsonify(refusal_json(getattr(e, "message", None)
                                        or API_ERRORS.get(code, e.name)))
        if code == 405 and e.get_response().headers.get("Allow"):
            response.headers["Allow"] = e.get_response().headers["Allow"]
        return response, code

    @app.after_request
    def say_what_is_asked(response):
        """``Retry-After`` only where a client is asked to wait (429, 503), whoever set it
        (the rate limiter sets it on every limited answer); a 401 says how to
        authenticate. Registered before the limiter, so it runs after the limiter's."""
        if response.status_code not in (429, 503):
            response.headers.pop("Retry-After", None)
        if response.status_code == 401 and "WWW-Authenticate" not in response.headers:
            response.headers["WWW-Authenticate"] = 'Bearer realm="scorekeeper"'
        return response

    def refuse_a_body_over_the_limit():
        """A body over the limit is 413, whether or not the view would read it. A chunked
        body (no length announced) is read here, one byte past the limit at most, and
        handed on with its length (Werkzeug would hand the view a body cut at the limit)."""
        limit = request.max_content_length
        if limit is None:
            return
        environ = request.environ
        if "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
            body = environ["wsgi.input"].read(limit + 1)
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
            environ.pop("HTTP_TRANSFER_ENCODING")
            environ.pop("wsgi.input_terminated", None)
        if (request.content_length or 0) > limit:
            raise RequestEntityTooLarge()

    # before any other hook reads the body (the CSRF check reads a form's)
    app.before_request_funcs.setdefault(None, []).insert(0, refuse_a_body_over_the_limit)

    @app.errorhandler(RequestEntityTooLarge)
    def too_large(e: RequestEntityTooLarge):
        limit = request.max_content_length or app.config["MAX_CONTENT_LENGTH"]
        _drain(limit)
        return _refusal(gettext("The request is too large: this server takes at most "
                                "%(size)s MB.", size=number(limit / (1024 * 1024), 1)),
                        413, kept=False)

    @app.errorhandler(GameNotFound)
    @app.errorhandler(TournamentNotFound)
    @app.errorhandler(ClubNotFound)
    @app.errorhandler(UnknownRuleset)
    @app.errorhandler(404)
    def not_found(e):
        if request.path.startswith("/api/"):
            return refusal_json(gettext("Not found.")), 404
        message = gettext(
            "There is no such club here, or it is private: its members open it with the "
            "club's invitation link or code.") if isinstance(e, ClubNotFound) else gettext(
            "There is no such page or game. It may have been deleted.")
        return _refusal(message, 404, api=False, kept=False, title=gettext("Nothing here"))
