"""The host's page: every game on this server, for the host: whoever logs in here with
``KIERKI_ADMIN_PASSWORD``, or the browser that opens a host link (``/host/<token>``,
printed by ``kierki serve`` and ``kierki host-link``)."""
from __future__ import annotations

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_wtf import FlaskForm

from ...domain import reads
from .. import access, limits
from ..db import get_db

bp = Blueprint("admin", __name__, url_prefix="/admin")
host_bp = Blueprint("host", __name__)


@bp.before_request
def configured():
    if not current_app.config.get("ADMIN_PASSWORD") and not access.is_host():
        abort(404)


@bp.route("/", methods=["GET", "POST"])
def games():
    form = FlaskForm()  # its CSRF field
    if not access.is_host():
        if form.validate_on_submit():
            if access.check_admin_password(request.form.get("password")):
                access.start_admin_session(get_db())
                return redirect(url_for("admin.games"))
            limits.wrong_guess()
            flash(gettext("That is not the host's password."), "error")
        return render_template("admin.html", form=form, games=None), \
            (403 if form.is_submitted() else 200)
    kept, cap = reads.count_games(get_db()), current_app.config["MAX_GAMES"]
    return render_template("admin.html", form=form, games=reads.games_listed(get_db()),
                           kept=kept, cap=cap, full=cap is not None and kept >= cap)


@bp.post("/logout")
def logout():
    if access.is_host():
        access.end_admin_sessions(get_db())
    return redirect(url_for("games.index"))


@host_bp.get("/host/<token>")
def open_link(token: str):
    """The host link: this browser becomes the host (the link is used up)."""
    if access.open_host_link(get_db(), token):
        flash(gettext("This browser is the host now."), "ok")
        return redirect(url_for("admin.games"))
    limits.wrong_guess()
    return render_template("error.html", message=gettext(
        "This host link is used up or was replaced by a newer one. Run kierki host-link "
        "on the server for a new one.")), 403
