"""One trick at a time: who wins it, what it costs, which plays are allowed.

Cards are :class:`Card` or strings such as ``"QH"``; the leader's card comes first.

>>> from .rulesets import get_ruleset
>>> robber = get_ruleset("standard-4").contract("robber")
>>> t = check_trick(robber, leader=1, cards=["5H", "KH", "2H", "9S"], trick=7)
>>> t.winner, str(t.card), t.reason.key
(2, 'KH', 'highest_of_led_suit')
>>> [(i.name, i.count, i.points) for i in t.items]  # doctest: +NORMALIZE_WHITESPACE
[('trick', 1, -20), ('hearts', 3, -60), ('gentlemen', 1, -30),
 ('king_of_hearts', 1, -150), ('penalty_trick', 1, -75)]
>>> t.total
-335
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.rules.checks import is_int
from scorekeeper.rules.errors import N_, InvalidPlay, Problem

from .cards import SUITS, Card, card_set
from .contracts import CardCount, Contract, PenaltyTricks, Robber, Table, TrickCount

CardLike = Card | str

#: The single-card penalty that must be discarded when its holder cannot follow.
KING_OF_HEARTS = Card("K", "H")


@dataclass(frozen=True)
class Reason:
    """Why something is so: a stable ``key``, an untranslated message and its params."""

    key: str
    message: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Ruling:
    """May this card be played? ``allowed`` is None when it depends on the hand, which
    the caller did not give."""

    allowed: bool | None
    reason: Reason

    @property
    def key(self) -> str:
        return self.reason.key


#: Messages for score items by ``ScoreItem.name``; params are the item's fields.
ITEM_MESSAGES = {
    "trick": N_("The trick: %(points)s"),
    "hearts": N_("Hearts (%(count)s): %(points)s"),
    "queens": N_("Queens (%(count)s): %(points)s"),
    "gentlemen": N_("Kings and jacks (%(count)s): %(points)s"),
    "jacks": N_("Jacks (%(count)s): %(points)s"),
    "king_of_hearts": N_("The king of hearts: %(points)s"),
    "queen_of_spades": N_("The queen of spades: %(points)s"),
    "penalty_trick": N_("Trick %(trick)s: %(points)s"),
}


@dataclass(frozen=True)
class ScoreItem:
    """One heading the trick scores under for its taker: ``key`` the contract (or robber
    part), ``name`` ``"trick"``, a card set or ``"penalty_trick"``."""

    key: str
    name: str
    count: int
    points: int
    cards: tuple[Card, ...] = ()
    trick: int | None = None

    @property
    def message(self) -> str:
        return ITEM_MESSAGES[self.name]

    @property
    def params(self) -> dict[str, Any]:
        return {"count": self.count, "points": self.points, "trick": self.trick,
                "cards": " ".join(map(str, self.cards))}

    def text(self) -> str:
        return self.message % self.params


@dataclass(frozen=True)
class TrickResult:
    """A checked trick: the winner and what they score; ``pending``, what needs the
    trick number."""

    plays: tuple[tuple[int, Card], ...]
    winner: int
    card: Card
    reason: Reason
    items: tuple[ScoreItem, ...]
    pending: tuple[Reason, ...] = ()

    @property
    def total(self) -> int:
        return sum(i.points for i in self.items)


def parse_card(card: CardLike) -> Card:
    """A card from a :class:`Card` or a string; ``ValueError`` if it is not one.

    >>> parse_card(" 10s ")
    Card(rank='10', suit='S')
    """
    if isinstance(card, Card):
        return card
    if isinstance(card, str):
        return Card.parse(card)
    raise ValueError(f"not a card: {card!r}")


def _no_tricks(contract: Contract) -> None:
    if contract.kind == "loteryjka":
        raise InvalidPlay([Problem("", N_("The loteryjka has no tricks."))])


def read_card(raw: CardLike, table: Table, before: Sequence[Card],
              field: str = "cards") -> tuple[Card | None, Problem | None]:
    """``raw`` as a card, and the problem at ``field`` when it is no card, not in the
    table's deck or among ``before``."""
    try:
        card = parse_card(raw)
    except ValueError:
        return None, Problem(field, N_("This is not a card: %(card)s"), {"card": str(raw)})
    message = N_("%(card)s is not in this deck.") if card not in table.deck else \
        N_("%(card)s is played twice.") if card in before else None
    return card, Problem(field, message, {"card": str(card)}) if message else None


def _read_cards(cards: Sequence[CardLike], table: Table, problems: list[Problem]) -> list[Card]:
    if isinstance(cards, str) or len(cards) != table.players:
        problems.append(Problem("cards", N_("A trick has one card from each of the %(players)s "
                                            "players."), {"players": table.players}))
        return []
    parsed: list[Card] = []
    for i, raw in enumerate(cards):
        card, problem = read_card(raw, table, parsed, f"cards.{i}")
        problems += [problem] if problem else []
        parsed += [card] if card else []
    return parsed


