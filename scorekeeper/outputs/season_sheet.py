"""A club's season table as data, JSON and the rows of its CSV and ``.xlsx``; no game id,
code or token in any of them."""
from __future__ import annotations

from typing import Any

from ..domain.seasons import Line, Season
from .tournament_sheet import points


def to_json(season: Season, lines: list[Line]) -> dict[str, Any]:
    """The season and its table, best first: what ``GET /api/clubs/<id>/season`` answers
    (``shown`` the rating as the pages show it, ``provisional`` and ``rated_games``
    beside it; ``rating`` the model's conservative number, ``mu − 3·sigma``)."""
    return {"season": season.json(), "standings": [line.json() for line in lines]}


def standings(lines: list[Line], labels: dict[str, str]) -> tuple[list[str], list[list[Any]]]:
    """The season files' header in the reader's words (``labels``, and ``yes`` for a provisional
    rating) and its rows: the rating as shown, then the model's mu and sigma."""
    header = [labels[k] for k in ("rank", "player", "points", "nights", "games", "wins",
                                  "rating", "provisional", "rated", "mu", "sigma")]
    rows = [[line.rank, line.name, points(line.points), line.nights, line.games, line.wins,
             "" if line.shown is None else line.shown,
             labels["yes"] if line.shown is not None and line.provisional else "",
             line.rated,
             "" if line.mu is None else round(line.mu, 2),
             "" if line.sigma is None else round(line.sigma, 2)] for line in lines]
    return header, rows
