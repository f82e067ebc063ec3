"""Score sheets and exports: PDF (cached per game version), blank sheet, CSV, JSON, import."""
from __future__ import annotations

import json
import unicodedata
from datetime import date
from urllib.parse import quote

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext
from flask_wtf import FlaskForm
from flask_wtf.file import FileField

from .. import exchange, games, pdf, service, store
from ..db import get_db
from ..i18n import contract_name, field_errors, lang, sheet_detail, tybet_label
from ..rules.errors import UnknownRuleset

bp = Blueprint("sheets", __name__)


class ImportForm(FlaskForm):
    file = FileField()


def _load(gid: str) -> service.Game:
    try:
        return service.load(get_db(), gid)
    except store.GameNotFound:
        abort(404)


def _ascii(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text.replace("ł", "l").replace("Ł", "L"))
    kept = "".join(c if c.isalnum() else "-" for c in folded if not unicodedata.combining(c))
    return "-".join(filter(None, kept.encode("ascii", "ignore").decode().split("-")))[:60]


def _filename(game: service.Game, ext: str) -> tuple[str, str]:
    day = game.stored.created_at[:10] or date.today().isoformat()
    words = [game.family, *game.players, day]
    return ("-".join(_ascii(w) or "x" for w in words) + "." + ext,
            "-".join(w.replace(" ", "_") for w in words) + "." + ext)


def _download(body: bytes | str, mimetype: str, game: service.Game, ext: str,
              inline: bool = False) -> Response:
    ascii_name, utf8_name = _filename(game, ext)
    disposition = "inline" if inline else "attachment"
    resp = Response(body, mimetype=mimetype)
    resp.headers["Content-Disposition"] = (
        f'{disposition}; filename="{ascii_name}"; filename*=UTF-8\'\'{quote(utf8_name)}')
    return resp


def _sheet_context(game: service.Game) -> dict:
    """The template and what it needs, for the game's family."""
    if game.family == "tybet":
        return {"template": "tybet_sheet.html", "game": game,
                "title": gettext("Tybet score sheet"), "date": game.stored.created_at[:10]}
    return {"template": "sheet.html", "game": game, "ruleset": game.ruleset,
            "players": game.players, "title": gettext("Kierki score sheet"),
            "date": game.stored.created_at[:10]}


def _sheet_html(template: str = "sheet.html", **context) -> str:
    return render_template(template, static_base=None, **context)


def _pdf(html: str) -> bytes:
    static = current_app.static_folder.rstrip("/")
    return pdf.render(html, static + "/", stylesheet=static + "/sheet.css")


@bp.get("/games/<gid>/sheet.pdf")
def game_pdf(gid: str):
    try:
        version = store.game_version(get_db(), gid)  # cheap: no replay before the cache
    except store.GameNotFound:
        abort(404)
    etag = f"{gid}-{version}-{lang()}"
    if request.if_none_match.contains(etag):
        return Response(status=304, headers={"ETag": f'"{etag}"'})
    body = pdf.cache.get(etag)
    game = _load(gid)
    if body is None:
        body = _pdf(_sheet_html(**_sheet_context(game)))
        pdf.cache.put(etag, body)
    resp = _download(body, "application/pdf", game, "pdf", inline=True)
    resp.set_etag(etag)
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.get("/games/<gid>/sheet")
def game_sheet_html(gid: str):
    """The same sheet as a page, for the browser's own print dialog."""
    context = _sheet_context(_load(gid))
    return render_template(context.pop("template"), static_base=url_for("static", filename=""),
                           **context)


@bp.get("/rules/<ruleset_id>/blank.pdf")
def blank_pdf(ruleset_id: str):
    try:
        family, ruleset = games.find(ruleset_id)
    except UnknownRuleset:
        abort(404)
    key = ("blank", ruleset_id, lang())
    body = pdf.cache.get(key)
    if body is None:
        names = [gettext("Player %(n)s", n=i + 1) for i in range(ruleset.players)]
        if family.key == "tybet":
            html = _sheet_html("tybet_sheet.html", game=None, rules=ruleset, players=names,
                               title=gettext("Tybet blank sheet"))
        else:
            html = _sheet_html(game=None, ruleset=ruleset, players=names,
                               title=gettext("Kierki blank sheet"))
        body = _pdf(html)
        pdf.cache.put(key, body)
    resp = Response(body, mimetype="application/pdf")
    resp.headers["Content-Disposition"] = \
        f'inline; filename="{family.key}-blank-{ruleset_id}.pdf"'
    return resp


@bp.get("/games/<gid>/export.csv")
def export_csv(gid: str):
    game = _load(gid)
    if game.family == "tybet":
        body = exchange.tybet_csv(game, tybet_label)
    else:
        body = exchange.to_csv(game, contract_name, sheet_detail)
    return _download(body, "text/csv; charset=utf-8", game, "csv")


@bp.get("/games/<gid>/export.json")
def export_json(gid: str):
    game = _load(gid)
    body = json.dumps(exchange.to_json(get_db(), game), ensure_ascii=False, indent=1)
    return _download(body, "application/json", game, "json")


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
                    raw = stream.read(exchange.MAX_BYTES + 1)
                gid = exchange.import_game(get_db(), raw)
            except service.InvalidInput as e:
                errors = [m for msgs in field_errors(e.problems).values() for m in msgs]
            else:
                return redirect(url_for("games.show", gid=gid))
    return render_template("import.html", form=form, errors=errors), (422 if errors else 200)
