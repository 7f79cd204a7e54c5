"""One action space for every decision of a deal: 52 cards, six games, stop giving.

========  ===============================================================
action    meaning
========  ===============================================================
0-51      a card, ``suit * 13 + rank`` (spades 0-12, hearts 13-25,
          diamonds 26-38, clubs 39-51; 2 lowest, ace highest): the card to
          give, to return, to play, or the next of the four to discard
52-57     a game, ``52 + Contract.value``: spades, hearts, diamonds, clubs,
          no-trump, no-tricks
58        stop giving (a plus player who gives fewer cards than they may)
========  ===============================================================

The four discards are four decisions, one card each, so that one space serves every
decision; the card chosen first is out of the next decision's mask.

>>> action_of(Card.parse("AS")), action_of(Contract.NO_TRICKS), action_of(None)
(12, 57, 58)
>>> describe_action(13), describe_action(56)
('2H', 'no-trump')
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ts358.cards import Card
from ts358.rules import Contract
from ts358.view import DecisionKind, SeatView

__all__ = [
    "CARD_ACTIONS",
    "GAME_ACTIONS",
    "NUM_ACTIONS",
    "STOP",
    "action_of",
    "bits_actions",
    "card_of",
    "cards_mask",
    "describe_action",
    "game_of",
    "legal_bits",
    "mask_array",
]

CARD_ACTIONS = 52
"""Actions 0-51 are the cards."""
GAME_ACTIONS = 6
"""Actions 52-57 are the games."""
STOP = CARD_ACTIONS + GAME_ACTIONS
"""Action 58: stop giving."""
NUM_ACTIONS = STOP + 1
"""The size of the action space (59)."""

_CARD_BY_ACTION = tuple(Card(a // 13, a % 13) for a in range(CARD_ACTIONS))


def card_of(action: int) -> Card:
    """The card of a card action (0-51); ValueError for another action."""
    if not 0 <= action < CARD_ACTIONS:
        raise ValueError(f"action {action!r} is not a card (cards are 0-51)")
    return _CARD_BY_ACTION[action]


def game_of(action: int) -> Contract:
    """The game of a game action (52-57); ValueError for another action."""
    if not CARD_ACTIONS <= action < STOP:
        raise ValueError(f"action {action!r} is not a game (games are 52-57)")
    return Contract(action - CARD_ACTIONS)


def action_of(decision: Card | Contract | None) -> int:
    """The action of a card, a game, or None (stop giving)."""
    if decision is None:
        return STOP
    if isinstance(decision, Contract):
        return CARD_ACTIONS + decision.value
    if isinstance(decision, Card):
        return int(decision.suit) * 13 + int(decision.rank)
    raise TypeError(f"not a card, a game or None: {decision!r}")


def describe_action(action: int) -> str:
    """The action in ts358's notation: ``AS``, ``no-trump``, ``stop``."""
    if action == STOP:
        return "stop"
    if CARD_ACTIONS <= action < STOP:
        return game_of(action).label
    return str(card_of(action))


def cards_mask(mask: int) -> int:
    """A card bitboard (16 bits per suit, :class:`~ts358.cards.CardSet`'s layout) as the
    52 bits of the card actions (bit ``a`` set for each card action ``a`` of the set)."""
    return (
        (mask & 0x1FFF)
        | ((mask >> 3) & (0x1FFF << 13))
        | ((mask >> 6) & (0x1FFF << 26))
        | ((mask >> 9) & (0x1FFF << 39))
    )


def legal_bits(view: SeatView, picked: int = 0) -> int:
    """The actions open to the seat of ``view`` now, as bits (bit ``a`` for action ``a``;
    0 if no decision is due from it). ``picked``: the discards already picked (a card
    bitboard), out of the next discard's choice."""
    kind = view.kind
    if kind is DecisionKind.PLAY or kind is DecisionKind.RETURN:
        return cards_mask(view.options.mask)
    if kind is DecisionKind.CHOOSE:
        return sum(1 << (CARD_ACTIONS + c.value) for c in view.available[view.seat])
    if kind is DecisionKind.GIVE:
        return cards_mask(view.options.mask) | 1 << STOP
    if kind is DecisionKind.DISCARD:
        return cards_mask(view.options.mask & ~picked)
    return 0


def mask_array(bits: int) -> npt.NDArray[np.int8]:
    """Action bits (:func:`legal_bits`) as the 0/1 action mask of :data:`NUM_ACTIONS`."""
    return np.unpackbits(
        np.frombuffer(bits.to_bytes(8, "little"), np.uint8), count=NUM_ACTIONS, bitorder="little"
    ).view(np.int8)


def bits_actions(bits: int) -> list[int]:
    """The actions set in ``bits``, in order."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out
