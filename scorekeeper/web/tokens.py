"""The tokens and secrets of the web: HMACs of an id under the server's secret key, and
the codes and bearer tokens clients send."""
from __future__ import annotations

import base64

from flask import current_app

from ..domain import rights
from ..domain.reads import CODE_ALPHABET, CODE_LENGTHS
from ..domain.rights import same


def secret_key(secret: str | bytes | None = None) -> str | bytes:
    """The secret tokens are made under: ``secret``, else the app's key."""
    return current_app.config["SECRET_KEY"] if secret is None else secret


def mac(purpose: str, subject: str) -> str:
    return rights.mac(purpose, subject, secret_key())


def normalise_code(text: object) -> str:
    """What a player typed as a code, case, spaces and dashes ignored; "" if it is none."""
    if not isinstance(text, str):
        return ""
    code = "".join(c for c in text.upper() if c not in " -\t")
    return code if len(code) in CODE_LENGTHS and set(code) <= set(CODE_ALPHABET) else ""


def bearer(header: str) -> str | None:
    """The token an ``Authorization`` header brings; None if it brings none."""
    scheme, _, given = header.partition(" ")
    return given.strip() if scheme.lower() == "bearer" and given.strip() else None


def token(gid: str, secret: str | bytes | None = None) -> str:
    """A game's API write token."""
    return rights.game_token(gid, secret_key(secret))


def tournament_token(tid: str, secret: str | bytes | None = None) -> str:
    """A tournament director's token (the API's, and the director's link's)."""
    return rights.tournament_token(tid, secret_key(secret))


def club_token(cid: str) -> str:
    """A club manager's token (given once, when the club is made)."""
    return rights.club_token(cid, secret_key())


def club_director_token(cid: str, did: int) -> str:
    """The token of a club's director ``did`` (in the director's link too)."""
    return rights.club_director_token(cid, did, secret_key())


def variant_token(rid: str) -> str:
    """The token a house variant's maker gets: deleting it through the API needs it."""
    return mac("variant-token", rid)[:40]


def join_secret(gid: str) -> str:
    """The secret of a game's join link and table card: 96 bits, in 16 URL-safe
    characters so that the QR code stays small."""
    return base64.urlsafe_b64encode(bytes.fromhex(mac("join-link", gid))[:12]).decode()


def is_join_secret(gid: str, given: object) -> bool:
    return same(given, join_secret(gid))


def reference(gid: str) -> str:
    """A game sheet's short reference: two sheets of one game can be matched, but the id,
    join code and token cannot be found from it."""
    return mac("sheet-ref", gid)[:6].upper()


def is_director_token(given: object, tid: str) -> bool:
    return same(given, tournament_token(tid))


def is_club_director_link(cid: str, did: object, given: object) -> bool:
    return isinstance(did, int) and same(given, club_director_token(cid, did))


def is_club_manager_link(cid: str, given: object) -> bool:
    return same(given, club_token(cid))
