"""Score sheets and exports: PDF (kept per game version), blank sheet, CSV (in the
reader's spreadsheet dialect), Excel (.xlsx), JSON, import."""
from __future__ import annotations

import json
from datetime import date
from urllib.parse import quote

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_wtf import FlaskForm

from ...common import formats
from ...common.i18n import lang
from ...domain import reads, service, variants
from ...outputs import exchange
from ...rules.errors import InvalidInput
from .. import access, adapters
from ..db import get_db
from .files import ascii_words, download, kept_pdf
from .games import messages

bp = Blueprint("sheets", __name__)

#: What a score sheet's look is made of, besides the style sheet (see ``files``).
TEMPLATES = ("*/sheet.html", "_sheet_signatures.html")
CODE = ("common/charts.py", "families/*/web/charts.py")


def _load(gid: str) -> service.Game:
    return service.load(get_db(), gid)


def _disposition(header: dict, ext: str, inline: bool = False) -> str:
    """The game's file name (its family, players and day), ASCII and UTF-8."""
    day = (header["created_at"] or "")[:10] or date.today().isoformat()
    words = [header["family"], *header["players"], day]
    ascii_name = "-".join(ascii_words(w) or "x" for w in words) + "." + ext
    utf8_name = "-".join(w.replace(" ", "_") for w in words) + "." + ext
    return f'{"inline" if inline else "attachment"}; filename="{ascii_name}"; ' \
        f"filename*=UTF-8''{quote(utf8_name)}"


def _download(body: bytes | str, mimetype: str, game: service.Game, ext: str):
    return download(body, mimetype, _disposition(vars(game.stored), ext))


def _game_sheet(game: service.Game, static_base: str | None) -> str:
    return render_template(
        adapters.of(game.family).templates["sheet"], static_base=static_base, game=game,
        ruleset=game.rules, players=game.players, date=formats.date(game.stored.created_at),
        reference=access.reference(game.id),
        signed_seats=service.signatures(get_db(), game) if game.state.finished else {})


@bp.get("/games/<gid>/sheet.pdf")
def game_pdf(gid: str):
    """A kept sheet costs one small query and one file read: no replay, no render."""
    header = reads.game_header(get_db(), gid)
    return kept_pdf(("game", gid, f"v{header['version']}"),
                    lambda: _game_sheet(_load(gid), None), "sheet.css",
                    _disposition(header, "pdf", inline=True), TEMPLATES, CODE)


@bp.get("/games/<gid>/sheet")
def game_sheet_html(gid: str):
    """The same sheet as a page, for the browser's own print dialog."""
    return _game_sheet(_load(gid), url_for("static", filename=""))


@bp.get("/sheets/<ref>/back")
def back_to_game(ref: str):
    """The print page's way back: it carries no id, only the game's short reference, so
    this leads to the game of this browser with that reference, else to the list."""
    for gid in access.known():
        if access.reference(gid) == ref:
            return redirect(url_for("games.show", gid=gid))
    return redirect(url_for("games.index"))


@bp.get("/rules/<ruleset_id>/blank.pdf")
def blank_pdf(ruleset_id: str):
    family, rules = variants.find(get_db(), ruleset_id)  # UnknownRuleset: 404
    return kept_pdf(
        ("blank", family.key, ruleset_id), lambda: render_template(
            adapters.of(family).templates["sheet"], static_base=None, game=None,
            ruleset=rules, players=[gettext("Player %(n)s", n=i + 1)
                                    for i in range(rules.players)]),
        "sheet.css", f'inline; filename="{family.key}-blank-{ruleset_id}.pdf"',
        TEMPLATES, CODE)


@bp.get("/games/<gid>/export.csv")
def export_csv(gid: str):
    game = _load(gid)
    body = exchange.csv_text(*game.family.csv(game), language=lang())
    return _download(body, "text/csv", game, "csv")


@bp.get("/games/<gid>/export.xlsx")
def export_xlsx(gid: str):
    game = _load(gid)
    body = exchange.xlsx_bytes(*game.family.csv(game), title=gettext("Game"))
    return _download(body, exchange.XLSX, game, "xlsx")


@bp.get("/games/<gid>/export.json")
def export_json(gid: str):
    game = _load(gid)
    body = json.dumps(exchange.to_json(get_db(), game), ensure_ascii=False, indent=1)
    return _download(body, "application/json", game, "json")


@bp.route("/games/import", methods=["GET", "POST"])
def import_game():
    form = FlaskForm()  # its CSRF field; the file is read from request.files
    errors: list[str] = []
    if form.is_submitted():
        upload = request.files.get("file")
        if not upload:  # none, or no file chosen (an empty name)
            errors = [gettext("Choose a file.")]
        else:
            try:
                limit = current_app.config["MAX_IMPORT_BYTES"]
                with upload.stream as stream:
                    raw = stream.read(limit + 1)
                gid = exchange.import_game(get_db(), raw, limit,
                                           current_app.config["MAX_GAMES"],
                                           current_app.config["MAX_VARIANTS"])
            except InvalidInput as e:
                errors = messages(e)
            else:
                access.remember(gid)
                return redirect(url_for("games.show", gid=gid))
    return render_template("import.html", form=form, errors=errors), (422 if errors else 200)
