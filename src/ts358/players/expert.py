"""The expert player: the hard player's sampling, with the solver deciding every decision kind.

The hard player (:class:`~ts358.players.sampling.SamplingPlayer`) values its game choice and
its discard only on layouts it solves exactly within its budget, which whole deals rarely
allow (no-tricks almost never), and falls back on rule-of-thumb play-outs; it gives in the
exchange by rule of thumb. The expert differs in three ways:

- **Every layout counts** in the game choice, the discard and the exchange. Each solve of
  such a decision gets its share of the node budget
  (``budget // solves still to come``), so a hard layout cannot starve the rest, and a solve
  stopped by its share answers with the bounds it proved (``Solver.bounds``). A whole deal
  not solved exactly is valued inside the interval the solver proved, where deals like it
  were found to lie (:func:`bounded_estimate`, fitted offline by
  ``tools/bounded_estimates.py`` on the data in ``tools/data/``). A card to play is
  valued as the hard player values it: its layouts solved in turn while the budget lasts,
  the one the budget runs out in counted by the middle of each card's interval; shares
  there measured worse, since early in a deal a share proves too little of any layout
  (docs/play.md).
- **The game from the first six cards** is valued so: for each game still available, the
  chooser's score on each sampled layout of the ten cards still to come, the talon and the
  others' hands, after taking the talon and discarding by rule of thumb.
- **The exchange** is decided by the solver: each candidate give (the lowest card of each
  suit that may be given, and stopping) and each candidate return for a trump received
  (the lowest card of each suit held) valued as if the exchange ended with it.

- **Inference** (``inference=True``): the layouts of a card to play are weighted by how
  likely each makes what the other seats did (:meth:`ExpertPlayer._layout_weights`), under
  a simple model of them, the rule of thumb: a chooser picks a trump suit it is long in and
  discards no trump and no ace; a seat plays the rule of thumb's card. Each observed act
  the model would not have made in a layout multiplies its weight by a factor below one,
  since real players are not the rule of thumb (the layouts are still drawn uniformly
  among those consistent with the view; the weights only change how much each counts).

Three more parts were tried and removed, measured no better (one worse): the solver as a
second model of the others, the perfect information delayed past the next decision, and
selfish play-outs of the others; docs/play.md has what each was worth.

It thinks on two threads by default (each with its own table, the layouts dealt
round-robin), so that its decisions are a function of the seed, the view, the effort and
the thread count, never of timing. Its :data:`EXPERT_EFFORT` was set so that decisions stay
under a second on a 2-core machine (docs/arena.md has both levels' settings).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, TypeVar

from ts358.cards import Card, CardSet, Rank, Suit
from ts358.players.advice import Advice, Basis
from ts358.players.heuristic import HeuristicPlayer
from ts358.players.layouts import World
from ts358.players.sampling import Effort, SamplingPlayer, lowest_of_each_suit, with_hand
from ts358.players.solving import CorePosition, SolveBudget
from ts358.rules import Contract, Role, Triple, triple
from ts358.tricks import legal_cards
from ts358.view import DecisionKind, SeatView

__all__ = ["EXPERT_EFFORT", "ExpertPlayer"]

EXPERT_EFFORT = Effort(
    play_early=16,
    play_late=24,
    late_from=9,
    choose=8,
    discard=8,
    discard_candidates=6,
    give=6,
    node_budget=6_000_000,
)
"""The expert's effort: layouts per decision kind and the node budget per decision."""

_O = TypeVar("_O")  # an option ranked by _rank_by_average
_Deal = tuple[Triple[CardSet], CardSet, CardSet, Contract]  # hands, talon, discard, game

# Fitted by `python tools/bounded_estimates.py --fit tools/data/bounded-estimates.jsonl`: 50
# seeded deals of each game, the chooser's value stopped at 125,000 nodes (about a share of
# the expert's budget) against the exact value. Of the deals cut short, the estimates below
# missed by 1.16 tricks (root mean square) in trump and no-trump and 1.53 in no-tricks,
# against 3.31 and 4.02 for the middle of the interval.
PLAYOUT_SHIFT = -1.5
"""Trump and no-trump: the rule-of-thumb play-out takes one or two tricks more than the
exact value; the play-out plus this, moved into the proven interval, is the estimate."""
NO_TRICKS_SHARE = 0.2
"""No-tricks: the climb from 1 proves a lower bound only, and the value lay about a fifth of
the way from it to the top of the interval (the play-out, shifted, missed by 2.4 there)."""


