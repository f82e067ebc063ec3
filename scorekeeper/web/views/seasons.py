"""A club's season: its table (with each player's rating), a player's history across the
nights and two players head to head, the manager's seasons, and the table as PDF, CSV,
``.xlsx`` and JSON. Who may read it is the club's right (a stranger of a private club
gets 404); only its manager names seasons."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext

from ...common.i18n import field_errors
from ...domain import seasons
from ...domain.errors import PersonNotFound, SeasonNotFound
from ...outputs import season_sheet, tournament_sheet
from ...rules import ratings
from ...rules.errors import InvalidInput
from .. import access
from ..db import get_db
from .files import ascii_words, kept_pdf, labels, table_file

bp = Blueprint("seasons", __name__)

FORMATS = ("pdf", "csv", "xlsx", "json")
_TEMPLATE = "seasons/sheet.html"


def _season(cid: str) -> seasons.Season:
    try:
        return seasons.find(get_db(), cid, request.args.get("season"))
    except SeasonNotFound:
        abort(404)


def _render(template: str, club: Any, **context: Any) -> str:
    """A season template, with the club, its name and the games a rating is provisional for."""
    return render_template(template, provisional_games=ratings.PROVISIONAL_GAMES, club=club,
                           club_name=club.name or gettext("This server's club"), **context)


def _page(club: Any, season: seasons.Season, errors: dict | None = None,
          values: Any = None, status: int = 200):
    db = get_db()
    return _render(
        "seasons/show.html", club, season=season, lines=seasons.table(db, season),
        seasons=seasons.all_of(db, club.id),
        manager=access.club_right(db, club.id) == access.MANAGER,
        errors=errors or {}, values=values or {}), status


@bp.get("/clubs/<cid>/season")
def show(cid: str):
    return _page(access.readable_club(get_db(), cid), _season(cid))


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
        return _page(club, seasons.current(db, cid), field_errors(e.problems), form, 422)
    flash(gettext("The season is saved."), "ok")
    return redirect(url_for("seasons.show", cid=cid, season=season.id))


@bp.get("/clubs/<cid>/season/players/<int:pid>")
def player(cid: str, pid: int):
    """A player's season night by night, their rating, and head to head with another
    (``?with=<id>``)."""
    db = get_db()
    club = access.readable_club(db, cid)
    season = _season(cid)
    other = request.args.get("with", type=int)
    try:
        name, history, rating = seasons.history(db, season, pid)
        versus = None if other in (None, pid) else seasons.head_to_head(db, season, pid, other)
    except PersonNotFound:
        abort(404)
    others = [(p, n) for p, n in seasons.people(db, season) if p != pid]
    return _render("seasons/player.html", club, season=season, pid=pid, name=name,
                   history=history, rating=rating,
                   shown=None if rating is None else ratings.shown(rating[0]),
                   rated=rating[3] if rating else 0, others=others, other=other, versus=versus)


def _labels(season: seasons.Season) -> dict[str, str]:
    return labels(season.scoring == "places", nights=gettext("Nights"),
                  rating=gettext("Rating"), provisional=gettext("Provisional rating"),
                  rated=gettext("Rated games"), mu=gettext("Model: skill (mu)"),
                  sigma=gettext("Model: uncertainty (sigma)"), yes=gettext("yes"))


@bp.get("/clubs/<cid>/season.<fmt>")
def export(cid: str, fmt: str):
    if fmt not in FORMATS:
        abort(404)
    club = access.readable_club(get_db(), cid)
    season = _season(cid)
    lines = seasons.table(get_db(), season)
    data = season_sheet.to_json(season, lines)
    words = ascii_words(f"{club.name or 'club'}-{season.name}")
    name = f"{words or 'season'}-season.{fmt}"
    if fmt == "pdf":  # kept by the digest of its to_json: a corrected game prints a new one
        return kept_pdf(
            ("season", cid, season.id or season.name, tournament_sheet.digest(data)),
            lambda: _render(_TEMPLATE, club, season=season, lines=lines),
            "round_sheet.css", f'inline; filename="{name}"', (_TEMPLATE,))
    return table_file(fmt, name, lambda: season_sheet.standings(lines, _labels(season)),
                      gettext("Season"),
                      lambda: data)
