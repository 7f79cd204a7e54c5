"""The exchange of cards (docs/rules.md#the-exchange): who gives how many cards to
whom, in which order, and which card comes back automatically.

Everything here is a pure function of the previous deal's scores and the new deal's seats, so
the deal engine, the players and the tests share one statement of the rules.
"""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

from ts358.cards import Card, CardSet
from ts358.rules import Contract, ExchangeOrder, Role, Rules

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
    contract: Contract | None,
    rules: Rules,
) -> tuple[Transfer, ...]:
    """The transfers of the exchange, in order; empty when there is none.

    ``previous_scores`` are the previous deal's scores by seat (None in a match's first deal);
    ``dealer`` is the new deal's dealer seat, which fixes the new targets; ``contract`` the
    game chosen (None before the choice). An exchange before the choice is planned the same
    whatever game follows it, so a finished deal's exchange can be planned from its game.
    """
    held = rules.exchanges_before(None) or (
        contract is not None and rules.exchanges_before(contract)
    )
    if previous_scores is None or not held:
        return ()
    plus = [s for s in range(3) if previous_scores[s] > 0]
    minus = [s for s in range(3) if previous_scores[s] < 0]
    if not plus or not minus:
        return ()
    # Role order is target order: chooser highest, third, dealer lowest. Under
    # ExchangeOrder.MOST_UP the size of the plus (minus) comes first, the targets break ties.
    most = rules.exchange_order is ExchangeOrder.MOST_UP
    if len(plus) == 1:
        # One plus, one or two minus: each minus player gets as many cards as their minus,
        # the lower new target first (the higher Role value).
        minus.sort(key=lambda s: (previous_scores[s] if most else 0, -Role.of_seat(s, dealer)))
        return tuple(Transfer(plus[0], s, -previous_scores[s]) for s in minus)
    # Two plus, one minus: each gives their plus, the higher new target first.
    plus.sort(key=lambda s: (-previous_scores[s] if most else 0, Role.of_seat(s, dealer)))
    return tuple(Transfer(s, minus[0], previous_scores[s]) for s in plus)


def giveable(hand: CardSet, contract: Contract | None, rules: Rules) -> CardSet:
    """The cards a plus player may give: any, except trumps when ``exchange_trumps`` is off
    (``contract`` None: before the choice, when no suit is trump)."""
    trump = contract.trump if contract is not None else None
    if rules.exchange_trumps or trump is None:
        return hand
    return hand - hand.suit(trump)


def automatic_return(receiver_hand: CardSet, given: Card, contract: Contract | None) -> Card | None:
    """The card the receiver must return for ``given``, or None when they may choose (a trump).

    ``receiver_hand`` is before receiving; the highest card of the suit counting the card just
    received comes back, so a card with nothing higher above it returns to its giver. Before
    the choice (``contract`` None) no card is a trump.
    """
    if contract is not None and given.suit == contract.trump:
        return None
    return receiver_hand.suit(given.suit).with_card(given).highest()
