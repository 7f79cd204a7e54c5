"""Ratings: OpenSkill's Weng-Lin model with Plackett-Luce, one rating per rules preset, a
whole match rated at once by its places (shared places are ties). What is shown is the
conservative number mu - 3 sigma (OpenSkill's ordinal: 0 for a new player), with the count
of matches.

>>> new = [Skill(), Skill(), Skill()]
>>> after = rate(new, [1, 2, 3])
>>> [round(conservative(s), 2) for s in after]
[3.3, 1.5, -2.8]
>>> [round(s.mu, 6) for s in rate(new, [1, 1, 1])]  # every place shared: nobody gains
[25.0, 25.0, 25.0]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from openskill.models import PlackettLuce

__all__ = ["MU", "SIGMA", "Skill", "conservative", "rate"]

MU = 25.0
SIGMA = MU / 3
_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


@dataclasses.dataclass(frozen=True)
class Skill:
    """A rating: the estimate ``mu`` and its uncertainty ``sigma``."""

    mu: float = MU
    sigma: float = SIGMA


def conservative(skill: Skill) -> float:
    """What is shown: mu - 3 sigma, rounded to a tenth."""
    return round(skill.mu - 3 * skill.sigma, 1)


def rate(skills: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
    """The ratings after a match of ``skills`` (one per seat) that finished in ``places``
    (1 is first; equal places tie)."""
    if len(skills) != len(places) or len(skills) < 2:
        raise ValueError("rate one match: a place for each of two or more players")
    teams = [[_MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = _MODEL.rate(teams, ranks=[float(p) for p in places])
    return [Skill(team[0].mu, team[0].sigma) for team in rated]
