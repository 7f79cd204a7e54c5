"""The exchange before a trump game (docs/rules.md#the-exchange): who gives how many cards to
whom, in which order, and which card comes back automatically.

Everything here is a pure function of the previous deal's scores and the new deal's seats, so
the deal engine, the players and the tests share one statement of the rules.
"""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

from ts358.cards import Card, CardSet
from ts358.rules import Contract, Role, Rules

__all__ = ["ExchangeStep", "Transfer", "automatic_return", "giveable", "plan_exchange"]


@dataclasses.dataclass(frozen=True, slots=True)
class Transfer:
    """One plus player's turn to give up to ``count`` cards, one at a time, to ``receiver``."""

    giver: int
    receiver: int
    count: int


class ExchangeStep(NamedTuple):
    """One card given and the card that came back (possibly the same card).

    A NamedTuple, which nothing can change in place, because the engine hands its own steps
    to the players' views (:mod:`ts358.view`)."""

    giver: int
    receiver: int
    given: Card
    returned: Card


def plan_exchange(
    previous_scores: tuple[int, int, int] | None,
    dealer: int,
    contract: Contract,
    rules: Rules,
) -> tuple[Transfer, ...]:
    """The transfers of the exchange, in order; empty when there is none.

    ``previous_scores`` are the previous deal's scores by seat (None in a match's first deal);
    ``dealer`` is the new deal's dealer seat, which fixes the new obligations.
    """
    if previous_scores is None or not rules.exchange or contract.trump is None:
        return ()
    plus = [s for s in range(3) if previous_scores[s] > 0]
    minus = [s for s in range(3) if previous_scores[s] < 0]
    if not plus or not minus:
        return ()
    # Role order is obligation order: chooser 8, third 5, dealer 3.
    if len(plus) == 1:
        # One plus, one or two minus: each minus player gets as many cards as their minus,
        # the lower new obligation first (the higher Role value).
        minus.sort(key=lambda s: Role.of_seat(s, dealer), reverse=True)
        return tuple(Transfer(plus[0], s, -previous_scores[s]) for s in minus)
    # Two plus, one minus: each gives their plus, the higher new obligation first.
    plus.sort(key=lambda s: Role.of_seat(s, dealer))
    return tuple(Transfer(s, minus[0], previous_scores[s]) for s in plus)


def giveable(hand: CardSet, contract: Contract, rules: Rules) -> CardSet:
    """The cards a plus player may give: any, except trumps when ``exchange_trumps`` is off."""
    trump = contract.trump
    if rules.exchange_trumps or trump is None:
        return hand
    return hand - hand.suit(trump)


def automatic_return(receiver_hand: CardSet, given: Card, contract: Contract) -> Card | None:
    """The card the receiver must return for ``given``, or None when they may choose (a trump).

    ``receiver_hand`` is before receiving; the highest card of the suit counting the card just
    received comes back, so a card with nothing higher above it returns to its giver.
    """
    if given.suit == contract.trump:
        return None
    return receiver_hand.suit(given.suit).with_card(given).highest()
