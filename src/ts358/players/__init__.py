"""Computer players, all speaking the protocol of :class:`~ts358.players.base.Player`."""

from __future__ import annotations

from ts358.players.advice import Advice, Basis
from ts358.players.base import Player
from ts358.players.heuristic import HeuristicPlayer
from ts358.players.random import RandomPlayer
from ts358.players.sampling import Effort, PlayEstimate, SamplingPlayer, advise
from ts358.players.spec import LEVELS, PlayerSpec, make_player

__all__ = [
    "LEVELS",
    "Advice",
    "Basis",
    "Effort",
    "HeuristicPlayer",
    "PlayEstimate",
    "Player",
    "PlayerSpec",
    "RandomPlayer",
    "SamplingPlayer",
    "advise",
    "make_player",
]
