"""Cards, decks and the named sets of penalty cards, with no game state."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


@dataclass(frozen=True, order=True)
class Card:
    """A playing card such as ``Card("Q", "H")``; ``str()`` gives ``"QH"``.

    >>> Card.parse("10S").rank
    '10'
    >>> str(Card("K", "H"))
    'KH'
    """

    rank: str
    suit: str

    def __post_init__(self) -> None:
        if self.rank not in RANKS or self.suit not in SUITS:
            raise ValueError(f"not a card: {self.rank}{self.suit}")

    @classmethod
    def parse(cls, text: str) -> Card:
        text = text.strip().upper()
        return cls(text[:-1], text[-1:])

    @property
    def value(self) -> int:
        """Rank order in trick play: 2 is 0, the ace 12."""
        return RANKS.index(self.rank)

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}"


def deck(removed: Iterable[str] = ()) -> tuple[Card, ...]:
    """The cards in play: 52, less any removed (the 2♣ with three players, two 2s with
    five)."""
    gone = {Card.parse(c) for c in removed}
    return tuple(Card(r, s) for s in SUITS for r in RANKS if Card(r, s) not in gone)


#: Penalty card sets by name; a contract names the set it scores.
CARD_SETS: dict[str, Callable[[Card], bool]] = {
    "hearts": lambda c: c.suit == "H",
    "queens": lambda c: c.rank == "Q",
    "gentlemen": lambda c: c.rank in ("K", "J"),
    "jacks": lambda c: c.rank == "J",
    "king_of_hearts": lambda c: c == Card("K", "H"),
    "queen_of_spades": lambda c: c == Card("Q", "S"),
}


def card_set(name: str, cards: Iterable[Card]) -> tuple[Card, ...]:
    """The cards of ``cards`` that belong to the named set, in deck order.

    >>> len(card_set("gentlemen", deck()))
    8
    """
    test = CARD_SETS[name]
    return tuple(c for c in cards if test(c))
