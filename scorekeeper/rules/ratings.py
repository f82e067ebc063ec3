"""Players' ratings: pure, the one home of the rating model (openskill's Plackett–Luce).

A finished game is a ranking of its seats by their totals (equal totals share a place:
:func:`.places.places`); the model moves each player's skill estimate ``mu`` and its
uncertainty ``sigma`` by how the ranking compares with what their ratings expected
(``docs/ratings.md`` says how and why this model). A new player starts at ``mu`` 25,
``sigma`` 25/3. The model keeps beside them the conservative number ``mu − 3·sigma`` (openskill's
``ordinal``). The one number a page shows (:func:`shown`) is the skill estimate ``mu`` on
a chess-like scale, 1500 for a newcomer, marked provisional (:func:`provisional`) until
the player has :data:`PROVISIONAL_GAMES` rated games: before that one game still moves it
a lot.

Only one-player-a-side games are rated (Kierki): a side of two (Tybet's pairs) is not a
player's own result.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from openskill.models import PlackettLuce

from .places import places

MU = 25.0
SIGMA = 25.0 / 3
#: How many sigmas the conservative number stands below mu.
Z = 3


#: The shown number's scale: a newcomer's ``mu`` (25) reads 1500, one unit of ``mu`` 30
#: points, so a club's usual spread of ``mu`` (about 15 to 35) reads about 1200 to 1800.
SHOWN_AT_START = 1500
SHOWN_PER_MU = 30
#: Rated games before a rating stops being provisional. With σ starting at 25/3 a game
#: at a table of four moves a newcomer's shown number by about 65 points on average; by
#: the twentieth game σ is down to about 5.7 and a game moves it by about 45.
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


@cache
def _model() -> PlackettLuce:
    return PlackettLuce(mu=MU, sigma=SIGMA)


def rate(before: Sequence[Rating], totals: Sequence[int]) -> list[Rating]:
    """Each seat's rating after one game: ``before`` its rating going in, ``totals`` its
    total (higher is better; equal totals share a place).

    >>> after = rate([Rating(), Rating(), Rating()], [30, -10, -20])
    >>> after[0].mu > after[1].mu > after[2].mu and after[2].mu < 25
    True
    >>> a, b, c = rate([Rating(), Rating(), Rating()], [10, 10, -20])
    >>> a == b and a.sigma < SIGMA
    True
    """
    if len(before) != len(totals):
        raise ValueError("a rating and a total per seat")
    return rate_places(before, places(totals))


def rate_places(before: Sequence[Rating], placed: Sequence[int]) -> list[Rating]:
    """Each seat's rating after a game in which it took place ``placed`` (1 best; equal
    places tie)."""
    model = _model()
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    rated = model.rate(teams, ranks=[float(p) for p in placed])
    return [Rating(team[0].mu, team[0].sigma) for team in rated]
