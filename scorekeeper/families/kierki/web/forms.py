"""Form fields of a Kierki deal: posted strings in, the raw result the rules check, and back."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..rules import Contract
from ..words import YES_NO  # a yes/no field's two radio values and what they stand for


def parse_deal(contract: Contract, form: Mapping[str, Any], players: int,
               by_card: bool = False) -> dict[str, Any]:
    """Read a deal's inputs from form data into the raw result the rules check."""
    raw: dict[str, Any] = {}
    for field in contract.fields():
        if by_card and field.type in ("counts", "seat") and field.name != "tricks":
            continue
        if field.type in ("counts", "bids"):
            raw[field.name] = [form.get(f"{field.name}-{s}", "") for s in range(players)]
        elif field.type == "yesno":
            value = form.get(field.name)
            raw[field.name] = YES_NO.get(value, value)
        elif field.type == "seats":
            raw[field.name] = [form.get(f"{field.name}-{i}") for i in range(len(field.labels))]
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
        elif isinstance(value, bool):
            values[name] = "yes" if value else "no"
        elif isinstance(value, list):
            values.update({f"{name}-{i}": "" if v is None else str(v) for i, v in enumerate(value)})
        elif value is not None:
            values[name] = str(value)
    return values
