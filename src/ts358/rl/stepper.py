"""A deal or a match driven by action numbers: the engine under every environment.

:class:`Stepper` wraps a :class:`~ts358.deal.Deal` or a :class:`~ts358.match.Match` and
takes one action at a time (:mod:`ts358.rl.actions`), the four discards one card each; it
also takes a computer player's whole answer (:meth:`Stepper.answer`). It builds each seat's
observation from that seat's view and memory only (:mod:`ts358.rl.observation`).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ts358.cards import CardSet
from ts358.deal import Answer, Deal, DealResult, Pending
from ts358.match import Match
from ts358.rl.actions import (
    NUM_ACTIONS,
    STOP,
    bits_actions,
    card_of,
    describe_action,
    game_of,
    legal_bits,
    mask_array,
)
from ts358.rl.observation import SeatMemory, encode
from ts358.view import DecisionKind, SeatView

__all__ = ["IllegalAction", "Stepper"]

_DISCARDS = 4


class IllegalAction(ValueError):
    """An action the rules don't allow now (nothing changed); the message says which
    action, whose decision and what is legal."""


class Stepper:
    """A deal or a match taking actions (see the module notes)."""

    def __init__(self, game: Deal | Match) -> None:
        self.game = game
        self.memories = (SeatMemory(), SeatMemory(), SeatMemory())
        self._deal = game if isinstance(game, Deal) else game.deal
        self._pending: Pending | None = None
        self._bits = 0
        self._refresh()

    def _refresh(self) -> None:
        pending = self._pending = self.game.pending()
        if pending is None:
            self._bits = 0
            return
        if isinstance(self.game, Match):
            assert self.game.deal is not None
            self._deal = self.game.deal
        memory = self.memories[pending.seat]
        if pending.kind is DecisionKind.CHOOSE or pending.kind is DecisionKind.DISCARD:
            memory.follow(pending.view)  # the cards seen at the choice; a new deal's start
        self._bits = legal_bits(pending.view, memory.picked)

    @property
    def done(self) -> bool:
        """Whether the deal (or the match) is over."""
        return self._pending is None

    @property
    def seat(self) -> int | None:
        """The seat whose decision is due, None when it is over."""
        return self._pending.seat if self._pending is not None else None

    @property
    def kind(self) -> DecisionKind | None:
        """The kind of the decision due, None when it is over."""
        return self._pending.kind if self._pending is not None else None

    @property
    def deal(self) -> Deal:
        """The deal in progress (the last one once a match is over)."""
        assert self._deal is not None
        return self._deal

    def view(self, seat: int) -> SeatView:
        """What ``seat`` knows now (with the decision's options if it is due)."""
        pending = self._pending
        if pending is not None and pending.seat == seat:
            return pending.view
        return self.deal.view(seat)

    def observe(self, seat: int) -> npt.NDArray[np.float32]:
        """``seat``'s observation vector (:func:`~ts358.rl.observation.encode`)."""
        return encode(self.view(seat), self.memories[seat])

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        """``seat``'s action mask: the legal actions if its decision is due, else zeros."""
        pending = self._pending
        return mask_array(self._bits if pending is not None and pending.seat == seat else 0)

    def legal_actions(self) -> list[int]:
        """The legal actions of the decision due, in order (none when it is over)."""
        return bits_actions(self._bits)

    def step(self, action: int) -> DealResult | None:
        """Take ``action`` for the seat due; the finished deal if it ended the deal.
        :class:`IllegalAction` (nothing changed) for an action the rules don't allow."""
        pending = self._pending
        if pending is None:
            raise IllegalAction(f"action {action!r}: the {self._name()} is over")
        if (
            not isinstance(action, (int, np.integer))
            or not 0 <= action < NUM_ACTIONS
            or not self._bits >> int(action) & 1
        ):
            raise IllegalAction(self._refusal(pending, action))
        action = int(action)
        kind = pending.kind
        answer: Answer
        if kind is DecisionKind.DISCARD:
            memory = self.memories[pending.seat]
            memory.picked |= card_of(action).mask
            if memory.picked.bit_count() < _DISCARDS:
                self._bits &= ~(1 << action)
                return None
            answer = CardSet(memory.picked)
        elif kind is DecisionKind.CHOOSE:
            answer = game_of(action)
        elif action == STOP:
            answer = None
        else:
            answer = card_of(action)
        return self._apply(answer)

    def answer(self, answer: Answer) -> DealResult | None:
        """Apply a computer player's whole answer to the decision due (four cards for a
        discard); IllegalDecision (nothing changed) if the rules don't allow it."""
        if self._pending is None:
            raise IllegalAction(f"answer {answer!r}: the {self._name()} is over")
        return self._apply(answer)

    def _apply(self, answer: Answer) -> DealResult | None:
        result = self.game.apply_answer(answer).result
        self._refresh()
        return result

    def _name(self) -> str:
        return "deal" if isinstance(self.game, Deal) else "match"

    def _refusal(self, pending: Pending, action: object) -> str:
        legal = ", ".join(f"{a} ({describe_action(a)})" for a in bits_actions(self._bits))
        if isinstance(action, (int, np.integer)) and 0 <= action < NUM_ACTIONS:
            what = f"action {int(action)} ({describe_action(int(action))})"
        else:
            what = f"action {action!r} (actions are 0-{NUM_ACTIONS - 1})"
        return f"{what} is not legal for seat {pending.seat}'s {pending.kind} now; legal: {legal}"
