"""House variants on pages: the editor (from any ruleset's page), the server's default
ruleset for new games, and deleting a variant no game uses. The family's editor module
reads the form onto a ruleset document; :mod:`...domain.variants` checks and stores it."""
from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext

from ...common import formats
from ...common.i18n import field_errors
from ...domain import house, variants
from ...domain.errors import RulesetInUse
from ...rules.errors import InvalidInput, Problem
from .. import access, adapters
from ..db import get_db

bp = Blueprint("variants", __name__)


@bp.route("/rules/<ruleset_id>/variant", methods=["GET", "POST"])
def edit(ruleset_id: str):
    """Make a house variant from this ruleset: every post reads the form onto the
    document the page carries; ``action`` says what else to do (a quick change, the
    sums as JSON for the page's script, or saving)."""
    family, base = variants.find(get_db(), ruleset_id)  # UnknownRuleset: 404
    editor = adapters.of(family).editor
    if editor is None:
        abort(404)  # this family offers no variants
    cid = request.args.get("club")  # a club's own variant: its members make one
    club = access.require_club(get_db(), cid, access.MEMBER) if cid else None
    if request.method == "GET":
        return _page(family, base, editor, editor.start(base), [], touched=False)
    action = request.form.get("action", "")
    try:
        doc = editor.carried(request.form.get("doc"), base)
    except InvalidInput as e:  # a forged or broken page: start again, and say so
        if action == "sums":
            return jsonify(_sums(None, field_errors(e.problems))), 422
        return _page(family, base, editor, editor.start(base), e.problems)
    doc, problems = editor.apply(doc, request.form, request.form.getlist)
    if action != "save":  # the name is asked for when saving, not before
        problems = [p for p in problems if p.field != "name"]
    if action.startswith("quick:") and action[6:] in editor.QUICK:
        doc = editor.quick(doc, action[6:])
    elif action == "sums":
        rules, more = editor.load(doc)
        return jsonify(_sums(rules, field_errors(problems + more)))
    elif action == "save" and not problems:
        try:
            rid = variants.create(get_db(), editor.saved(doc), current_app.config["MAX_VARIANTS"],
                                  club.id if club else house.HOME_CLUB)
        except InvalidInput as e:
            problems = e.problems
        else:
            access.remember_variant(rid)
            flash(gettext("The house variant is saved. It is offered for new games."), "ok")
            if club is not None and not club.home:
                return redirect(url_for("games.new_club_game", cid=club.id, ruleset=rid))
            return redirect(url_for("games.ruleset", ruleset_id=rid))
    return _page(family, base, editor, doc, problems)


def _page(family: Any, base: Any, editor: Any, doc: dict, problems: list[Problem],
          touched: bool = True):
    rules, more = editor.load(doc)
    errors = field_errors(problems + [p for p in more if p not in problems])
    return render_template(adapters.of(family).templates["variant"], base=base, doc=doc,
                           rules=rules, editor=editor, errors=errors,
                           dumped=editor.dump(doc)), (422 if errors and touched else 200)


def _sums(rules: Any, errors: dict[str, list[str]]) -> dict[str, Any]:
    """What the page's script shows live: each deal's sum, the game's, the problems; the
    sums as numbers and, under ``text``, as the page writes them."""
    if rules is None:
        return {"deals": None, "game": None, "errors": errors}
    deals = [c.expected_sum for c in rules.deals()]
    contracts = {key: rules.contract(key).expected_sum for key in rules.data["contracts"]}
    return {"deals": deals, "contracts": contracts, "game": rules.expected_sum,
            "text": {"deals": [formats.signed(v) for v in deals],
                     "contracts": {k: formats.signed(v) for k, v in contracts.items()},
                     "game": formats.signed(rules.expected_sum)},
            "errors": errors}


@bp.post("/rules/<ruleset_id>/default")
def make_default(ruleset_id: str):
    """Offer this ruleset first when a new game is started on this server."""
    _family, rules = variants.find(get_db(), ruleset_id)  # UnknownRuleset: 404
    if not access.is_host():
        return render_template("error.html", message=gettext(
            "Only the host can choose the rules new games start with.")), 403
    house.set_default_ruleset(get_db(), rules.id)
    flash(gettext("New games on this server now start with these rules."), "ok")
    return redirect(url_for("games.ruleset", ruleset_id=rules.id))


@bp.route("/rules/<ruleset_id>/delete", methods=["GET", "POST"])
def delete(ruleset_id: str):
    """Delete a house variant (asked first); refused while a game is played with it."""
    family, rules = variants.find(get_db(), ruleset_id)  # UnknownRuleset: 404
    if rules.id in family.rulesets():
        abort(404)  # a built-in ruleset is never deleted: there is no such page
    if request.method == "POST":
        if not (rules.id in access.made_variants() or access.is_host()):
            return render_template("error.html", message=gettext(
                "Only the phone that made this house variant, or the host, can delete it.")), 403
        try:
            variants.delete(get_db(), ruleset_id)
        except RulesetInUse:
            flash(gettext("A game is played with this ruleset; delete the game first."), "error")
        else:
            flash(gettext("The house variant was deleted."), "ok")
            return redirect(url_for("games.new_game"))
        return redirect(url_for("games.ruleset", ruleset_id=ruleset_id))
    return render_template("confirm_delete_rules.html", rules=rules)
