"""The sampling player ("hard"): perfect-information Monte Carlo over the double-dummy solver.

For each decision it deals the cards its seat cannot see in several ways that fit everything
the seat knows (:mod:`ts358.players.layouts`), solves each layout exactly with the Cython solver as
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

Every decision has a node budget (:class:`Effort`): layouts are solved until it is spent.
Whole deals are often too expensive to solve in budget (the game choice and the discard
always look at whole deals); when not one layout could be solved, play falls back on the
rule of thumb, and the game choice and the discard compare their options by rule-of-thumb
rollouts on the same layouts (each layout played out by the rule-of-thumb player).

Decisions are a function of the seed and the view only: the layouts are drawn from a random
generator seeded by the seed and the decision's place in the match, so the same view always
gives the same answer, whatever the hidden cards really are.

Its known flaw is *strategy fusion*: each layout is solved as if the player would know the
hidden cards later. It still plays far better than the rule of thumb.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from ts358 import _core358
from ts358.cards import Card, CardSet, Suit
from ts358.deal import Deal, DealSetup
from ts358.players.base import Player
from ts358.players.heuristic import HeuristicPlayer
from ts358.players.layouts import World, role_hands, sample_worlds
from ts358.rules import Contract, Role, triple
from ts358.view import DecisionKind, SeatView

_O = TypeVar("_O")  # an option compared by _best_by_average

__all__ = ["Effort", "PlayEstimate", "SamplingPlayer"]


@dataclasses.dataclass(frozen=True)
class Effort:
    """How hard the player thinks: layouts sampled per decision, and a node budget.

    The budget (solver nodes per decision) keeps decision times bounded on the few layouts
    that are very expensive to solve exactly (whole deals, no-tricks above all) while it
    stays deterministic, unlike a clock: the same seed and view give the same decision on
    any machine. Layouts are solved in turn until the budget is spent. In play the layout
    the budget runs out in counts by the bounds its search proved
    (:meth:`SamplingPlayer.estimate_play`), and the rule of thumb decides only when nothing
    was proven at all; for the game choice and the discard such a layout is left out.
    """

    play_early: int = 12  # layouts when holding more than `late_from` cards
    play_late: int = 24
    late_from: int = 9
    choose: int = 8
    discard: int = 6
    discard_candidates: int = 6
    node_budget: int = 3_000_000


class _Budget:
    """Solver calls that share one decision's node budget."""

    def __init__(self, solver: _core358.Solver, nodes: int) -> None:
        self.solver = solver
        self.left = nodes

    def run(self, method: str, *args: object) -> Any:
        """``solver.method(*args)`` within what is left, or None once the budget is spent."""
        if self.left <= 0:
            return None
        before = self.solver.nodes
        try:
            return getattr(self.solver, method)(*args, max_nodes=self.left)
        except _core358.SearchLimit:
            self.left = 0
            return None
        finally:
            self.left -= self.solver.nodes - before


@dataclasses.dataclass(frozen=True)
class PlayEstimate:
    """Expected deal scores of the legal cards over sampled layouts.

    Attributes:
        scores: each legal card's average score (empty when nothing was proven).
        solved: layouts solved exactly.
        bounded: layouts cut short by the budget or the time, counted by their bounds.
    """

    scores: dict[Card, float]
    solved: int
    bounded: int

    @property
    def exact(self) -> bool:
        """Whether every layout counted was solved exactly (else the scores are estimates)."""
        return self.bounded == 0


