"""PDF score sheets: WeasyPrint renders the same Jinja templates the app serves.

A rendered sheet is kept in a small in-process cache keyed by game, version and
language, so a repeat download (or a second phone) costs nothing.
"""
from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Hashable
from functools import lru_cache
from pathlib import Path
from threading import Lock

from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration

_FONTS = FontConfiguration()
#: One render at a time: the font configuration and parsed CSS are shared, and a
#: render is CPU-bound anyway.
_RENDER_LOCK = Lock()
_BETWEEN_TAGS = re.compile(r">\s+<")


@lru_cache(maxsize=4)
def _stylesheet(path: str) -> CSS:
    """The print CSS, parsed (and its fonts found) once per process."""
    return CSS(filename=path, font_config=_FONTS)


def render(html: str, base_url: str | Path, stylesheet: str | Path | None = None) -> bytes:
    """HTML to PDF bytes. ``base_url`` resolves relative files; ``stylesheet`` is
    a CSS file applied on top, parsed once and reused for every render."""
    compact = _BETWEEN_TAGS.sub("><", html)  # template indentation only costs layout time
    with _RENDER_LOCK:
        sheets = [_stylesheet(str(stylesheet))] if stylesheet else []
        return HTML(string=compact, base_url=str(base_url)).write_pdf(
            stylesheets=sheets, font_config=_FONTS)


class SheetCache:
    """A least-recently-used cache of rendered PDFs."""

    def __init__(self, size: int = 32):
        self.size = size
        self._items: OrderedDict[Hashable, bytes] = OrderedDict()
        self._lock = Lock()

    def get(self, key: Hashable) -> bytes | None:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        return None

    def put(self, key: Hashable, pdf: bytes) -> None:
        with self._lock:
            self._items[key] = pdf
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


cache = SheetCache()
