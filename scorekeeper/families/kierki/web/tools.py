"""Table tools: the trick checker and the loteryjka board. Both are plain GET pages whose
whole state is in the address (cards played, moves made), so they work without
JavaScript, survive a reload and can be shared; the rules do every check."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for

from ....common.i18n import gettext, localized, signed
from ....rules import checks
from ....rules.errors import UnknownRuleset
from ...base import Game
from ..rules import (
    InvalidDeal,
    Ruleset,
    check_follow,
    check_lead,
    check_trick,
    legal_cards,
    new_board,
    pass_turn,
    play,
    registry,
)
from ..rules.cards import SUITS, Card
from ..rules.loteryjka import result as loteryjka_result
from ..rules.trick import read_card

KEY = "kierki"

MAX_MOVES = 400  # every card, and a pass by each player between cards, is far fewer


def _cards(text: str | None, limit: int = 60) -> list[str]:
    """A comma-separated list from the address, cut to ``limit`` items."""
    return [c for c in (text or "").upper().split(",") if c][:limit]


def _played(text: str | None, ruleset: Ruleset) -> tuple[list[Card], list[str]]:
    """The cards of the address up to the first that is not a card of this deck (or is
    there twice), and what is wrong with it."""
    cards: list[Card] = []
    for raw in _cards(text):
        card, problem = read_card(raw, ruleset.table, cards)
        if problem:
            return cards, [localized(problem)]
        cards.append(card)
    return cards, []


def _deck_rows(ruleset: Ruleset) -> list[tuple[str, list[Card]]]:
    deck = ruleset.table.deck
    return [(s, sorted((c for c in deck if c.suit == s), key=lambda c: -c.value)) for s in SUITS]


# -- trick checker -------------------------------------------------------------

def _trick_page(ruleset: Ruleset, players: list[str], game: Game | None,
                default_contract: str, default_leader: int):
    args = request.args
    keys = [k for k in dict.fromkeys(ruleset.schedule) if ruleset.contract(k).kind != "loteryjka"]
    key = args.get("contract") if args.get("contract") in keys else default_contract
    contract = ruleset.contract(key)
    n = ruleset.players
    leader = checks.whole_number(args.get("leader"))
    if leader is None or not 0 <= leader < n:
        leader = default_leader
    trick = checks.whole_number(args.get("trick"))
    # "no trumps" where the deal form offers it (a trump deal with ``no_trump``)
    suits = SUITS + (("NT",) if contract.kind == "trumps" and contract.data.get("no_trump") else ())
    trump = args.get("trump") if args.get("trump") in suits else None
    cards, errors = _played(args.get("cards"), ruleset)
    params = {"contract": key, "leader": leader, "trick": trick or "", "trump": trump or "",
              **(request.view_args or {})}
    if "ruleset" in args and game is None:
        params["ruleset"] = ruleset.id

    def link(cards_list: list[Card], **changes: Any) -> str:
        return url_for(request.endpoint, **{**params, **changes,
                                            "cards": ",".join(map(str, cards_list))})

    status = 400 if errors else 200  # an address no button makes
    outcome, lead, follows = None, None, []
    if cards:
        try:
            lead = check_lead(contract, cards[0])
        except (InvalidDeal, ValueError):
            pass
    if len(cards) == n:
        try:
            outcome = check_trick(contract, leader, cards, trump=trump, trick=trick)
        except InvalidDeal as e:
            errors = [localized(p) for p in e.problems]
        else:
            led = outcome.plays[0][1]
            # each card not of the suit led, and under "must beat" every card, judged
            # against the cards played before it (what it had to beat, or trump)
            follows = [(seat, card, check_follow(contract, led, card, played=cards[:i],
                                                 trump=trump))
                       for i, (seat, card) in enumerate(outcome.plays[1:], start=1)
                       if card.suit != led.suit or contract.must_beat]
    elif len(cards) > n:
        errors = [gettext("A trick has one card from each of the %(players)s players.", players=n)]
    return render_template(
        "kierki/trick.html", ruleset=ruleset, game=game,
        rulesets=[*registry().values(), *([] if ruleset.id in registry() else [ruleset])],
        players=players, contract=contract, keys=keys, key=key, leader=leader, trick=trick,
        trump=trump, cards=cards, played=set(map(str, cards)), next_seat=(leader + len(cards)) % n,
        outcome=outcome,
        lead=lead, follows=follows, errors=errors, link=link, deck_rows=_deck_rows(ruleset),
        full=len(cards) >= n, signed=signed), status


def blueprint(load_game: Callable[[str], Game],
              find_rules: Callable[[str], tuple[Any, Any]]) -> Blueprint:
    """The table tools' pages; ``load_game`` loads a stored game by id, ``find_rules``
    finds (family, rules) by a ruleset id, a house variant's too."""
    bp = Blueprint("tools", __name__)

    def load(gid: str) -> Game:
        game = load_game(gid)
        if game.family.key != KEY:
            abort(404)  # the table tools are Kierki's
        return game

    @bp.get("/tools/trick")
    def trick_checker():
        rid = request.args.get("ruleset") or "standard-4"
        try:
            ruleset = find_rules(rid)[1]
            if not isinstance(ruleset, Ruleset):
                raise UnknownRuleset(rid)  # Tybet has no tricks to check here
        except UnknownRuleset:
            # never another ruleset in its place: the tricks would be checked wrongly
            return render_template("kierki/trick_unknown.html", message=gettext(
                "There are no Kierki rules “%(id)s” here (a house variant may have been "
                "deleted), so no trick is checked by them. Choose the rules on the trick "
                "checker's page.", id=rid[:80])), 404
        return _trick_page(ruleset, [gettext("Player %(n)s", n=i + 1)
                                     for i in range(ruleset.players)], None, ruleset.schedule[0], 0)

    @bp.get("/games/<gid>/trick")
    def game_trick(gid: str):
        game = load(gid)
        deal = game.state.current or game.state.deals[-1]
        key = deal.key if deal.contract.kind != "loteryjka" else game.rules.schedule[0]
        return _trick_page(game.rules, game.players, game, key, deal.leader)

    @bp.get("/games/<gid>/loteryjka")
    def loteryjka(gid: str):
        return _loteryjka_page(load(gid))

    return bp


