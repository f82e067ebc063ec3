"""The partnership game's chart: each pair's running total on its way to the target."""
from __future__ import annotations

from typing import Any

from ....common.charts import LineChart, Series, plain
from ....common.i18n import gettext
from ..words import pair_names


def charts(game: Any) -> list[LineChart]:
    state = game.state
    if not state.scored:
        return []
    return [LineChart(
        title=gettext("Running totals"),
        desc=gettext("Each pair's total after each deal, from 0 up to %(target)s.",
                     target=state.target),
        series=tuple(Series(name, tuple(s.totals[pair] for s in state.scored))
                     for pair, name in enumerate(pair_names(game.players))),
        x_labels=tuple(str(s.deal.number) for s in state.scored),
        x_heading=gettext("Deal"), fmt=plain)]
