"""HTML views (blueprints), CSRF, the language switch, and the one place where a missing
game (or ruleset), a version conflict or a forged form become an answer."""
from __future__ import annotations

import io
import sqlite3
from typing import Any
from urllib.parse import urlparse

from flask import (
    Flask,
    flash,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
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
from ...domain.service import Conflict, Frozen, Game, load
from ...outputs import share
from ...outputs.renders import Full
from ...rules.errors import UnknownRuleset
from .. import access, adapters, sessions
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


def _drain(limit: int) -> None:
    """Read and drop the rest of a body over the limit, up to the bound (not at all for a
    client that waits to be told before sending it, ``Expect: 100-continue``)."""
    if request.headers.get("Expect", "").lower() == "100-continue":
        return
    left = DRAIN_FACTOR * limit
    if (request.content_length or 0) > left:
        return
    stream = request.environ["wsgi.input"]
    try:
        while left > 0:
            chunk = stream.read(min(65536, left))
            if not chunk:
                return
            left -= len(chunk)
    except Exception:  # noqa: BLE001 - a broken chunk, a client gone: the 413 all the same
        return


#: What a user is told when the disk refuses a write, and what the log names.
FAULTS = {DISK_FULL: _l("The server's disk is full; nothing was saved. Tell the host: "
                        "once there is room again, try again."),
          READ_ONLY: _l("The server cannot write its database (it is read-only); nothing "
                        "was saved. Tell the host.")}
FAULT_LOG = {DISK_FULL: "disk full", READ_ONLY: "database read-only"}


def _safe_next(target: str | None) -> str:
    """Only local paths: never redirect to another site."""
    if not target:
        return "/"
    parsed = urlparse(target)
    if parsed.scheme or parsed.netloc or not target.startswith("/") or target.startswith("//"):
        return "/"
    return target


def _load_game(gid: str) -> Game:
    """What a family's own pages load a game by (they reach no storage themselves)."""
    return load(get_db(), gid)


def _find_rules(ruleset_id: str) -> tuple[Any, Any]:
    """What a family's own pages find a ruleset by: (family, rules) of a built-in ruleset
    or a house variant (``UnknownRuleset`` when there is none)."""
    return stored_rules.find(get_db(), ruleset_id)


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
    app.register_blueprint(games.bp)
    app.register_blueprint(admin.bp)
    app.register_blueprint(admin.host_bp)  # /host/<token>: the host link
    app.register_blueprint(sheets.bp)
    app.register_blueprint(tournament_sheets.bp)  # round sheets, results files
    app.register_blueprint(variants.bp)
    app.register_blueprint(people.bp)
    app.register_blueprint(tournaments.bp)  # club nights: the director, results, projector
    app.register_blueprint(clubs.bp)  # clubs on a shared host: making, inviting, managing
    app.register_blueprint(seasons.bp)  # a club's season, its files, its API (issue 36)
    app.register_blueprint(installable.bp)  # the manifest and the service worker
    app.register_blueprint(health.bp)  # GET /healthz, for a container's health check
    for family in adapters.every():
        blueprint = family.blueprint(_load_game, find_rules=_find_rules)
        if blueprint is not None:
            app.register_blueprint(blueprint)
    access.init_app(app)  # every view's game, tournament, evening or club: readable?

    @app.get("/lang/<code>")
    def set_language(code: str):
        resp = make_response(redirect(_safe_next(request.args.get("next"))))
        if code in app.config["LANGUAGES"]:
            resp.set_cookie("lang", code, max_age=365 * 24 * 3600, samesite="Lax",
                            secure=sessions.secure(app), httponly=True)
        return resp

    @app.errorhandler(CSRFError)
    def csrf_error(e: CSRFError):
        return render_template("error.html", message=gettext(
            "This form has expired or was not sent by this app. Go back, reload the page "
            "and try again; nothing was saved.")), 400

    @app.errorhandler(Conflict)
    def conflict(e: Conflict):
        """Another phone was faster: nothing was saved; show the game as it is now. A
        deal kept on a phone during a Wi-Fi drop (static/offline.js) is told so by 409."""
        if request.headers.get("X-Kierki-Kept"):
            return refusal_json(e.text(gettext), version=e.version), 409
        flash(e.text(gettext), "error")
        return redirect(url_for("games.show", gid=e.gid))

    @app.errorhandler(NotAtTable)
    def not_at_table(e: NotAtTable):
        """A reader (a public link, a projector's) tried to change a game: say how to join
        its table; nothing was saved."""
        message = str(e.message)
        if request.headers.get("X-Kierki-Kept"):
            return refusal_json(message), 403
        gid = (request.view_args or {}).get("gid")
        back = url_for("games.show", gid=gid) if gid else None
        return render_template("error.html", message=message, back=back), 403

    @app.errorhandler(ClubRefused)
    def club_refused(e: ClubRefused):
        """A club's member (or director) asked for what its manager (or a director) may:
        said in the reader's language; nothing was changed."""
        message = str(e.message)
        if request.path.startswith("/api/"):
            return refusal_json(message), 403
        return render_template("error.html", message=message), 403

    @app.errorhandler(Frozen)
    def frozen(e: Frozen):
        """A closed tournament's game: its results are final until the director reopens
        the tournament; nothing was saved."""
        message = e.text(gettext)
        if request.path.startswith("/api/") or request.headers.get("X-Kierki-Kept"):
            return refusal_json(message), 409
        if e.gid is None:  # a rename of a closed night's player: no one game to go back to
            return render_template("error.html", message=message), 409
        flash(message, "error")
        return redirect(url_for("games.show", gid=e.gid))

    @app.errorhandler(Busy)
    def busy(e: Busy):
        """Another process held the database's write lock for the whole busy timeout:
        nothing was saved, try again in a moment (said once, whatever the route)."""
        message = gettext(Busy.message)
        headers = {"Retry-After": str(e.retry_after)}
        if request.path.startswith("/api/") or request.headers.get("X-Kierki-Kept"):
            return refusal_json(message), 503, headers
        gid = (request.view_args or {}).get("gid")
        back = url_for("games.show", gid=gid) if gid else None  # the form, as it was typed
        return render_template("error.html", message=message, back=back), 503, headers

    @app.errorhandler(sqlite3.DatabaseError)
    @app.errorhandler(OSError)
    def write_refused(e: Exception):
        """The disk refused a write (full, or the database read-only): 507 or 503 in the
        user's language, one line in the log naming the cause; nothing was saved (the
        write's transaction was rolled back). Any other error stays a 500."""
        fault = write_fault(e)
        if fault is None:
            raise e
        app.logger.error("%s: %s %s refused, nothing saved (%s)", FAULT_LOG[fault],
                         request.method, request.path, e)
        message = gettext(FAULTS[fault])
        status = 507 if fault == DISK_FULL else 503
        headers = {"Cache-Control": "no-store"}
        if request.path.startswith("/api/") or request.headers.get("X-Kierki-Kept"):
            return refusal_json(message), status, headers
        return render_template("error.html", message=message), status, headers

    @app.errorhandler(Full)
    def printing_full(e: Full):
        """More PDFs are waiting for a worker than the queue holds (``PDF_QUEUE``): none
        started; the sheet's link works again in a moment."""
        headers = {"Retry-After": str(e.retry_after), "Cache-Control": "no-store"}
        return render_template("error.html", message=gettext(Full.message)), 503, headers

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException):
        """Under /api/ every error is JSON; pages keep the framework's answer."""
        if not request.path.startswith("/api/"):
            return e
        code = e.code or 500
        message = getattr(e, "message", None) or API_ERRORS.get(code, e.name)
        response = jsonify(refusal_json(message))
        if code == 405 and e.get_response().headers.get("Allow"):
            response.headers["Allow"] = e.get_response().headers["Allow"]
        return response, code

    @app.after_request
    def say_what_is_asked(response):
        """``Retry-After`` only where a client is asked to wait (429, 503), whoever set it
        (the rate limiter sets it on every limited answer); a 401 says how to
        authenticate (``WWW-Authenticate``). Registered before the limiter, so it runs
        after the limiter's own headers are set."""
        if response.status_code not in (429, 503):
            response.headers.pop("Retry-After", None)
        if response.status_code == 401 and "WWW-Authenticate" not in response.headers:
            response.headers["WWW-Authenticate"] = 'Bearer realm="scorekeeper"'
        return response

    def refuse_a_body_over_the_limit():
        """Every request with a body over the limit is answered 413, whether or not its
        view would read the body. A body sent in chunks (no length announced) is read
        here, one byte past the limit at most, and handed on with its length (Werkzeug
        would hand the view a body cut at the limit)."""
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
        """A body (an imported file too) over ``MAX_CONTENT_LENGTH``: the limit, in MB."""
        limit = request.max_content_length or app.config["MAX_CONTENT_LENGTH"]
        _drain(limit)
        message = gettext("The request is too large: this server takes at most %(size)s MB.",
                          size=number(limit / (1024 * 1024), 1))
        if request.path.startswith("/api/"):
            return refusal_json(message), 413
        return render_template("error.html", message=message), 413

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
        return render_template("error.html", title=gettext("Nothing here"),
                               message=message), 404
