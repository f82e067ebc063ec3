"""A Kierki ruleset as a document: the shape of every ruleset file and house variant, as
strict pydantic models, served as JSON Schema at ``/api/rulesets/schema.json``. Whether
the rules can be played is :func:`.rulesets.from_data`'s to check; whether the totals
add up, :func:`balance`'s.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, StringConstraints, ValidationError

from ....rules.errors import N_, Problem
from ....rules.shapes import Key, Name, Notes, Short, Strict, Summary, absent, problems
from .cards import CARD_SETS, RANKS
from .contracts import LEAD_RULES

Points = Annotated[int, Field(ge=-10_000, le=10_000)]
Lead = Literal[tuple(LEAD_RULES)]  # type: ignore[valid-type]
CardSet = Literal[tuple(CARD_SETS)]  # type: ignore[valid-type]
Card = Annotated[str, StringConstraints(pattern=r"^(10|[2-9JQKA])[SHDC]$")]
Leads = Annotated[list[Lead], Field(max_length=len(LEAD_RULES))]
#: The deal's points multiplied by how many players took no trick (the last entry for more).
Multipliers = Annotated[list[Annotated[int, Field(ge=0, le=10)]],
                        Field(min_length=1, max_length=5,
                              description="Multiply the deal's points by entry n when n "
                                          "players take no trick")]
AllTricks = Annotated[Literal["others_pay"], Field(
    description="When one player takes every trick: 'others_pay' scores that player "
                "nothing and each other player the deal's whole points, with no multiplier")]
Sum = Annotated[int, Field(ge=-100_000_000, le=100_000_000)]


class _Contract(Strict):
    name: Name = absent()
    lead: Leads = Field([])


class _Tricks(_Contract):
    """A deal played in tricks (every kind but the loteryjka)."""

    must_beat: bool = absent("A player must beat the cards already played to the trick "
                             "when able (a higher card of the suit led, or a higher trump), "
                             "and in a trump deal must trump when unable to follow suit")


class Tricks(_Tricks):
    """Points for each trick taken."""

    kind: Literal["tricks"]
    points: Points
    multipliers: Multipliers = absent()
    all_tricks: AllTricks = absent()


class Cards(_Tricks):
    """Points for each card of a set taken (hearts, queens, gentlemen, jacks, the K♥)."""

    kind: Literal["cards"]
    set: CardSet
    points: Points


class Positions(_Tricks):
    """Points for taking given tricks: 7 is the seventh, -1 the last, -2 the one before."""

    kind: Literal["positions"]
    positions: Annotated[list[Annotated[int, Field(ge=-17, le=17)]],
                         Field(min_length=1, max_length=17)]
    points: Points | Annotated[list[Points], Field(min_length=1, max_length=17)] = Field(
        description="One value for every position, or one per position")


class Robber(_Tricks):
    """Every penalty of its parts at once."""

    kind: Literal["robber"]
    parts: Annotated[list[Key], Field(min_length=1, max_length=10)]
    multipliers: Multipliers = absent()
    all_tricks: AllTricks = absent()


class Trumps(_Tricks):
    """Points for each trick; someone names trumps (or no trumps, where allowed)."""

    kind: Literal["trumps"]
    points: Points
    named_by: Literal["dealer", "leader"] = "leader"
    leader: Literal["dealer", "left"] = "left"
    cards_seen: Annotated[int, Field(ge=0, le=17)] = absent()
    no_trump: bool = False
    auction: bool = Field(
        False, description="The players other than the dealer, from the dealer's left, bid "
        "points for the dealer's right to take the box and name trumps; the dealer accepts "
        "the highest bid or refuses. An accepted bid moves from the buyer's score to the "
        "dealer's; the tricks score as usual, so the deal's sum does not change.")
    multipliers: Multipliers = absent()


class Loteryjka(_Contract):
    """Prizes for going out first, second, …"""

    kind: Literal["loteryjka"]
    prizes: Annotated[list[Points], Field(min_length=1, max_length=5)]
    start: Literal[(*RANKS, "any")] = "7"  # type: ignore[valid-type]
    ace: Literal["low", "high"] = "low"
    begins: Literal["dealer", "left"] = "left"


Contract = Annotated[Tricks | Cards | Positions | Robber | Trumps | Loteryjka,
                     Field(discriminator="kind")]


class RulesetDocument(Strict):
    """A Kierki ruleset: its contracts by key and the order the deals are played in."""

    model_config = ConfigDict(title="Kierki ruleset")

    id: Key = absent("Given by the server to a new variant")
    family: Literal["kierki"] = "kierki"
    source: Short = absent()
    based_on: Key = absent("The ruleset this variant started from")
    made_by: Short = absent()
    created_at: Short = absent()
    players: Literal[3, 4, 5]
    removed: Annotated[list[Card], Field(max_length=12)] = Field([])
    name: Name
    summary: Summary = absent()
    notes: Notes = absent()
    contracts: Annotated[dict[Key, Contract], Field(min_length=1, max_length=30)]
    schedule: Annotated[list[Key], Field(min_length=1, max_length=30)]
    expected_sum: Sum = absent("What the final scores add up to; worked out when left out")
    unbalanced: bool = Field(False, description="Keep a variant whose totals do not add up to zero")


class KierkiRuleset(RulesetDocument):
    """A Kierki ruleset as the app keeps it (a built-in file, a game's snapshot, a
    stored variant): a document with its id and its sum, and perhaps marked imported."""

    model_config = ConfigDict(title="Kierki ruleset (kept)")

    id: Key  # type: ignore[assignment]
    family: Literal["kierki"] = absent()
    game: Literal["kierki"] = absent("The family, in snapshots stored before it was called so")
    expected_sum: Sum  # type: ignore[assignment]
    imported: bool = Field(False, description="Rules that came with an imported game")


def json_schema() -> dict[str, Any]:
    schema = RulesetDocument.model_json_schema()
    schema["$id"] = "/api/rulesets/schema.json"
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema


def read(data: Any) -> tuple[dict[str, Any] | None, list[Problem]]:
    """The document as plain data and the problems of its shape (pydantic's words: the
    API's callers are programs)."""
    try:
        doc = RulesetDocument.model_validate(data)
    except ValidationError as e:
        return None, problems(e)
    return doc.model_dump(exclude_none=True), []


def game_sum(rules: Any) -> int:
    """What every deal of ``rules`` gives out in all: the players' totals at the end."""
    return sum(contract.expected_sum for contract in rules.deals())


def balance(rules: Any, declared: int | None, unbalanced: bool) -> list[Problem]:
    """Problems with the totals: a declared sum the deals do not give, or a sum other
    than zero that the maker did not accept."""
    total = game_sum(rules)
    if declared is not None and declared != total:
        return [Problem("expected_sum", N_("The deals add up to %(total)s, not %(declared)s."),
                        {"total": total, "declared": declared})]
    if unbalanced:
        return []
    if any(m != 1 for c in rules.deals() for m in c.data.get("multipliers", ())):
        return [Problem("unbalanced", N_(
            "Multipliers change what a deal adds up to, so the players' totals cannot add "
            "up to a number known before the game; say that it is meant to be unbalanced."))]
    if any(c.data.get("all_tricks") for c in rules.deals()):
        return [Problem("unbalanced", N_(
            "When one player takes every trick the other players each pay the whole deal, "
            "so the players' totals cannot add up to a number known before the game; say "
            "that it is meant to be unbalanced."))]
    if total != 0:
        return [Problem("unbalanced", N_(
            "The totals of this variant add up to %(total)s, not 0. Change the points, "
            "or say that it is meant to be unbalanced."), {"total": total})]
    return []


__all__ = ["KierkiRuleset", "RulesetDocument", "balance", "game_sum", "json_schema", "read"]
