"""Kierki's charts: each player's running total, and the points of each kind of deal."""
from __future__ import annotations

from typing import Any

from ....common.charts import BarChart, LineChart, Series
from ....common.i18n import gettext
from ..words import GROUP_NAMES, group_of


def charts(game: Any) -> list[LineChart | BarChart]:
    """The running totals after each deal, and what each player scored in each kind of
    deal (in the order the schedule first plays them)."""
    scored = game.state.scored
    if not scored:
        return []
    players = game.players
    totals = LineChart(
        title=gettext("Running totals"),
        desc=gettext("Each player's total after each deal, from 0 before the first."),
        series=tuple(Series(p, tuple(s.totals[seat] for s in scored))
                     for seat, p in enumerate(players)),
        x_labels=tuple(str(s.deal.number) for s in scored),
        x_heading=gettext("Deal"))
    sums: dict[str, list[int]] = {}
    for s in scored:
        row = sums.setdefault(group_of(s.deal.contract), [0] * len(players))
        for seat, points in enumerate(s.points):
            row[seat] += points
    kinds = BarChart(
        title=gettext("Points by kind of deal"),
        desc=gettext("What each player scored in the negative deals together, the robber, "
                     "the trump deals and the loteryjka."),
        groups=tuple(str(GROUP_NAMES.get(k, k)) for k in sums),
        series=tuple(players),
        values=tuple(tuple(row) for row in sums.values()),
        group_heading=gettext("Kind of deal"))
    return [totals, kinds]