class SamplingPlayer(Player):
    name = "sampling"

    def __init__(self, seed: int | None = 0, effort: Effort | None = None, tt_mb: int = 16) -> None:
        self.seed = 0 if seed is None else seed
        self.effort = effort or Effort()
        # Checks at least as often as the budget is spent, so that a small budget is kept.
        self._solver = _core358.Solver(tt_mb, check_every=min(1 << 16, self.effort.node_budget))
        self._rule_of_thumb = HeuristicPlayer()

    # ------------------------------------------------------------------ helpers

    def _rng(self, view: SeatView) -> random.Random:
        # Seeded from text, which hashes the same in every process: reproducible anywhere.
        key = (
            self.seed,
            view.seat,
            view.deal_number,
            len(view.tricks),
            len(view.trick),
            str(view.kind),
        )
        return random.Random(str(key))

    def _worlds(self, view: SeatView, count: int) -> list[World]:
        return list(sample_worlds(view, count, self._rng(view)))

    def _budget(self) -> _Budget:
        return _Budget(self._solver, self.effort.node_budget)

    def _chooser_scores(
        self,
        view: SeatView,
        hands: Iterable[tuple[CardSet, Contract]],
        budget: _Budget,
        world: World,
    ) -> list[int] | None:
        """The chooser's score for each (hand after the discard, game) against ``world``'s
        other hands, or None if the budget ran out on the way."""
        scores = []
        for hand, game in hands:
            layout = list(world.hands)
            layout[view.chooser] = hand
            masks = tuple(layout[view.seat_of(role)].mask for role in Role)
            tricks = budget.run("value", masks, 0, [], int(game), int(view.rules.void), 0)
            if tricks is None:
                return None
            scores.append(Role.CHOOSER.score(game, tricks))
        return scores

    def _rollout(
        self,
        view: SeatView,
        world: World,
        full: CardSet,
        talon: CardSet,
        discard: CardSet,
        game: Contract,
    ) -> int:
        """The chooser's score when the deal is played out by the rule of thumb on the
        layout ``world``, the chooser holding ``full`` (twenty cards, the ``talon`` among
        them) and discarding ``discard``: the cheap estimate used when exact solves of
        whole deals do not fit the budget."""
        hands = list(world.hands)
        hands[view.chooser] = full - talon
        setup = DealSetup(1, view.dealer, triple(tuple(h) for h in hands), tuple(talon))
        deal = Deal(setup, view.rules)  # deal 1: no exchange, already over or still unknown
        deal.choose(game)
        deal.discard(discard)
        while (pending := deal.pending()) is not None:
            deal.apply_answer(self._rule_of_thumb.decide(pending.view))
        return deal.result().scores[view.chooser]

    def _best_by_average(
        self,
        view: SeatView,
        count: int,
        options: list[_O],
        hands_of: Callable[[World], list[tuple[CardSet, Contract]]],
        rollout_of: Callable[[World], list[int]],
    ) -> _O:
        """The option with the best chooser score summed over the sampled layouts.

        ``hands_of(world)`` lists (hand after the discard, game) per option, solved exactly
        while the budget lasts; each layout counts only if every option was solved on it
        (paired). With not one layout solved, the options are compared by rule-of-thumb
        rollouts instead: ``rollout_of(world)`` lists each option's rollout score."""
        budget = self._budget()
        worlds = self._worlds(view, count)
        totals = [0] * len(options)
        solved = 0
        for world in worlds:
            scores = self._chooser_scores(view, hands_of(world), budget, world)
            if scores is None:
                break
            totals = [t + s for t, s in zip(totals, scores)]
            solved += 1
        if not solved:
            for world in worlds:
                totals = [t + s for t, s in zip(totals, rollout_of(world))]
        return options[max(range(len(options)), key=lambda i: (totals[i], -i))]

    # ------------------------------------------------------------------ decisions

    def estimate_play(self, view: SeatView, time_limit: float | None = None) -> PlayEstimate:
        """The expected deal score of each legal card (``view.options``) over the sampled
        layouts: what ``play`` maximises and what a hint shows.

        Layouts are solved in turn, sharing the node budget (and ``time_limit`` seconds, if
        given). The layout the budget or the time runs out in is not dropped: the search
        answers with the bounds it proved for each card, and the card counts with the middle
        of its score interval (a card proven better than another stays better, and a card
        nothing is known of counts the same as its neighbours). A layout where nothing at
        all was proven counts for nothing; with no layout counted the estimate is empty."""
        assert view.game is not None and view.kind is DecisionKind.PLAY
        effort = self.effort
        count = effort.play_late if len(view.hand) <= effort.late_from else effort.play_early
        role = view.role
        leader = view.leader if view.leader is not None else view.seat
        trick = [c.id for c in view.trick]
        taken = view.taken[view.seat]
        totals = dict.fromkeys((card.id for card in view.options), 0.0)
        deadline = time.monotonic() + time_limit if time_limit is not None else 0.0
        left = effort.node_budget
        solved = bounded = 0
        for world in self._worlds(view, count):
            if left <= 0 or (deadline and time.monotonic() >= deadline):
                break
            before = self._solver.nodes
            raw = self._solver.move_bounds(
                role_hands(view, world),
                int(view.role_of(leader)),
                trick,
                int(view.game),
                int(view.rules.void),
                max_nodes=left,
                deadline=deadline,
            )
            left -= self._solver.nodes - before
            n = len(view.hand)
            if all(lo == 0 and hi == n for _, lo, hi in raw):
                continue  # nothing proven on this layout
            for card_id, lo, hi in raw:
                totals[card_id] += (
                    role.score(view.game, taken + lo) + role.score(view.game, taken + hi)
                ) / 2
            if all(lo == hi for _, lo, hi in raw):
                solved += 1
            else:
                bounded += 1
        layouts = solved + bounded
        if not layouts:
            return PlayEstimate({}, 0, 0)
        scores = {Card.from_id(i): total / layouts for i, total in totals.items()}
        return PlayEstimate(scores, solved, bounded)

    def play_scores(self, view: SeatView) -> dict[Card, float]:
        """:meth:`estimate_play`'s scores within the node budget (empty if nothing was
        proven on any layout)."""
        return self.estimate_play(view).scores

    def play(self, view: SeatView) -> Card:
        options = list(view.options)
        if len(options) == 1:
            return options[0]
        scores = self.play_scores(view)
        if not scores:
            return self._rule_of_thumb.play(view)
        # Best average score; among equals the lowest card, which gives least away.
        return max(options, key=lambda c: (scores[c], -c.rank, -c.id))

    def choose_game(self, view: SeatView) -> Contract:
        games = sorted(view.available[view.seat])
        if len(games) == 1:
            return games[0]

        def discards(world: World) -> list[tuple[CardSet, CardSet, Contract]]:
            full = world.hands[view.seat] | world.pile  # own sixteen plus the talon
            return [(full, self._rule_of_thumb_discard(view, full, g), g) for g in games]

        return self._best_by_average(
            view,
            self.effort.choose,
            games,
            lambda w: [(full - d, g) for full, d, g in discards(w)],
            lambda w: [self._rollout(view, w, full, w.pile, d, g) for full, d, g in discards(w)],
        )

    def discard(self, view: SeatView) -> CardSet:
        game = view.game
        assert game is not None and view.talon is not None
        talon = view.talon
        candidates = self._discard_candidates(view)
        if len(candidates) == 1:
            return candidates[0]
        return self._best_by_average(
            view,
            self.effort.discard,
            candidates,
            lambda w: [(view.options - c, game) for c in candidates],
            lambda w: [self._rollout(view, w, view.options, talon, c, game) for c in candidates],
        )

    def give(self, view: SeatView) -> Card | None:
        return self._rule_of_thumb.give(view)

    def choose_return(self, view: SeatView) -> Card:
        return self._rule_of_thumb.choose_return(view)

    # ------------------------------------------------------------------ discards

    def _rule_of_thumb_discard(self, view: SeatView, hand: CardSet, game: Contract) -> CardSet:
        as_chooser = view._replace(hand=hand, options=hand, game=game, kind=DecisionKind.DISCARD)
        return self._rule_of_thumb.discard(as_chooser)

    def _discard_candidates(self, view: SeatView) -> list[CardSet]:
        """The rule-of-thumb discard first, then a few sensible variants: the four cheapest
        cards, and each short suit emptied (a void to ruff, or in no-tricks to shed high
        cards on), topped up with the cheapest other cards. The solver scores a handful
        instead of all C(20, 4) = 4845 discards."""
        game = view.game
        assert game is not None
        hand = view.options
        misere = game is Contract.NO_TRICKS
        # Cheapest to give up first: low side cards, or in no-tricks the high ones.
        spare = sorted(
            (c for c in hand if c.suit != game.trump),
            key=lambda c: -c.rank if misere else c.rank,
        )
        candidates = [self._rule_of_thumb.discard(view)]

        def add(cards: list[Card]) -> None:
            for card in spare:
                if len(cards) >= 4:
                    break
                if card not in cards:
                    cards.append(card)
            candidate = CardSet(cards[:4])
            if len(candidate) == 4 and candidate not in candidates:
                candidates.append(candidate)

        add([])
        for suit in sorted(Suit, key=lambda s: len(hand.suit(s))):
            cards = list(hand.suit(suit))
            if suit != game.trump and 0 < len(cards) <= 4:
                add(cards)
        return candidates[: self.effort.discard_candidates]
