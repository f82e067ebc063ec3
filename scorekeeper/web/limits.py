"""Per-client rate limits: what a stranger could repeat to guess a join code or the host's
password, or to fill the server with games, clubs and variants. Every limit is listed
here, by endpoint; the views only say what happened (:func:`wrong_guess`,
:func:`made_games`).

Flask-Limiter counts per client address, ``request.remote_addr`` (the proxy's forwarded
one only when ``KIERKI_PROXY_HOPS`` trusts it), in a SQLite file beside the database
(:mod:`..storage.rate_counts`), so that every server process counts together, unless
``KIERKI_RATELIMIT_STORAGE_URI`` says otherwise.

**Wrong join codes** count per phone (a device id in its signed session cookie) and, ten
times as many, per address, because a club's 600 phones may share one NAT. A right code
never counts. A guesser that drops its cookie meets the address's limit, 10,000 a day:
with 32⁸ codes and 1,000 live games, about 300 years to find one. The table card's QR
code carries the game's long secret and is never limited; a limited phone is told to
scan it.

**New games** count the games a request made (a tournament's round its tables), per
address: a 1,000-player night fits; one client needs four days to fill ``MAX_GAMES``.

Over a limit, the answer is 429 with ``Retry-After`` and a sentence in the user's language
(JSON under ``/api/``). ``KIERKI_RATELIMIT_ENABLED=false`` turns them all off.
"""
from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Flask, g, render_template, request, session
from flask_babel import gettext, ngettext
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address

from ..domain import database
from ..rules.errors import N_
from .jsonprovider import refusal_json

#: Wrong join codes one phone may try.
JOIN_PHONE = "10 per minute; 50 per hour"
#: Wrong join codes all the phones at one address may try together (a club behind one
#: NAT): about 300 years to find one of 1,000 live games at the day's limit (above).
JOIN_ADDRESS = "2000 per 10 minutes; 10000 per day"
#: Games made per address (a tournament counts its tables): a 1,000-player night fits, the
#: server's 10,000 take one client four days.
CREATE = "600 per 10 minutes; 1500 per hour; 2500 per day"
#: House variants made (each a ruleset document kept for good).
VARIANTS = "10 per minute; 100 per day"
#: Wrong host passwords and host links.
LOGIN = "5 per minute; 50 per day"
#: Clubs made per address: each is kept for good; a club's members play in it,
#: they need not make their own.
CLUBS = "10 per hour; 30 per day"
#: A club manager's invitations per address: a new invitation code, a director named.
INVITES = "30 per hour; 200 per day"
#: Clubs one phone joins by invitation (a right code; wrong ones count as join guesses).
CLUB_JOINS = "20 per hour; 60 per day"


def wrong_guess() -> None:
    """Count this request against its client's limit (a code no game has, a wrong
    password)."""
    g.wrong_guess = True


def made_games(count: int) -> None:
    """This request made ``count`` games (a tournament's round): what it costs against the
    new games' limit."""
    g.games_made = count


def phone() -> str:
    """The phone's own key: a random id kept in its signed session cookie (given now to a
    phone that has none; a client cannot choose another phone's)."""
    device = session.get("device")
    if not isinstance(device, str) or not 8 <= len(device) <= 32:
        device = session["device"] = secrets.token_urlsafe(12)
    return "phone:" + device


def _made(response: Any) -> bool:
    return response.status_code < 400  # what was refused made nothing


def _made_some(response: Any) -> bool:
    return _made(response) and bool(g.get("games_made"))


def _guessed_wrong(response: Any) -> bool:
    return bool(g.get("wrong_guess")) or response.status_code in (404, 422)


def _games_made() -> int:
    """The cost of a creation: before the view, one (one more game must fit); after it,
    the games it made."""
    return max(0, int(g.get("games_made", 1)))


@dataclass(frozen=True)
class Limit:
    """One count an endpoint adds to: the count it shares (``scope``), its limits, which
    answers count, the methods counted, whose count it is and what an answer costs."""

    scope: str
    limits: str
    counts: Callable[[Any], bool] = _made
    methods: tuple[str, ...] = ("POST",)
    key: Callable[[], str] = get_remote_address
    cost: int | Callable[[], int] = 1


def _join(method: str = "POST") -> tuple[Limit, ...]:
    return (Limit("join-phone", JOIN_PHONE, _guessed_wrong, (method,), key=phone),
            Limit("join", JOIN_ADDRESS, _guessed_wrong, (method,)))


def _create(counts: Callable[[Any], bool] = _made) -> tuple[Limit, ...]:
    return (Limit("create", CREATE, counts, cost=_games_made),)


def _club_join(method: str = "POST") -> tuple[Limit, ...]:
    """A club joined (counted per phone) and a wrong invitation code (a join guess)."""
    return (*_join(method), Limit("club-joins", CLUB_JOINS, _joined, (method,), key=phone))


def _joined(response: Any) -> bool:
    return _made(response) and not g.get("wrong_guess")


