"""The JSON API's answers: the functions that make them, and their pydantic models for
:mod:`.openapi`, each key described (a family's answer adds keys of its own, listed here
too)."""
from __future__ import annotations

from typing import Any, Literal

from flask import url_for
from pydantic import Field

from ..common.i18n import lang
from ..common.safejson import Written
from ..domain import clubs, seasons, service, tournaments
from . import access
from .api_models import Answer, Result, model
from .db import get_db


def ruleset_entry(family, rules, row) -> dict[str, Any]:
    return {"id": rules.id, "family": family.key, "name": rules.name(lang()),
            "players": rules.players, "builtin": row is None,
            **({"made_by": row["made_by"], "created_at": row["created_at"]} if row else {}),
            **family.ruleset_json(rules)}


def game_json(game: service.Game) -> dict[str, Any]:
    """A game as JSON: the shared keys, then the family's own, and a finished game's
    signatures (the director's seat is -1)."""
    state, family, rules = game.state, game.family, game.rules
    signed = service.signatures(get_db(), game) if state.finished else {}
    extra = family.game_json(game)
    return {
        **extra,
        "id": game.id, "family": family.key, "version": game.version,
        "ruleset": {"id": rules.id, "name": rules.name(lang()), "players": rules.players,
                    **extra.get("ruleset", {})},
        "players": [{"seat": i, "name": n} for i, n in enumerate(game.players)],
        "first_dealer": state.first_dealer,
        "deals": [Written({"number": s.deal.number, "dealer": s.deal.dealer,
                           "leader": s.deal.leader, "result": s.result, "points": s.points,
                           "totals": s.totals, **family.deal_json(game, s)})
                  for s in state.scored],
        "totals": state.totals, "finished": state.finished,
        "winners": state.winners if state.finished else [],
        "current_deal": state.current.number if state.current else None,
        "signatures": [{"seat": seat, "by": s["by"], "at": s["at"]}
                       for seat, s in signed.items()],
    }


def with_access(game: service.Game) -> dict[str, Any]:
    """A game's JSON with what its table needs to write: the token and the join code."""
    return {**game_json(game), "token": access.token(game.id), "join_code": game.stored.join_code}


def round_json(t: tournaments.Tournament, number: int, director: bool) -> dict[str, Any]:
    return {"number": number, "finished": t.round_finished(number), "tables": [
        {"table": tb.number, "game": tb.game_id,
         "players": [t.name_of(n) for n in tb.seats], "entries": tb.seats,
         "first_dealer": tb.first_dealer, "ruleset": tb.ruleset_id, "deals": tb.deals,
         "finished": tb.finished, "signatures": tb.signed_seats,
         "director_signed": tb.director_signed, "confirmed": tournaments.confirmed(tb),
         **({"token": access.token(tb.game_id), "join_code": tb.join_code} if director else {})}
        for tb in t.rounds[number - 1]]}


def tournament_json(t: tournaments.Tournament, director: bool) -> dict[str, Any]:
    """A tournament as JSON: its rounds' tables (each game's token and join code for the
    director alone) and its standings, best first."""
    return {
        "id": t.id, "name": t.name, "closed": t.closed, "scoring": t.scoring,
        "rounds_planned": t.planned, "rulesets": t.rulesets, "version": t.version,
        "players": [{"number": p.number, "name": p.name, "joined": p.joined,
                     "withdrawn_after": p.left_after} for p in t.players.values()],
        "rounds": [round_json(t, n, director) for n in range(1, t.current + 1)],
        "standings": [{"player": t.name_of(s.player), "number": s.player,
                       # whole when whole (ranking by places gives halves)
                       "points": int(s.points) if s.points == int(s.points) else float(s.points),
                       "wins": s.wins, "games": s.games,
                       "best": s.best, "rank": s.rank,
                       "provisional": t.provisional(s.player)} for s in t.overall],
        **({"changes": [{k: c[k] for k in ("at", "action", "round", "table", "number", "by",
                                            "finished")}
                        for c in tournaments.changes(get_db(), t.id)]} if director else {}),
    }


def club_json(club: clubs.Club, right: str | None) -> dict[str, Any]:
    """A club as JSON; its manager also gets its invitation code."""
    out = {"id": club.id, "name": club.name, "public": club.public,
           "casual_rated": club.casual_rated, "default_ruleset": club.default_ruleset,
           "created_at": club.created_at, "right": right,
           "players": url_for("api.club_players", cid=club.id)}
    if right == access.MANAGER and not club.home:
        out["invite_code"] = club.invite_code
        out["invite_url"] = url_for("clubs.join_link", code=club.invite_code, _external=True)
    return out


# -- the models -----------------------------------------------------------------------------


GameRuleset = model("GameRuleset", id=str, name=str, players=int, expected_sum=(
    int | None, Field(None, description="Kierki: the game's sum")))

SeatName = model("SeatName", seat=int, name=str)

Breakdown = model("Breakdown", key=str, points=list[int])


class RecordedDeal(Answer):
    number: int
    dealer: int
    leader: int
    result: Result  # type: ignore[valid-type]
    points: list[int]
    totals: list[int]
    sum: int | None = Field(None, description="Kierki: the deal's points added up")
    expected_sum: int | None = Field(None, description="Kierki: what they must add up to")
    breakdown: list[Breakdown] | None = Field(
        None, description="The partnership game: the deal's points per pair, by what gave them")


EntryField = model("EntryField", name=str, type=str, total=(int | None, None),
                   labels=(list[str] | None, None), distinct=(bool | None, None))

