"""Per-client rate limits: what a stranger could repeat to guess a join code or the host's
password, or to fill the server with games and variants.

Flask-Limiter counts per client address (the proxy's forwarded one when
``KIERKI_PROXY_HOPS`` trusts it), in memory by default (``KIERKI_RATELIMIT_STORAGE_URI``
moves it). Every limit is listed here, by endpoint, so one place says what is limited and
how much; the views know nothing of it. A guess counts only when it is wrong (a join code
no game has, a wrong password): a table that types its code right is never slowed down.

Over a limit, the answer is 429 with ``Retry-After`` and a sentence in the user's language
(JSON under ``/api/``). ``KIERKI_RATELIMIT_ENABLED=false`` turns them all off.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from flask import Flask, g, render_template, request
from flask_babel import gettext
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address

#: Wrong join codes a client may try: 20 a minute and 200 an hour. Trying every one of the
#: 32⁶ codes to find one of 1,000 live games then takes about 7 months on average.
JOIN = "20 per minute; 200 per hour"
#: New games and imports: a table starts a few games an evening; a script thousands.
CREATE = "30 per minute; 300 per day"
#: House variants made (each a ruleset document kept for good).
VARIANTS = "10 per minute; 100 per day"
#: Wrong host passwords.
LOGIN = "5 per minute; 50 per day"


def wrong_guess() -> None:
    """Count this request against its client's limit (a code no game has, a wrong
    password)."""
    g.wrong_guess = True


def _guessed_wrong(response: Any) -> bool:
    return bool(g.get("wrong_guess")) or response.status_code in (404, 422)


def _always(response: Any) -> bool:
    return response.status_code < 400  # what was refused made nothing


#: endpoint → (what it shares a count with, its limits, the methods counted, which answers
#: count). Endpoints of one scope share one count: a wrong code typed, scanned or sent by
#: the API is one guess.
LIMITS: dict[str, tuple[str, str, tuple[str, ...], Callable[[Any], bool]]] = {
    "games.join": ("join", JOIN, ("POST",), _guessed_wrong),
    "games.join_link": ("join", JOIN, ("GET",), _guessed_wrong),
    "api.join": ("join", JOIN, ("POST",), _guessed_wrong),
    "games.new_game": ("create", CREATE, ("POST",), _always),
    "api.create_game": ("create", CREATE, ("POST",), _always),
    "api.create_tournament": ("create", CREATE, ("POST",), _always),
    "sheets.import_game": ("create", CREATE, ("POST",), _always),
    "tournaments.new": ("create", CREATE, ("POST",), _always),
    # the editor posts for its sums as the user types: only a save (a redirect) counts
    "variants.edit": ("variants", VARIANTS, ("POST",), lambda r: r.status_code == 302),
    "api.create_ruleset": ("variants", VARIANTS, ("POST",), _always),
    "admin.games": ("login", LOGIN, ("POST",), lambda r: bool(g.get("wrong_guess"))),
    "host.open_link": ("login", LOGIN, ("GET",), lambda r: bool(g.get("wrong_guess"))),
}


def init_app(app: Flask) -> Limiter:
    """One limiter per app (its counts are its own), the limits put on their views."""
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    limiter = Limiter(get_remote_address, app=app, default_limits=[],
                      strategy="fixed-window")
    for endpoint, (scope, limits, methods, counts) in LIMITS.items():
        view = app.view_functions.get(endpoint)
        if view is None:
            raise LookupError(f"no view {endpoint!r} to limit")
        app.view_functions[endpoint] = limiter.shared_limit(
            limits, scope=scope, methods=list(methods), deduct_when=counts)(view)

    @app.errorhandler(RateLimitExceeded)
    def too_many(e: RateLimitExceeded):
        message = gettext("Too many tries from this device. Wait a minute and try again.")
        headers = {"Retry-After": str(_retry_after(limiter))}
        if request.path.startswith("/api/"):
            return {"error": message}, 429, headers
        return render_template("error.html", message=message), 429, headers

    return limiter


def _retry_after(limiter: Limiter) -> int:
    """Seconds until the limit that was hit lets the client try again."""
    current = getattr(g, "view_rate_limit", None)
    if current is None:
        return 60
    try:
        reset, _ = limiter.limiter.get_window_stats(current[0], *current[1])
    except Exception:  # noqa: BLE001 - a storage that cannot say: the usual minute
        return 60
    return max(1, int(reset - time.time()))
