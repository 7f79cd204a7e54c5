"""Advice at a decision: the options ranked by the seat's expected deal score, and what the
values rest on.

:meth:`SamplingPlayer.advise <ts358.players.sampling.SamplingPlayer.advise>` (or
:func:`ts358.advise`) computes it from a seat's :class:`~ts358.view.SeatView` alone, and the
hard player decides by it wherever it values its options (the game, the discard, the card to
play), so that the advice is what the hard player would do.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Generic, TypeVar

from ts358.view import DecisionKind

__all__ = ["Advice", "Basis"]

A = TypeVar("A", covariant=True)  # the answer: a game, a card, four cards, None (stop)


class Basis(enum.Enum):
    """What the scores of an :class:`Advice` rest on."""

    SOLVED = "solved"
    """Double-dummy values of the sampled layouts, averaged (exact, or counted by the bounds
    proven when a layout was cut short: :attr:`Advice.bounded`)."""
    ROLLOUTS = "rollouts"
    """No layout could be solved within the budget: each sampled layout was played out by the
    rule-of-thumb player, and the scores average those deals."""
    RULE_OF_THUMB = "rule of thumb"
    """No valuation: the first option is the rule-of-thumb player's choice, the others follow
    in the order of the view's options, without scores."""
    FORCED = "forced"
    """One option only; nothing was valued."""

    def __str__(self) -> str:
        return self.value


@dataclasses.dataclass(frozen=True)
class Advice(Generic[A]):
    """The options of one decision, best first, with the seat's expected deal score of each.

    Attributes:
        kind: the decision.
        basis: what the scores rest on.
        options: (answer, expected score) pairs, best first: the answer as
            :meth:`Player.decide <ts358.players.base.Player.decide>` returns it, the score
            None when :attr:`basis` values nothing. For a discard or a card to give, the few
            candidates valued (not all 4845 discards); otherwise every legal answer.
        sampled: layouts of the hidden cards dealt.
        solved: of those, layouts solved exactly that the scores count.
        bounded: layouts cut short by the budget or the time and counted by the bounds their
            search proved (play only; a game choice, a discard or a give drops such a layout).
    """

    kind: DecisionKind
    basis: Basis
    options: tuple[tuple[A, float | None], ...]
    sampled: int = 0
    solved: int = 0
    bounded: int = 0

    @property
    def best(self) -> A:
        """The best answer: the first option."""
        return self.options[0][0]

    @property
    def layouts(self) -> int:
        """How many layouts the scores average over (0 when nothing was valued)."""
        if self.basis is Basis.SOLVED:
            return self.solved + self.bounded
        if self.basis is Basis.ROLLOUTS:
            return self.sampled
        return 0

    @property
    def tied(self) -> int:
        """How many options share the best score (0 when nothing was valued)."""
        best = self.options[0][1]
        if best is None:
            return 0
        return sum(1 for _, score in self.options if score == best)

    @property
    def told_apart(self) -> bool:
        """Whether the scores single out the best options: False when several share the
        best score and no layout was solved exactly. Their scores are then the middles of
        the same bounds, not equal values: nothing proven puts one above the others (early
        in a deal, one layout cut short can leave ten cards with the same bounds), and
        the first of them is first only as the lowest card. True for equal exact values
        (the 7 and 6 of one suit in one hand) and equal play-outs."""
        return self.tied == 1 or not (self.basis is Basis.SOLVED and self.solved == 0)

    @property
    def best_marks(self) -> tuple[bool, ...]:
        """Which options a hint marks as the best, in the order of :attr:`options`: those
        with the best score when :attr:`told_apart`, else none (nor when nothing was
        valued)."""
        best = self.options[0][1]
        marked = best is not None and self.told_apart
        return tuple(marked and score == best for _, score in self.options)

    @property
    def exact(self) -> bool:
        """Whether the scores average exact double-dummy values (of sampled layouts, so still
        an estimate of the real deal); False for bounds, rollouts or no valuation."""
        return self.basis is Basis.SOLVED and self.bounded == 0