def _read_trump(contract: Contract, trump: str | None, problems: list[Problem]) -> str | None:
    trumps = contract.kind == "trumps"
    if not trumps and trump is not None:
        problems.append(Problem("trump", N_("This deal has no trumps.")))
    elif trumps and trump not in SUITS and not (trump == "NT" and contract.data.get("no_trump")):
        problems.append(Problem("trump", N_("Choose the trump suit.")))
    return trump if trumps and trump in SUITS else None


def winner(cards: Sequence[Card], trump: str | None = None) -> tuple[int, Reason]:
    """The index of the winning card in play order, and why it wins.

    >>> winner([Card.parse(c) for c in ("9D", "AS", "2H", "10D")], trump="H")[0]
    2
    """
    led = cards[0].suit
    suit = trump if trump is not None and any(c.suit == trump for c in cards) else led
    best = max((i for i, c in enumerate(cards) if c.suit == suit), key=lambda i: cards[i].value)
    if suit == trump:
        return best, Reason("highest_trump", N_("The highest trump wins (%(suit)s)."),
                            {"suit": suit})
    return best, Reason("highest_of_led_suit",
                        N_("The highest card of the suit led wins (%(suit)s)."), {"suit": suit})


def _items(contract: Contract, cards: Sequence[Card], trick: int | None,
           ) -> tuple[list[ScoreItem], list[Reason]]:
    if isinstance(contract, Robber):
        found = [_items(part, cards, trick) for part in contract.parts]
        return [i for items, _ in found for i in items], [r for _, later in found for r in later]
    points = contract.data.get("points")
    if isinstance(contract, TrickCount):  # a trump deal too
        return [ScoreItem(contract.key, "trick", 1, points)], []
    if isinstance(contract, CardCount):
        taken = card_set(contract.set_name, cards)
        return [ScoreItem(contract.key, contract.set_name, len(taken), points * len(taken),
                          taken)] if taken else [], []
    if isinstance(contract, PenaltyTricks):
        if trick is None:
            numbers = ", ".join(map(str, contract.trick_numbers))
            return [], [Reason("depends_on_trick",
                               N_("Tricks %(tricks)s cost points: give the trick number."),
                               {"key": contract.key, "tricks": numbers})]
        return [ScoreItem(contract.key, "penalty_trick", 1, pts, trick=trick)
                for number, pts in zip(contract.trick_numbers, contract.points)
                if number == trick], []
    raise ValueError(f"cannot score a trick of a {contract.kind} deal")


def check_trick(contract: Contract, leader: int, cards: Sequence[CardLike], *,
                trump: str | None = None, trick: int | None = None) -> TrickResult:
    """Check one complete trick in play order and score it for its taker; ``trick``
    counts from 1 (penalty tricks need it). Raises :class:`InvalidPlay`."""
    _no_tricks(contract)
    table = contract.table
    problems: list[Problem] = []
    if not is_int(leader) or not 0 <= leader < table.players:
        problems.append(Problem("leader", N_("Choose the player who led.")))
    if trick is not None and (not is_int(trick) or not 1 <= trick <= table.tricks):
        problems.append(Problem("trick", N_("The trick number is from 1 to %(max)s."),
                                {"max": table.tricks}))
    played = _read_cards(cards, table, problems)
    trump_suit = _read_trump(contract, trump, problems)
    if problems:
        raise InvalidPlay(problems)
    index, reason = winner(played, trump_suit)
    items, pending = _items(contract, played, trick)
    seats = [(leader + i) % table.players for i in range(table.players)]
    return TrickResult(tuple(zip(seats, played)), seats[index], played[index], reason,
                       tuple(items), tuple(pending))


def _rule(allowed: bool | None, key: str, message: str, **params: Any) -> Ruling:
    return Ruling(allowed, Reason(key, message, params))


def check_lead(contract: Contract, card: CardLike,
               hand: Iterable[CardLike] | None = None) -> Ruling:
    """May ``card`` be led under the contract's lead rules? Without the ``hand`` a
    restricted lead is answered None.

    >>> from .rulesets import get_ruleset
    >>> c = get_ruleset("standard-4").contract("no_hearts")
    >>> check_lead(c, "5H", hand=["5H", "2S"]).allowed, check_lead(c, "5H").allowed
    (False, None)
    """
    _no_tricks(contract)
    card = parse_card(card)
    held = None if hand is None else frozenset(map(parse_card, hand))
    if card not in contract.table.deck:
        return _rule(False, "not_in_deck", N_("%(card)s is not in this deck."), card=str(card))
    if held is not None and card not in held:
        return _rule(False, "not_in_hand", N_("%(card)s is not in this hand."), card=str(card))
    rules = contract.lead_rules
    if "no_king_of_hearts" in rules and card == KING_OF_HEARTS:
        if held is None:
            return _rule(None, "king_of_hearts_last_card", N_(
                "The king of hearts may be led only as the leader's last card."))
        if len(held) > 1:
            return _rule(False, "no_king_of_hearts", N_("The king of hearts may not be led."))
    if "no_hearts" in rules and card.suit == "H":
        if held is None:
            return _rule(None, "hearts_only_if_no_other_suit", N_(
                "A heart may be led only by a player who holds nothing but hearts."))
        if any(c.suit != "H" for c in held):
            return _rule(False, "no_hearts", N_(
                "A heart may not be led while you hold another suit."))
        return _rule(True, "only_hearts_left", N_(
            "Only hearts are left in the hand, so a heart may be led."))
    return _rule(True, "free_lead", N_("Any card may be led."))


