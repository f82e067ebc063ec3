"""The interface every game family implements once; shared code calls only this.

A *family* is one card game the app hosts (Kierki, the seed-003 partnership game).
Players, seats, the game list, storage, the version check, undo, corrections,
exports, the import, the API and the PDF are shared; everything a family decides
itself is a member of :class:`Family`. Adding a family is a new folder under
``scorekeeper/families/`` with a class that satisfies :class:`Family` (its rules and
flow, pure) and, in its ``web/`` package, one that satisfies :class:`WebFamily` (its
pages), templates under ``templates/<family>/`` and one line in :mod:`.registry`.

The words are the rules' words: *rules* is a family's ruleset object (built-in or
loaded from a stored snapshot), *settings* the game's set-up values (always
``first_dealer``, plus what :meth:`Family.settings` adds), *state* the fold of the
recorded deals, *deal* the context of one deal (number, dealer, leader…).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from flask import Blueprint

Result = dict[str, Any]


class Rules(Protocol):
    """What shared code reads from any family's ruleset."""

    data: dict[str, Any]

    @property
    def id(self) -> str: ...

    @property
    def players(self) -> int: ...

    def name(self, lang: str) -> str: ...

    def notes(self, lang: str) -> str: ...

    def snapshot(self) -> dict[str, Any]: ...


class DealLike(Protocol):
    number: int
    dealer: int
    leader: int


class Scored(Protocol):
    """One recorded deal in a state: its deal, canonical result, points and totals."""

    deal: DealLike
    result: Result
    points: list[int]
    totals: list[int]


class State(Protocol):
    """The fold of a game's recorded deals. Totals are per *side*: a seat in
    Kierki, a pair in the partnership game; ``winners`` are sides too."""

    ruleset: Any
    first_dealer: int
    scored: Sequence[Scored]

    @property
    def totals(self) -> list[int]: ...

    @property
    def finished(self) -> bool: ...

    @property
    def current(self) -> DealLike | None: ...

    @property
    def winners(self) -> list[int]: ...

    @property
    def deals_total(self) -> int | None: ...


class Game(Protocol):
    """A stored game as the family sees it (``service.Game``): seats, stored results,
    its rules and its state (folded on first use)."""

    id: str
    version: int
    players: list[str]
    stored: Any  #: the row: ``family``, ``settings``, ``results``, ``created_at``, …
    rules: Any
    state: State
    family: Family
    #: What outputs made of this game may keep while it lives (a deal's JSON, say), under
    #: keys of their own; a new deal hands them to the next version.
    parts: dict[Any, Any]
    #: The same for what follows from its rules alone (a schedule's JSON per first dealer
    #: and language), shared by the games of the same stored rules.
    rules_parts: dict[Any, Any]


class Family(Protocol):
    """One card game's rules and flow: its rulesets, results, state, JSON, CSV and the
    numbers kept per seat. Pure: importing a family loads no Flask (its pages, forms,
    charts and tools are its :class:`WebFamily`'s). A family subclasses this protocol, so
    an optional member it leaves out has the default below."""

    #: The family's name in URLs, the database, exports and the API.
    key: str
    #: Its name on pages (a lazy string: ``str()`` gives it in the page's language).
    title: Any
    #: Whether an evening's stakes can be settled per point: True where each player has a
    #: total of their own; a partnership game's points are a pair's, so it settles by place.
    settles_per_point: bool
    #: Its ruleset documents, when it offers house variants (``json_schema``, ``read``,
    #: ``balance``, ``game_sum``; see :mod:`scorekeeper.domain.variants`), else None.
    documents: Any = None

    # -- rulesets -------------------------------------------------------------
    def rulesets(self) -> Mapping[str, Rules]:
        """The built-in rulesets by id, in the order a player should see them."""
        ...

    def load_rules(self, data: Any) -> Rules:
        """Rules from data (a stored snapshot, an import); ``RulesetError`` if damaged."""
        ...

    def settings(self, rules: Rules, given: Mapping[str, Any]) -> dict[str, Any]:
        """The family's own set-up values from a form or JSON body (``InvalidInput``)."""
        ...

    def deals_total(self, rules: Rules) -> int | None:
        """How many deals a game has, or None when it is played to a target."""
        ...

    # -- the game -------------------------------------------------------------
    def fold(self, rules: Rules, settings: Mapping[str, Any],
             results: Sequence[Result]) -> State:
        """Replay every recorded result into a state (``InvalidDeal`` if one is impossible)."""
        ...

    def advance(self, state: State, raw: Result) -> State:
        """The state after the next deal's raw result, checked (no replay)."""
        ...

    def deal(self, rules: Rules, settings: Mapping[str, Any], number: int) -> DealLike:
        """Deal ``number``'s context (dealer, leader, what it scores), without a replay."""
        ...

    def validate(self, rules: Rules, deal: DealLike, raw: Result) -> Result:
        """Check one deal's raw result; the canonical result or ``InvalidDeal``."""
        ...

    # -- exports and the API ----------------------------------------------------
    def game_json(self, game: Game) -> dict[str, Any]:
        """The family's part of a game's JSON (merged into the shared keys)."""
        ...

    def deal_json(self, game: Game, scored: Scored) -> dict[str, Any]:
        """The family's part of one recorded deal's JSON: plain data, no words (it is
        made once per deal, for every language)."""
        ...

    def sides(self, rules: Rules) -> list[list[int]]:
        """The seats of each side (``State.totals`` is per side): a seat each in Kierki,
        the pairs in the partnership game."""
        ...

    def seat_stats(self, game: Game, seat: int) -> dict[str, Any]:
        """What a player's statistics add up for one seat of a finished game:
        ``{"kinds": {key: (name, points, deals, (group, group name))}, "counts": {key:
        (name, n)}}``, either may be left out (the group gathers kinds for a chart)."""
        ...

    def seat_numbers(self, game: Game, seat: int) -> dict[str, Any]:
        """The numbers of :meth:`seat_stats` without its words (the store keeps them per
        finished game, in no language): ``{"kinds": {key: (points, deals, group)},
        "counts": {key: n}}``, in the same order."""
        ...

    def ruleset_json(self, rules: Rules) -> dict[str, Any]:
        """The family's part of a ruleset's JSON (``GET /api/rulesets``)."""
        ...

    def csv(self, game: Game) -> tuple[list[str], list[list[Any]]]:
        """The CSV export: a header row and one row per deal, then a total row."""
        ...


