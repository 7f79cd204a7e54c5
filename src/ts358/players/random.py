"""The random player: a uniformly random legal decision, reproducible from a seed."""

from __future__ import annotations

import random as _random

from ts358.cards import Card, CardSet
from ts358.players.base import Player
from ts358.rules import Contract
from ts358.view import SeatView

__all__ = ["RandomPlayer"]


class RandomPlayer(Player):
    """Chooses uniformly among the allowed answers (stopping counts as one when giving)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = _random.Random(seed)

    def reseed(self, key: str) -> None:
        self.rng.seed(key)

    def choose_game(self, view: SeatView) -> Contract:
        return self.rng.choice(sorted(view.available[view.seat]))

    def give(self, view: SeatView) -> Card | None:
        choices: list[Card | None] = [*view.options, None]
        return self.rng.choice(choices)

    def choose_return(self, view: SeatView) -> Card:
        return self.rng.choice(list(view.options))

    def discard(self, view: SeatView) -> CardSet:
        return CardSet(self.rng.sample(list(view.options), 4))

    def play(self, view: SeatView) -> Card:
        return self.rng.choice(list(view.options))
