"""Computer players, all speaking the protocol of :class:`~ts358.players.base.Player`."""

from __future__ import annotations

from ts358.players.base import Player
from ts358.players.heuristic import HeuristicPlayer
from ts358.players.random import RandomPlayer
from ts358.players.sampling import Effort, PlayEstimate, SamplingPlayer

__all__ = [
    "LEVELS",
    "Effort",
    "HeuristicPlayer",
    "PlayEstimate",
    "Player",
    "RandomPlayer",
    "SamplingPlayer",
    "make_player",
]

LEVELS = ("easy", "medium", "hard")


def make_player(level: str, seed: int | None = None) -> Player:
    """The computer player of a level.

    ``easy`` plays random legal cards; ``medium`` plays by rule of thumb; ``hard`` samples
    the hidden cards and solves each layout double dummy (:class:`SamplingPlayer`).
    """
    if level == "easy":
        return RandomPlayer(seed)
    if level == "medium":
        return HeuristicPlayer()
    if level == "hard":
        return SamplingPlayer(seed)
    raise ValueError(f"not a level: {level!r} (one of {', '.join(LEVELS)})")
