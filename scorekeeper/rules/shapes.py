"""The strict types every family's ruleset documents are made of (pydantic v2).

Every reader of a ruleset (the loader, an import, the API, the variant editor) and the
JSON Schemas served use the same models: no coercion, no unknown keys, everything bounded.

>>> Name.model_validate({"en": "House", "pl": "Domowe"}).pl
'Domowe'
>>> read(Name, "House", "ruleset 'x'")
Traceback (most recent call last):
scorekeeper.rules.errors.RulesetError: ruleset 'x': (the whole): Input should be a valid dictionary or instance of Name
"""
from __future__ import annotations

from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from .errors import N_, Problem, RulesetError
from .named import ID, TEXT_MAX

#: A ruleset's id, a contract's key: lower-case letters, digits, dashes.
Key = Annotated[str, StringConstraints(pattern=ID.pattern)]
#: A short plain string kept as given (a source, a maker's name, a date).
Short = Annotated[str, StringConstraints(max_length=40)]


def _schema(schema: dict[str, Any], cls: Any) -> None:
    """A field that may be left out has no default in the schema (never ``null``); a
    mapping with key patterns takes no other key."""
    for field in schema.get("properties", {}).values():
        if "default" in field and field["default"] is None:
            del field["default"]
        if "patternProperties" in field:
            field["additionalProperties"] = False


class Strict(BaseModel):
    """No coercion, no unknown keys."""

    model_config = ConfigDict(strict=True, extra="forbid", json_schema_extra=_schema)


def absent(description: str | None = None) -> Any:
    """The default of a field that may be left out but is never ``null``."""
    return Field(None, description=description)


def _words(limit: int) -> Any:
    return Annotated[str, StringConstraints(min_length=1, max_length=limit)]


class Name(Strict):
    """A name in each language the app speaks."""

    en: _words(TEXT_MAX["name"])  # type: ignore[valid-type]
    pl: _words(TEXT_MAX["name"])  # type: ignore[valid-type]


class Summary(Strict):
    """One line in each language: what is special in these rules."""

    en: _words(TEXT_MAX["summary"])  # type: ignore[valid-type]
    pl: _words(TEXT_MAX["summary"])  # type: ignore[valid-type]


class Notes(Strict):
    """Notes in each language."""

    en: _words(TEXT_MAX["notes"])  # type: ignore[valid-type]
    pl: _words(TEXT_MAX["notes"])  # type: ignore[valid-type]


Model = TypeVar("Model", bound=BaseModel)


def where(loc: tuple[Any, ...]) -> str:
    """A field's path as the API names it: ``contracts.no_hearts.cards.points``."""
    return ".".join(str(part) for part in loc)


def problems(error: ValidationError, limit: int = 20) -> list[Problem]:
    """Each fault of a document at its field, in pydantic's words."""
    return [Problem(where(err["loc"]), N_("%(detail)s"), {"detail": err["msg"]})
            for err in error.errors(include_url=False)[:limit]]


def read(model: type[Model], data: Any, what: str) -> Model:
    """``data`` read by ``model``, or a :class:`RulesetError` naming ``what`` and the
    first fault's field."""
    try:
        return model.model_validate(data)
    except ValidationError as e:
        err = e.errors(include_url=False)[0]
        raise RulesetError(f"{what}: {where(err['loc']) or '(the whole)'}: "
                           f"{err['msg']}") from None


__all__ = ["Key", "Name", "Notes", "Short", "Strict", "Summary", "absent", "problems", "read",
           "where"]
