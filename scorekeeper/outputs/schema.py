"""The export file format: one strict model (no coercion, no unknown keys, every string and
list bounded) that checks an import and is served as JSON Schema at ``/api/schema/game.json``.
The family checks the ruleset snapshot and the results afterwards."""
from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from ..families.kierki.rules.document import KierkiRuleset, RulesetDocument
from ..families.tybet.rules import TybetRuleset

FORMAT = "kierki-scorekeeper/game"
FORMAT_VERSION = 1
MAX_DEALS = 200  # more than any game needs
MAX_HISTORY = 2000
MAX_SEATS = 8

Stamp = Annotated[str, StringConstraints(max_length=40)]
Key = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_-]{0,39}$")]
#: Raw names, cleaned and checked by the set-up rules after reading.
RawName = Annotated[str, StringConstraints(max_length=200)]


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class Deal(_Strict):
    """One recorded deal: its number (from 1, in order: the import checks the order) and
    its result as the rules keep it."""

    number: Annotated[int, Field(ge=1, le=MAX_DEALS)]
    result: dict[str, Any]


class Correction(_Strict):
    """An earlier value of a deal: replaced by a correction (``edit``) or taken back (``undo``)."""

    number: Annotated[int, Field(ge=1, le=MAX_DEALS + 1)]
    action: Literal["edit", "undo"]
    result: dict[str, Any]
    replaced_at: Stamp


class GameFile(_Strict):
    """A whole game as exported by this app (``GET /games/<id>/export.json``)."""

    model_config = ConfigDict(title="Kierki scorekeeper game")

    format: Literal["kierki-scorekeeper/game"]
    format_version: Literal[1]
    family: Key | None = Field(None, description="Which card game (a family key)")
    game: Key | None = Field(None, description="The family, in files written before it "
                                               "was called so")
    id: Annotated[str, StringConstraints(max_length=64)] | None = Field(
        None, description="Files written before carry the game's id; an import ignores it "
                          "(the game gets a new id) and exports no longer write it")
    created_at: Stamp | None = None
    updated_at: Stamp | None = None
    ruleset: dict[str, Any] = Field(description="The ruleset snapshot, checked by its "
                                                "family's loader")
    settings: dict[str, Any]
    players: Annotated[list[RawName], Field(min_length=1, max_length=MAX_SEATS)]
    deals: Annotated[list[Deal], Field(max_length=MAX_DEALS)]
    history: Annotated[list[Correction], Field(max_length=MAX_HISTORY)] = []

    @property
    def family_key(self) -> str:
        return self.family or self.game or ""


# GameFile as its schema describes it: its ruleset one of the families' kept rulesets (an
# import leaves those to the family's loader, whose refusal says the rules are damaged).
class GameFileSchema(GameFile):
    ruleset: KierkiRuleset | TybetRuleset = Field(  # type: ignore[assignment]
        description="The ruleset snapshot, read by its family's loader")


def json_schema() -> dict[str, Any]:
    """The JSON Schema of an export file."""
    schema = GameFileSchema.model_json_schema()
    schema["$id"] = "/api/schema/game.json"
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema


#: The API's documents by their OpenAPI component name: the types the server reads.
MODELS = {"GameFile": GameFileSchema, "RulesetDocument": RulesetDocument,
          "KierkiRuleset": KierkiRuleset, "TybetRuleset": TybetRuleset}


def openapi_schemas() -> dict[str, Any]:
    """:data:`MODELS` as OpenAPI component schemas (references point into components)."""
    out: dict[str, Any] = {}
    for name, model in MODELS.items():
        schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
        out.update(schema.pop("$defs", {}))
        out[name] = schema
    return out
