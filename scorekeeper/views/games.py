"""Game pages: the list, set-up, the current deal, corrections, undo, delete."""
from __future__ import annotations

import json

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from wtforms import SelectChoice

from .. import games, service, store
from ..db import get_db
from ..families.kierki.forms import form_values, parse_deal
from ..families.tybet import forms as tybet_forms
from ..forms import DealForm, NewGameForm, VersionForm
from ..i18n import costs, field_errors, lang, special_rules
from ..rules.errors import UnknownRuleset

bp = Blueprint("games", __name__)


def _load(gid: str) -> service.Game:
    try:
        return service.load(get_db(), gid)
    except store.GameNotFound:
        abort(404)


@bp.get("/")
def index():
    listing = []
    for row in store.list_games(get_db()):
        ruleset = json.loads(row["ruleset"])
        listing.append({**row, "players": json.loads(row["players"]),
                      "deals_total": len(ruleset.get("schedule", [])) or None,
                      "ruleset_name": ruleset.get("name", {}).get(lang(), row["ruleset_id"])})
    return render_template("index.html", games=listing)


@bp.route("/games/new", methods=["GET", "POST"])
def new_game():
    form = NewGameForm()
    form.ruleset.choices = [SelectChoice(rs.id, rs.name(lang()))
                            for rs in games.all_rulesets().values()]
    errors: dict[str, list[str]] = {}
    if form.validate_on_submit():
        try:
            gid = service.create_game(get_db(), form.ruleset.data, form.names(), form.dealer(),
                                      target=form.target_score())
        except service.InvalidInput as e:
            errors = field_errors(e.problems)
        else:
            return redirect(url_for("games.show", gid=gid))
    elif request.method == "POST":
        errors = {name: [str(m) for m in msgs] for name, msgs in form.errors.items()}
    rulesets = {rs.id: {"players": rs.players, "family": rs.game, "notes": rs.notes(lang())}
                for rs in games.all_rulesets().values()}
    return render_template("new_game.html", form=form, errors=errors, rulesets=rulesets), \
        (422 if errors else 200)


def _deal_context(game: service.Game, number: int, by_card: bool):
    deal = game.state.deals[number - 1]
    return {"deal": deal, "costs": costs(deal.contract),
            "rules": special_rules(deal, game.players), "by_card": by_card}


@bp.get("/games/<gid>")
def show(gid: str):
    game = _load(gid)
    if game.family == "tybet":
        return _tybet_page(game, {}, {})
    by_card = request.args.get("mode") == "cards"
    current = game.state.current
    ctx = _deal_context(game, current.number, by_card) if current else {}
    return render_template("game.html", game=game, form=DealForm(), values={}, errors={},
                           **ctx)


@bp.get("/games/<gid>/version")
def version(gid: str):
    """Polled by the game page so every phone follows the deals entered elsewhere."""
    try:
        return {"version": store.game_version(get_db(), gid)}, 200, {"Cache-Control": "no-store"}
    except store.GameNotFound:
        abort(404)


@bp.post("/games/<gid>/deals/<int:number>")
def enter_deal(gid: str, number: int):
    game = _load(gid)
    if game.family == "tybet":
        return _enter_tybet(game, number)
    if not 1 <= number <= len(game.state.deals):
        abort(404)
    form = DealForm()
    by_card = form.mode.data == "cards"
    editing = number <= len(game.state.scored)
    if not form.validate_on_submit():
        flash(gettext("The form was incomplete; nothing was saved."), "error")
        return redirect(url_for("games.show", gid=gid))
    contract = game.state.deals[number - 1].contract
    raw = parse_deal(contract, request.form, game.state.players, by_card)
    try:
        service.enter_deal(get_db(), gid, number, raw, form.version.data)
    except service.Conflict as e:
        flash(e.text(gettext), "error")
        return redirect(url_for("games.show", gid=gid))
    except service.InvalidInput as e:
        errors = field_errors(e.problems)
        values = {k: v for k, v in request.form.items() if k not in ("csrf_token",)}
        template = "edit_deal.html" if editing else "game.html"
        extra = {"history": store.deal_history(get_db(), gid, number)} if editing else {}
        return render_template(template, game=game, form=form, values=values, errors=errors,
                               **_deal_context(game, number, by_card), **extra), 422
    if editing:
        flash(gettext("Deal %(number)s corrected; the totals after it were recomputed.",
                      number=number), "ok")
    return redirect(url_for("games.show", gid=gid) + ("#scores" if editing else ""))


