"""PDF sheets: WeasyPrint renders the app's Jinja templates, and each sheet is kept as a file.

The files live under the instance folder, shared by every server process and kept across
restarts. A file's name is its whole key (the game, its version, the language and the
layout version), so a changed template never serves an old layout. A file is written under
a temporary name and moved into place, so a reader sees a whole file or none; one that is
not a whole PDF is rendered again. The least recently served go first past the size bound."""
from __future__ import annotations

import contextlib
import hashlib
import os
import re
import tempfile
import time
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from threading import Lock

from weasyprint import CSS, HTML
from weasyprint import __version__ as weasyprint_version
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

from .share import qr_of_address

_FONTS = FontConfiguration()
_RENDER_LOCK = Lock()  # the font configuration and parsed CSS are shared
_BETWEEN_TAGS = re.compile(r">\s+<")
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")
SUFFIX = ".pdf"
TEMP_PREFIX = ".part-"
#: A temporary file older than this is left over from a process that died mid-write.
STALE_TEMP_SECONDS = 600


@lru_cache(maxsize=4)
def _stylesheet(path: str) -> CSS:
    """The print CSS, parsed (and its fonts found) once per process."""
    return CSS(filename=path, font_config=_FONTS)


class _Fetcher(URLFetcher):
    """WeasyPrint's fetcher, drawing a :func:`.share.qr_address` in the rendering process."""

    def fetch(self, url, headers=None):
        png = qr_of_address(url)
        if png is not None:
            return URLFetcherResponse(url, png, {"Content-Type": "image/png"})
        return super().fetch(url, headers)


def render(html: str, base_url: str | Path, stylesheet: str | Path | None = None) -> bytes:
    """HTML to PDF bytes; ``stylesheet``, a CSS file on top, is parsed once a process."""
    compact = _BETWEEN_TAGS.sub("><", html)  # template indentation only costs layout time
    with _RENDER_LOCK:
        sheets = [_stylesheet(str(stylesheet))] if stylesheet else []
        return HTML(string=compact, base_url=str(base_url), url_fetcher=_Fetcher()).write_pdf(
            stylesheets=sheets, font_config=_FONTS)


def layout_version(files: list[Path]) -> str:
    """The package version and a short hash of everything a sheet's layout is made of."""
    try:
        package = metadata.version("kierki-scorekeeper")
    except metadata.PackageNotFoundError:  # pragma: no cover - a bare checkout
        package = "0"
    digest = hashlib.sha256(f"weasyprint {weasyprint_version}".encode())
    for path in sorted(files):
        digest.update(str(path.name).encode())
        digest.update(path.read_bytes() if path.is_file() else b"-")
    return f"{package}+{digest.hexdigest()[:12]}"


def is_whole_pdf(body: bytes) -> bool:
    return body.startswith(b"%PDF-") and body.rstrip().endswith(b"%%EOF")


class SheetCache:
    """Rendered PDFs as files in one folder, shared by processes, bounded in bytes."""

    def __init__(self, folder: str | Path, max_bytes: int):
        self.folder = Path(folder)
        self.max_bytes = max_bytes

    def path(self, *key: object) -> Path:
        return self.folder / (_UNSAFE.sub("_", "-".join(map(str, key))) + SUFFIX)

    def get(self, *key: object) -> bytes | None:
        path = self.path(*key)
        try:
            body = path.read_bytes()
        except OSError:
            return None
        if not is_whole_pdf(body):
            path.unlink(missing_ok=True)
            return None
        with contextlib.suppress(OSError):
            os.utime(path)  # recently served: the last to be evicted
        return body

    def put(self, body: bytes, *key: object) -> None:
        """The file written whole or not at all, then the folder kept under its bound."""
        self.folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=TEMP_PREFIX)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(body)
            os.replace(tmp, self.path(*key))
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        self.trim()

    def trim(self) -> None:
        """The least recently served files deleted until the rest fit in ``max_bytes``, and
        the temporary files a dead process left behind."""
        files, now = [], time.time()
        try:
            entries = list(os.scandir(self.folder))
        except OSError:
            return
        for entry in entries:
            try:
                st = entry.stat()
            except OSError:  # another process removed it meanwhile
                continue
            if entry.name.startswith(TEMP_PREFIX):
                if now - st.st_mtime > STALE_TEMP_SECONDS:
                    Path(entry.path).unlink(missing_ok=True)
            elif entry.name.endswith(SUFFIX):
                files.append((st.st_mtime, st.st_size, entry.path))
        total = sum(size for _, size, _ in files)
        for _, size, path in sorted(files):
            if total <= self.max_bytes:
                break
            Path(path).unlink(missing_ok=True)
            total -= size

    def clear(self) -> None:
        for path in self.folder.glob("*" + SUFFIX):
            path.unlink(missing_ok=True)


class _AppCaches:
    """Each app's cache, by its folder and bound (from its config)."""

    def __init__(self) -> None:
        self._made: dict[tuple[str, int], SheetCache] = {}

    def for_app(self, app) -> SheetCache:
        key = (str(app.config["PDF_CACHE_DIR"]), int(app.config["PDF_CACHE_BYTES"]))
        return self._made.setdefault(key, SheetCache(*key))

    def clear(self) -> None:
        """Every cache this process has used emptied (for the tests)."""
        for made in list(self._made.values()):
            made.clear()


cache = _AppCaches()
