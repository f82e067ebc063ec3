"""Sharing a game across the table: its join link, the link as a QR code, and whether the
address phones would scan can reach this server at all.

The link is built from the address the request came to (behind a trusted proxy, the one
the phone opened), or from ``KIERKI_PUBLIC_URL`` when set. A server opened as
``localhost`` gives a link that works on that machine only: the page says so and suggests
the machine's address on the local network."""
from __future__ import annotations

import io
import ipaddress
import socket
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import quote, unquote, urlsplit

import segno
from markupsafe import Markup

#: Dark modules on a light quiet zone in both colour schemes: a camera reads it on a dark page.
COLOURS = {"dark": "#000", "light": "#fff"}


def grouped(code: object) -> str:
    """A join code as a person reads it: eight characters in two groups of four.

    >>> grouped("K7QM2XRT"), grouped("K7QM2X")
    ('K7QM 2XRT', 'K7QM2X')
    """
    text = str(code or "")
    return f"{text[:4]} {text[4:]}" if len(text) == 8 else text


@dataclass(frozen=True)
class Share:
    """What the game page shows to bring another phone to the table: the join link, its
    code, the link as an inline SVG QR code, whether the server was reached as itself
    (``localhost``) and then the link with this machine's LAN address, if known."""

    url: str
    code: str
    qr: Markup
    loopback: bool
    suggestion: str | None

    @property
    def lines(self) -> tuple[str, str]:
        """The link as its address and its path: where a narrow screen wraps it."""
        scheme, sep, rest = self.url.partition("://")
        host, slash, path = rest.partition("/")
        return f"{scheme}{sep}{host}", slash + path


def _qr(url: str) -> segno.QRCode:
    return segno.make(url, error="m", micro=False)


@lru_cache(maxsize=256)  # the game page of every phone at a table draws the same one
def qr_svg(url: str) -> Markup:
    """``url`` as an inline SVG QR code (a 4-module quiet zone, scalable)."""
    return Markup(_qr(url).svg_inline(scale=1, border=4, omitsize=True, **COLOURS))


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or address, maybe with a port) names this machine only.

    >>> [is_loopback(h) for h in ("localhost:5000", "127.0.0.1", "[::1]:80", "192.168.1.20")]
    [True, True, True, False]
    """
    name = _split(host)[0].lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _split(host: str) -> tuple[str, str]:
    """``host[:port]`` (an IPv6 address in brackets) as (name, port or "")."""
    if host.startswith("["):
        name, _, rest = host[1:].partition("]")
        return name, rest[1:] if rest.startswith(":") else ""
    name, colon, port = host.partition(":")
    return (name, port) if colon and ":" not in port else (host, "")


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the outgoing interface
            return s.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def public_url(value: object) -> str | None:
    """``KIERKI_PUBLIC_URL`` as the base of every shared link (no trailing slash), or None
    when unset; anything but an ``http(s)://host[:port]`` address is refused at start.

    >>> public_url("https://kierki.example.org/"), public_url(None), public_url("")
    ('https://kierki.example.org', None, None)
    >>> public_url("kierki.example.org")
    Traceback (most recent call last):
    ...
    ValueError: KIERKI_PUBLIC_URL must be an address like https://kierki.example.org, \
not 'kierki.example.org'
    """
    if value is None or value == "":
        return None
    try:
        parts = urlsplit(str(value).strip())
        parts.port  # noqa: B018 (a port that is not a number raises here)
    except ValueError:
        parts = urlsplit("")
    if parts.scheme not in ("http", "https") or not parts.hostname \
            or parts.path.strip("/") or parts.query or parts.fragment or parts.username:
        raise ValueError("KIERKI_PUBLIC_URL must be an address like "
                         f"https://kierki.example.org, not {value!r}")
    return f"{parts.scheme}://{parts.netloc}"


def _links(scheme: str, host: str, path: str,
           public: str | None) -> tuple[str, str | None, bool]:
    """The link, the LAN address's link suggested instead of a loopback one, and whether
    the request's host was a loopback one."""
    if public:
        return public.rstrip("/") + path, None, False
    url = f"{scheme}://{host}{path}"
    if not is_loopback(host):
        return url, None, False
    lan = lan_address()
    if ipaddress.ip_address(lan).is_loopback:
        return url, None, True
    port = _split(host)[1]
    return url, f"{scheme}://{lan}{':' + port if port else ''}{path}", True


def describe(scheme: str, host: str, path: str, code: str,
             public: str | None = None) -> Share:
    """The share box of a game whose join link is ``path``, for a request to ``host``
    (or at the ``public`` address, ``KIERKI_PUBLIC_URL``)."""
    url, suggestion, loopback = _links(scheme, host, path, public)
    return Share(url=url, code=code, qr=qr_svg(url), loopback=loopback, suggestion=suggestion)


def reachable_url(scheme: str, host: str, path: str, public: str | None = None) -> str:
    """The link a phone at the club reaches: :func:`describe`'s suggestion, else its link."""
    url, suggestion, _ = _links(scheme, host, path, public)
    return suggestion or url


#: An ``<img>`` address that :func:`.pdf.render` draws as a PNG QR code of the link in it,
#: in the process that renders (a round sheet has hundreds).
QR_SCHEME = "kierki-qr:"


def qr_address(url: str) -> str:
    """``url``'s QR code as an address for a printed page's ``<img>``."""
    return QR_SCHEME + quote(url, safe="")


def qr_of_address(address: str) -> bytes | None:
    """The PNG a :func:`qr_address` stands for (None for any other address)."""
    if not address.startswith(QR_SCHEME):
        return None
    out = io.BytesIO()
    _qr(unquote(address[len(QR_SCHEME):])).save(out, kind="png", scale=1, border=4, **COLOURS)
    return out.getvalue()
