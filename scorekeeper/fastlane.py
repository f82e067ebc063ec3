"""A deal entered through the API, answered before Flask when all is well.

``PUT /api/games/<gid>/deals/<n>`` is the write every phone of a table's app sends
after each deal. Through Flask it costs four hello-worlds: a request context, the
session, the language, the routing and the after-request hooks come on top of the
deal's own work. Here that request is taken before Flask (WSGI middleware in front of
``app.wsgi_app``, like :mod:`.repeats` for repeated pages) and, when nothing about it
is unusual, answered with the same service calls as :func:`.api.put_deal` and the same
answer: the game as :func:`.api.game_json` makes it, in the request's language, with
the headers every answer carries (:data:`.web.SECURITY_HEADERS`), gzipped when the
client accepts it, and the live table told at once (:mod:`.live`).

Anything unusual goes to Flask unchanged, body included, and Flask answers it as it
always did: a body that is not a JSON object with a whole ``version``, a missing or
wrong token, a refused deal, a version conflict, a game that is not there, a chunked
body, an ``Accept-Encoding`` with weights or a wildcard. Nothing is stored before the deal is accepted, so
Flask's second look at a refused one starts from the same database; its cost (twice
the checks) falls on refusals only.
"""
from __future__ import annotations

import io
import re
from collections.abc import Callable
from typing import Any

from flask import Flask

from . import access, live, service
from .api import game_json
from .db import pool_of
from .i18n import choose_locale, speaking
from .safejson import loads
from .web import SECURITY_HEADERS, gzip_bytes

#: ``/api/games/<gid>/deals/<n>``: an id as :func:`.store.new_id` makes them, a number.
DEAL_PATH = re.compile(r"/api/games/([A-Za-z0-9_-]{1,64})/deals/([1-9][0-9]{0,2})")

#: What every answer of the lane carries, before its encoding and length.
HEADERS = (("Content-Type", "application/json"), *SECURITY_HEADERS.items(),
           ("Vary", "Accept-Encoding"))

#: The cookie that chooses a language, as :func:`.i18n.select_locale` reads it.
LANG_COOKIE = re.compile(r"(?:^|;)\s*lang=([A-Za-z-]{2,8})\s*(?:;|$)")


class FastLane:
    """WSGI middleware: the deal PUT's usual case before Flask, the rest through it."""

    def __init__(self, app: Flask, wsgi_app: Callable[..., Any]):
        self.app = app
        self.wsgi_app = wsgi_app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]):
        if environ.get("REQUEST_METHOD") == "PUT":
            match = DEAL_PATH.fullmatch(environ.get("PATH_INFO", ""))
            if match and not environ.get("SCRIPT_NAME"):
                answer = self._deal(environ, match.group(1), int(match.group(2)))
                if answer is not None:
                    status, headers, body = answer
                    start_response(status, headers)
                    return [body]
        return self.wsgi_app(environ, start_response)

    def _deal(self, environ: dict[str, Any], gid: str,
              number: int) -> tuple[str, list[tuple[str, str]], bytes] | None:
        """The answer, or None for Flask to give it (with the body put back)."""
        config = self.app.config
        if environ.get("CONTENT_TYPE", "").partition(";")[0].strip().lower() \
                != "application/json":
            return None
        try:
            length = int(environ.get("CONTENT_LENGTH") or "")
        except ValueError:
            return None
        if not 0 < length <= (config.get("MAX_CONTENT_LENGTH") or length):
            return None
        if not access.may_write(environ.get("HTTP_AUTHORIZATION", ""), gid,
                                config["SECRET_KEY"]):
            return None
        accept = environ.get("HTTP_ACCEPT_ENCODING", "")
        if ";" in accept or "*" in accept:  # weights, wildcards: Flask-Compress reads those
            return None
        raw = environ["wsgi.input"].read(length)
        environ["wsgi.input"] = io.BytesIO(raw)  # for Flask, if it answers after all
        try:
            body = loads(raw)
        except ValueError:
            return None
        version = body.get("version") if isinstance(body, dict) else None
        if not isinstance(version, int) or isinstance(version, bool) \
                or not isinstance(body.get("result"), dict):
            return None

        locale = choose_locale(_lang_cookie(environ.get("HTTP_COOKIE", "")),
                               environ.get("HTTP_ACCEPT_LANGUAGE", ""),
                               tuple(config["LANGUAGES"]))
        pool = pool_of(self.app)
        with speaking(self.app, locale):
            db = pool.take()
            try:
                try:
                    game = service.enter_deal(db, service.kept(gid) or service.load(db, gid),
                                              number, body["result"], version)
                except Exception:  # noqa: BLE001 - refused, or gone: Flask answers it
                    return None
                answer = game_json(game)
                to_bytes = getattr(self.app.json, "dumps_bytes", None)  # safejson's provider
                data = to_bytes(answer) if to_bytes is not None \
                    else (self.app.json.dumps(answer) + "\n").encode()
            finally:
                pool.give(db)
        live.written(self.app)
        headers = list(HEADERS)
        if _accepts_gzip(accept) and len(data) >= config.get("COMPRESS_MIN_SIZE", 500):
            data = gzip_bytes(data, config.get("COMPRESS_LEVEL", 6))
            headers.append(("Content-Encoding", "gzip"))
        headers.append(("Content-Length", str(len(data))))
        return "200 OK", headers, data


def _lang_cookie(cookies: str) -> str | None:
    """The ``lang`` cookie's value in a ``Cookie`` header.

    >>> _lang_cookie("session=abc; lang=pl"), _lang_cookie("xlang=pl"), _lang_cookie("")
    ('pl', None, None)
    """
    if "lang=" not in cookies:
        return None
    found = LANG_COOKIE.search(cookies)
    return found.group(1) if found else None


def _accepts_gzip(header: str) -> bool:
    """Whether an ``Accept-Encoding`` header without weights names gzip.

    >>> _accepts_gzip("gzip, deflate, br"), _accepts_gzip("deflate"), _accepts_gzip("")
    (True, False, False)
    """
    return "gzip" in (t.strip().lower() for t in header.split(","))


def init_app(app: Flask) -> None:
    app.wsgi_app = FastLane(app, app.wsgi_app)  # type: ignore[method-assign]
