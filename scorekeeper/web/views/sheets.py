"""Score sheets and exports: PDF (cached per game version), blank sheet, CSV (in the
reader's spreadsheet dialect), Excel (.xlsx), JSON, import.

Both PDFs are kept as files shared by every worker (see ``scorekeeper.pdf``); their ETag is
a hash of the body, and a conditional GET that matches the cached file answers 304.
"""
from __future__ import annotations

import json
import unicodedata
from datetime import date
from functools import lru_cache
from pathlib import Path
from urllib.parse import quote

from flask import (
    Blueprint,
    Response,
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext
from flask_wtf import FlaskForm
from flask_wtf.file import FileField

from ...common import formats
from ...common.i18n import field_errors, lang
from ...domain import reads, service, variants
from ...outputs import exchange, pdf, renders
from ...rules.errors import InvalidInput
from .. import access, adapters
from ..db import get_db

bp = Blueprint("sheets", __name__)


class ImportForm(FlaskForm):
    file = FileField()


def _load(gid: str) -> service.Game:
    return service.load(get_db(), gid)


def _ascii(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text.replace("ł", "l").replace("Ł", "L"))
    kept = "".join(c if c.isalnum() else "-" for c in folded if not unicodedata.combining(c))
    return "-".join(filter(None, kept.encode("ascii", "ignore").decode().split("-")))[:60]


def _filename(header: dict, ext: str) -> tuple[str, str]:
    day = (header["created_at"] or "")[:10] or date.today().isoformat()
    words = [header["family"], *header["players"], day]
    return ("-".join(_ascii(w) or "x" for w in words) + "." + ext,
            "-".join(w.replace(" ", "_") for w in words) + "." + ext)


def _disposition(header: dict, ext: str, inline: bool = False) -> str:
    ascii_name, utf8_name = _filename(header, ext)
    disposition = "inline" if inline else "attachment"
    return f'{disposition}; filename="{ascii_name}"; filename*=UTF-8\'\'{quote(utf8_name)}'


def _download(body: bytes | str, mimetype: str, header: dict, ext: str) -> Response:
    resp = Response(body, mimetype=mimetype)
    resp.headers["Content-Disposition"] = _disposition(header, ext)
    return resp


def _header(game: service.Game) -> dict:
    s = game.stored
    return {"family": s.family, "players": s.players, "created_at": s.created_at}


def _sheet(template: str, static_base: str | None, **context) -> str:
    """The family's sheet template: a game's (``game`` given) or a blank one."""
    return render_template(template, static_base=static_base, **context)


def _game_sheet(game: service.Game, static_base: str | None) -> str:
    return _sheet(adapters.of(game.family).templates["sheet"], static_base, game=game, ruleset=game.rules,
                  players=game.players, date=formats.date(game.stored.created_at),
                  reference=access.reference(game.id),
                  signed_seats=service.signatures(get_db(), game) if game.state.finished else {})


def _job(html: str, name: str) -> renders.Job:
    static = current_app.static_folder.rstrip("/")
    return renders.Job(html, static + "/", static + "/sheet.css", name)


@lru_cache(maxsize=8)
def _layout_version(template_folder: str, static_folder: str) -> str:
    """What a sheet looks like, as one short string: part of every cache key."""
    package = Path(__file__).resolve().parents[2]  # scorekeeper/
    files = [*Path(template_folder).glob("*/sheet.html"),
             Path(template_folder) / "_sheet_signatures.html", Path(static_folder) / "sheet.css",
             *Path(static_folder).glob("fonts/*.ttf"), *package.glob("translations/*/*/*.mo"),
             package / "common" / "charts.py", package / "common" / "formats.py",
             *package.glob("families/*/web/charts.py")]
    return pdf.layout_version(files)


def _cached_pdf(key: tuple, make_html) -> Response:
    """The kept file for ``key``, else rendered by a worker process and kept
    (:mod:`...outputs.renders`: a full queue is :class:`~...outputs.renders.Full`, 503); its ETag is its bytes' (a client
    that has them is answered 304: :mod:`..hardening`)."""
    app = current_app
    full_key = (*key, lang(), _layout_version(app.template_folder, app.static_folder))
    body = renders.for_app(app, full_key, lambda: _job(make_html(), f"{key[0]} sheet"))
    resp = Response(body, mimetype="application/pdf")
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.get("/games/<gid>/sheet.pdf")
def game_pdf(gid: str):
    """A cached sheet costs one small query and one file read: no replay, no render."""
    header = reads.game_header(get_db(), gid)
    resp = _cached_pdf(("game", gid, f"v{header['version']}"),
                       lambda: _game_sheet(_load(gid), None))
    if resp.status_code == 200:
        resp.headers["Content-Disposition"] = _disposition(header, "pdf", inline=True)
    return resp


@bp.get("/games/<gid>/sheet")
def game_sheet_html(gid: str):
    """The same sheet as a page, for the browser's own print dialog."""
    return _game_sheet(_load(gid), url_for("static", filename=""))


@bp.get("/sheets/<ref>/back")
def back_to_game(ref: str):
    """The print page's way back. The page carries no id (nothing on it opens the game),
    only its short reference: this leads to the game among those this browser already
    has whose reference it is, else to the list of games."""
    for gid in access.known():
        if access.reference(gid) == ref:
            return redirect(url_for("games.show", gid=gid))
    return redirect(url_for("games.index"))


@bp.get("/rules/<ruleset_id>/blank.pdf")
def blank_pdf(ruleset_id: str):
    family, rules = variants.find(get_db(), ruleset_id)  # UnknownRuleset: 404

    def html() -> str:
        names = [gettext("Player %(n)s", n=i + 1) for i in range(rules.players)]
        return _sheet(adapters.of(family).templates["sheet"], None, game=None, ruleset=rules, players=names)

    resp = _cached_pdf(("blank", family.key, ruleset_id), html)
    if resp.status_code == 200:
        resp.headers["Content-Disposition"] = \
            f'inline; filename="{family.key}-blank-{ruleset_id}.pdf"'
    return resp


@bp.get("/games/<gid>/export.csv")
def export_csv(gid: str):
    game = _load(gid)
    return _download(exchange.to_csv(game, lang()), "text/csv", _header(game), "csv")


@bp.get("/games/<gid>/export.xlsx")
def export_xlsx(gid: str):
    """The CSV's rows as an Excel workbook (numbers as numbers, no cell a formula)."""
    game = _load(gid)
    return _download(exchange.to_xlsx(game, gettext("Game")), exchange.XLSX,
                     _header(game), "xlsx")


@bp.get("/games/<gid>/export.json")
def export_json(gid: str):
    game = _load(gid)
    body = json.dumps(exchange.to_json(get_db(), game), ensure_ascii=False, indent=1)
    return _download(body, "application/json", _header(game), "json")


@bp.route("/games/import", methods=["GET", "POST"])
def import_game():
    form = ImportForm()
    errors: list[str] = []
    if form.validate_on_submit():
        upload = request.files.get("file")
        if upload is None or not upload.filename:
            errors = [gettext("Choose a file.")]
        else:
            try:
                with upload.stream as stream:
                    limit = current_app.config["MAX_IMPORT_BYTES"]
                    raw = stream.read(limit + 1)
                gid = exchange.import_game(get_db(), raw, limit,
                                           current_app.config["MAX_GAMES"],
                                           current_app.config["MAX_VARIANTS"])
            except InvalidInput as e:
                errors = [m for msgs in field_errors(e.problems).values() for m in msgs]
            else:
                access.remember(gid)
                return redirect(url_for("games.show", gid=gid))
    return render_template("import.html", form=form, errors=errors), (422 if errors else 200)