OFF_MODEL_PLAY = 0.5
"""The weight factor for a card played that the rule of thumb would not have played."""
OFF_MODEL_TRUMP = 0.3
"""... for each card by which the chosen trump suit is shorter than the chooser's longest."""
OFF_MODEL_DISCARD = 0.3
"""... for each trump or ace in the chooser's discard (a trump game)."""


def bounded_estimate(game: Contract, lo: int, hi: int, playout: Callable[[], int]) -> float:
    """The estimated tricks of a whole deal whose value the solver bounded by ``lo <= value <=
    hi``; ``playout()`` gives the rule-of-thumb play-out's tricks, called only where needed.

    >>> bounded_estimate(Contract.NO_TRICKS, 3, 16, lambda: 0)
    5.6
    >>> [bounded_estimate(Contract.HEARTS, 4, 9, lambda: taken) for taken in (11, 6, 2)]
    [9, 4.5, 4]
    """
    if lo == hi:
        return lo
    if game is Contract.NO_TRICKS:
        return lo + NO_TRICKS_SHARE * (hi - lo)
    return min(hi, max(lo, playout() + PLAYOUT_SHIFT))


class ExpertPlayer(SamplingPlayer):
    """The expert player (see the module): ``seed``, ``effort`` (default
    :data:`EXPERT_EFFORT`), ``tt_mb`` per solver and ``threads`` (default 2) as for
    :class:`SamplingPlayer`; ``inference``, ``solver_choice``, ``solver_discard`` and
    ``solver_exchange`` switch the parts so named (off, the layouts of a card count alike,
    the game choice or the discard is made by rule-of-thumb play-outs of the same layouts,
    and the gives and returns by rule of thumb, as the hard player makes them)."""

    name = "expert"
    _spread = True

    def __init__(
        self,
        seed: int | None = 0,
        effort: Effort | None = None,
        tt_mb: int = 16,
        threads: int = 2,
        *,
        inference: bool = True,
        solver_choice: bool = True,
        solver_discard: bool = True,
        solver_exchange: bool = True,
    ) -> None:
        super().__init__(seed, effort or EXPERT_EFFORT, tt_mb, threads)
        self.inference = inference
        self.solver_exchange = solver_exchange
        # Switches to measure each part by: off, that decision is the rule-of-thumb
        # play-outs' on the same layouts (as the hard player's when it solves none).
        self._by_rollouts = {
            kind
            for kind, on in (
                (DecisionKind.CHOOSE, solver_choice),
                (DecisionKind.DISCARD, solver_discard),
            )
            if not on
        }
        self._model = HeuristicPlayer()

    def _layout_weights(self, view: SeatView, worlds: list[World]) -> list[float] | None:
        """Each layout's weight: the product, over what the other seats did this deal, of
        1 where the rule-of-thumb model would have done the same in that layout and the
        factor below one (the ``OFF_MODEL_*`` constants) where not: the game chosen (a trump
        suit shorter than the chooser's longest, counted over its hand at the choice, talon
        aside) and the discard (trumps and aces in it) when another seat chose, and every
        card the other seats played."""
        if not self.inference:
            return None
        return [self._likelihood(view, world) for world in worlds]

    def _likelihood(self, view: SeatView, world: World) -> float:
        game = view.game
        assert game is not None
        chooser = view.chooser
        me = view.seat
        weight = 1.0
        plays = _plays(view)
        played = [CardSet(p.card for p in plays if p.seat == s) for s in range(3)]
        if chooser != me and game.trump is not None:
            talon = view.talon or CardSet()
            held = (world.hands[chooser] | played[chooser] | world.pile) - talon
            longest = max(len(held.suit(suit)) for suit in Suit)
            weight *= OFF_MODEL_TRUMP ** (longest - len(held.suit(game.trump)))
            off = sum(1 for c in world.pile if c.suit == game.trump or c.rank is Rank.ACE)
            weight *= OFF_MODEL_DISCARD**off
        # Replay the play: each other seat's hand when it played, and the model's card there.
        hands = [world.hands[s] | played[s] for s in range(3)]
        for p in plays:
            if p.seat != me:
                options = legal_cards(hands[p.seat], p.before, game, view.rules.void)
                if len(options) > 1:
                    as_seat = view._replace(
                        seat=p.seat,
                        hand=hands[p.seat],
                        options=options,
                        tricks=view.tricks[: p.trick],
                        leader=p.leader,
                        trick=p.before,
                        discard=world.pile if p.seat == chooser else None,
                        kind=DecisionKind.PLAY,
                    )
                    if self._model.play(as_seat) != p.card:
                        weight *= OFF_MODEL_PLAY
            hands[p.seat] = hands[p.seat].without_card(p.card)
        return weight

    def give(self, view: SeatView) -> Card | None:
        if not self.solver_exchange or view.game is None:
            return super().give(view)
        return self._advise_give(view, 0.0).best

    def choose_return(self, view: SeatView) -> Card:
        if not self.solver_exchange:
            return super().choose_return(view)
        return self._advise_return(view, 0.0).best

    def _advise_return(self, view: SeatView, deadline: float) -> Advice[Card]:
        """The returns for a trump received ranked as the gives are: the rule of thumb's
        and the lowest card of each suit held (a higher one would give more away), each
        valued as if the exchange ended with it."""
        game, giver = view.game, view.give_to
        assert game is not None and giver is not None
        candidates = [self._rule_of_thumb.choose_return(view)]
        candidates += [c for c in lowest_of_each_suit(view.options) if c not in candidates]

        def deals(world: World) -> list[_Deal]:
            out = []
            for card in candidates:
                hands = list(world.hands)
                hands[view.seat] = hands[view.seat].without_card(card)
                hands[giver] = hands[giver].with_card(card)
                full = hands[view.chooser] | world.pile
                discard = self._rule_of_thumb_discard(view, full, game)
                out.append((triple(hands), world.pile, discard, game))
            return out

        return self._rank_by_average(view, self.effort.give, candidates, deals, deadline)

    def _rank_by_average(
        self,
        view: SeatView,
        count: int,
        options: list[_O],
        deals_of: Callable[[World], list[_Deal]],
        deadline: float,
    ) -> Advice[_O]:
        """The options ranked by this seat's score averaged over ``count`` sampled layouts,
        every option of a layout valued exactly or within proven bounds (the module). A
        layout the deadline kept from being reached counts for nothing; with none reached,
        the hard player's rule-of-thumb ranking stands in."""
        worlds = self._worlds(view, count)
        if view.kind in self._by_rollouts:
            return self._rank_by_rollouts(view, worlds, options, deals_of)
        role = view.role

        def value(budget: SolveBudget, deal: _Deal) -> tuple[float, bool]:
            hands, talon, discard, game = deal
            after = with_hand(hands, view.chooser, (hands[view.chooser] | talon) - discard)
            by_role = [after[view.seat_of(r)] for r in Role]
            got = budget.bounds(CorePosition.whole_deal(by_role, game, view.rules), role)
            lo, hi = got if got is not None else (0, len(after[view.seat]))
            tricks = bounded_estimate(game, lo, hi, lambda: self._rollout(view, *deal))
            # A score is linear in the tricks: -1 a trick in no-tricks, +1 in the others.
            rules = view.rules
            slope = rules.score(role, game, 1) - rules.score(role, game, 0)
            return rules.score(role, game, 0) + slope * tricks, lo == hi

        def solve(budget: SolveBudget, world: World) -> tuple[list[float], bool]:
            valued = [value(budget, deal) for deal in deals_of(world)]
            return [score for score, _ in valued], all(exact for _, exact in valued)

        reached = [
            r
            for r in self._solve_layouts(worlds, solve, deadline, calls_per_layout=len(options))
            if r is not None
        ]
        if not reached:
            return super()._rank_by_average(view, count, options, deals_of, deadline)
        totals = [sum(scores[i] for scores, _ in reached) for i in range(len(options))]
        solved = sum(exact for _, exact in reached)
        order = sorted(range(len(options)), key=lambda i: (-totals[i], i))
        assert view.kind is not None
        return Advice(
            view.kind,
            Basis.SOLVED,
            tuple((options[i], totals[i] / len(reached)) for i in order),
            sampled=len(worlds),
            solved=solved,
            bounded=len(reached) - solved,
        )


class _Play(NamedTuple):
    """A card played this deal: in the trick of index ``trick`` (of ``leader``), after
    ``before``, by ``seat``."""

    trick: int
    leader: int
    before: tuple[Card, ...]
    seat: int
    card: Card


def _plays(view: SeatView) -> list[_Play]:
    """Every card played so far in the deal, in order, the trick in progress last."""
    segments = [(trick.leader, trick.cards) for trick in view.tricks]
    if view.trick:
        assert view.leader is not None
        segments.append((view.leader, view.trick))
    return [
        _Play(k, leader, tuple(cards[:index]), (leader + index) % 3, card)
        for k, (leader, cards) in enumerate(segments)
        for index, card in enumerate(cards)
    ]
