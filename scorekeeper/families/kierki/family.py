"""Kierki as a game family: its rules and flow for the shared app (its pages are
:mod:`.web`'s)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...common.i18n import gettext
from ...common.i18n import lazy_gettext as _l
from ..base import Family
from . import words
from .rules import Ruleset, advance, document, from_data, registry, replay, schedule, summary
from .rules.game import DealScore, GameState
from .rules.schedule import Deal

KEY = "kierki"


class Kierki(Family):
    """Kierki (Polish Hearts): a fixed schedule of negative and positive deals."""

    key = KEY
    title = _l("Kierki")
    settles_per_point = True
    documents = document  # house variants: their JSON Schema and balance check

    # -- rulesets -------------------------------------------------------------
    def rulesets(self) -> Mapping[str, Ruleset]:
        return registry()  # looked up when called: a test gives the module another one

    load_rules = staticmethod(from_data)  # RulesetError, naming the fault and its field

    def settings(self, rules: Ruleset, given: Mapping[str, Any]) -> dict[str, Any]:
        return {}

    def deals_total(self, rules: Ruleset) -> int:
        return len(rules.schedule)

    # -- the game -------------------------------------------------------------
    def fold(self, rules: Ruleset, settings: Mapping[str, Any],
             results: Sequence[dict[str, Any]], checked: bool = True) -> GameState:
        return replay(rules, settings["first_dealer"], results, checked)

    advance = staticmethod(advance)

    def deal(self, rules: Ruleset, settings: Mapping[str, Any], number: int) -> Deal:
        return schedule(rules, settings["first_dealer"])[number - 1]

    def validate(self, rules: Ruleset, deal: Deal, raw: dict[str, Any]) -> dict[str, Any]:
        return deal.contract.validate(raw, deal.dealer)

    # -- exports and the API ----------------------------------------------------
    def game_json(self, game: Any) -> dict[str, Any]:
        schedule = [{"number": d.number, "contract": d.key, "kind": d.contract.kind,
                     "name": words.contract_name(d.contract), "dealer": d.dealer,
                     "leader": d.leader, "expected_sum": d.contract.expected_sum,
                     "fields": [{"name": f.name, "type": f.type, "total": f.total,
                                 "labels": list(f.labels), "distinct": f.distinct}
                                for f in d.contract.fields()]}
                    for d in game.state.deals]
        return {"ruleset": {"expected_sum": game.rules.expected_sum}, "schedule": schedule,
                **summary(game.state)}

    def deal_json(self, game: Any, scored: DealScore) -> dict[str, Any]:
        return {"sum": scored.sum, "expected_sum": scored.expected_sum}

    # -- players across games --------------------------------------------------
    def sides(self, rules: Ruleset) -> list[list[int]]:
        """Every player for themselves."""
        return [[seat] for seat in range(rules.players)]

    def seat_stats(self, game: Any, seat: int) -> dict[str, Any]:
        """:meth:`seat_numbers`, named."""
        numbers = self.seat_numbers(game, seat)
        names = {s.deal.contract.key: s.deal.contract for s in game.state.scored}
        return {"kinds": {k: (words.contract_name(names[k]), points, deals,
                              (group, str(words.GROUP_NAMES.get(group, group))))
                          for k, (points, deals, group) in numbers["kinds"].items()},
                "counts": {k: (words.STAT_LABELS[k], n)
                           for k, n in numbers["counts"].items()}}

    def seat_numbers(self, game: Any, seat: int) -> dict[str, Any]:
        kinds: dict[str, list[Any]] = {}
        hearts = caught = races = 0
        for s in game.state.scored:
            c, r = s.deal.contract, s.result
            kind = kinds.setdefault(c.key, [0, 0, words.group_of(c)])
            kind[0] += s.points[seat]
            kind[1] += 1
            if isinstance(r.get("hearts"), list):
                hearts += r["hearts"][seat] or 0
            caught += r.get("king_of_hearts") == seat
            races += c.kind == "loteryjka" and bool(r.get("order")) and r["order"][0] == seat
        return {"kinds": {k: tuple(v) for k, v in kinds.items()},
                "counts": {"hearts": hearts, "king_of_hearts": caught, "loteryjka": races}}

    def ruleset_json(self, rules: Ruleset) -> dict[str, Any]:
        return {"deals": len(rules.schedule), "expected_sum": rules.expected_sum,
                "schedule": [{"contract": c.key, "name": words.contract_name(c),
                              "expected_sum": c.expected_sum} for c in rules.deals()]}

    def csv(self, game: Any) -> tuple[list[str], list[list[Any]]]:
        """One row per deal: points and running totals, the sum and its check."""
        players, state = game.players, game.state
        header = ["#", gettext("Deal"), gettext("Dealer"), *players,
                  *[gettext("%(name)s (total)", name=p) for p in players],
                  gettext("Sum"), gettext("Expected sum"), gettext("Detail")]
        rows: list[list[Any]] = [
            [s.deal.number, words.contract_name(s.deal.contract), players[s.deal.dealer],
             *s.points, *s.totals, s.sum, s.expected_sum,
             words.sheet_detail(s.deal.contract, s.result, players)]
            for s in state.scored]
        rows.append(["", gettext("Total"), "", *state.totals, *state.totals, state.total_sum,
                     state.expected_sum_so_far, ""])
        return header, rows