class WebFamily(Protocol):
    """A family's web adapter (``scorekeeper/families/<key>/web/``): its pages, forms,
    words in templates, charts and tools. The web layer makes one per family at
    ``create_app`` (:mod:`scorekeeper.web.adapters`); it holds its pure
    :class:`Family` as ``family``. An adapter subclasses this protocol, so an optional
    member it leaves out has the default below."""

    #: The family it serves (its rules and flow).
    family: Family
    #: The family's key (its templates reach its words by it).
    key: str
    #: Template per role: ``game`` (the current deal and scores), ``edit`` (correct a
    #: recorded deal), ``sheet`` (the score sheet, PDF and print; ``game`` may be None
    #: for a blank sheet), ``rules`` (a ruleset's page), ``setup`` (its part of the
    #: new-game form).
    templates: Mapping[str, str]
    #: Links on the first page: (label, endpoint).
    home_links: Sequence[tuple[str, str]] = ()
    #: Words for message parameters the rules use, e.g. ``{"special": {...}}``.
    param_labels: Mapping[str, Mapping[str, Any]]
    #: Its words module; its templates reach it by the family's key.
    words: Any
    #: The module behind its house-variant editor page (``templates["variant"]``; see
    #: :mod:`scorekeeper.web.views.variants`), or None when it offers no variants.
    editor: Any = None

    def blueprint(self, load_game: Callable[[str], Game],
                  find_rules: Callable[[str], tuple[Any, Any]] | None = None
                  ) -> Blueprint | None:
        """Pages of its own (table tools), or None. A family reaches no storage and no
        shared view itself (``tests/test_architecture.py``): its pages load a stored
        game by id with ``load_game``, and a ruleset by id (a built-in one or a house
        variant: ``(family, rules)``, ``UnknownRuleset`` when there is none) with
        ``find_rules``, both passed by the shared web layer (a missing game is its 404)."""
        return None

    def parse_form(self, game: Game, deal: DealLike, form: Mapping[str, Any]) -> Result:
        """Posted form strings to the raw result the rules check."""
        ...

    def form_values(self, result: Result) -> dict[str, Any]:
        """A stored result as form values, to prefill a correction."""
        ...

    def posted_values(self, form: Any) -> dict[str, Any]:
        """What was typed, to show again beside the messages of a refused deal."""
        ...

    def page_context(self, game: Game, deal: DealLike | None,
                     args: Mapping[str, Any]) -> dict[str, Any]:
        """What the family's templates need for a deal: words, cost lines, entry mode."""
        ...

    def deal_points(self, game: Game, number: int) -> str:
        """What recorded deal ``number`` gave each side, in a few words (after saving)."""
        ...

    def history_line(self, game: Game, deal: DealLike, result: Result) -> str:
        """An earlier value of a deal in a few words (correction history)."""
        ...

    def check_entry(self, game: Game, deal: DealLike, raw: Result) -> dict[str, Any] | None:
        """A deal's result while it is being entered, checked (``POST
        /api/games/<id>/deals/<n>/check``): ``{"ok", "complete", "problems",
        "progress"}``; None (the default) when the family has no check of its own, and the
        API answers what saving would refuse."""
        return None

    def charts(self, game: Game) -> list[Any]:
        """The game's charts (:class:`scorekeeper.common.charts.LineChart`, ``BarChart``) in its
        words, the running totals first; none before the first deal. The game page shows
        them all under the score table, the sheet the first."""
        ...
