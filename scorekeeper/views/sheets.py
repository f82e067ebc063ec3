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

from .. import access, exchange, pdf, queries, service
from ..db import get_db
from ..families import registry
from ..i18n import field_errors, lang
from ..rules.errors import InvalidInput, UnknownRuleset

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


def _download(body: bytes | str, mimetype: str, header: dict, ext: str,
              inline: bool = False) -> Response:
    ascii_name, utf8_name = _filename(header, ext)
    disposition = "inline" if inline else "attachment"
    resp = Response(body, mimetype=mimetype)
    resp.headers["Content-Disposition"] = (
        f'{disposition}; filename="{ascii_name}"; filename*=UTF-8\'\'{quote(utf8_name)}')
    return resp


def _header(game: service.Game) -> dict:
    s = game.stored
    return {"family": s.family, "players": s.players, "created_at": s.created_at}


def _sheet(template: str, static_base: str | None, **context) -> str:
    """The family's sheet template: a game's (``game`` given) or a blank one."""
    return render_template(template, static_base=static_base, **context)


def _game_sheet(game: service.Game, static_base: str | None) -> str:
    return _sheet(game.family.templates["sheet"], static_base, game=game, ruleset=game.rules,
                  players=game.players, date=game.stored.created_at[:10])


def _pdf(html: str) -> bytes:
    static = current_app.static_folder.rstrip("/")
    return pdf.render(html, static + "/", stylesheet=static + "/sheet.css")


@bp.get("/games/<gid>/sheet.pdf")
def game_pdf(gid: str):
    """A cached sheet costs one small query: no replay, no render."""
    header = queries.game_header(get_db(), gid)
    etag = f"{gid}-{header['version']}-{lang()}"
    if request.if_none_match.contains(etag):
        return Response(status=304, headers={"ETag": f'"{etag}"'})
    body = pdf.cache.get(etag)
    if body is None:
        body = _pdf(_game_sheet(_load(gid), None))
        pdf.cache.put(etag, body)
    resp = _download(body, "application/pdf", header, "pdf", inline=True)
    resp.set_etag(etag)
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.get("/games/<gid>/sheet")
def game_sheet_html(gid: str):
    """The same sheet as a page, for the browser's own print dialog."""
    return _game_sheet(_load(gid), url_for("static", filename=""))


@bp.get("/rules/<ruleset_id>/blank.pdf")
def blank_pdf(ruleset_id: str):
    try:
        family, rules = registry.find(ruleset_id)
    except UnknownRuleset:
        abort(404)
    key = ("blank", ruleset_id, lang())
    body = pdf.cache.get(key)
    if body is None:
        names = [gettext("Player %(n)s", n=i + 1) for i in range(rules.players)]
        body = _pdf(_sheet(family.templates["sheet"], None, game=None, ruleset=rules,
                           players=names))
        pdf.cache.put(key, body)
    resp = Response(body, mimetype="application/pdf")
    resp.headers["Content-Disposition"] = \
        f'inline; filename="{family.key}-blank-{ruleset_id}.pdf"'
    return resp


@bp.get("/games/<gid>/export.csv")
def export_csv(gid: str):
    game = _load(gid)
    return _download(exchange.to_csv(game), "text/csv", _header(game), "csv")


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
                                           current_app.config["MAX_GAMES"])
            except InvalidInput as e:
                errors = [m for msgs in field_errors(e.problems).values() for m in msgs]
            else:
                access.remember(gid)
                return redirect(url_for("games.show", gid=gid))
    return render_template("import.html", form=form, errors=errors), (422 if errors else 200)
