"""Computer players, all speaking the protocol of :class:`~ts358.players.base.Player`."""

from __future__ import annotations

from .base import Player
from .heuristic import HeuristicPlayer
from .random import RandomPlayer

__all__ = ["Player", "RandomPlayer", "HeuristicPlayer", "LEVELS", "make_player"]

LEVELS = ("easy", "medium")


def make_player(level: str, seed: int | None = None) -> Player:
    """The computer player of a level: ``easy`` random legal, ``medium`` rule of thumb."""
    if level == "easy":
        return RandomPlayer(seed)
    if level == "medium":
        return HeuristicPlayer()
    raise ValueError(f"not a level: {level!r} (one of {', '.join(LEVELS)})")
