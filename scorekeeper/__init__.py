"""Kierki Scorekeeper: the Flask application factory."""
from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask


def _secret_key(instance: Path) -> str:
    """A per-installation secret, made once and kept in the instance folder."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    from flask import Flask  # here, so that the pure rules import without the web stack

    # Templates and static files: inside the package when installed, beside it in a checkout.
    root = Path(__file__).resolve().parent
    root = root if (root / "templates").is_dir() else root.parent
    app = Flask(__name__, template_folder=str(root / "templates"),
                static_folder=str(root / "static"), instance_relative_config=True,
                instance_path=os.environ.get("KIERKI_INSTANCE") or None)
    instance = Path(app.instance_path)
    instance.mkdir(mode=0o700, parents=True, exist_ok=True)
    with contextlib.suppress(PermissionError):  # a folder another user owns, mounted for us
        instance.chmod(0o700)  # the database, its copies and the secret: this user's alone
    app.config.from_mapping(
        DATABASE=str(instance / "kierki.sqlite"), BABEL_DEFAULT_LOCALE="en",
        LANGUAGES=["pl", "en"], WTF_CSRF_TIME_LIMIT=None, SESSION_COOKIE_SAMESITE="Lax",
        MAX_CONTENT_LENGTH=2 * 1024 * 1024,  # any request body
        MAX_IMPORT_BYTES=1024 * 1024,  # an imported game file
        MAX_GAMES=10_000,  # games this server keeps; creating or importing more is refused
        MAX_VARIANTS=200,  # house variants it keeps (each is offered on the new-game page)
        PDF_CACHE_DIR=str(instance / "sheets"),  # rendered PDFs, all workers
        PDF_CACHE_BYTES=50 * 1024 * 1024,  # their bound; the least recently served go first
        PDF_WORKERS=None,  # processes rendering PDFs (outputs/renders.py); None: 1, tests 0
        PDF_QUEUE=8,  # renders waiting for a worker before one more is answered 503
        PROXY_HOPS=0,  # reverse proxies in front whose X-Forwarded-* headers are trusted
        PUBLIC_URL=None,  # the address put in join links and QR codes (else the request's)
        TIMEZONE=None,  # the zone times are shown in (IANA name; else this machine's)
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        app.config.from_prefixed_env("KIERKI")
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(instance)

    from .common.formats import display_zone
    from .outputs import renders, share
    from .web import adapters, api, db, hardening, i18n, limits, live, sessions, views
    from .web.jsonprovider import BoundedJSONProvider
    # Times shown in the table's own zone (KIERKI_TIMEZONE, else this machine's); the tests
    # keep UTC unless they say otherwise.
    app.config["BABEL_DEFAULT_TIMEZONE"] = display_zone(
        app.config.get("TIMEZONE") or (None if test_config is None else "UTC"))
    if app.config.get("PDF_WORKERS") is None:  # the tests render in process unless asked
        app.config["PDF_WORKERS"] = 1 if test_config is None else 0
    renders.settings(app.config)  # refused at start: a negative count
    app.config["PROXY_HOPS"] = hardening.proxy_hops(app.config.get("PROXY_HOPS"))  # refused too
    app.config["PUBLIC_URL"] = share.public_url(app.config.get("PUBLIC_URL"))
    app.json = BoundedJSONProvider(app)
    db.init_app(app)
    _backfill_figures(app)  # a database older than the figures: its finished games get them
    live.init_app(app)  # every write's events tell the live table
    sessions.init_app(app)  # the session cookie, Secure over HTTPS
    adapters.init_app(app)  # templates reach each family's web adapter (web_family)
    i18n.init_app(app, adapters.every())
    views.init_app(app)
    api.init_app(app)
    limits.init_app(app)  # per-client rate limits on guesses and on what fills the server
    # Last: the allowed names checked before every other hook, the security headers,
    # ETags and 304s on every answer, versioned static files, and the trusted proxies'
    # forwarded scheme, host and address (ProxyFix, the one WSGI middleware).
    hardening.init_app(app)
    return app


def _backfill_figures(app: Flask) -> None:
    """The figures of finished games that have none (an older database), on a connection
    of its own."""
    from .domain import service
    from .storage import connection

    if str(app.config["DATABASE"]) == ":memory:":  # a new connection is a database of its own
        return
    wait = int(app.config.get("BUSY_TIMEOUT_MS", connection.BUSY_TIMEOUT_MS))
    with connection.connect(app.config["DATABASE"], wait) as db:
        service.backfill_figures(db)
