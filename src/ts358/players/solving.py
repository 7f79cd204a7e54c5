"""The players' and the analysis's typed way into the core's solver: a position in the
core's terms (:class:`CorePosition`, built in one place from the engine's values) and the
solver calls of one decision within a node budget (:class:`SolveBudget`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import NamedTuple, TypeVar

from ts358 import _core358
from ts358.cards import CardSet
from ts358.players.layouts import World, role_hands
from ts358.position import Position
from ts358.rules import Contract, Role, Rules, triple
from ts358.view import SeatView

__all__ = ["CorePosition", "SolveBudget"]

_T = TypeVar("_T")  # what a search gives


class CorePosition(NamedTuple):
    """A position in the terms of the core's solver (``Solver.value`` and the others take
    these five in this order): the hands by role as bitboards, the role to lead, the trick
    in progress as card ids, and the contract's and the void rule's codes."""

    hands: tuple[int, int, int]
    leader: int
    trick: tuple[int, ...]
    contract: int
    void_rule: int

    @classmethod
    def whole_deal(cls, hands: Sequence[CardSet], game: Contract, rules: Rules) -> CorePosition:
        """A deal from its first trick (led as ``rules`` say): ``hands`` in role order."""
        a, b, c = (h.mask for h in hands)
        return cls((a, b, c), int(rules.first_leader), (), int(game), int(rules.void))

    @classmethod
    def of(cls, position: Position) -> CorePosition:
        """A :class:`~ts358.position.Position` in the core's terms."""
        return cls(
            triple(h.mask for h in position.hands),
            int(position.leader),
            tuple(c.id for c in position.trick),
            int(position.contract),
            int(position.void),
        )

    @classmethod
    def in_play(cls, view: SeatView, world: World) -> CorePosition:
        """The position of ``view``'s card play with the hidden cards dealt as ``world``."""
        assert view.game is not None
        leader = view.leader if view.leader is not None else view.seat
        return cls(
            role_hands(view, world),
            int(view.role_of(leader)),
            tuple(c.id for c in view.trick),
            int(view.game),
            int(view.rules.void),
        )


class SolveBudget:
    """Solver calls that share one thread's node budget (and deadline) of a decision.

    With ``spread``, each call may spend only its share of what is left, ``left //
    pending``, ``pending`` being the calls still to come (set by the caller): every layout
    gets its turn and a hard one cannot starve the rest. Without, a call may spend it all."""

    def __init__(
        self, solver: _core358.Solver, nodes: int, deadline: float, spread: bool = False
    ) -> None:
        self.solver = solver
        self.left = nodes
        self.deadline = deadline  # time.monotonic() to stop at, 0: none
        self.spread = spread
        self.pending = 1

    def spent(self) -> bool:
        """Whether the budget is spent or the deadline passed."""
        return self.left <= 0 or bool(self.deadline and time.monotonic() >= self.deadline)

    def value(self, deal: CorePosition, player: Role) -> int | None:
        """``player``'s tricks in ``deal`` (its exact value), or None if the budget ran out."""
        return self._within(
            lambda nodes: self.solver.value(
                *deal, int(player), max_nodes=nodes, deadline=self.deadline
            )
        )

    def bounds(self, deal: CorePosition, player: Role) -> tuple[int, int] | None:
        """Bounds on ``player``'s tricks in ``deal``, or None if the budget ran out."""
        return self._within(
            lambda nodes: self.solver.bounds(
                *deal, int(player), max_nodes=nodes, deadline=self.deadline
            )
        )

    def move_bounds(self, deal: CorePosition) -> list[tuple[int, int, int]] | None:
        """Each legal card of the player to move in ``deal`` with bounds on its tricks
        (``(card id, low, high)``), or None if the budget ran out."""
        return self._within(
            lambda nodes: self.solver.move_bounds(*deal, max_nodes=nodes, deadline=self.deadline)
        )

    def _within(self, search: Callable[[int], _T]) -> _T | None:
        """``search(max_nodes)`` within what is left, or None once the budget is spent."""
        nodes = self.left // max(1, self.pending) if self.spread else self.left
        self.pending = max(1, self.pending - 1)
        if nodes <= 0:  # (0 would mean no limit to the solver)
            return None
        before = self.solver.nodes
        try:
            return search(nodes)
        except _core358.SearchLimit:
            if not self.spread:
                self.left = 0
            return None
        finally:
            self.left -= self.solver.nodes - before
