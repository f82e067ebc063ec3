"""A club night's pages: the director's form and page, the public results, the projector
and each player's phone page. The director is whoever opened the director's link in this
browser; everyone else reads. The projector's and the phones' live parts are fetched
again by static/tournament.js when the tournament's event stream tells of a change."""
from __future__ import annotations

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    g,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext, ngettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from markupsafe import Markup
from werkzeug.exceptions import Forbidden
from wtforms import RadioField, SelectChoice, SelectField, StringField, TextAreaField

from ...common.i18n import field_errors, lang
from ...domain import reads, service, tournaments, variants
from ...domain.tournaments import NotNow
from ...rules import checks
from ...rules.errors import InvalidInput, RulesetError, UnknownRuleset
from .. import access, limits
from ..db import get_db
from ..hardening import tagged
from .games import _listed_name, club_page, messages

bp = Blueprint("tournaments", __name__)

#: Table sizes as the form offers them: four first (the usual table), then three and five.
SIZES = ("4", "3", "5")
#: The limits the form says, the domain's (the one home of each): players, name, rounds.
FORM_LIMITS = {"players": (tournaments.MIN_PLAYERS, tournaments.MAX_PLAYERS),
               "name": tournaments.NAME_MAX, "rounds": tournaments.MAX_ROUNDS}
#: What the form starts with for each size ("" is "not used").
DEFAULTS = {"4": "standard-4", "3": "standard-3", "5": ""}


class TournamentForm(FlaskForm):
    name = StringField(_l("Tournament name"))
    players = TextAreaField(_l("Players, one name a line"))
    rounds = StringField(_l("Rounds"), default="3")
    ruleset_4 = SelectField(_l("Tables of four"), validate_choice=False)
    ruleset_3 = SelectField(_l("Tables of three"), validate_choice=False)
    ruleset_5 = SelectField(_l("Tables of five"), validate_choice=False)
    scoring = RadioField(_l("Ranking"), default="points", validate_choice=False,
                         choices=[SelectChoice("points", _l("by points (the sum of the games)")),
                                  SelectChoice("places", _l("by places (3, 2, 1, 0 a table)"))])
    seed = StringField(_l("Seed of the draw (optional)"))


def _choices(size: int, club: str) -> list[SelectChoice]:
    """The rulesets for ``size`` players each playing alone, the club's variants too (a
    game of pairs is never drawn)."""
    def alone(family, rules) -> bool:
        try:
            return all(len(side) == 1 for side in family.sides(rules))
        except (RulesetError, TypeError):
            return False
    return [SelectChoice(rules.id, _listed_name(rules, row))
            for family, rules, row in variants.listing(get_db(), club)
            if getattr(rules, "players", None) == size and alone(family, rules)]


@bp.route("/tournaments/new", methods=["GET", "POST"])
def new():
    return _new(None)


@bp.route("/clubs/<cid>/tournaments/new", methods=["GET", "POST"])
def new_in_club(cid: str):
    """A club's night: made by its manager or a director (two views: each its limit)."""
    return _new(cid)


def _new(cid: str | None):
    club, cid = club_page(cid, access.DIRECTOR)
    form = TournamentForm()
    for size in SIZES:
        field = form[f"ruleset_{size}"]
        field.choices = ([] if size == "4" else [SelectChoice("", gettext("not used"))]) \
            + _choices(int(size), cid)
        if request.method == "GET":
            field.data = DEFAULTS[size]
    errors: dict[str, list[str]] = {}
    if form.is_submitted():  # every field is the domain's to check
        try:
            t = tournaments.create(
                get_db(), form.name.data or "", form.players.data or "", form.rounds.data,
                {size: form[f"ruleset_{size}"].data or "" for size in SIZES}, form.scoring.data,
                (form.seed.data or "").strip() or None, max_games=current_app.config["MAX_GAMES"],
                club=cid)
        except InvalidInput as e:
            errors = field_errors(e.problems)
            if any(p.message == tournaments.UNFAIR for p in e.problems):
                # ranking by places is fair whatever the rules: offer it, chosen
                form.scoring.data = "places"
                errors["scoring_offer"] = [gettext(
                    "Ranking by places is now chosen below: press “Draw round 1” to make "
                    "the tournament with it.")]
        else:
            limits.made_games(len(t.rounds[0]))  # round 1's games
            access.remember_director(t.id)
            flash(gettext("The tournament is made and round 1 is drawn."), "ok")
            return redirect(url_for("tournaments.director", tid=t.id))
    return render_template("tournaments/new.html", form=form, errors=errors,
                           sizes=SIZES, club=club, limits=FORM_LIMITS), (422 if errors else 200)


def _load(tid: str) -> tournaments.Tournament:
    return tournaments.load(get_db(), tid)


def _deals_total(tables) -> dict[str, int | None]:
    """Each of the tables' rulesets' number of deals ("deal 7 of 12")."""
    def total(rid: str) -> int | None:
        try:
            family, rules = variants.find(get_db(), rid)
            return family.deals_total(rules)
        except (UnknownRuleset, RulesetError):
            return None
    return {rid: total(rid) for rid in {table.ruleset_id for table in tables}}


