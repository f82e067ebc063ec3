"""Game pages for every family: the list, set-up, the current deal, corrections, undo,
delete. Refused input re-shows the form with what was typed; a missing game and a
version conflict are answered in :mod:`.views` (one place)."""
from __future__ import annotations

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_wtf import FlaskForm
from wtforms import SelectChoice

from ...common import formats
from ...common.i18n import field_errors, lang
from ...domain import clubs, reads, service, tournaments, variants
from ...domain.errors import ClubNotFound, GameNotFound
from ...families import registry
from ...outputs import share
from ...rules import checks
from ...rules.errors import InvalidInput, RulesetError
from ...rules.named import named_text
from .. import access, adapters, limits
from ..db import get_db
from ..forms import NewGameForm, VersionForm
from ..hardening import tagged

bp = Blueprint("games", __name__)


def _load(gid: str) -> service.Game:
    return service.load(get_db(), gid)


def club_page(cid: str | None, right: str | None = None) -> tuple[clubs.Club | None, str]:
    """A page's club (None for this server's own) and its id, the club readable or (with
    ``right``) required at that right."""
    club = None
    if cid:
        club = access.require_club(get_db(), cid, right) if right \
            else access.readable_club(get_db(), cid)
    club = None if club is None or club.home else club
    return club, club.id if club else reads.HOME_CLUB


def messages(e: InvalidInput) -> list[str]:
    """Every message of a refusal, for a form that shows them under one field."""
    return [m for ms in field_errors(e.problems).values() for m in ms]


@bp.app_template_global()
def may_write_game(gid: str) -> bool:
    return access.writes_now(get_db(), gid)


@bp.get("/")
def index():
    """This browser's games."""
    return render_template(
        "index.html", form=FlaskForm(), games=[
            {**row, "deals_total": _deals_total(row),
             "ruleset_name": named_text(row["ruleset"], "name", lang()) or row["ruleset_id"]}
            for row in reads.games_listed(get_db(), access.known())],
        family_links=[link for f in adapters.every() for link in f.home_links],
        admin=bool(current_app.config.get("ADMIN_PASSWORD")) or access.holds_host_link())


@bp.post("/join")
def join():
    """Join a game by the code another phone shows; this browser remembers it."""
    return _join(request.form.get("code"))


@bp.get("/join/<code>")
def join_link(code: str):
    """A typed code's link: the same as typing the code (counted when wrong)."""
    return _join(code)


@bp.get("/join/<code>/<secret>")
def join_card(code: str, secret: str):
    """The table's QR code and join link: the code with the game's long secret, which no
    one guesses, so it is never limited. A wrong secret and an unknown code are the same
    404, which tells a guesser nothing."""
    gid = _game_by_code(access.normalise_code(code))
    if gid is None or not access.is_join_secret(gid, secret):
        raise GameNotFound(code)
    access.remember(gid)
    return redirect(url_for("games.show", gid=gid))


def join_url(gid: str, code: str) -> str:
    """The path of a game's join link (its QR code): the code and the game's secret."""
    return url_for("games.join_card", code=code, secret=access.join_secret(gid))


def _game_by_code(code: str) -> str | None:
    try:
        return reads.game_by_code(get_db(), code) if code else None
    except GameNotFound:
        return None


def _join(typed: object):
    code = access.normalise_code(typed)
    gid = _game_by_code(code)
    if gid is None and code:
        try:
            clubs.by_code(get_db(), code)  # a club's invitation code, typed where a game's would be
            return redirect(url_for("clubs.join_link", code=code))
        except ClubNotFound:
            pass
    if gid is None:
        limits.wrong_guess()
        flash(gettext("No game has this code. Check the letters and digits on the "
                      "other phone."), "error")
        return redirect(url_for("games.index"))
    access.remember(gid)  # at the table from now on
    return redirect(url_for("games.show", gid=gid))


def _deals_total(row: dict) -> int | None:
    family = registry.get(row["family"])
    try:
        return family.deals_total(registry.loaded(family, row["ruleset"])[0]) if family else None
    except RulesetError:
        return None


@bp.route("/games/new", methods=["GET", "POST"])
def new_game():
    return _new_game(None)


@bp.route("/clubs/<cid>/games/new", methods=["GET", "POST"])
def new_club_game(cid: str):
    """A new game of a club: its names are the club's people (two views: each its limit)."""
    return _new_game(cid)


