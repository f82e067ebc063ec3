"""Forms: shape only (CSRF, hidden version, strings to values). The rules check the game."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
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

