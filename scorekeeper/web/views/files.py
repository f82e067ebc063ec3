"""What the sheet and export views share: a PDF kept per key (rendered by a worker process,
:mod:`...outputs.renders`), a download, a standings table's files and column names, and
ASCII file names."""
from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Response, current_app
from flask_babel import gettext

from ...common.i18n import lang
from ...outputs import exchange, pdf, renders

PACKAGE = Path(__file__).resolve().parents[2]  # scorekeeper/


def ascii_words(text: str, limit: int = 60) -> str:
    """``text`` as ASCII words joined by hyphens (Polish letters folded), for a file name.

    >>> ascii_words("Łódź: wieczór 3")
    'Lodz-wieczor-3'
    """
    folded = unicodedata.normalize("NFKD", text.replace("ł", "l").replace("Ł", "L"))
    kept = "".join(c if c.isalnum() else "-" for c in folded if not unicodedata.combining(c))
    return "-".join(filter(None, kept.encode("ascii", "ignore").decode().split("-")))[:limit]


@lru_cache(maxsize=8)
def layout_version(css: str, templates: tuple[str, ...], code: tuple[str, ...],
                   template_folder: str, static_folder: str) -> str:
    """What a printed page looks like, as one short string (part of every cache key): its
    templates and code (globs), its style sheet, the fonts and the translations."""
    files = [*(p for t in templates for p in Path(template_folder).glob(t)),
             Path(static_folder) / css, *Path(static_folder).glob("fonts/*.ttf"),
             *PACKAGE.glob("translations/*/*/*.mo"), PACKAGE / "common" / "formats.py",
             *(p for c in code for p in PACKAGE.glob(c))]
    return pdf.layout_version(files)


def kept_pdf(key: tuple, make_html: Callable[[], str], css: str, disposition: str,
             templates: tuple[str, ...], code: tuple[str, ...] = ()) -> Response:
    """The kept file for ``key``, else rendered by a worker process and kept (a full queue
    is :class:`~...outputs.renders.Full`, 503)."""
    app = current_app
    static = app.static_folder.rstrip("/")
    version = layout_version(css, templates, code, app.template_folder, app.static_folder)
    body = renders.for_app(app, (*key, lang(), version), lambda: renders.Job(
        make_html(), static + "/", f"{static}/{css}", f"{key[0]} sheet"))
    return Response(body, mimetype="application/pdf", headers={
        "Cache-Control": "no-cache", "Content-Disposition": disposition})


def download(body: bytes | str, mimetype: str, disposition: str) -> Response:
    return Response(body, mimetype=mimetype, headers={"Content-Disposition": disposition})


MIMETYPES = {"csv": "text/csv", "xlsx": exchange.XLSX, "json": "application/json"}


def labels(by_places: bool, **more: str) -> dict[str, str]:
    """A standings file's column names in the reader's language: the ones every standings
    table has, and ``more``."""
    return {"rank": gettext("Rank"), "player": gettext("Player"),
            "points": gettext("Places") if by_places else gettext("Points"),
            "wins": gettext("Wins"), "games": gettext("Games"), **more}


def table_file(fmt: str, filename: str, table: Callable[[], tuple[list[Any], list[list[Any]]]],
               title: str, data: Callable[[], object]) -> Response:
    """A table as a CSV (in the reader's dialect), .xlsx (one sheet named ``title``) or JSON
    download, only the asked one made: ``table`` gives the header and rows of the first
    two, ``data`` the JSON."""
    body = (exchange.csv_text(*table(), language=lang()) if fmt == "csv"
            else exchange.xlsx_bytes(*table(), title=title) if fmt == "xlsx"
            else json.dumps(data(), ensure_ascii=False, indent=1))
    return download(body, MIMETYPES[fmt], f'attachment; filename="{filename}"')
