"""Forms: shape only (CSRF, hidden version, strings to values). The rules check the game."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, IntegerField, RadioField, SelectChoice, SelectField, StringField
from wtforms.validators import InputRequired, Optional

from .rules import Contract, Field

SEATS = 4


class NewGameForm(FlaskForm):
    ruleset = SelectField(_l("Rules"), validators=[InputRequired()])
    player_0 = StringField(_l("Player 1"))
    player_1 = StringField(_l("Player 2"))
    player_2 = StringField(_l("Player 3"))
    player_3 = StringField(_l("Player 4"))
    first_dealer = RadioField(_l("First dealer"), default="random",
                              choices=[SelectChoice("random", _l("Draw at random"))]
                              + [SelectChoice(str(i), _l("Player %(n)s", n=i + 1))
                                 for i in range(SEATS)])

    target = SelectField(_l("Play to"), default="21",
                         choices=[SelectChoice(str(t), str(t)) for t in (11, 21, 31, 41)])

    def names(self) -> list[str]:
        return [getattr(self, f"player_{i}").data or "" for i in range(SEATS)]

    def target_score(self) -> int | None:
        value = self.target.data
        return int(value) if value and str(value).isdigit() else None

    def dealer(self) -> int | None:
        value = self.first_dealer.data
        return None if value in (None, "", "random") else int(value)


class VersionForm(FlaskForm):
    """Any button that changes a game: CSRF plus the version the page showed."""

    version = IntegerField(validators=[InputRequired()])


class DealForm(VersionForm):
    mode = HiddenField(validators=[Optional()])


def input_name(field: Field, index: int | str | None = None) -> str:
    if field.type == "cards":
        return f"card-{index}"
    return field.name if index is None else f"{field.name}-{index}"


def parse_deal(contract: Contract, form: Mapping[str, Any], players: int,
               by_card: bool = False) -> dict[str, Any]:
    """Read a deal's inputs from form data into the raw result the rules check."""
    raw: dict[str, Any] = {}
    for field in contract.fields():
        if by_card and field.type in ("counts", "seat") and field.name != "tricks":
            continue
        if field.type == "counts":
            raw[field.name] = [form.get(input_name(field, s), "") for s in range(players)]
        elif field.type == "seats":
            raw[field.name] = [form.get(input_name(field, i)) for i in range(len(field.labels))]
        else:
            raw[field.name] = form.get(field.name)
    if by_card:
        raw["cards"] = {str(c): form.get(f"card-{c}") for c in contract.card_sets}
    return raw


def form_values(result: Mapping[str, Any]) -> dict[str, str]:
    """The inverse of :func:`parse_deal`: a stored result as form values, to prefill."""
    values: dict[str, str] = {}
    for name, value in result.items():
        if name == "cards" and isinstance(value, Mapping):
            values.update({f"card-{c}": str(s) for c, s in value.items()})
        elif isinstance(value, list):
            values.update({f"{name}-{i}": "" if v is None else str(v) for i, v in enumerate(value)})
        elif value is not None:
            values[name] = str(value)
    return values