# -- loteryjka board --------------------------------------------------------

def _board_from(contract, leader: int, rank: str | None, moves: list[str]):
    """Replay the moves of the address up to the first that the rules refuse."""
    board = new_board(contract, leader, start_rank=rank)
    for i, move in enumerate(moves):
        try:
            board = pass_turn(board) if move == "-" else play(board, move)
        except InvalidDeal as e:
            return board, moves[:i], [localized(p) for p in e.problems]
    return board, moves, []


def _loteryjka_page(game: Game):
    deals = [d for d in game.state.deals if d.contract.kind == "loteryjka"]
    if not deals:
        abort(404)
    current = game.state.current
    deal = current if current in deals else deals[0]
    contract = deal.contract
    rank = request.args.get("rank") or None
    moves = _cards(request.args.get("moves"), limit=MAX_MOVES)
    try:
        board, moves, errors = _board_from(contract, deal.leader, rank, moves)
    except InvalidDeal as e:
        board, moves, errors = new_board(contract, deal.leader), [], \
            [localized(p) for p in e.problems]
        rank = None
    me = checks.whole_number(request.args.get("me"))
    hand = _cards(request.args.get("hand"))
    base = {"gid": game.id, "rank": rank or "", "me": "" if me is None else me,
            "hand": ",".join(hand)}

    def link(new_moves: list[str], **changes: Any) -> str:
        return url_for("tools.loteryjka", **{**base, **changes, "moves": ",".join(new_moves)})

    action = None
    if "play" in request.args and board.turn is not None:
        action = request.args["play"].upper()
    elif "pass" in request.args and board.turn is not None:
        action = "-"
    elif "undo" in request.args and moves:
        return redirect(link(moves[:-1]))
    if action is not None:
        try:
            pass_turn(board) if action == "-" else play(board, action)
        except InvalidDeal as e:
            errors += [localized(p) for p in e.problems]
        else:
            return redirect(link(moves + [action]))

    my_hand = [card for c in hand if _valid_card(c, game.rules)
               and (card := Card.parse(c)) not in board.laid]
    my_legal = legal_cards(board, my_hand) if me is not None and my_hand else None
    result = loteryjka_result(board) if board.over else None
    can_record = result is not None and current is not None and current.number == deal.number
    return render_template(
        "kierki/loteryjka.html", game=game, deal=deal, board=board, moves=moves, errors=errors,
        link=link, legal=set(legal_cards(board)) if board.turn is not None else set(),
        deck_rows=_deck_rows(game.rules), me=me, hand=hand, my_hand=my_hand,
        my_legal=my_legal, result=result, can_record=can_record, rank=rank,
        hand_size=len(game.rules.table.deck) // len(game.players))


def _valid_card(text: str, ruleset: Ruleset) -> bool:
    try:
        return Card.parse(text) in ruleset.table.deck
    except ValueError:
        return False
