"""The loteryjka layout (Fan Tan): a board that only changes into new boards.

Options come from the contract: ``start`` (a rank, or ``"any"``: the first card sets
it), ``ace`` (``"low"`` or ``"high"``) and the ``prizes``; the deal's leader begins.
Hands are optional per seat: a known hand must hold the card played and cannot pass
while a card fits. Cards missing from the deck are skipped in their row.

>>> from .rulesets import get_ruleset
>>> b = new_board(get_ruleset("standard-4").contract("loteryjka"), start_seat=0)
>>> b = play(play(b, "7H"), "8H")
>>> [str(c) for c in legal_cards(b) if c.suit in "HS"]
['7S', '6H', '9H']
>>> b.turn, b.left
(2, (12, 12, 13, 13))
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from scorekeeper.rules.checks import is_int
from scorekeeper.rules.errors import N_, InvalidPlay, Problem

from .cards import RANKS, SUITS, Card
from .contracts import Contract, Table
from .trick import CardLike, parse_card

#: Rank order in a row, lowest first, by the ``ace`` option.
ROW_ORDER = {"low": ("A",) + RANKS[:-1], "high": RANKS}


@dataclass(frozen=True)
class Options:
    """The loteryjka options of a ruleset's contract."""

    start: str = "7"
    ace: str = "low"
    prizes: tuple[int, ...] = (800, 500)

    @classmethod
    def of(cls, contract: Contract) -> Options:
        if contract.kind != "loteryjka":
            raise ValueError(f"{contract.key} is not a loteryjka deal")
        d = contract.data
        return cls(str(d.get("start", "7")), d.get("ace", "low"), tuple(d["prizes"]))


@dataclass(frozen=True)
class Move:
    """One turn: ``card`` is None for a pass."""

    seat: int
    card: Card | None


@dataclass(frozen=True)
class Board:
    """The layout and the turn (:func:`new_board`, :func:`play`, :func:`pass_turn`)."""

    options: Options
    table: Table
    start_rank: str | None
    turn: int | None
    hands: tuple[frozenset[Card] | None, ...]
    left: tuple[int, ...]
    laid: frozenset[Card] = frozenset()
    finished: tuple[int, ...] = ()
    history: tuple[Move, ...] = ()
    previous: Board | None = field(default=None, repr=False, compare=False)

    @property
    def over(self) -> bool:
        """True once the prizes are decided."""
        return len(self.finished) >= min(len(self.options.prizes), self.table.players - 1)

    @property
    def passes(self) -> tuple[int, ...]:
        """How many times each seat has passed."""
        return tuple(sum(1 for m in self.history if m.seat == s and m.card is None)
                     for s in range(self.table.players))

    def row(self, suit: str) -> tuple[Card, ...]:
        """The suit's cards in layout order, lowest first, as far as in the deck."""
        return tuple(c for c in (Card(r, suit) for r in ROW_ORDER[self.options.ace])
                     if c in self.table.deck)

    @property
    def rows(self) -> dict[str, tuple[Card, Card] | None]:
        """The lowest and highest card laid in each suit, None where none is."""
        laid = {suit: [c for c in self.row(suit) if c in self.laid] for suit in SUITS}
        return {suit: (cards[0], cards[-1]) if cards else None for suit, cards in laid.items()}


def _refuse(message: str, field: str = "card", **params: Any) -> InvalidPlay:
    return InvalidPlay([Problem(field, message, params)])


def _read_hands(hands: Sequence[Iterable[CardLike] | None] | None,
                table: Table) -> tuple[frozenset[Card] | None, ...]:
    if hands is None:
        return (None,) * table.players
    if len(hands) != table.players:
        raise _refuse(N_("Give a hand, or nothing, for each of the %(players)s players."),
                      "hands", players=table.players)
    read: list[frozenset[Card] | None] = []
    seen: set[Card] = set()
    for seat, hand in enumerate(hands):
        try:
            cards = None if hand is None else [parse_card(c) for c in hand]
        except ValueError:
            cards = []
        if cards is not None and (len(cards) != table.tricks or len(set(cards)) != len(cards)
                                  or any(c not in table.deck or c in seen for c in cards)):
            raise _refuse(N_("A hand is %(count)s different cards of the deck, held by one "
                             "player only."), f"hands.{seat}", count=table.tricks)
        seen.update(cards or ())
        read.append(None if cards is None else frozenset(cards))
    return tuple(read)


def new_board(contract: Contract, start_seat: int, *, start_rank: str | None = None,
              hands: Sequence[Iterable[CardLike] | None] | None = None) -> Board:
    """An empty layout; ``start_seat`` plays first. ``start_rank`` may be chosen before
    play when the start is ``"any"``; ``hands`` has a hand or None per seat."""
    options = Options.of(contract)
    table = contract.table
    if not is_int(start_seat) or not 0 <= start_seat < table.players:
        raise _refuse(N_("Choose the player who begins."), "start_seat")
    if options.start != "any":
        if start_rank not in (None, options.start):
            raise _refuse(N_("In this ruleset every row starts with a %(rank)s."),
                          "start_rank", rank=options.start)
        start_rank = options.start
    elif start_rank is not None and start_rank not in RANKS:
        raise _refuse(N_("Choose the start rank."), "start_rank")
    read = _read_hands(hands, table)
    left = tuple(table.tricks if h is None else len(h) for h in read)
    return Board(options, table, start_rank, start_seat, read, left)


