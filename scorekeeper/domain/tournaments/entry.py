"""What a new tournament's form must hold: its name, players, rounds, rulesets, scoring
and seed, and whether its rulesets may be ranked by points."""
from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from sqlite_utils import Database

from ...rules import checks
from ...rules.errors import N_, InvalidInput, Problem, UnknownRuleset
from ...rules.standings import SCORINGS
from .. import variants

MIN_PLAYERS = 8
#: The most players a tournament takes: 1,000 tables of four.
MAX_PLAYERS = 4000
MAX_ROUNDS = 20
NAME_MAX = 80
SEED_MAX = 40  # a draw's seed, in characters
SIZES = (3, 4, 5)

#: The last line of the refusal to rank by points rulesets that do not give every player
#: the same points on average.
UNFAIR = N_("Ranking by points adds up totals from different tables, so it is fair only "
            "when every table's games add up to the same points a player. Rank by places "
            "instead (every table hands out 3 to 0), or choose rules that match.")


def _name(value: Any) -> str:
    name = checks.clean_name(value)
    if not name:
        raise InvalidInput([Problem("name", N_("Give the tournament a name."))])
    if len(name) > NAME_MAX:
        raise InvalidInput([Problem("name", N_("At most %(max)s characters."),
                                    {"max": NAME_MAX})])
    return name


def _players(given: Any) -> list[str]:
    """The players' names, each present and different."""
    if isinstance(given, str):
        given = given.splitlines()
    if not isinstance(given, (list, tuple)) or any(not isinstance(n, str) for n in given):
        raise InvalidInput([Problem("players", N_("Enter the players' names."))])
    names = [n for n in map(checks.clean_name, given) if n]
    problems = []
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        problems.append(Problem("players", N_(
            "A tournament needs %(min)s to %(max)s players; %(count)s are entered."),
            {"min": MIN_PLAYERS, "max": MAX_PLAYERS, "count": len(names)}))
    seen: dict[str, str] = {}
    for name in names:
        if len(name) > checks.NAME_MAX:
            problems.append(Problem("players", N_("%(name)s: at most %(max)s characters."),
                                    {"name": name[:24] + "…", "max": checks.NAME_MAX}))
        key = checks.person_key(name)
        if key in seen:  # named as first typed
            problems.append(Problem("players", N_("%(name)s is entered twice."),
                                    {"name": seen[key]}))
        seen.setdefault(key, name)
    if problems:
        raise InvalidInput(problems)
    return names


def _rounds(value: Any) -> int:
    n = checks.whole_number(value)
    if n is None or not 1 <= n <= MAX_ROUNDS:
        raise InvalidInput([Problem("rounds", N_("Choose 1 to %(max)s rounds."),
                                    {"max": MAX_ROUNDS})])
    return n


def _rulesets(db: Database, given: Any) -> dict[str, str]:
    """The ruleset per table size: rulesets of single players for as many as the size."""
    chosen: dict[str, str] = {}
    for size, rid in given.items() if isinstance(given, Mapping) else ():
        if rid in (None, ""):
            continue
        if str(size) not in map(str, SIZES):
            raise InvalidInput([Problem("rulesets", N_(
                "Tables are of three, four or five players."))])
        try:
            family, rules = variants.find(db, rid)
        except UnknownRuleset:
            raise InvalidInput([Problem(f"rulesets.{size}", N_("Choose a ruleset."))]) from None
        if any(len(side) != 1 for side in family.sides(rules)):
            raise InvalidInput([Problem(f"rulesets.{size}", N_(
                "A tournament draws players one by one; a game of pairs cannot be drawn "
                "yet."))])
        if rules.players != int(size):
            raise InvalidInput([Problem(f"rulesets.{size}", N_(
                "This ruleset is for %(players)s players, not %(size)s."),
                {"players": rules.players, "size": size})])
        chosen[str(size)] = str(rid)
    if not chosen:
        raise InvalidInput([Problem("rulesets", N_("Choose a ruleset for tables of four."))])
    return dict(sorted(chosen.items()))


def per_seat(rules: Any) -> Fraction | None:
    """What a game of ``rules`` gives each player on average when every game adds up to
    the same total; None when the total depends on the play or is not known."""
    total = getattr(rules, "expected_sum", None)
    deals = getattr(rules, "deals", None)
    if not isinstance(total, int) or deals is None:
        return None
    for contract in deals():
        data = getattr(contract, "data", {})
        if any(m != 1 for m in data.get("multipliers", ())) or data.get("all_tricks"):
            return None
    return Fraction(total, rules.players)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "0"


def _fair_by_points(db: Database, rulesets: Mapping[str, str]) -> list[Problem]:
    """Problems with ranking by points: every ruleset's games must add up to one fixed
    total, the same per player at every table size."""
    found = {size: variants.find(db, rid)[1] for size, rid in rulesets.items()}
    shares = {size: per_seat(rules) for size, rules in found.items()}
    if None not in shares.values() and len(set(shares.values())) <= 1:
        return []
    problems = []
    for size, share in sorted(shares.items()):
        params = {"size": int(size), "points": getattr(found[size], "expected_sum", 0)}
        if share is None:
            problems.append(Problem("scoring", N_(
                "Tables of %(size)s: with these rules what a game adds up to depends on "
                "the play (multipliers, or the others paying when one player takes every "
                "trick)."), {"size": int(size)}))
        elif share.denominator == 1:
            problems.append(Problem("scoring", N_(
                "Tables of %(size)s: a game of these rules adds up to %(points)s, "
                "%(each)s a player."), {**params, "each": _signed(int(share))}))
        else:
            problems.append(Problem("scoring", N_(
                "Tables of %(size)s: a game of these rules adds up to %(points)s."), params))
    return [*problems, Problem("scoring", UNFAIR)]


def checked(db: Database, name: Any, players: Any, rounds: Any, rulesets: Any,
            scoring: Any, seed: Any) -> tuple[str, list[str], int, dict[str, str]]:
    """The form's name, players, rounds and rulesets, checked; ``InvalidInput`` names
    every problem of the form at once."""
    problems: list[Problem] = []
    found: dict[str, Any] = {}
    for key, check in (("name", lambda: _name(name)), ("players", lambda: _players(players)),
                       ("rounds", lambda: _rounds(rounds)),
                       ("rulesets", lambda: _rulesets(db, rulesets))):
        try:
            found[key] = check()
        except InvalidInput as e:
            problems.extend(e.problems)
    if scoring not in SCORINGS:
        problems.append(Problem("scoring", N_("Rank by points or by places.")))
    elif scoring == "points" and "rulesets" in found:
        problems.extend(_fair_by_points(db, found["rulesets"]))
    if seed is not None and (not isinstance(seed, str) or not 0 < len(seed) <= SEED_MAX):
        problems.append(Problem("seed", N_("A seed is a word of up to 40 characters.")))
    if problems:
        raise InvalidInput(problems)
    return found["name"], found["players"], found["rounds"], found["rulesets"]