@bp.get("/games/<gid>/deals/<int:number>/edit")
def edit_deal(gid: str, number: int):
    game = _load(gid)
    if not 1 <= number <= len(game.state.scored):
        abort(404)
    if game.family == "tybet":
        stored = game.state.scored[number - 1].result
        return _tybet_page(game, tybet_forms.values(stored), {}, editing=number)
    by_card = request.args.get("mode") == "cards"
    stored = game.state.scored[number - 1].result
    if by_card is False and "cards" in stored and request.args.get("mode") is None:
        by_card = True
    return render_template("edit_deal.html", game=game, form=DealForm(),
                           values=form_values(stored), errors={},
                           history=store.deal_history(get_db(), gid, number),
                           **_deal_context(game, number, by_card))


@bp.post("/games/<gid>/undo")
def undo(gid: str):
    _load(gid)
    form = VersionForm()
    if form.validate_on_submit():
        try:
            service.undo_last(get_db(), gid, form.version.data)
            flash(gettext("The last deal was taken back; it is kept in the history."), "ok")
        except service.Conflict as e:
            flash(e.text(gettext), "error")
        except service.InvalidInput as e:
            flash(gettext(e.problems[0].message), "error")
    return redirect(url_for("games.show", gid=gid))


@bp.route("/games/<gid>/delete", methods=["GET", "POST"])
def delete(gid: str):
    game = _load(gid)
    form = VersionForm()
    if request.method == "POST" and form.validate_on_submit():
        store.delete_game(get_db(), gid)
        flash(gettext("The game was deleted."), "ok")
        return redirect(url_for("games.index"))
    return render_template("confirm_delete.html", game=game, form=form)


@bp.get("/rules/<ruleset_id>")
def ruleset(ruleset_id: str):
    """The deals of a ruleset and what each costs, for reading before a game."""
    try:
        family, rs = games.find(ruleset_id)
    except UnknownRuleset:
        abort(404)
    if family.key == "tybet":
        return render_template("tybet_rules.html", rs=rs, forms=tybet_forms)
    return render_template("ruleset.html", rs=rs, deals=[(c, costs(c)) for c in rs.deals()])


# -- Tybet (seed 003): a game played until a pair reaches its target -------------

def _tybet_page(game: service.Game, values: dict, errors: dict, editing: int | None = None,
                status: int = 200):
    history = store.deal_history(get_db(), game.id, editing) if editing else []
    return render_template("tybet_game.html", game=game, form=DealForm(), values=values,
                           errors=errors, editing=editing, history=history,
                           forms=tybet_forms), status


def _enter_tybet(game: service.Game, number: int):
    form = DealForm()
    if not form.validate_on_submit():
        flash(gettext("The form was incomplete; nothing was saved."), "error")
        return redirect(url_for("games.show", gid=game.id))
    editing = number if number <= len(game.state.scored) else None
    try:
        service.enter_deal(get_db(), game.id, number, tybet_forms.parse(request.form),
                           form.version.data)
    except service.Conflict as e:
        flash(e.text(gettext), "error")
        return redirect(url_for("games.show", gid=game.id))
    except service.InvalidInput as e:
        return _tybet_page(game, tybet_forms.posted_values(request.form),
                           field_errors(e.problems), editing=editing, status=422)
    if editing:
        flash(gettext("Deal %(number)s corrected; the totals after it were recomputed.",
                      number=number), "ok")
    return redirect(url_for("games.show", gid=game.id))