def _new_game(cid: str | None):
    club, cid = club_page(cid, access.MEMBER)
    form = NewGameForm()
    found = variants.listing(get_db(), cid)  # the built-in rulesets, then the variants
    form.ruleset.choices = [SelectChoice(rs.id, _listed_name(rs, row)) for _, rs, row in found]
    default = clubs.default_ruleset(get_db(), club) if club else reads.default_ruleset(get_db())
    asked = request.args.get("ruleset", default)  # a rules page's "new game with these"
    if request.method == "GET" and any(rs.id == asked for _, rs, _row in found):
        form.ruleset.data = asked  # else this server's favourite (its rules page sets it)
    errors: dict[str, list[str]] = {}
    if form.validate_on_submit():
        try:
            gid = service.create_game(get_db(), form.ruleset.data, form.names(),
                                      form.first_dealer.data, given=request.form,
                                      max_games=current_app.config["MAX_GAMES"], club=cid)
        except InvalidInput as e:
            errors = field_errors(e.problems)
        else:
            access.remember(gid)
            return redirect(url_for("games.show", gid=gid))
    elif request.method == "POST":
        errors = {name: [str(m) for m in msgs] for name, msgs in form.errors.items()}
    choices = {rs.id: {"players": rs.players, "family": family.key, "notes": rs.notes(lang()),
                       "summary": rs.summary(lang()), "house": row is not None}
               for family, rs, row in found}
    setups = [(f.key, adapters.of(f).templates["setup"], f.rulesets())
              for f in registry.families().values() if adapters.of(f).templates["setup"]]
    return render_template("new_game.html", form=form, errors=errors, rulesets=choices,
                           known_people=reads.known_people(get_db(), cid), setups=setups,
                           values=request.form, club=club), (422 if errors else 200)


def _listed_name(rules, row: dict | None) -> str:
    """A ruleset's name in the list; a house variant says who made it and when."""
    name = rules.name(lang())
    if row is None:
        return name
    day = formats.date(row.get("created_at"))
    if row.get("made_by"):
        return gettext("%(name)s (house variant by %(who)s, %(day)s)", name=name,
                       who=row["made_by"], day=day)
    return gettext("%(name)s (house variant, %(day)s)", name=name, day=day)


def game_page(game: service.Game, number: int | None = None, values: dict | None = None,
              errors: dict | None = None, status: int = 200, args=None,
              live_only: bool = False):
    """The game's page, or (``number`` given) the correction page of a recorded deal;
    ``live_only``: its live fragment (:func:`show`)."""
    editing = number is not None and number <= game.recorded
    deal = game.deal(number) if number is not None else game.state.current
    history = reads.deal_history(get_db(), game.id, number) if editing else []
    web = adapters.of(game.family)
    right, writer = access.table_right(get_db(), game.id)
    signed = service.signatures(get_db(), game) if game.state.finished else {}
    return render_template(
        web.templates["edit" if editing else "game"], game=game, form=FlaskForm(),
        values=values or {}, errors=errors or {}, editing=number if editing else None,
        history=[{**h, "text": web.history_line(game, deal, h["result"])} for h in history],
        share=_share(game) if writer else None, writer=writer,
        right=right,
        signed_seats=signed, unsigned_by=_unsigned_by(game, signed),
        live_only=live_only, live_whole=False, only_rows=None,
        **web.page_context(game, deal, request.args if args is None else args)), status


def _unsigned_by(game: service.Game, signed: dict) -> dict | None:
    """The correction or undo that last took the finished game's signatures off, while
    nobody has signed again."""
    if not game.state.finished or signed:
        return None
    return next((c for c in reversed(service.changes(get_db(), game))
                 if c["action"] == "unsigned"), None)


def _share(game: service.Game) -> share.Share:
    code = game.stored.join_code
    return share.describe(request.scheme, request.host, join_url(game.id, code), code,
                          current_app.config.get("PUBLIC_URL"))


@bp.get("/games/<gid>")
def show(gid: str):
    """The game's page, tagged by its version, the language, the address (the page's
    join link is built from it) and the reader's right: a phone that has this version
    already gets 304."""
    found = reads.game_versions(get_db(), [gid])
    if not found:
        raise GameNotFound(gid)
    version = found[0][1]
    if request.args.get("part") == "live":
        return _live_part(gid, version)
    if request.args.get("part") == "charts":
        return tagged(lambda: render_template("_game_charts.html", game=_load(gid)),
                      "game-charts", gid, version, lang(), request.script_root)
    access.seen(gid)  # listed on this browser's first page; read-only unless at the table
    right, writer = access.table_right(get_db(), gid)  # a reader's page: no form, code, token
    return tagged(lambda: game_page(_load(gid))[0], "game", gid, version, lang(),
                  request.url, writer, right)


def _live_part(gid: str, version: int):
    """``?part=live``: what a deal changes on the page, fetched by every phone of the table
    after each one (static/live.js); a change it cannot show (the tournament closed) it
    says so (``data-whole``), and the phone fetches the whole page."""
    right, writer = access.table_right(get_db(), gid)

    def render() -> str:
        game = _load(gid)
        of = tournaments.table_of_game(get_db(), gid)
        if of and of.closed:
            return render_template("_live_whole.html", game=game, writer=writer,
                                   right=right, live_only=True, live_whole=True)
        return game_page(game, live_only=True)[0]

    return tagged(render, "game-live", gid, version, lang(), request.url, writer, right)


