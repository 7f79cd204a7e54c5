"""What one seat knows: the immutable view the engine builds fresh for each decision.

A view is built from the engine's state for one seat only, so it never holds another seat's
hidden cards: the hand is the seat's own (the chooser's first six before the choice), the
talon appears once shown, exchanged cards only for the two seats involved (the third learns
the count), discards only for the chooser.

A view shares nothing changeable with the engine: its card sets and rules are new objects
each time (``object.__setattr__`` can change even a frozen object), everything else is a
tuple, a number, a card or an enum member. The engine checks every answer against its own
state, never against a view.
"""

from __future__ import annotations

import enum
from typing import NamedTuple

from ts358.cards import Card, CardSet
from ts358.exchange import ExchangeStep
from ts358.rules import Contract, Role, Rules, Seating

__all__ = ["DecisionKind", "SeatView", "Trick"]


class DecisionKind(enum.Enum):
    """The kinds of decision a player is asked for."""

    CHOOSE = "choose"  # pick a game: a Contract from view.available
    GIVE = "give"  # give a card from view.options to view.give_to, or None to stop
    RETURN = "return"  # return any card of view.options to view.give_to for view.received
    DISCARD = "discard"  # discard exactly four cards of view.options
    PLAY = "play"  # play a card of view.options (the legal cards)

    def __str__(self) -> str:
        return self.value


class Trick(NamedTuple):
    """A finished trick: seats are match seats, cards in play order from the leader.

    A NamedTuple, which nothing can change in place: the engine's own tricks go into every
    view, not copies of them."""

    leader: int
    cards: tuple[Card, ...]
    winner: int

    def seat_of(self, index: int) -> int:
        """The seat that played ``cards[index]``."""
        return (self.leader + index) % 3


class _SeatViewFields(NamedTuple):
    """The fields of :class:`SeatView` (a NamedTuple class can't take a second base)."""

    seat: int
    deal_number: int
    dealer: int
    rules: Rules
    hand: CardSet
    available: tuple[frozenset[Contract], ...]  # games each seat may still choose (public)
    totals: tuple[int, int, int]  # match totals before this deal
    previous_scores: tuple[int, int, int] | None  # the previous deal's scores; None in deal 1
    game: Contract | None = None
    exchanges: tuple[ExchangeStep, ...] = ()  # steps this seat gave or received
    others_exchanged: int = 0  # how many cards changed hands between the other two
    talon: CardSet | None = None  # once this seat has seen it (everyone's, if turned)
    discard: CardSet | None = None  # the chooser's own discards
    tricks: tuple[Trick, ...] = ()
    leader: int | None = None  # leader of the trick in progress
    trick: tuple[Card, ...] = ()  # cards of the trick in progress, leader first
    taken: tuple[int, int, int] = (0, 0, 0)  # tricks taken by seat
    # The decision asked of this seat, if any, and what it may answer.
    kind: DecisionKind | None = None
    options: CardSet = CardSet()
    give_to: int | None = None  # the seat the card given or returned goes to
    gives_left: int = 0
    received: Card | None = None
    talon_taken: bool = False  # whether the chooser has taken the talon (public)


class SeatView(_SeatViewFields, Seating):
    """One seat's knowledge at one moment of a deal. Seats are 0-2, fixed for the match.

    A NamedTuple rather than a frozen dataclass: one is built for every decision, and a
    tuple builds several times faster while being just as immutable and hashable.
    """

    __slots__ = ()

    @property
    def role(self) -> Role:
        """This seat's role in the deal."""
        return self.role_of(self.seat)

    @property
    def played(self) -> CardSet:
        """Every card played so far in this deal, the trick in progress included."""
        mask = 0
        for trick in self.tricks:
            for card in trick.cards:
                mask |= card.mask
        for card in self.trick:
            mask |= card.mask
        return CardSet(mask)

    def games_left(self, seat: int) -> frozenset[Contract]:
        """The games ``seat`` has left as a table shows them: the game being played is used
        up already, though the engine counts it only at the end of the deal."""
        playing = {self.game} if self.game is not None and seat == self.chooser else set()
        return self.available[seat] - playing
