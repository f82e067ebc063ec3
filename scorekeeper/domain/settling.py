"""Settling an evening's stakes: what each person wins or pays, in the fewest transfers."""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations
from typing import Any

from ..rules import checks


def owed(people: Sequence[dict[str, Any]], stake_cents: int, per: str) -> dict[int, int]:
    """What each person wins (+) or pays (−) in cents, adding up to exactly zero.

    ``per="point"``: their points above the table's average, times the stake.
    ``per="place"``: for each game, the places they finished above the middle place
    (``above``: tied players share the places they cover), times the stake.
    """
    if per == "place":
        raw = {r["id"]: sum(r["above"], Fraction(0)) for r in people}
    else:
        raw = {r["id"]: Fraction(r["points"]) for r in people}
    mean = sum(raw.values(), Fraction(0)) / len(raw) if raw else Fraction(0)
    exact = {pid: (v - mean) * stake_cents for pid, v in raw.items()}
    # whole cents: each rounded down, the missing cents to the largest remainders
    floors = {pid: v.numerator // v.denominator for pid, v in exact.items()}
    missing = -sum(floors.values())
    for pid in sorted(exact, key=lambda pid: (-(exact[pid] - floors[pid]), pid))[:missing]:
        floors[pid] += 1
    return floors


def settle(families: Sequence[dict[str, Any]], stake_cents: int,
           per: str) -> tuple[dict[int, int], list[dict[str, Any]]]:
    """An evening's stakes, each card game on its own terms, added up per person:
    ``(total, parts)``. Per point, a family that does not ``settles_per_point`` is left
    out, its ``owed`` None."""
    total: dict[int, int] = {}
    parts = []
    for fam in families:
        amounts = None if per == "point" and not fam["settles_per_point"] \
            else owed(fam["people"], stake_cents, per)
        for pid, cents in (amounts or {}).items():
            total[pid] = total.get(pid, 0) + cents
        parts.append({"key": fam["key"], "name": fam["name"], "owed": amounts})
    return total, parts


def transfers(amounts: dict[int, int]) -> list[tuple[int, int, int]]:
    """Who pays whom how much, ``(payer, payee, cents)``, in the fewest transfers: as
    many groups whose balances add up to zero as there can be, each settled by itself.

    >>> transfers({1: 500, 2: 500, 3: -300, 4: -200, 5: -400, 6: -100})
    [(3, 1, 300), (4, 1, 200), (5, 2, 400), (6, 2, 100)]
    """
    if sum(amounts.values()) != 0:
        raise ValueError("balances must add up to zero")
    out: list[tuple[int, int, int]] = []
    for group in _zero_groups(sorted(p for p, v in amounts.items() if v), amounts):
        out += _settle_group({p: amounts[p] for p in group})
    return sorted(out)


def _zero_groups(people: list[int], amounts: dict[int, int]) -> list[list[int]]:
    """The people split into as many zero-sum groups as possible (searched whole)."""
    best: dict[frozenset[int], list[list[int]]] = {frozenset(): []}

    def split(rest: frozenset[int]) -> list[list[int]]:
        if rest in best:
            return best[rest]
        first = min(rest)
        others = sorted(rest - {first})
        result: list[list[int]] = [sorted(rest)]
        for size in range(len(others)):
            for combo in combinations(others, size):
                group = frozenset((first, *combo))
                if group != rest and sum(amounts[p] for p in group) == 0:
                    candidate = [sorted(group), *split(rest - group)]
                    if len(candidate) > len(result):
                        result = candidate
        best[rest] = result
        return result

    return split(frozenset(people))


def _settle_group(group: dict[int, int]) -> list[tuple[int, int, int]]:
    """One zero-sum group: the largest debt paid to the largest claim, in turn."""
    debts = [[-v, p] for p, v in group.items() if v < 0]  # [cents, person]
    claims = [[v, p] for p, v in group.items() if v > 0]
    out = []
    while debts and claims:
        debt, claim = (min(side, key=lambda x: (-x[0], x[1])) for side in (debts, claims))
        pay = min(debt[0], claim[0])
        out.append((debt[1], claim[1], pay))
        debt[0] -= pay
        claim[0] -= pay
        debts = [d for d in debts if d[0]]
        claims = [c for c in claims if c[0]]
    return out


def parse_stake(text: Any) -> int | None:
    """A stake typed as money (``0.05``, ``0,05``, ``2``) in cents; None if it is none.

    >>> parse_stake("0,05"), parse_stake("2"), parse_stake("1.5"), parse_stake("x")
    (5, 200, 150, None)
    >>> parse_stake("²"), parse_stake("0,٥")
    (None, None)
    """
    if not isinstance(text, str):
        return None
    whole, _, frac = text.strip().replace(",", ".").partition(".")
    if not (whole or frac) or not checks.digits(whole or "0") \
            or (frac and not checks.digits(frac)) or len(frac) > 2 or len(whole) > 6:
        return None
    return int(whole or "0") * 100 + int((frac + "00")[:2]) or None