def _fits(board: Board, card: Card) -> bool:
    """Whether the layout takes ``card`` now (hands aside)."""
    if card in board.laid or card not in board.table.deck:
        return False
    if board.start_rank is None:
        return True
    row = board.row(card.suit)
    laid = [i for i, c in enumerate(row) if c in board.laid]
    i = row.index(card)
    if laid:
        return i in (laid[0] - 1, laid[-1] + 1)
    start = Card(board.start_rank, card.suit)
    if start in board.table.deck:
        return card == start
    # The start card of this suit is not in the deck: its neighbours open the row.
    order = ROW_ORDER[board.options.ace]
    at = order.index(board.start_rank)
    below = [c for c in row if order.index(c.rank) < at]
    above = [c for c in row if order.index(c.rank) > at]
    return card in below[-1:] + above[:1]


def legal_cards(board: Board, hand: Iterable[CardLike] | None = None) -> list[Card]:
    """The cards that may be played now, in deck order: of ``hand``, else of the
    player's known hand, else any no other known hand holds."""
    if board.over or board.turn is None:
        return []
    known = board.hands[board.turn]
    pool = {parse_card(c) for c in hand} if hand is not None else known if known is not None \
        else set(board.table.deck).difference(*(h for h in board.hands if h is not None))
    return [c for c in board.table.deck if c in pool and _fits(board, c)]


def is_legal(board: Board, card: CardLike) -> bool:
    """Whether the current player may play ``card`` now."""
    try:
        return parse_card(card) in legal_cards(board)
    except ValueError:
        return False


def _why_not(board: Board, card: Card) -> InvalidPlay:
    if card not in board.table.deck:
        return _refuse(N_("%(card)s is not in this deck."), card=str(card))
    if card in board.laid:
        return _refuse(N_("%(card)s is already on the table."), card=str(card))
    hand = board.hands[board.turn]  # type: ignore[index]
    if hand is not None and card not in hand:
        return _refuse(N_("%(card)s is not in this player's hand."), card=str(card))
    if any(h is not None and card in h for h in board.hands):
        return _refuse(N_("%(card)s is in another player's hand."), card=str(card))
    start = Card(board.start_rank, card.suit)  # type: ignore[arg-type]
    if not any(c.suit == card.suit for c in board.laid) and start in board.table.deck:
        return _refuse(N_("A new row starts with its %(start)s."), card=str(card), start=str(start))
    fits = [str(c) for c in board.row(card.suit) if _fits(board, c)]
    return _refuse(N_("%(card)s does not fit; this row takes %(cards)s."), card=str(card),
                   cards=", ".join(fits))


def _next_turn(board: Board, seat: int, finished: tuple[int, ...]) -> int:
    n = board.table.players
    return next((s for s in ((seat + step) % n for step in range(1, n + 1)) if s not in finished),
                seat)


def play(board: Board, card: CardLike) -> Board:
    """The board after the current player plays ``card``; InvalidPlay if they may not."""
    if board.over or board.turn is None:
        raise _refuse(N_("The loteryjka is over."))
    try:
        card = parse_card(card)
    except ValueError:
        raise _refuse(N_("This is not a card: %(card)s"), card=str(card)) from None
    seat = board.turn
    if card not in legal_cards(board):
        raise _why_not(board, card)
    hands = tuple(h if h is None or s != seat else h - {card} for s, h in enumerate(board.hands))
    left = tuple(n - (s == seat) for s, n in enumerate(board.left))
    finished = board.finished + ((seat,) if left[seat] == 0 else ())
    new = replace(board, start_rank=board.start_rank or card.rank, hands=hands,
                  left=left, laid=board.laid | {card}, finished=finished,
                  history=board.history + (Move(seat, card),), previous=board)
    return replace(new, turn=None if new.over else _next_turn(board, seat, finished))


def pass_turn(board: Board) -> Board:
    """The board after the current player passes; refused while a known hand has a fit,
    and before the first card of a start ``"any"`` (any card fits then)."""
    if board.over or board.turn is None:
        raise _refuse(N_("The loteryjka is over."))
    if board.options.start == "any" and not board.laid and board.start_rank is None:
        raise _refuse(N_("The first player lays any card; passing is not allowed."), "pass")
    seat = board.turn
    fits = legal_cards(board) if board.hands[seat] is not None else []
    if fits:
        raise _refuse(N_("You must play: %(cards)s fits."), "pass", cards=", ".join(map(str, fits)))
    return replace(board, turn=_next_turn(board, seat, board.finished),
                   history=board.history + (Move(seat, None),), previous=board)


def undo(board: Board) -> Board:
    """The board before the last play or pass."""
    if board.previous is None:
        raise _refuse(N_("Nothing to undo."), "")
    return board.previous


def play_moves(board: Board, moves: Iterable[CardLike | None]) -> Board:
    """Apply cards and passes (None) in order, e.g. to rebuild a stored board."""
    for move in moves:
        board = pass_turn(board) if move is None else play(board, move)
    return board


def result(board: Board) -> dict[str, list[int]]:
    """The deal's result for :meth:`Loteryjka.validate`: ``{"order": [seats…]}``."""
    if not board.over:
        raise _refuse(N_("Not decided yet: %(places)s players must run out of cards first."),
                      "", places=min(len(board.options.prizes), board.table.players - 1))
    order = list(board.finished[:len(board.options.prizes)])
    rest = [s for s in range(board.table.players) if s not in order]
    return {"order": order + rest if len(order) < len(board.options.prizes) and len(rest) == 1
            else order}
