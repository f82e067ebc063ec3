"""The interface every game family implements once; shared code calls only this.

A *family* is one card game the app hosts. Its pure rules and flow satisfy
:class:`Family`; its pages, in its ``web/`` package, satisfy :class:`WebFamily`. *rules*
is a family's ruleset object, *settings* a game's set-up values (always ``first_dealer``),
*state* the fold of the recorded deals, *deal* one deal's context, *game* a stored game.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ..common.i18n import field_errors
from ..rules.errors import InvalidInput

if TYPE_CHECKING:
    from flask import Blueprint

Result = dict[str, Any]


class DealLike(Protocol):
    number: int
    dealer: int
    leader: int


class State(Protocol):
    """The fold of a game's recorded deals; totals and winners are per side (a seat in
    Kierki, a pair in Tybet)."""

    ruleset: Any
    first_dealer: int
    scored: Sequence[Any]  #: each with ``deal``, ``result``, ``points``, ``totals``
    # read-only: a family may give each as a property
    totals: list[int]
    finished: bool
    current: DealLike | None
    winners: list[int]
    deals_total: int | None


class Game(Protocol):
    """A stored game as a family sees it (``service.Game``)."""

    id: str
    version: int
    players: list[str]
    stored: Any  #: the row: ``family``, ``settings``, ``results``, ``created_at``, …
    rules: Any
    state: State
    family: Family
    #: What outputs made of this game keep while it lives, under keys of their own.
    parts: dict[Any, Any]
    #: The same for what follows from its rules alone, shared by games of the same rules.
    rules_parts: dict[Any, Any]


class Family(Protocol):
    """One card game's rules and flow; importing it loads no Flask."""

    #: The family's name in URLs, the database, exports and the API.
    key: str
    #: Its name on pages (a lazy string).
    title: Any
    #: Whether stakes settle per point (each player has a total of their own).
    settles_per_point: bool
    #: Its ruleset documents when it offers house variants (``json_schema``, ``read``,
    #: ``balance``, ``game_sum``), else None.
    documents: Any = None

    def rulesets(self) -> Mapping[str, Any]:
        """The built-in rulesets by id, in the order a player should see them."""

    def load_rules(self, data: Any) -> Any:
        """Rules from data (a stored snapshot, an import); ``RulesetError`` if damaged."""

    def settings(self, rules: Any, given: Mapping[str, Any]) -> dict[str, Any]:
        """The family's own set-up values from a form or JSON body (``InvalidInput``)."""

    def deals_total(self, rules: Any) -> int | None:
        """How many deals a game has, or None when it is played to a target."""

    def fold(self, rules: Any, settings: Mapping[str, Any],
             results: Sequence[Result], checked: bool = True) -> State:
        """Replay every result into a state (``InvalidDeal`` if one is impossible). Stored
        results (``checked=False``) are scored without being checked again: each is the
        canonical result ``validate`` returned when it was saved."""

    def advance(self, state: State, raw: Result) -> State:
        """The state after the next deal's raw result, checked."""

    def deal(self, rules: Any, settings: Mapping[str, Any], number: int) -> DealLike:
        """Deal ``number``'s context, without a replay."""

    def validate(self, rules: Any, deal: DealLike, raw: Result) -> Result:
        """Check one deal's raw result; the canonical result or ``InvalidDeal``."""

    def game_json(self, game: Game) -> dict[str, Any]:
        """The family's part of a game's JSON."""

    def deal_json(self, game: Game, scored: Any) -> dict[str, Any]:
        """The family's part of one recorded deal's JSON: plain data, no words."""

    def sides(self, rules: Any) -> list[list[int]]:
        """The seats of each side (``State.totals`` is per side)."""

    def seat_stats(self, game: Game, seat: int) -> dict[str, Any]:
        """A seat's statistics in a finished game: ``{"kinds": {key: (name, points, deals,
        (group, group name))}, "counts": {key: (name, n)}}``, either may be left out."""

    def seat_numbers(self, game: Game, seat: int) -> dict[str, Any]:
        """:meth:`seat_stats` without its words: ``{"kinds": {key: (points, deals,
        group)}, "counts": {key: n}}``."""

    def ruleset_json(self, rules: Any) -> dict[str, Any]:
        """The family's part of a ruleset's JSON (``GET /api/rulesets``)."""

    def csv(self, game: Game) -> tuple[list[str], list[list[Any]]]:
        """The CSV export: a header row, one row per deal, then a total row."""


class WebFamily(Protocol):
    """A family's web adapter: its pages, forms, words in templates, charts and tools."""

    family: Family
    key: str
    #: Template per role: ``game``, ``edit``, ``sheet``, ``rules``, ``setup``, ``variant``.
    templates: Mapping[str, str]
    #: Links on the first page: (label, endpoint).
    home_links: Sequence[tuple[str, str]] = ()
    #: Words for message parameters the rules use, e.g. ``{"special": {...}}``.
    param_labels: Mapping[str, Mapping[str, Any]]
    #: Its words module; its templates reach it by the family's key.
    words: Any
    #: The module behind its house-variant editor, or None.
    editor: Any = None

    def blueprint(self, load_game: Callable[[str], Any],
                  find_rules: Callable[[str], tuple[Any, Any]] | None = None
                  ) -> Blueprint | None:
        """Pages of its own, or None; they load a game or a ruleset only through the two
        functions the shared web layer passes."""
        return None

    def parse_form(self, game: Game, deal: DealLike, form: Mapping[str, Any]) -> Result:
        """Posted form strings to the raw result the rules check."""

    def form_values(self, result: Result) -> dict[str, Any]:
        """A stored result as form values, to prefill a correction."""

    def posted_values(self, form: Any) -> dict[str, Any]:
        """What was typed, to show again beside a refused deal's messages."""

    def page_context(self, game: Game, deal: DealLike | None,
                     args: Mapping[str, Any]) -> dict[str, Any]:
        """What the family's templates need for a deal."""

    def deal_points(self, game: Game, number: int) -> str:
        """What recorded deal ``number`` gave each side, in a few words."""

    def history_line(self, game: Game, deal: DealLike, result: Result) -> str:
        """An earlier value of a deal in a few words (correction history)."""

    def check_entry(self, game: Game, deal: DealLike, raw: Result) -> dict[str, Any]:
        """A deal being entered, checked (``{"ok", "complete", "problems", "progress"}``);
        unless the family has a check of its own, what saving would refuse."""
        try:
            game.family.validate(game.rules, deal, raw)
            problems = []
        except InvalidInput as e:
            problems = [{"field": key, "where": "", "message": m}
                        for key, messages in field_errors(e.problems).items() for m in messages]
        return {"ok": not problems, "complete": True, "problems": problems, "progress": []}

    def charts(self, game: Game) -> list[Any]:
        """The game's charts, the running totals first; none before the first deal."""
