"""The JSON API's bodies and answers as pydantic models: what :mod:`.openapi` writes the
API's document from (``model_json_schema``).

Every limit a model states is the constant the domain checks the input with (a name's
length, a tournament's players, a club's name, the join codes' alphabet), so the
document says what the server enforces. The handlers read the bodies themselves, field
by field, to answer each refusal in the client's language naming the field.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, create_model

from ..domain import clubs, seasons, tournaments
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


def _named(most: int, description: str = "") -> Any:
    """A name of at most ``most`` characters (spaces inside squeezed to one)."""
    return Annotated[str, StringConstraints(min_length=1, max_length=most,
                                            pattern=NAME_PATTERN),
                     Field(description=description or None)]


PlayerName = _named(checks.NAME_MAX)
ClubName = _named(clubs.NAME_MAX)
TournamentName = _named(tournaments.NAME_MAX)
#: A join code as a phone types it: the code's alphabet, either case (spaces and dashes
#: between its characters are taken too).
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


class _Body(BaseModel):
    """A request's body: what the server reads of it; other keys are ignored."""

    model_config = ConfigDict(extra="allow")


class _Answer(BaseModel):
    model_config = ConfigDict(extra="allow")


# -- errors ----------------------------------------------------------------------------

class Error(_Answer):
    """Every refusal of the API: 4xx and 5xx alike."""

    error: str = Field(description="What went wrong, in the client's language "
                                   "(Accept-Language: pl or en)")
    errors: dict[str, list[str]] | None = Field(
        None, description="422 only: messages per field, e.g. `tricks`, `hearts.2`, "
                          "`positions.0`, `bids.3`, `players.1`; `\"\"` is the input as a "
                          "whole")
    version: int | None = Field(None, description="409 only: the game's version now")


# -- games -----------------------------------------------------------------------------

_Counts = list[int | None]
_Declaration = create_model("Declaration", __base__=_Answer, kind=(str, None),
                            suit=(str | None, None), rank=(str | None, None),
                            extra=(int | None, None))
_Special = create_model("Special", __base__=_Answer, kind=(str, None),
                        seat=(int | None, None), pair=(int | None, None))
