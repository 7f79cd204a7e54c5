"""The expert player: the hard player's sampling, with the solver deciding every decision kind.

The hard player (:class:`~ts358.players.sampling.SamplingPlayer`) values its game choice and
its discard only on layouts it solves exactly within its budget, which whole deals rarely
allow (no-tricks almost never), and falls back on rule-of-thumb play-outs; it gives in the
exchange by rule of thumb. The expert differs in three ways:

- **Every layout counts.** Each solve of a decision gets its share of the node budget
  (``budget // solves still to come``), so a hard layout cannot starve the rest, and a solve
  stopped by its share answers with the bounds it proved (``Solver.bounds``). A whole deal
  not solved exactly is valued by the rule-of-thumb play-out of that layout, moved into the
  interval the solver proved for it: the play-out guesses where in the interval the value
  lies, the bounds keep the guess honest. (Play counts a bounded layout by the middle of
  each card's interval, as the hard player does.)
- **The game from the first six cards** is valued so: for each game still available, the
  chooser's score on each sampled layout of the ten cards still to come, the talon and the
  others' hands, after taking the talon and discarding by rule of thumb.
- **The exchange gives** are decided by the solver: each candidate give (the lowest card of
  each suit that may be given, and stopping) valued as if the exchange ended with it.
  Returning a trump stays the rule of thumb's: the view of that decision does not tell the
  sampler who gave it.

It thinks on two threads by default (each with its own table, the layouts dealt
round-robin), so that its decisions are a function of the seed, the view, the effort and
the thread count, never of timing. Its :data:`EXPERT_EFFORT` was set so that decisions stay
under a second on a 2-core machine (docs/arena.md has both levels' settings).
"""

from __future__ import annotations

from collections.abc import Callable

from ts358.cards import Card, CardSet
from ts358.players.advice import Advice, Basis
from ts358.players.layouts import World
from ts358.players.sampling import _O, Effort, SamplingPlayer, _Budget, _with_hand
from ts358.rules import Contract, Role, Triple
from ts358.view import SeatView

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

_Deal = tuple[Triple[CardSet], CardSet, CardSet, Contract]  # hands, talon, discard, game


class ExpertPlayer(SamplingPlayer):
    """The expert player (see the module): ``seed``, ``effort`` (default
    :data:`EXPERT_EFFORT`), ``tt_mb`` per solver and ``threads`` (default 2) as for
    :class:`SamplingPlayer`."""

    name = "expert"
    _spread = True

    def __init__(
        self, seed: int | None = 0, effort: Effort | None = None, tt_mb: int = 16, threads: int = 2
    ) -> None:
        super().__init__(seed, effort or EXPERT_EFFORT, tt_mb, threads)

    def give(self, view: SeatView) -> Card | None:
        return self._advise_give(view, 0.0).best

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
        role = view.role

        def value(budget: _Budget, deal: _Deal) -> tuple[int, bool]:
            hands, talon, discard, game = deal
            after = _with_hand(hands, view.chooser, (hands[view.chooser] | talon) - discard)
            masks = tuple(after[view.seat_of(r)].mask for r in Role)
            got = budget.run("bounds", masks, 0, [], int(game), int(view.rules.void), int(role))
            lo, hi = got if got is not None else (0, len(after[view.seat]))
            if lo == hi:
                return role.score(game, lo), True
            tricks = min(hi, max(lo, self._rollout(view, *deal)))
            return role.score(game, tricks), False

        def solve(budget: _Budget, world: World) -> tuple[list[int], bool]:
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