def _context(t: tournaments.Tournament, **more):
    return dict(t=t, totals=_deals_total(t.stored.tables), director=access.directs(t.id), **more)


@bp.get("/tournaments/<tid>")
def show(tid: str):
    """The public results: standings, round by round, each player's page linked."""
    return render_template("tournaments/show.html", **_context(_load(tid)))


@bp.get("/tournaments/<tid>/version")
def version(tid: str):
    """Polled by static/tournament.js when the event stream cannot be kept open."""
    return ({"version": reads.tournament_version(get_db(), tid)}, 200,
            {"Cache-Control": "no-store"})


class NotDirector(Forbidden):
    """A director's page or change asked for by a browser that is not the director's."""


@bp.app_errorhandler(NotDirector)  # the round sheet's route too
def not_director(e: NotDirector):
    return render_template("error.html", message=gettext(
        "Only the tournament's director can do this: open the director's link (given when "
        "the tournament was made) in this browser first. Nothing was changed.")), 403


@bp.get("/tournaments/<tid>/direct/<token>")
def direct(tid: str, token: str):
    """The director's link: this browser directs the tournament from now on."""
    _load(tid)  # a tournament that is not there: 404
    if not access.is_director_token(token, tid):
        raise NotDirector()
    access.remember_director(tid)
    return redirect(url_for("tournaments.director", tid=tid))


def _director_page(t: tournaments.Tournament, errors: dict | None = None,
                   values: dict | None = None, status: int = 200, confirming: bool = False):
    return render_template("tournaments/director.html", **_context(
        t, errors=errors or {}, values=values or {}, confirming=confirming,
        link=url_for("tournaments.direct", tid=t.id, token=access.tournament_token(t.id),
                     _external=True), changes=tournaments.changes(get_db(), t.id))), status


def directed(tid: str) -> tournaments.Tournament:
    """The tournament, for its director's browser alone (else :class:`NotDirector`, 403)."""
    t = _load(tid)
    if not access.directs(tid):
        raise NotDirector()
    return t


@bp.get("/tournaments/<tid>/director")
def director(tid: str):
    return _director_page(directed(tid))


@bp.errorhandler(NotNow)
def _refused(e: NotNow):
    """A change the tournament cannot take now: the director's page, saying why."""
    return _director_page(_load((request.view_args or {})["tid"]), {"": [e.text(gettext)]},
                          status=409)


@bp.post("/tournaments/<tid>/rounds")
def draw(tid: str):
    """Draw the round the form names (sent twice, it is drawn once)."""
    directed(tid)
    try:
        t = tournaments.draw_next(get_db(), tid, request.form.get("round", ""),
                                  max_games=current_app.config["MAX_GAMES"])
    except InvalidInput as e:
        return _director_page(_load(tid), field_errors(e.problems), status=422)
    limits.made_games(len(t.rounds[t.current - 1]))
    flash(gettext("Round %(round)s is drawn.", round=t.current), "ok")
    return redirect(url_for("tournaments.director", tid=tid))


@bp.post("/tournaments/<tid>/players")
def add_player(tid: str):
    """A late arrival, drawn from the next round on."""
    directed(tid)
    typed = request.form.get("name", "")
    try:
        tournaments.add_player(get_db(), tid, typed)
    except InvalidInput as e:
        return _director_page(_load(tid), field_errors(e.problems), {"name": typed}, 422)
    flash(gettext("%(name)s plays from the next round on.", name=typed.strip()), "ok")
    return redirect(url_for("tournaments.director", tid=tid))


@bp.post("/tournaments/<tid>/withdraw")
def withdraw(tid: str):
    t = directed(tid)
    given = request.form.get("player", "")
    try:
        tournaments.withdraw(get_db(), tid, given)
    except InvalidInput as e:
        return _director_page(t, {"player": messages(e)}, status=422)
    flash(gettext("%(name)s is withdrawn: not drawn from the next round on; their games "
                  "so far count.", name=t.name_of(int(given))), "ok")
    return redirect(url_for("tournaments.director", tid=tid))


@bp.post("/tournaments/<tid>/close")
def close(tid: str):
    """The director closes the night. With tables not signed, the first press answers the
    page naming them, and a second step closes anyway (``confirm_unsigned``)."""
    directed(tid)
    try:
        tournaments.close(get_db(), tid,
                          confirm_unsigned=request.form.get("confirm_unsigned") == "1")
    except tournaments.Unsigned as e:
        return _director_page(_load(tid), {"close": [e.text(gettext)]}, status=409, confirming=True)
    t = _load(tid)
    if t.unsigned:
        flash(ngettext("The tournament is closed with %(num)s table unsigned: its result "
                       "stays provisional.",
                       "The tournament is closed with %(num)s tables unsigned: their "
                       "results stay provisional.", len(t.unsigned)), "ok")
    else:
        flash(gettext("The tournament is closed: every table is signed, its results are "
                      "final and its games frozen."), "ok")
    return redirect(url_for("tournaments.show", tid=tid))


