"""Which cards may be played to a trick and who wins it: thin wrappers over the Cython core,
so the legality logic exists once."""

from __future__ import annotations

from collections.abc import Sequence

from ts358 import _core358
from ts358.cards import Card, CardSet
from ts358.rules import Contract, VoidRule

__all__ = ["legal_cards", "trick_winner"]


def legal_cards(
    hand: CardSet, trick: Sequence[Card], contract: Contract, void: VoidRule = VoidRule.HOUSE
) -> CardSet:
    """The cards of ``hand`` that may be played to ``trick`` (cards so far, leader first)."""
    return CardSet(_core358.legal_moves(hand.mask, [c.id for c in trick], contract, void))


def trick_winner(trick: Sequence[Card], contract: Contract) -> int:
    """Index in ``trick`` (0 = leader) of the card that wins it."""
    return _core358.trick_winner([c.id for c in trick], contract)
