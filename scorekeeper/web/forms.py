"""Forms: shape only (CSRF, hidden version, strings to values). The rules check the game."""
from __future__ import annotations

from flask import current_app
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup
from wtforms import IntegerField, RadioField, SelectChoice, SelectField, StringField
from wtforms.validators import InputRequired

#: Name fields on the new-game form: as many as the largest table (five at Kierki).
SEATS = 5


class NewGameForm(FlaskForm):
    ruleset = SelectField(_l("Rules"), validators=[InputRequired()])
    player_0 = StringField(_l("Player 1"))
    player_1 = StringField(_l("Player 2"))
    player_2 = StringField(_l("Player 3"))
    player_3 = StringField(_l("Player 4"))
    player_4 = StringField(_l("Player 5"))
    first_dealer = RadioField(_l("First dealer"), default="random",
                              choices=[SelectChoice("random", _l("Draw at random"))]
                              + [SelectChoice(str(i), _l("Player %(n)s", n=i + 1))
                                 for i in range(SEATS)])

    def names(self) -> list[str]:
        return [getattr(self, f"player_{i}").data or "" for i in range(SEATS)]


class VersionForm(FlaskForm):
    """Any button that changes a game: CSRF plus the version the page showed."""

    version = IntegerField(validators=[InputRequired()])


class PageForm:
    """A game page's form as its templates read it: the CSRF token field alone, rendered
    as Flask-WTF renders it, without binding a form."""

    @property
    def csrf_token(self) -> Markup | str:
        if not current_app.config.get("WTF_CSRF_ENABLED", True):
            return ""
        return Markup('<input id="csrf_token" name="csrf_token" type="hidden" value="%s">') \
            % generate_csrf()