def _login(method: str) -> tuple[Limit, ...]:
    return (Limit("login", LOGIN, lambda r: bool(g.get("wrong_guess")), (method,)),)


#: Where a game's code is typed or opened: a limited address is pointed to the table's QR
#: code (``games.join_card``: the code with the game's long secret, never limited).
GAME_JOINS = frozenset({"games.join", "games.join_link", "api.join"})

#: endpoint → the counts it adds to. Endpoints of one scope share one count: a wrong code
#: typed, scanned or sent by the API is one guess.
LIMITS: dict[str, tuple[Limit, ...]] = {
    "games.join": _join(),
    "games.join_link": _join("GET"),
    "api.join": _join(),
    "games.new_game": _create(),
    "api.create_game": _create(),
    "sheets.import_game": _create(),
    "people.rematch": _create(_made_some),
    "api.create_tournament": _create(_made_some),
    "tournaments.new": _create(_made_some),
    "tournaments.draw": _create(_made_some),
    "api.draw_round": _create(_made_some),
    # the editor posts for its sums as the user types: only a save (a redirect) counts
    "variants.edit": (Limit("variants", VARIANTS, lambda r: r.status_code == 302),),
    "api.create_ruleset": (Limit("variants", VARIANTS),),
    "api.create_club": (Limit("clubs", CLUBS),),
    "clubs.new": (Limit("clubs", CLUBS),),
    "clubs.renew_invitation": (Limit("invites", INVITES),),
    "clubs.name_director": (Limit("invites", INVITES),),
    "api.join_club": _club_join(),
    "clubs.join": _club_join(),
    "clubs.join_link": _club_join("GET"),
    "clubs.manager_link": _join("GET"),
    "clubs.director_link": _join("GET"),
    "games.new_club_game": _create(),
    "tournaments.new_in_club": _create(_made_some),
    "admin.games": _login("POST"),
    "host.open_link": _login("GET"),
}

#: What any other limit's refusal says, by scope.
_MESSAGES = {
    "join": N_("Too many wrong codes from this network (every phone at this address together). "
               "Wait a few minutes and try again."),
    "create": N_("Too many new games from this network. Wait a few minutes and try again, or "
                 "ask the host."),
    "clubs": N_("Too many new clubs from this network. Wait an hour and try again, or ask the "
                "host."),
    "invites": N_("Too many invitations from this network. Wait a while and try again."),
    None: N_("Too many tries from this device. Wait a minute and try again."),
}


def init_app(app: Flask) -> Limiter:
    """One limiter per app, the limits put on their views."""
    app.config.setdefault("RATELIMIT_STORAGE_URI", database.limits_uri(app.config["DATABASE"]))
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    limiter = Limiter(get_remote_address, app=app, default_limits=[], strategy="fixed-window")
    for endpoint, counts in LIMITS.items():
        view = app.view_functions.get(endpoint)
        if view is None:
            raise LookupError(f"no view {endpoint!r} to limit")
        for c in counts:
            view = limiter.shared_limit(c.limits, scope=c.scope, key_func=c.key,
                                        methods=list(c.methods), deduct_when=c.counts,
                                        cost=c.cost)(view)
        app.view_functions[endpoint] = view
    # Every limit is on its view (above), which counts it when it runs; the limiter's own
    # check before every request looks for limits on the whole app or a blueprint, of
    # which there are none, at a sixth of a kept page's processor time: taken out.
    hooks = app.before_request_funcs.get(None, [])
    if limiter._check_request_limit in hooks:  # (not there when limits are switched off)
        hooks.remove(limiter._check_request_limit)

    @app.errorhandler(RateLimitExceeded)
    def too_many(e: RateLimitExceeded):
        scope = getattr(getattr(e, "limit", None), "scope", None)
        try:  # seconds until the limit that was hit lets the client try again
            wait = max(1, int(limiter.current_limit.reset_at - time.time()))
        except Exception:  # noqa: BLE001 - no limit, or a storage that cannot say: a minute
            wait = 60
        minutes = max(1, -(-wait // 60))
        game_join = request.endpoint in GAME_JOINS
        if scope == "join" and game_join:  # every phone at this address together
            message = ngettext(
                "Too many wrong codes from this network (every phone at this address together). "
                "Try again in %(num)s minute, or scan the table's QR code: it joins at once.",
                "Too many wrong codes from this network (every phone at this address together). "
                "Try again in %(num)s minutes, or scan the table's QR code: it joins at once.",
                minutes)
        elif scope == "join-phone" and game_join:
            message = ngettext(
                "Too many tries from this device. Try again in %(num)s minute, or scan the table's "
                "QR code: it joins at once.",
                "Too many tries from this device. Try again in %(num)s minutes, or scan the "
                "table's QR code: it joins at once.", minutes)
        else:
            message = gettext(_MESSAGES.get(scope, _MESSAGES[None]))
        headers = {"Retry-After": str(wait)}
        if request.blueprint == "api":
            return refusal_json(message), 429, headers
        return render_template("error.html", message=message), 429, headers

    return limiter
