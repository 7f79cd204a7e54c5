"""The sampling player ("hard"): perfect-information Monte Carlo over the double-dummy solver.

For each decision it deals the cards its seat cannot see in several ways that fit everything
the seat knows (:mod:`ts358.sampling`), solves each layout exactly with the Cython solver as
if all cards were visible, and takes the choice with the best average score (tricks minus
obligation, or limit minus tricks in no-tricks). The solver values each layout in the
paranoid model: this seat alone against the other two.

- Play: the solver's per-card values for this seat, averaged over the layouts.
- Game choice, from the first six cards: for each game still available, the chooser's value
  after taking the talon and discarding by rule of thumb, averaged over the layouts.
- Discard: a few candidate discards (rule-of-thumb variants) scored the same way.
- Exchange: the rule of thumb (give low cards of suits without the ace; for a trump
  received, return the lowest side card): the solver adds little there and the exchange
  happens before most of the deal is known.

Decisions are a function of the seed and the view only: the layouts are drawn from a random
generator seeded by the seed and the decision's place in the match, so the same view always
gives the same answer, whatever the hidden cards really are.

Its known flaw is *strategy fusion*: each layout is solved as if the player would know the
hidden cards later. It still plays far better than the rule of thumb.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Iterable

from .. import _core358
from ..cards import Card, CardSet
from ..rules import Contract, Role
from ..sampling import World, role_hands, sample_worlds
from ..view import DecisionKind, SeatView
from .base import Player
from .heuristic import HeuristicPlayer

__all__ = ["SamplingPlayer"]


@dataclasses.dataclass(frozen=True)
class Effort:
    """How many layouts each kind of decision samples, by cards left in the seat's hand."""

    play_early: int = 12  # more than `late_from` cards in hand
    play_late: int = 24
    late_from: int = 9
    choose: int = 6
    discard: int = 6
    discard_candidates: int = 6


class SamplingPlayer(Player):
    name = "sampling"

    def __init__(self, seed: int | None = 0, effort: Effort | None = None, tt_mb: int = 16) -> None:
        self.seed = 0 if seed is None else seed
        self.effort = effort or Effort()
        self._solver = _core358.Solver(tt_mb)
        self._rule_of_thumb = HeuristicPlayer()

    # ------------------------------------------------------------------ helpers

    def _rng(self, view: SeatView) -> random.Random:
        # Integers hash the same in every process, so this is reproducible across runs.
        key = (self.seed, view.seat, view.deal_number, len(view.tricks), len(view.trick), str(view.kind))
        return random.Random(str(key))

    def _worlds(self, view: SeatView, count: int) -> list[World]:
        return list(sample_worlds(view, count, self._rng(view)))

    def _chooser_value(self, view: SeatView, world: World, hand: CardSet, game: Contract) -> int:
        """The chooser's score with ``hand`` (after the discard) against ``world``'s others."""
        hands = list(world.hands)
        hands[view.chooser] = hand
        masks = tuple(hands[view.seat_of(role)].mask for role in Role)
        tricks = self._solver.value(masks, 0, [], int(game), int(view.rules.void), 0)
        return Role.CHOOSER.score(game, tricks)

    # ------------------------------------------------------------------ decisions

    def play_scores(self, view: SeatView) -> dict[Card, float]:
        """The expected deal score of each legal card (``view.options``), averaged over the
        sampled layouts; what ``play`` maximises and what a hint shows."""
        assert view.game is not None and view.kind is DecisionKind.PLAY
        effort = self.effort
        count = effort.play_late if len(view.hand) <= effort.late_from else effort.play_early
        role = view.role
        leader = view.leader if view.leader is not None else view.seat
        trick = [c.id for c in view.trick]
        taken = view.taken[view.seat]
        totals = {card.id: 0 for card in view.options}
        worlds = self._worlds(view, count)
        for world in worlds:
            values = self._solver.move_values(
                role_hands(view, world), int(view.role_of(leader)), trick, int(view.game),
                int(view.rules.void),
            )
            for card_id, tricks in values:
                totals[card_id] += role.score(view.game, taken + tricks)
        return {Card.from_id(i): total / len(worlds) for i, total in totals.items()}

    def play(self, view: SeatView) -> Card:
        options = list(view.options)
        if len(options) == 1:
            return options[0]
        scores = self.play_scores(view)
        # Best average score; among equals the lowest card, which gives least away.
        return max(options, key=lambda c: (scores[c], -c.rank, -c.id))

    def choose_game(self, view: SeatView) -> Contract:
        games = sorted(view.available[view.seat])
        if len(games) == 1:
            return games[0]
        worlds = self._worlds(view, self.effort.choose)
        totals = {game: 0.0 for game in games}
        for world in worlds:
            full = world.hands[view.seat] | world.pile  # own sixteen plus the talon
            for game in games:
                hand = full - self._rule_of_thumb_discard(view, full, game)
                totals[game] += self._chooser_value(view, world, hand, game)
        return max(games, key=lambda g: (totals[g], -g.value))

    def discard(self, view: SeatView) -> CardSet:
        assert view.game is not None
        candidates = list(self._discard_candidates(view))
        if len(candidates) == 1:
            return candidates[0]
        worlds = self._worlds(view, self.effort.discard)
        totals = [0.0] * len(candidates)
        for world in worlds:
            for index, candidate in enumerate(candidates):
                totals[index] += self._chooser_value(view, world, view.options - candidate, view.game)
        return candidates[max(range(len(candidates)), key=lambda i: (totals[i], -i))]

    def give(self, view: SeatView) -> Card | None:
        return self._rule_of_thumb.give(view)

    def choose_return(self, view: SeatView) -> Card:
        return self._rule_of_thumb.choose_return(view)

    # ------------------------------------------------------------------ discards

    def _rule_of_thumb_discard(self, view: SeatView, hand: CardSet, game: Contract) -> CardSet:
        as_chooser = view._replace(hand=hand, options=hand, game=game, kind=DecisionKind.DISCARD)
        return self._rule_of_thumb.discard(as_chooser)

    def _discard_candidates(self, view: SeatView) -> Iterable[CardSet]:
        """The rule-of-thumb discard first, then variants: other mixes of the lowest cards.

        Pruned to the cards a sensible discard draws from (the lowest two of each suit, or
        the highest in no-tricks), so the solver scores a handful, not C(20, 4) = 4845.
        """
        assert view.game is not None
        hand = view.options
        seen = [self._rule_of_thumb.discard(view)]
        pool: list[Card] = []
        for suit_cards in (hand.suit(s) for s in range(4)):
            ordered = sorted(suit_cards, key=lambda c: c.rank, reverse=view.game is Contract.NO_TRICKS)
            if view.game.trump is not None and ordered and ordered[0].suit == view.game.trump:
                continue
            pool.extend(ordered[:2])
        for combo in itertools.combinations(sorted(pool), 4):
            if len(seen) >= self.effort.discard_candidates:
                break
            candidate = CardSet(combo)
            if candidate not in seen:
                seen.append(candidate)
        return seen