Result = create_model(
    "Result", __base__=_Answer,
    __doc__=(
        "A deal's result; its fields depend on the game's family and deal. Kierki (see "
        "`schedule[].fields`): counts are lists of one whole number per seat (one `null` "
        "is filled so they add up); `king_of_hearts` is a seat; `positions` and `order` "
        "are lists of seats; `trump` is one of S, H, D, C; `cards` maps cards such as "
        "`QH` to seats. A trump auction: `bids` one per seat (1 to 10000, or `null`), "
        "`sold` whether the dealer accepted the highest bid. The partnership game: "
        "`declarations` (a list per seat), `card_points` or `aces` and `honours` per "
        "pair and `last`, `special` or null, `confirmed`."),
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


class GameRuleset(_Answer):
    id: str
    name: str
    players: int
    expected_sum: int | None = Field(None, description="Kierki: the game's sum")


class SeatName(_Answer):
    seat: int
    name: str


class Breakdown(_Answer):
    key: str
    points: list[int]


class RecordedDeal(_Answer):
    number: int
    dealer: int
    leader: int
    result: Result  # type: ignore[valid-type]
    points: list[int]
    totals: list[int]
    sum: int | None = Field(None, description="Kierki: the deal's points added up")
    expected_sum: int | None = Field(None, description="Kierki: what they must add up to")
    breakdown: list[Breakdown] | None = Field(
        None, description="The partnership game: the deal's points per pair, by what gave "
                          "them")


class EntryField(_Answer):
    name: str
    type: str
    total: int | None = None
    labels: list[str] | None = None
    distinct: bool | None = None


class ScheduledDeal(_Answer):
    number: int
    contract: str
    kind: str
    name: str
    dealer: int
    leader: int
    expected_sum: int | None = None
    fields: list[EntryField]


class SeatStanding(_Answer):
    seat: int
    total: int
    place: int


class Pair(_Answer):
    pair: int
    seats: list[int]


class Signature(_Answer):
    seat: int = Field(description="The seat signed for; the director's is -1")
    by: Literal["table", "director"]
    at: str = Field(json_schema_extra={"format": "date-time"})


class Game(_Answer):
    """A game's full state: the shared keys, and each family's own (Kierki: `schedule`,
    `sum`, `expected_sum`, `standings`; the partnership game: `pairs`, `target`, `to_go`,
    `winner`, each deal's `breakdown`)."""

    id: str
    family: str = Field(description="Which card game: a key of the family registry")
    version: int
    ruleset: GameRuleset
    players: list[SeatName]
    first_dealer: int
    deals: list[RecordedDeal]
    totals: list[int] = Field(description="Per side: a seat in Kierki, a pair in the "
                                          "partnership game")
    finished: bool
    winners: list[int]
    current_deal: int | None
    signatures: list[Signature] = Field(description="Who signed the finished game: a seat "
                                                    "each, the director's as -1")
    schedule: list[ScheduledDeal] | None = Field(None, description="Kierki: every deal")
    sum: int | None = Field(None, description="Kierki: the totals added up")
    expected_sum: int | None = Field(None, description="Kierki: what they add up to at "
                                                       "the end")
    standings: list[SeatStanding] | None = Field(None, description="Kierki: best first")
    pairs: list[Pair] | None = Field(None, description="The partnership game: its pairs")
    target: int | None = Field(None, description="The partnership game: the score played "
                                                 "to")
    to_go: list[int] | None = Field(None, description="The partnership game: what each "
                                                      "pair still needs")
    winner: int | None = Field(None, description="The partnership game: the pair that won")


class GameWithAccess(Game):
    """A game with what its table needs to write to it."""

    token: str = Field(description="Send as `Authorization: Bearer <token>` with every "
                                   "write to this game")
    join_code: str = Field(description="Eight characters for other phones (six for older "
                                       "games)")


class CheckProblem(_Answer):
    field: str = Field(description="As in a 422's `errors`: `tricks`, `hearts.2`, `\"\"`")
    where: str = Field(description="The input in words (`Ala · Hearts ♥`), or `\"\"`")
    message: str = Field(description="In the client's language")


class CheckProgress(_Answer):
    field: str
    entered: int
    total: int
    done: bool
    text: str = Field(examples=["Tricks: 9 of 13"])


class Checked(_Answer):
    """What a deal's result entered so far breaks."""

    ok: bool = Field(description="Nothing entered so far breaks a rule")
    complete: bool = Field(description="Nothing is left blank")
    problems: list[CheckProblem]
    progress: list[CheckProgress] = Field(description="Each count so far (Kierki)")


class NewGame(_Body):
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


class JoinCode(_Body):
    code: Code = Field(examples=["K7QM2XRT"])


class DealEntry(_Body):
    version: Version
    result: Result  # type: ignore[valid-type]


class DealCheck(_Body):
    result: Result  # type: ignore[valid-type]


class Versioned(_Body):
    version: Version


class SignatureBody(_Body):
    seat: int = Field(ge=-1, description="One of the players' seats; the director's token "
                                         "may also sign as the director: -1")
    version: Version


class DeleteGame(_Body):
    version: Version
    confirm: Literal[True]


# -- players ---------------------------------------------------------------------------

class GameLine(_Answer):
    date: str
    ruleset: str
    total: int
    place: int
    sides: int


class KindFigures(_Answer):
    key: str
    name: str
    deals: int
    points: int
    average: float | None
    group: str | None = None
    group_name: str | None = None


class CountFigure(_Answer):
    key: str
    name: str
    count: int


class Streaks(_Answer):
    current: int
    longest: int


class RulesetFigures(_Answer):
    ruleset: str
    games: int
    wins: int
    average_place: float | None


class Figures(_Answer):
    key: str
    name: str = Field(description="The card game")
    games: int = Field(description="Finished games")
    unfinished: int
    wins: int = Field(description="First places, shared ones too")
    average_place: float | None
    points: int = Field(description="The totals of their side, added up")
    kinds: list[KindFigures] = Field(description="Points per deal kind")
    counts: list[CountFigure] = Field(description="What the game counts per seat")
    best: GameLine | None
    worst: GameLine | None
    streaks: Streaks
    by_ruleset: list[RulesetFigures]
    form: list[GameLine] = Field(description="The last games, oldest first")


class Player(_Answer):
    """A person's statistics over their finished games (no game ids)."""

    id: int
    name: str
    games: int = Field(description="Finished games, of every card game")
    unfinished: int
    families: dict[str, Figures] = Field(description="Per card game played (by its key); "
                                                     "points of different card games "
                                                     "never add up")


# -- rulesets --------------------------------------------------------------------------

class ScheduleEntry(_Answer):
    contract: str
    name: str
    expected_sum: int | None = None


class RulesetEntry(_Answer):
    id: str
    family: str
    name: str
    players: int
    builtin: bool = Field(description="False for this server's house variants")
    made_by: str | None = Field(None, description="House variants only")
    created_at: str | None = Field(None, description="House variants only")
    deals: int | None = Field(None, description="Kierki: deals in a game")
    expected_sum: int | None = Field(None, description="Kierki: what a game adds up to")
    schedule: list[ScheduleEntry] | None = Field(None, description="Kierki")
    target: int | None = Field(None, description="The partnership game: the usual target")
    targets: list[int] | None = Field(None, description="The partnership game: the targets "
                                                        "a game may play to")


class JsonSchema(_Answer):
    """A JSON Schema document (draft 2020-12)."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    id: str = Field(alias="$id")
    schema_: str = Field(alias="$schema")
    type: str
    properties: dict[str, Any]


# -- tournaments -----------------------------------------------------------------------

class Table(_Answer):
    table: int = Field(description="The table's number in its round, from 1")
    game: str = Field(description="The table's game (`/api/games/{gid}`)")
    players: list[str] = Field(description="Names in seat order")
    entries: list[int] = Field(description="The same players' entry numbers")
    first_dealer: int
    ruleset: str
    deals: int = Field(description="Deals recorded so far")
    finished: bool
    signatures: int = Field(description="How many of its players signed its finished game")
    director_signed: bool
    confirmed: bool = Field(description="Finished and signed by two players or the "
                                        "director: until then its result is provisional")
    token: str | None = Field(None, description="The game's write token: only with the "
                                                "director's token")
    join_code: str | None = Field(None, description="Only with the director's token")


class Round(_Answer):
    number: int
    finished: bool
    tables: list[Table]


class Entrant(_Answer):
    number: int
    name: str
    joined: int = Field(description="The first round they were drawn for")
    withdrawn_after: int | None


class TournamentStanding(_Answer):
    player: str
    number: int
    points: float
    wins: int
    games: int = Field(description="Finished games")
    best: int | None
    rank: int
    provisional: bool = Field(description="A finished table of theirs is not confirmed yet")


class Change(_Answer):
    at: str
    action: Literal["correct", "undo", "unsigned", "close", "reopen"]
    round: int | None
    table: int | None
    number: int | None = Field(description="The deal")
    by: Literal["table", "director", "host"]
    finished: bool | int | None = Field(description="Whether the game was over when it "
                                                    "was changed")


class Tournament(_Answer):
    """A tournament: its rounds' tables and its standings, best first."""

    id: str
    name: str
    closed: bool
    scoring: Literal[tournaments.SCORINGS]  # type: ignore[valid-type]
    rounds_planned: int
    rulesets: dict[str, str] = Field(description="The ruleset id per table size")
    version: int = Field(description="Moves with every save at any of its tables")
    players: list[Entrant]
    rounds: list[Round]
    standings: list[TournamentStanding] = Field(description=(
        "Best first: by points (the sum of game totals, or 3 to 0 per place when ranked "
        "by places), then table wins, then the best game; equal lines share a rank"))
    changes: list[Change] | None = Field(None, description="The director's alone: every "
                                                           "correction, undo and closing, "
                                                           "the latest first")


class NewTournamentAnswer(_Answer):
    id: str
    token: str = Field(description="The director's: every change needs it")
    round: Round


class NewTournament(_Body):
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
                             description="Draws are reproducible from it (random when "
                                         "left out)")
    club: str | None = Field(None, description=(
        "The club it is of (its id), with the manager's or a director's token in "
        "`Authorization: Bearer`; left out, the server's own club"))