ScheduledDeal = model("ScheduledDeal", number=int, contract=str, kind=str, name=str,
                      dealer=int, leader=int, expected_sum=(int | None, None),
                      fields=list[EntryField])

SeatStanding = model("SeatStanding", seat=int, total=int, place=int)

Pair = model("Pair", pair=int, seats=list[int])


class Signature(Answer):
    seat: int = Field(description="The seat signed for; the director's is -1")
    by: Literal["table", "director"]
    at: str = Field(json_schema_extra={"format": "date-time"})


class Game(Answer):
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
    expected_sum: int | None = Field(None, description="Kierki: what they add up to at the end")
    standings: list[SeatStanding] | None = Field(None, description="Kierki: best first")
    pairs: list[Pair] | None = Field(None, description="The partnership game: its pairs")
    target: int | None = Field(None, description="The partnership game: the score played to")
    to_go: list[int] | None = Field(None, description="The partnership game: what each "
                                                      "pair still needs")
    winner: int | None = Field(None, description="The partnership game: the pair that won")


class GameWithAccess(Game):
    """A game with what its table needs to write to it."""

    token: str = Field(description="Send as `Authorization: Bearer <token>` with every "
                                   "write to this game")
    join_code: str = Field(description="Eight characters for other phones (six for older games)")


class CheckProblem(Answer):
    field: str = Field(description="As in a 422's `errors`: `tricks`, `hearts.2`, `\"\"`")
    where: str = Field(description="The input in words (`Ala · Hearts ♥`), or `\"\"`")
    message: str = Field(description="In the client's language")


CheckProgress = model("CheckProgress", field=str, entered=int, total=int, done=bool,
                      text=(str, Field(examples=["Tricks: 9 of 13"])))


class Checked(Answer):
    """What a deal's result entered so far breaks."""

    ok: bool = Field(description="Nothing entered so far breaks a rule")
    complete: bool = Field(description="Nothing is left blank")
    problems: list[CheckProblem]
    progress: list[CheckProgress] = Field(description="Each count so far (Kierki)")


GameLine = model("GameLine", date=str, ruleset=str, total=int, place=int, sides=int)

KindFigures = model("KindFigures", key=str, name=str, deals=int, points=int,
                    average=float | None, group=(str | None, None),
                    group_name=(str | None, None))

CountFigure = model("CountFigure", key=str, name=str, count=int)

Streaks = model("Streaks", current=int, longest=int)

RulesetFigures = model("RulesetFigures", ruleset=str, games=int, wins=int,
                       average_place=float | None)


class Figures(Answer):
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


class Player(Answer):
    """A person's statistics over their finished games (no game ids)."""

    id: int
    name: str
    games: int = Field(description="Finished games, of every card game")
    unfinished: int
    families: dict[str, Figures] = Field(description="Per card game played (by its key); points of "
                                                     "different card games never add up")


ScheduleEntry = model("ScheduleEntry", contract=str, name=str, expected_sum=(int | None, None))


class RulesetEntry(Answer):
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


class JsonSchema(Answer):
    """A JSON Schema document (draft 2020-12)."""

    id: str = Field(alias="$id")
    schema_: str = Field(alias="$schema")
    type: str
    properties: dict[str, Any]


class Table(Answer):
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


Round = model("Round", number=int, finished=bool, tables=list[Table])

Entrant = model("Entrant", number=int, name=str, joined=(int, Field(
    description="The first round they were drawn for")), withdrawn_after=int | None)


class TournamentStanding(Answer):
    player: str
    number: int
    points: float
    wins: int
    games: int = Field(description="Finished games")
    best: int | None
    rank: int
    provisional: bool = Field(description="A finished table of theirs is not confirmed yet")


class Change(Answer):
    at: str
    action: Literal["correct", "undo", "unsigned", "close", "reopen"]
    round: int | None
    table: int | None
    number: int | None = Field(description="The deal")
    by: Literal["table", "director", "host"]
    finished: bool | int | None = Field(description="Whether the game was over when it was changed")


class Tournament(Answer):
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


NewTournamentAnswer = model("NewTournamentAnswer", id=str, token=(str, Field(
    description="The director's: every change needs it")), round=Round)

Arrived = model("Arrived", number=(int, Field(description="Their entry number")), name=str)


class Club(Answer):
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
    token: str = Field(description="`Authorization: Bearer` for the club's writes; given once")


Member = model("Member", id=(int, Field(
    description="For `DELETE /api/clubs/{cid}/members/{mid}`")), joined_at=str)


class SeasonHead(Answer):
    id: str | None = Field(description="null: the calendar year, the season of a club "
                                       "that named none")
    name: str
    starts: str = Field(json_schema_extra={"format": "date"})
    ends: str = Field(json_schema_extra={"format": "date"})
    scoring: Literal[seasons.SCORINGS]  # type: ignore[valid-type]
    best: int | None = Field(description="Only each player's best `best` nights count")


class SeasonLine(Answer):
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
    shown: int | None = Field(None, description="The rating as the pages show it: "
                              "1500 + 30·(mu − 25), see docs/ratings.md")
    rated_games: int = Field(0, description="The player's rated games")
    provisional: bool = Field(False, description="Fewer rated games than a rating needs "
                              "to settle: the shown rating still moves a lot with each game")


Season = model("Season", season=SeasonHead, standings=(list[SeasonLine], Field(
    description="Best first")))


class Health(Answer):
    status: Literal["ok", "unavailable", "disk_full", "read_only"] = Field(
        description="ok (200), else 503: the database cannot be read (unavailable), or "
                    "the disk refuses writes (disk_full, read_only)")
