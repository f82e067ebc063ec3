"""The JSON API's bodies (and its ``Error``) as pydantic models, for :mod:`.openapi`. Each
limit is the constant the domain checks the input with; the views read the bodies
themselves, to name the field of each refusal in the client's language."""
from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, create_model

from ..domain import clubs, tournaments
from ..domain.reads import CODE_ALPHABET, CODE_LENGTHS
from ..families.kierki.rules.cards import CARD_SETS
from ..rules import checks

#: The characters a kept name drops (controls, invisible format characters) or squeezes
#: (spaces), as a regular expression's class (:func:`.checks.clean_name`; a test checks it
#: against the Unicode database).
HIDDEN = ("\x00-\x20\x7f-\xa0\xad\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2"
          "\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u2066-\u206f\u3000\ufeff"
          "\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3"
          "\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f")


_VISIBLE = f"[^{HIDDEN}]"
#: A name as the server keeps it: a visible character first and last (what a kept name
#: drops or squeezes, :func:`.checks.clean_name`, is no name).
NAME_PATTERN = f"^{_VISIBLE}(?:[\\s\\S]*{_VISIBLE})?$"


def _named(most: int) -> Any:
    """A name of at most ``most`` characters (spaces inside squeezed to one)."""
    return Annotated[str, StringConstraints(min_length=1, max_length=most, pattern=NAME_PATTERN)]


PlayerName = _named(checks.NAME_MAX)
ClubName = _named(clubs.NAME_MAX)
TournamentName = _named(tournaments.NAME_MAX)
#: A join code as the API takes it: one of the codes' lengths in the codes' alphabet,
#: either case.
CODE_PATTERN = "^(?:" + "|".join(
    f"[{CODE_ALPHABET}{CODE_ALPHABET.lower()}]{{{n}}}" for n in CODE_LENGTHS) + ")$"
Code = Annotated[str, StringConstraints(pattern=CODE_PATTERN)]
#: An id the server made (a game's, a tournament's, a club's): 96 random bits, URL-safe.
ID_PATTERN = "^[A-Za-z0-9_-]{1,64}$"
#: Rulesets per page of ``GET /api/rulesets``, and the pages it takes (from 1, below this).
RULESETS_PAGE = 50
RULESETS_PAGES = 10_000
Version = Annotated[int, Field(description="The game's version as last read")]
Seat = Annotated[int, Field(ge=0)]


def _no_default(schema: dict[str, Any]) -> None:
    """A key that may be left out but is never null."""
    schema.pop("default", None)


class Answer(BaseModel):
    """A body or an answer: keys of its own beyond these are allowed (a body's ignored)."""

    model_config = ConfigDict(extra="allow")


def model(name: str, /, **fields: Any) -> Any:
    """A small :class:`Answer` in one statement: fields ``key=type`` or ``key=(type, default)``."""
    return create_model(name, __base__=Answer, **fields)


class Error(Answer):
    """Every refusal of the API: 4xx and 5xx alike."""

    error: str = Field(description="What went wrong, in the client's language "
                                   "(Accept-Language: pl or en)")
    errors: dict[str, list[str]] | None = Field(
        None, description="422 only: messages per field, e.g. `tricks`, `hearts.2`, `positions.0`, "
                          "`bids.3`, `players.1`; `\"\"` is the input as a whole")
    version: int | None = Field(None, description="409 only: the game's version now")


# -- bodies ----------------------------------------------------------------------------

_Counts = list[int | None]
_Declaration = model("Declaration", kind=(str, None), suit=(str | None, None),
                     rank=(str | None, None), extra=(int | None, None))
