"""The host's page (only with ``KIERKI_ADMIN_PASSWORD`` set): every game on this server."""
from __future__ import annotations

from flask import Blueprint, abort, current_app, flash, redirect, render_template, url_for
from flask_babel import gettext
from flask_wtf import FlaskForm
from wtforms import PasswordField

from ...storage import queries
from .. import access, limits
from ..db import get_db

bp = Blueprint("admin", __name__, url_prefix="/admin")


class LoginForm(FlaskForm):
    password = PasswordField()


@bp.before_request
def configured():
    if not current_app.config.get("ADMIN_PASSWORD"):
        abort(404)


@bp.route("/", methods=["GET", "POST"])
def games():
    form = LoginForm()
    if not access.is_admin():
        if form.validate_on_submit():
            if access.check_admin_password(form.password.data):
                access.start_admin_session(get_db())
                return redirect(url_for("admin.games"))
            limits.wrong_guess()
            flash(gettext("That is not the host's password."), "error")
        return render_template("admin.html", form=form, games=None), \
            (403 if form.is_submitted() else 200)
    return render_template("admin.html", form=form, games=queries.list_games(get_db()))


@bp.post("/logout")
def logout():
    if access.is_admin():
        access.end_admin_sessions(get_db())
    return redirect(url_for("games.index"))