@bp.get("/games/<gid>/version")
def version(gid: str):
    """Polled by the game page; a tournament's game whose round is over also says the
    later round drawn (``round``)."""
    answer = {"version": reads.game_version(get_db(), gid)}
    of = reads.table_of_game(get_db(), gid)
    if of and of.latest > of.round:
        answer["round"] = of.latest
    return answer, 200, {"Cache-Control": "no-store"}


@bp.post("/games/<gid>/deals/<int:number>")
def enter_deal(gid: str, number: int):
    game = _load(gid)
    right = access.require_write(get_db(), gid)
    form = VersionForm()
    if not form.validate_on_submit():
        flash(gettext("The form was incomplete; nothing was saved."), "error")
        return redirect(url_for("games.show", gid=gid))
    try:
        deal = game.deal(number)
    except InvalidInput as e:
        if number < 1 or (game.deals_total is not None and number > game.deals_total):
            abort(404)  # no such deal in this game
        return game_page(game, None, {}, field_errors(e.problems), 422)  # not its turn yet
    editing = number <= game.recorded
    web = adapters.of(game.family)
    try:
        raw = web.parse_form(game, deal, request.form)
        saved = service.enter_deal(get_db(), game, number, raw, form.version.data, right)
    except InvalidInput as e:
        return game_page(game, number if editing else None, web.posted_values(request.form),
                         field_errors(e.problems), 422, args=request.form)
    except service.Conflict:
        # A deal kept on a phone (static/offline.js) may have reached the server before,
        # its answer lost with the Wi-Fi: sent again, it is the same deal, not a conflict.
        if not (request.headers.get("X-Kierki-Kept") and service.holds(game, number, raw)):
            raise
        saved, editing = game, number < game.recorded
    # the category also marks the deal's row in the score table for this one page view
    points = gettext("Deal %(number)s: %(points)s", number=number,
                     points=web.deal_points(saved, number))
    flash(gettext("Deal %(number)s corrected; the totals after it were recomputed.",
                  number=number) + " " + points if editing else points, f"ok saved-{number}")
    return redirect(url_for("games.show", gid=gid) + ("#scores" if editing else ""))


@bp.get("/games/<gid>/deals/<int:number>/edit")
def edit_deal(gid: str, number: int):
    game = _load(gid)
    access.require_write(get_db(), gid)
    if not 1 <= number <= game.recorded:
        abort(404)
    return game_page(game, number, adapters.of(game.family).form_values(
        game.stored.results[number - 1]))


@bp.post("/games/<gid>/undo")
def undo(gid: str):
    game = _load(gid)
    right = access.require_write(get_db(), gid)
    if (form := VersionForm()).validate_on_submit():
        try:
            service.undo_last(get_db(), game, form.version.data, right)
            flash(gettext("The last deal was taken back; it is kept in the history."), "ok")
        except InvalidInput as e:
            flash(field_errors(e.problems)[""][0], "error")
    return redirect(url_for("games.show", gid=gid))


@bp.route("/games/<gid>/delete", methods=["GET", "POST"])
def delete(gid: str):
    game = _load(gid)
    access.require_write(get_db(), gid, host=True)  # the table's, or the host's list
    form = VersionForm()
    if request.method == "POST" and form.validate_on_submit():
        service.delete_game(get_db(), game, form.version.data)
        access.forget(gid)
        flash(gettext("The game was deleted."), "ok")
        return redirect(url_for("games.index"))
    return render_template("confirm_delete.html", game=game, form=form)


@bp.post("/games/<gid>/sign")
def sign(gid: str):
    """A player of the table (or the director) signs the finished game on this phone."""
    game = _load(gid)
    right = access.require_write(get_db(), gid)
    if (form := VersionForm()).validate_on_submit():
        seat_number = checks.whole_number(request.form.get("seat", ""))
        try:
            service.sign(get_db(), game, seat_number, form.version.data, right)
        except InvalidInput as e:
            flash(messages(e)[0], "error")
        else:
            who = (gettext("the director") if seat_number == service.DIRECTOR_SEAT
                   else game.players[seat_number])
            flash(gettext("Signed by %(name)s.", name=who), "ok")
    return redirect(url_for("games.show", gid=gid) + "#signatures")


@bp.get("/rules/<ruleset_id>")
def ruleset(ruleset_id: str):
    """A ruleset's page: what each deal costs (or scores), for reading before a game."""
    family, rules = variants.find(get_db(), ruleset_id)  # UnknownRuleset: 404
    variant = None if rules.id in family.rulesets() else {
        "made_by": rules.data.get("made_by"), "day": formats.date(rules.data.get("created_at"))}
    web = adapters.of(family)
    return render_template(web.templates["rules"], rs=rules, variant=variant,
                           editable=web.editor is not None,
                           is_default=reads.default_ruleset(get_db()) == rules.id)
