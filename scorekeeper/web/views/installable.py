"""The app on a phone's home screen, and the game pages it keeps for a Wi-Fi drop: the web
app manifest and the service worker (``templates/sw.js``), both served from the root. The
worker names the app shell by its versioned static URLs, so a changed file changes the
worker and the phones pick up the new shell on their next visit."""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from flask import Blueprint, Response, current_app, render_template, url_for
from flask_babel import gettext

from ...common.i18n import lang

bp = Blueprint("installable", __name__)

#: The home-screen icons (made by ``scripts/make_icons.py`` from ``static/icon.svg``).
ICONS = [
    ("icons/icon-192.png", "192x192", "image/png", "any"),
    ("icons/icon-512.png", "512x512", "image/png", "any"),
    ("icons/icon-maskable-512.png", "512x512", "image/png", "maskable"),
    ("icon.svg", "any", "image/svg+xml", "any"),
]

#: What a phone keeps to show a game page without the network (scripts, styles, icons).
SHELL = ["app.css", "entry.css", "app.js", "entry.js", "follow.js", "live.js", "screen.js",
         "offline.js", "icon.svg", "icons/icon-192.png"]


def palette(css: str) -> dict[str, str]:
    """The light palette's custom properties in ``app.css`` (its first ``:root`` block).

    >>> palette(":root { --bar: #1f5f3f; --paper: #fbf8f2; } .x { --bar: #000; }")["bar"]
    '#1f5f3f'
    """
    block = css[css.index(":root"):css.index("}", css.index(":root"))]
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{3,8})", block))


@bp.get("/manifest.webmanifest")
def manifest():
    colours = palette(Path(current_app.static_folder, "app.css").read_text(encoding="utf-8"))
    body = {
        "name": gettext("Kierki scorekeeper"),
        "short_name": gettext("Kierki"),
        "lang": lang(),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": colours["bar"],
        "background_color": colours["paper"],
        "icons": [{"src": url_for("static", filename=path), "sizes": sizes, "type": kind,
                   "purpose": purpose} for path, sizes, kind, purpose in ICONS],
    }
    return Response(json.dumps(body, ensure_ascii=False, indent=1),
                    mimetype="application/manifest+json",
                    headers={"Cache-Control": "no-cache"})


@bp.get("/sw.js")
def service_worker():
    """The service worker, from the root so that its scope is the whole app."""
    shell = [url_for("static", filename=name) for name in SHELL]
    version = hashlib.sha256("\n".join(shell).encode()).hexdigest()[:12]
    return Response(render_template("sw.js", shell=shell, version=version),
                    mimetype="text/javascript",
                    headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"})
