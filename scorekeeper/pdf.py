"""PDF score sheets: WeasyPrint renders the same Jinja templates the app serves.

A rendered sheet is kept in a small in-process cache keyed by game, version and
language, so a repeat download (or a second phone) costs nothing.
"""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from pathlib import Path
from threading import Lock

from weasyprint import HTML
from weasyprint.text.fonts import FontConfiguration

_FONTS = FontConfiguration()


def render(html: str, base_url: str | Path) -> bytes:
    """HTML (with its print CSS) to PDF bytes; ``base_url`` resolves static files."""
    return HTML(string=html, base_url=str(base_url)).write_pdf(font_config=_FONTS)


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