_Special = model("Special", kind=(str, None), seat=(int | None, None), pair=(int | None, None))
Result = model(
    "Result",
    __doc__=(
        "A deal's result; its fields depend on the game's family and deal. Kierki (see "
        "`schedule[].fields`): counts are lists of one whole number per seat (one `null` is filled "
        "so they add up); `king_of_hearts` is a seat; `positions` and `order` are lists of seats; "
        "`trump` is one of S, H, D, C; `cards` maps cards such as `QH` to seats. A trump auction: "
        "`bids` one per seat (1 to 10000, or `null`), `sold` whether the dealer accepted the "
        "highest bid. The partnership game: `declarations` (a list per seat), `card_points` or "
        "`aces` and `honours` per pair and `last`, `special` or null, `confirmed`."),
    tricks=(_Counts | None, None), bids=(_Counts | None, None), sold=(bool | None, None),
    trump=(str | None, None), positions=(_Counts | None, None), order=(_Counts | None, None),
    cards=(dict[str, int] | None, None),
    **{key: (_Counts | int | None, Field(None, description="A count per seat, or the seat "
                                                           "that took the one card"))
       for key in CARD_SETS},
    declarations=(list[list[_Declaration]] | None, None),  # type: ignore[valid-type]
    aces=(_Counts | None, None), honours=(_Counts | None, None),
    card_points=(_Counts | None, None), last=(int | None, None),
    confirmed=(bool | None, None), special=(_Special | None, None))  # type: ignore[valid-type]


class NewGame(Answer):
    """A new game; the ruleset decides how many names it takes (``players``)."""

    ruleset: str = Field(examples=["standard-4"])
    players: list[PlayerName] = Field(description="Names in clockwise seat order, each "  # type: ignore[valid-type]
                                                  "different")
    first_dealer: Seat | None = Field(None, description="Seat; null draws at random")
    club: str | None = Field(None, description=(
        "The club it is of (its id), with a member's token in `Authorization: Bearer`; "
        "left out, the server's own club"))
    target: int | None = Field(None, description="The partnership game only: the score to "
                                                 "play to (one of the ruleset's targets)")


JoinCode = model("JoinCode", code=(Code, Field(examples=["K7QM2XRT"])))

DealEntry = model("DealEntry", version=Version, result=Result)

DealCheck = model("DealCheck", result=Result)

Versioned = model("Versioned", version=Version)

SignatureBody = model("SignatureBody", seat=(int, Field(ge=-1, description=(
    "One of the players' seats; the director's token may also sign as the director: -1"))),
    version=Version)

CloseTournament = model("CloseTournament", confirm_unsigned=(bool, Field(False, description=(
    "Close even with tables not signed (their results stay provisional)"))))

DeleteGame = model("DeleteGame", version=Version, confirm=Literal[True])


class NewTournament(Answer):
    """A Kierki tournament: its first round is drawn at once."""

    name: TournamentName  # type: ignore[valid-type]
    players: list[PlayerName] = Field(  # type: ignore[valid-type]
        min_length=tournaments.MIN_PLAYERS, max_length=tournaments.MAX_PLAYERS,
        json_schema_extra={"uniqueItems": True},
        description="Their names, each different")
    rounds: int = Field(ge=1, le=tournaments.MAX_ROUNDS)
    rulesets: dict[str, str] = Field(examples=[{"4": "standard-4", "3": "standard-3"}],
                                     description="A ruleset per table size: tables of four "
                                                 "where possible, then three or five")
    scoring: Literal[tournaments.SCORINGS] = "points"  # type: ignore[valid-type]
    seed: str | None = Field(None, min_length=1, max_length=tournaments.SEED_MAX,
                             description="Draws are reproducible from it (random when left out)")
    club: str | None = Field(None, description=(
        "The club it is of (its id), with the manager's or a director's token in "
        "`Authorization: Bearer`; left out, the server's own club"))


LateArrival = model("LateArrival", name=PlayerName)

DrawRound = model("DrawRound", number=(int | None, Field(None, description=(
    "The round meant, so that a request sent twice draws it once"))))

NewClub = model("NewClub", name=ClubName, public=(bool, True))


class ClubChange(Answer):
    """The manager's choices; only what is given changes."""

    name: ClubName | None = None  # type: ignore[valid-type]
    public: bool = Field(None, json_schema_extra=_no_default)  # type: ignore[assignment]
    casual_rated: bool = Field(None, json_schema_extra=_no_default)  # type: ignore[assignment]
    default_ruleset: str | None = Field(None, description="A ruleset's id; \"\": the server's")
