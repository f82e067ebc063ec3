"""A club's season (issue 36): its table (with each player's rating), a player's history
across the nights and two players head to head, the manager's seasons (a name, a date
range, points or places, best N), the table as PDF, CSV, ``.xlsx`` and JSON (the API's
``GET /api/clubs/<id>/season`` is ``api.py``'s, the same data).

Who may read it is the club's right (:func:`..access.readable_club`: anyone when the club
is public, its members, directors and manager when it is private; a stranger 404), and
only its manager names seasons (:func:`..access.require_club`). Thin: the table is
:mod:`...domain.seasons`', the files :mod:`...outputs.season_sheet`'s.
"""
from __future__ import annotations

import json
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext

from ...common.i18n import field_errors, lang
from ...domain import seasons
from ...domain.errors import PersonNotFound, SeasonNotFound
from ...outputs import exchange, pdf, renders, season_sheet
from ...rules import ratings
from ...rules.errors import InvalidInput
from .. import access
from ..db import get_db

bp = Blueprint("seasons", __name__)

FORMATS = ("pdf", "csv", "xlsx", "json")
_TEMPLATE = "seasons/sheet.html"


def _club(cid: str) -> Any:
    """The club if this request may read it (else 404: a private club's id is not told)."""
    return access.readable_club(get_db(), cid)


def _season(cid: str) -> seasons.Season:
    try:
        return seasons.find(get_db(), cid, request.args.get("season"))
    except SeasonNotFound:
        abort(404)


def _manages(cid: str) -> bool:
    return access.club_right(get_db(), cid) == access.MANAGER


def _club_name(club: Any) -> str:
    return club.name or gettext("This server's club")


@bp.get("/clubs/<cid>/season")
def show(cid: str):
    club = _club(cid)
    season = _season(cid)
    db = get_db()
    return render_template("seasons/show.html", provisional_games=ratings.PROVISIONAL_GAMES,
                           club=club, club_name=_club_name(club), season=season, lines=seasons.table(db, season),
                           seasons=seasons.all_of(db, cid), manager=_manages(cid),
                           errors={}, values={})


@bp.post("/clubs/<cid>/seasons")
def define(cid: str):
    """The manager names a season (or changes one: ``sid``)."""
    db = get_db()
    club = access.require_club(db, cid, access.MANAGER)
    form = request.form
    try:
        season = seasons.define(db, cid, form.get("name", ""), form.get("starts", ""),
                                form.get("ends", ""), form.get("scoring", ""),
                                form.get("best", ""), form.get("sid") or None)
    except SeasonNotFound:
        abort(404)
    except InvalidInput as e:
        current = seasons.current(db, cid)
        return render_template("seasons/show.html", provisional_games=ratings.PROVISIONAL_GAMES,
                               club=club, club_name=_club_name(club),
                               season=current, lines=seasons.table(db, current),
                               seasons=seasons.all_of(db, cid), manager=True,
                               errors=field_errors(e.problems), values=form), 422
    flash(gettext("The season is saved."), "ok")
    return redirect(url_for("seasons.show", cid=cid, season=season.id))


@bp.get("/clubs/<cid>/season/players/<int:pid>")
def player(cid: str, pid: int):
    """A player's season night by night, their rating, and head to head with another
    (``?with=<id>``)."""
    club = _club(cid)
    season = _season(cid)
    db = get_db()
    try:
        name, history, rating = seasons.history(db, season, pid)
    except PersonNotFound:
        abort(404)
    others = [(p, n) for p, n in seasons.people(db, season) if p != pid]
    versus = None
    other = request.args.get("with", type=int)
    if other is not None and other != pid:
        try:
            versus = seasons.head_to_head(db, season, pid, other)
        except PersonNotFound:
            abort(404)
    shown = None if rating is None else ratings.shown(rating[0])
    return render_template("seasons/player.html", provisional_games=ratings.PROVISIONAL_GAMES,
                           club=club, club_name=_club_name(club),
                           season=season, pid=pid, name=name, history=history,
                           rating=rating, shown=shown, rated=rating[3] if rating else 0,
                           others=others, other=other, versus=versus)


def _filename(club: Any, season: seasons.Season, ext: str) -> str:
    text = f"{club.name or 'club'}-{season.name}"
    folded = unicodedata.normalize("NFKD", text.replace("ł", "l").replace("Ł", "L"))
    kept = "".join(c if c.isalnum() else "-" for c in folded if not unicodedata.combining(c))
    words = "-".join(filter(None, kept.encode("ascii", "ignore").decode().split("-")))[:60]
    return f"{words or 'season'}-season.{ext}"


@lru_cache(maxsize=8)
def _layout_version(template_folder: str, static_folder: str) -> str:
    package = Path(__file__).resolve().parents[2]
    files = [Path(template_folder) / _TEMPLATE, Path(static_folder) / "round_sheet.css",
             *Path(static_folder).glob("fonts/*.ttf"), *package.glob("translations/*/*/*.mo"),
             package / "common" / "formats.py"]
    return pdf.layout_version(files)


def _labels(season: seasons.Season) -> dict[str, str]:
    return {"rank": gettext("Rank"), "player": gettext("Player"),
            "points": gettext("Places") if season.scoring == "places" else gettext("Points"),
            "nights": gettext("Nights"), "games": gettext("Games"), "wins": gettext("Wins"),
            "rating": gettext("Rating"), "provisional": gettext("Provisional rating"),
            "rated": gettext("Rated games"), "mu": gettext("Model: skill (mu)"),
            "sigma": gettext("Model: uncertainty (sigma)"), "yes": gettext("yes")}


@bp.get("/clubs/<cid>/season.<fmt>")
def export(cid: str, fmt: str):
    if fmt not in FORMATS:
        abort(404)
    club = _club(cid)
    season = _season(cid)
    lines = seasons.table(get_db(), season)
    data = season_sheet.to_json(season, lines)
    name = _filename(club, season, fmt)
    if fmt == "pdf":
        app = current_app
        key = ("season", cid, season.id or season.name, season_sheet.printed_state(data),
               lang(), _layout_version(app.template_folder, app.static_folder))
        static = app.static_folder.rstrip("/")

        def job() -> renders.Job:
            html = render_template(_TEMPLATE, provisional_games=ratings.PROVISIONAL_GAMES,
                                   club_name=_club_name(club), season=season,
                                   lines=lines)
            return renders.Job(html, static + "/", static + "/round_sheet.css",
                               f"season {name}")

        resp = Response(renders.for_app(app, key, job), mimetype="application/pdf")
        resp.headers["Cache-Control"] = "no-cache"
        resp.headers["Content-Disposition"] = f'inline; filename="{name}"'
        return resp
    if fmt == "csv":
        body, mimetype = season_sheet.to_csv(lines, _labels(season), lang()), "text/csv"
    elif fmt == "xlsx":
        body, mimetype = season_sheet.to_xlsx(lines, _labels(season), gettext("Season")), \
            exchange.XLSX
    else:
        body = json.dumps(data, ensure_ascii=False, indent=1)
        mimetype = "application/json"
    resp = Response(body, mimetype=mimetype)
    resp.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return resp