class LateArrival(_Body):
    name: PlayerName  # type: ignore[valid-type]


class Arrived(_Answer):
    number: int = Field(description="Their entry number")
    name: str


class DrawRound(_Body):
    number: int | None = Field(None, description="The round meant, so that a request sent "
                                                 "twice draws it once")


# -- clubs -----------------------------------------------------------------------------

class Club(_Answer):
    """A club; its manager also gets its invitation."""

    id: str
    name: str
    public: bool = Field(description="Anyone may read the club (else its members, "
                                     "directors and manager only)")
    casual_rated: bool = Field(description="Its casual games count for the ratings")
    default_ruleset: str | None = Field(description="The ruleset a new game of the club "
                                                    "starts with (null: the server's)")
    created_at: str
    right: Literal["manager", "director", "member"] | None = Field(
        description="The right the request's token holds in the club")
    players: str = Field(description="Where its people are listed")
    invite_code: str | None = Field(None, description="The manager's only")
    invite_url: str | None = Field(None, description="The manager's only")


class ClubWithToken(Club):
    token: str = Field(description="`Authorization: Bearer` for the club's writes; given "
                                   "once")


class NewClub(_Body):
    name: ClubName  # type: ignore[valid-type]
    public: bool = True


class ClubChange(_Body):
    """The manager's choices; only what is given changes."""

    name: ClubName | None = None  # type: ignore[valid-type]
    public: bool = Field(None, json_schema_extra=_no_default)  # type: ignore[assignment]
    casual_rated: bool = Field(None, json_schema_extra=_no_default)  # type: ignore[assignment]
    default_ruleset: str | None = Field(None, description="A ruleset's id; \"\": the "
                                                          "server's")


class SeasonHead(_Answer):
    id: str | None = Field(description="null: the calendar year, the season of a club "
                                       "that named none")
    name: str
    starts: str = Field(json_schema_extra={"format": "date"})
    ends: str = Field(json_schema_extra={"format": "date"})
    scoring: Literal[seasons.SCORINGS]  # type: ignore[valid-type]
    best: int | None = Field(description="Only each player's best `best` nights count")


class SeasonLine(_Answer):
    player: str
    person_id: int | None = None
    points: float
    nights: int
    games: int
    wins: int
    counted: int | None = Field(None, description="Nights whose points count")
    rank: int = Field(description="Equal lines share a rank")
    rating: float | None = Field(description="The conservative rating mu − 3·sigma")
    mu: float | None = None
    sigma: float | None = None


class Season(_Answer):
    season: SeasonHead
    standings: list[SeasonLine] = Field(description="Best first")


class Health(_Answer):
    status: Literal["ok", "unavailable"]
