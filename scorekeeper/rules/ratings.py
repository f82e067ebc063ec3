"""Players' ratings: pure, the one home of the rating model (openskill's Plackett–Luce).

A finished game ranks its seats by their totals; the model moves each player's skill
``mu`` and uncertainty ``sigma`` (``docs/ratings.md``). A page shows ``mu`` on a
chess-like scale (:func:`shown`), provisional for the first :data:`PROVISIONAL_GAMES`
games. Only one-player-a-side games (Kierki) are rated.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MU = 25.0
SIGMA = 25.0 / 3
#: How many sigmas the conservative number stands below mu.
Z = 3


#: The shown number's scale: a newcomer's ``mu`` reads 1500, one unit of ``mu`` 30 points.
SHOWN_AT_START = 1500
SHOWN_PER_MU = 30
#: Rated games before a rating stops being provisional.
PROVISIONAL_GAMES = 20


def shown(mu: float) -> int:
    """The number a page shows for skill ``mu``: whole, on the chess-like scale.

    >>> shown(MU), shown(27.8), shown(20.96)
    (1500, 1584, 1379)
    """
    return round(SHOWN_AT_START + SHOWN_PER_MU * (mu - MU))


def provisional(games: int) -> bool:
    """Whether a rating of ``games`` rated games is still provisional.

    >>> provisional(19), provisional(20)
    (True, False)
    """
    return games < PROVISIONAL_GAMES


@dataclass(frozen=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def conservative(self) -> float:
        """``mu − 3·sigma``: the number a table ranks by.

        >>> Rating().conservative
        0.0
        """
        return self.mu - Z * self.sigma


_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


def rate_places(before: Sequence[Rating], placed: Sequence[int]) -> list[Rating]:
    """Each seat's rating after a game in which it took place ``placed`` (1 best; equal
    places tie).

    >>> after = rate_places([Rating(), Rating(), Rating()], [1, 2, 3])
    >>> after[0].mu > after[1].mu > after[2].mu and after[2].mu < 25
    True
    >>> a, b, c = rate_places([Rating(), Rating(), Rating()], [1, 1, 3])
    >>> a == b and a.sigma < SIGMA
    True
    """
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    return [Rating(team[0].mu, team[0].sigma)
            for team in _MODEL.rate(teams, ranks=[float(p) for p in placed])]
