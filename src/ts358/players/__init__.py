"""Computer players, all speaking the protocol of :class:`~ts358.players.base.Player`."""

from __future__ import annotations

from ts358.players.advice import Advice, Basis
from ts358.players.base import Player
from ts358.players.heuristic import HeuristicPlayer
from ts358.players.random import RandomPlayer
from ts358.players.sampling import Effort, PlayEstimate, SamplingPlayer, advise

__all__ = [
    "LEVELS",
    "Advice",
    "Basis",
    "Effort",
    "HeuristicPlayer",
    "PlayEstimate",
    "Player",
    "RandomPlayer",
    "SamplingPlayer",
    "advise",
    "make_player",
]

LEVELS = ("easy", "medium", "hard")


def make_player(level: str, seed: int | None = None, *, threads: int = 1) -> Player:
    """The computer player of a level.

    ``easy`` plays random legal cards; ``medium`` plays by rule of thumb; ``hard`` samples
    the hidden cards and solves each layout double dummy (:class:`SamplingPlayer`), on
    ``threads`` threads (its decisions depend on the thread count; the other levels use
    none and ignore it). One thread by default: the arena and ``ts358 analyze`` run one
    player per worker process, and the arena's measurements stay comparable.
    """
    if threads < 1:
        raise ValueError(f"threads must be at least 1, not {threads!r}")
    if level == "easy":
        return RandomPlayer(seed)
    if level == "medium":
        return HeuristicPlayer()
    if level == "hard":
        return SamplingPlayer(seed, threads=threads)
    raise ValueError(f"not a level: {level!r} (one of {', '.join(LEVELS)})")
