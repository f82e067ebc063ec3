"""A tournament's printed sheets and result files: the round sheet (the director's alone:
every table's join code and QR code are on it) and the results as PDF, CSV, Excel (.xlsx)
or JSON (public: no code, token or game id in them). A round's sheet is kept per round and
the address its links point at; the results' per what is printed on them."""
from __future__ import annotations

from flask import Blueprint, abort, current_app, render_template, request, url_for
from flask_babel import gettext

from ...common.i18n import lang
from ...domain import tournaments
from ...outputs import share, tournament_sheet
from ..db import get_db
from . import games
from .files import ascii_words, kept_pdf, labels, table_file
from .tournaments import directed

bp = Blueprint("tournament_sheets", __name__)

FORMATS = ("pdf", "csv", "xlsx", "json")
_TEMPLATES = ("tournaments/round_sheet.html", "tournaments/results_sheet.html")


def _filename(t: tournaments.Tournament, what: str, ext: str) -> str:
    return f"{ascii_words(t.name, 50) or 'tournament'}-{what}.{ext}"


def _pdf(key: tuple, make_html, filename: str):
    return kept_pdf(key, make_html, "round_sheet.css", f'inline; filename="{filename}"', _TEMPLATES)


def _join_url(code: str, gid: str | None = None) -> str:
    """A table's join link as a phone at the club reaches it (with the game's secret when
    ``gid`` is given: the card's QR code)."""
    path = games.join_url(gid, code) if gid else url_for("games.join_link", code=code)
    return share.reachable_url(request.scheme, request.host, path,
                               current_app.config.get("PUBLIC_URL"))


def card_links(t: tournaments.Tournament):
    """What makes each table card's link: its code with its game's secret."""
    by_code = {tb.join_code: tb.game_id for tb in t.stored.tables}
    return lambda code: _join_url(code, by_code.get(code))


@bp.get("/tournaments/<tid>/rounds/<int:number>/sheet.pdf")
def round_sheet(tid: str, number: int):
    t = directed(tid)
    if not 1 <= number <= t.current:
        abort(404)
    base = _join_url("X")[:-1]

    def html() -> str:
        plan = tournament_sheet.seat_plan(t, number, lang())
        cards = tournament_sheet.cards(t, number, card_links(t))
        return render_template(
            _TEMPLATES[0], t=t, number=number, plan=plan, cards=cards,
            plan_pages=tournament_sheet.plan_pages(plan),
            table_pages=tournament_sheet.table_pages(cards), large=tournament_sheet.LARGE)

    return _pdf(("round", tid, number, base), html, _filename(t, f"round-{number}", "pdf"))


def _labels(t: tournaments.Tournament) -> dict[str, str]:
    """The files' column names in the reader's language."""
    return labels(t.scoring == "places", best=gettext("Best game"),
                  # %% keeps the placeholder for the export to fill in, round by round
                  table=gettext("Round %(n)s: table", n="%(round)s"),
                  total=gettext("Round %(n)s: total", n="%(round)s"))


@bp.get("/tournaments/<tid>/results.<fmt>")
def results(tid: str, fmt: str):
    if fmt not in FORMATS:
        abort(404)
    t = tournaments.load(get_db(), tid)
    signed = tournaments.signatures(get_db(), t)
    if fmt == "pdf":
        results = tournament_sheet.to_json(t, signed)
        return _pdf(("results", tid, tournament_sheet.printed_state(results)),
                    lambda: render_template(_TEMPLATES[1], t=t, results=results),
                    _filename(t, "results", "pdf"))
    return table_file(fmt, _filename(t, "results", fmt),
                      lambda: tournament_sheet.standings(t, _labels(t)), gettext("Results"),
                      lambda: tournament_sheet.to_json(t, signed))