@bp.post("/tournaments/<tid>/tables/<gid>/sign")
def sign_table(tid: str, gid: str):
    """The director signs a finished table's game from the director's page."""
    table = directed(tid).table(gid)
    if table is None:
        abort(404)
    try:
        service.sign(get_db(), service.load(get_db(), gid), service.DIRECTOR_SEAT,
                     checks.whole_number(request.form.get("version", "")), access.DIRECTOR)
    except service.Conflict as e:
        return _director_page(_load(tid), {"": [e.text(gettext)]}, status=409)
    except InvalidInput as e:
        return _director_page(_load(tid), field_errors(e.problems), status=422)
    flash(gettext("Round %(round)s, table %(table)s is signed by the director.",
                  round=table.round, table=table.number), "ok")
    return redirect(url_for("tournaments.director", tid=tid) + "#unsigned")


@bp.post("/tournaments/<tid>/reopen")
def reopen(tid: str):
    """The director opens a closed tournament again (kept in its list of changes)."""
    directed(tid)
    tournaments.reopen(get_db(), tid)
    flash(gettext("The tournament is open again: its tables can correct their games."), "ok")
    return redirect(url_for("tournaments.director", tid=tid))


#: What a projector's page holds when its address does not say: the layout's 40 lines
#: (two columns of 20) and 45 tables' cells (three columns of 15 at 1920×1080).
#: static/tournament.js asks for as many cells as its screen's grid holds.
LINES, CELLS, MOST_CELLS = 40, 45, 400


def _paging() -> tuple[int, int, int, int]:
    """Where the projector's page of the standings and of the round's tables starts, and
    how many lines and cells fit it, from the address (``sf``, ``rows``, ``tf``,
    ``cells``): whole numbers within bounds, else the layout's."""
    def whole(name: str, default: int, least: int, most: int) -> int:
        value = checks.whole_number(request.args.get(name, ""))
        return min(value, most) if value is not None and value >= least else default
    return (whole("sf", 0, 0, 100_000), whole("rows", LINES, 1, LINES),
            whole("tf", 0, 0, 100_000), whole("cells", CELLS, 1, MOST_CELLS))


@bp.get("/tournaments/<tid>/screen")
def screen(tid: str):
    """The projector: standings and the current round's tables, live, one page of each
    (from line ``sf`` and cell ``tf`` on); ``?part=live`` is 304 while unchanged."""
    paging = _paging()

    def page(template: str) -> str:  # one page of the standings and of the round's tables
        t = tournaments.screen(get_db(), tid, *paging)
        return render_template(template, t=t, totals=_deals_total(t.tables), lines_a_page=LINES)
    if request.args.get("part") == "live":
        return tagged(lambda: page("tournaments/_screen_live.html"), "screen-live", tid,
                      reads.tournament_version(get_db(), tid), lang(), request.url)
    return page("tournaments/screen.html"), 200, {"Cache-Control": "no-store"}


@bp.get("/tournaments/<tid>/players/<int:number>")
def player(tid: str, number: int):
    """A player's phone: where they sit next, their rank, their games."""
    t = _load(tid)
    if number not in t.players:
        abort(404)
    live = "_player_live" if request.args.get("part") == "live" else "player"
    return render_template(f"tournaments/{live}.html", **_context(t, number=number)), 200, \
        {"Cache-Control": "no-store"}


@bp.get("/games/<gid>/next-round")
def next_round(gid: str):
    """A finished round's game page, told that the director drew a later round: where
    each of its table's players sits now (anyone with the game's id may ask)."""
    of = reads.table_of_game(get_db(), gid)
    if of is None:
        abort(404)
    return str(next_round_part(gid, of))


@bp.app_template_global()
def next_round_part(gid: str, of: reads.TableOfGame) -> Markup:
    """Where game ``gid``'s players sit in the tournament's latest round (the round
    change's part on its page), or the empty slot live.js fills when none is drawn after
    the game's own."""
    moved = current_app.jinja_env.get_template("tournaments/_moved_on.html").module.moved
    if of.latest <= of.round:
        return Markup(moved(of.tournament_id, 0, ()))
    players = reads.round_moves(get_db(), of.tournament_id, of.round, of.latest, gid)
    if players is None:
        abort(404)
    return Markup(moved(of.tournament_id, of.latest, players))


bp.add_app_template_global(tournaments.confirmed, "confirmed")


@bp.app_template_global()
def tournament_of_game(gid: str) -> reads.TableOfGame | None:
    """The tournament, round and table a game was drawn for (the game page's line), read
    once per request: the page asks in several places."""
    kept = g.setdefault("tables_of_games", {})
    if gid not in kept:
        kept[gid] = tournaments.table_of_game(get_db(), gid)
    return kept[gid]