def check_follow(contract: Contract, led: CardLike, card: CardLike,
                 hand: Iterable[CardLike] | None = None, *,
                 played: Sequence[CardLike] | None = None,
                 trump: str | None = None) -> Ruling:
    """May ``card`` be played to a trick led with ``led``?

    Follow suit if you can; under ``discard_king_of_hearts`` the K♥ goes at the first
    trick its holder cannot follow. Under ``must_beat``, ``played`` (the trick so far)
    and ``trump`` say what must be beaten: a higher card of the suit led while no trump
    is in, and a void player must trump, higher when able (lower still trumps).

    >>> from .rulesets import get_ruleset
    >>> c = get_ruleset("seed001-4").contract("no_king_of_hearts")
    >>> check_follow(c, "3C", "2S", hand=["2S", "KH"]).key
    'must_discard_king_of_hearts'
    """
    _no_tricks(contract)
    led, card = parse_card(led), parse_card(card)
    held = None if hand is None else frozenset(map(parse_card, hand))
    if held is not None and card not in held:
        return _rule(False, "not_in_hand", N_("%(card)s is not in this hand."), card=str(card))
    beat = contract.must_beat
    trump_suit = trump if contract.kind == "trumps" and trump in SUITS else None
    so_far = [parse_card(c) for c in played] if played else [led]
    best = so_far[winner(so_far, trump_suit)[0]]
    suit = led.suit
    if card.suit == suit:
        if beat and best.suit == suit and card.value < best.value:
            return _must_beat_with(held, best, suit, "must_beat")
        if beat and best.suit == suit:
            return _rule(True, "beats", N_("The card follows suit and beats the cards played."))
        return _rule(True, "follows_suit", N_("The card follows suit."))
    if held is None:
        if beat and trump_suit is not None and card.suit == trump_suit:
            if best.suit == trump_suit and card.value < best.value:
                return _rule(None, "only_if_void_and_no_higher_trump", N_(
                    "a trump lower than the %(card)s: allowed only to a player who holds no "
                    "%(suit)s and no higher trump."), suit=suit, card=str(best))
            return _rule(None, "only_if_void_must_trump", N_(
                "a trump: allowed (and required) only of a player who holds no %(suit)s."),
                suit=suit)
        if beat and trump_suit is not None:
            return _rule(None, "only_if_void_and_no_trump", N_(
                "neither a %(suit)s nor a trump: allowed only to a player who holds neither "
                "(whoever cannot follow suit must trump)."), suit=suit)
        return _rule(None, "only_if_void", N_(
            "not a %(suit)s: allowed only to a player who holds no %(suit)s."), suit=suit)
    if any(c.suit == suit for c in held):
        return _rule(False, "must_follow", N_("You must follow suit (%(suit)s)."), suit=suit)
    if ("discard_king_of_hearts" in contract.lead_rules and KING_OF_HEARTS in held
            and card != KING_OF_HEARTS):
        return _rule(False, "must_discard_king_of_hearts", N_(
            "You cannot follow suit, so the king of hearts must go now."))
    if beat and trump_suit is not None:
        if card.suit == trump_suit:
            if best.suit == trump_suit and card.value < best.value:
                return _must_beat_with(held, best, trump_suit, "must_overtrump")
            return _rule(True, "trumps", N_(
                "You cannot follow suit, so you must trump, and this trump does."))
        if any(c.suit == trump_suit for c in held):
            return _rule(False, "must_trump", N_(
                "You cannot follow suit, so you must trump (%(suit)s)."), suit=trump_suit)
        return _rule(True, "void_any_card", N_(
            "You can neither follow suit nor trump: any card may be played."))
    if contract.kind == "trumps" and not beat:
        return _rule(True, "void_any_card", N_(
            "You cannot follow suit: any card may be played; you need not trump."))
    return _rule(True, "void_any_card", N_("You cannot follow suit: any card may be played."))


def _must_beat_with(held: frozenset[Card] | None, best: Card, suit: str, key: str) -> Ruling:
    """A card of ``suit`` lower than ``best`` under ``must_beat``: refused when the hand
    holds a higher one."""
    params = {"card": str(best), "suit": suit}
    if held is None:
        return _rule(None, f"{key}_if_able", N_(
            "lower than the %(card)s: allowed only to a player who holds no higher %(suit)s "
            "(the cards played must be beaten when possible)."), **params)
    if any(c.suit == suit and c.value > best.value for c in held):
        return _rule(False, key, N_(
            "You must beat the %(card)s: you hold a higher %(suit)s."), **params)
    return _rule(True, "cannot_beat", N_(
        "You hold no %(suit)s higher than the %(card)s, so a lower one may be played."),
        **params)
