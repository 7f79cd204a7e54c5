"""Deal the cards one seat cannot see, consistently with everything that seat knows.

This is the heart of the sampling computer player (perfect-information Monte Carlo): each
sample is a complete layout of the hidden cards that could be the real one, given the seat's
:class:`~ts358.view.SeatView` and nothing else. What a view lets us infer:

- cards the seat holds, has seen played, or saw in the shown talon are not hidden, except that
  talon cards not yet played are the chooser's (in hand or in the face-down discard);
- a seat that did not follow the suit led holds none of it; under the house rule, one that
  played neither the suit led nor a trump in a trump game holds no trump either;
- a card the seat gave in the exchange is the receiver's (unless it came straight back), and a
  card that came back for it means the receiver held nothing higher in that suit;
- before the choice, the chooser's ten unseen cards are dealt like everyone else's.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from ts358.cards import DECK_MASK, Card, CardSet
from ts358.rules import Role, VoidRule, triple
from ts358.view import DecisionKind, SeatView

__all__ = ["Constraints", "SamplingError", "World", "constraints_of", "sample_worlds"]

# Where a hidden card can be: the hand of a seat (0-2), or the pile of cards out of play that
# the seat does not see (the chooser's discard; before the choice, the talon).
PILE = 3


class SamplingError(RuntimeError):
    """No layout of the hidden cards fits the view (a bug: the real deal always fits)."""


@dataclass(frozen=True, slots=True)
class World:
    """One complete guess: every seat's current hand, by seat, and the unseen pile."""

    hands: tuple[CardSet, CardSet, CardSet]
    pile: CardSet


@dataclass(frozen=True, slots=True)
class Constraints:
    """What the seat knows, reduced to: which hidden card may lie where, and how many go where.

    ``allowed[place]`` is a bitboard of the hidden cards that may lie in ``place`` (seats 0-2,
    PILE); ``sizes[place]`` is how many hidden cards it must receive; ``fixed[place]`` the
    cards already known to be there.
    """

    hidden: int
    allowed: tuple[int, ...]  # by place: seats 0-2, then PILE
    sizes: tuple[int, ...]
    fixed: tuple[int, ...]

    def admits(self, world: World) -> bool:
        """Whether ``world`` agrees with the constraints (used to check the real deal fits)."""
        places = (*world.hands, world.pile)
        for place, cards in enumerate(places):
            extra = cards.mask & ~self.fixed[place]
            if extra & ~self.allowed[place] or extra & ~self.hidden:
                return False
            if extra.bit_count() != self.sizes[place]:
                return False
        return True


def _suit_bits(suit: int) -> int:
    return 0x1FFF << (16 * suit)


def constraints_of(view: SeatView) -> Constraints:
    """Reduce a seat's view to placement constraints on the cards it cannot see."""
    me = view.seat
    chooser = view.chooser
    played = view.played.mask
    own = view.hand.mask
    fixed = [0, 0, 0, 0]
    fixed[me] = own

    # How many cards each seat holds now: 16 minus the tricks it has played to.
    counts = [16 - len(view.tricks)] * 3
    if view.leader is not None:
        for index in range(len(view.trick)):
            counts[(view.leader + index) % 3] -= 1
    if view.kind is DecisionKind.RETURN:
        # Mid-step: the trump received is in this hand, out of the giver's.
        assert view.give_to is not None
        counts[me] += 1
        counts[view.give_to] -= 1
    before_choice = view.game is None or (view.kind is DecisionKind.CHOOSE)
    # The discard is made once the play starts (the chooser knows their own); between the
    # talon taken and the discard the chooser holds 20 cards and nothing is out of play.
    discarded = view.discard is not None if me == chooser else view.leader is not None
    holding_talon = view.talon_taken and not discarded
    if before_choice or not view.talon_taken:
        # The talon, face down (the chooser may see six of their sixteen before choosing;
        # under Talon.DISCARD_FIRST they discard before taking it).
        pile_size = 4
    elif me == chooser or holding_talon:
        pile_size = 0  # own discard is known (or the discard is still to be made)
    else:
        pile_size = 4  # the chooser's discard
    if holding_talon:
        counts[chooser] = 20 - len(view.tricks)

    known = own | played
    if me == chooser and view.discard is not None:
        known |= view.discard.mask

    allowed = [DECK_MASK, DECK_MASK, DECK_MASK, DECK_MASK]
    if not (before_choice and me == chooser and view.rules.sees < 16):
        allowed[me] = 0  # a seat knows its own hand, except the chooser's unseen ten
    if pile_size == 0:
        allowed[PILE] = 0

    # The shown talon went to the chooser: hand or discard, nowhere else.
    talon_left = view.talon.mask & ~played if view.talon is not None else 0
    if talon_left and me != chooser:
        for seat in range(3):
            if seat != chooser:
                allowed[seat] &= ~talon_left
    # Before the talon is taken, the pile is the talon; after, the discard, which the
    # chooser made from hand, so the same exchange facts apply to it as to the chooser's hand.
    discard_owner = chooser if view.talon_taken else None
    # A talon taken unseen may hold the cards an exchange showed the chooser lacked.
    unseen_talon = chooser if view.talon_taken and view.talon is None else None

    went: dict[Card, int] = {}  # each card we gave and did not get back: the seat it went to
    for step in view.exchanges:
        other = step.receiver if step.giver == me else step.giver
        # When the receiver also exchanged with the third seat (two plus, one minus), cards
        # may have moved on between those two, unseen: then what we gave proves nothing.
        if step.giver == me and not view.others_exchanged:
            # A card sent back (at once, or later for a trump) is ours again, and may have
            # been given again, to the other seat.
            went[step.given] = step.receiver
            went.pop(step.returned, None)
            if view.game is not None and step.given.suit != view.game.trump:
                # The automatic return is the receiver's highest card of the suit (counting
                # the card received): they held nothing above it then, and receive nothing
                # hidden later except, for the chooser, the shown talon.
                above = _suit_bits(step.returned.suit) & ~((2 << step.returned.id) - 1)
                above &= ~talon_left
                if other == unseen_talon:
                    continue
                allowed[other] &= ~above
                if other == discard_owner:
                    allowed[PILE] &= ~above
        # Cards we received came from `other`, and we hold or played them: nothing to place.
    for card, seat in went.items():
        # The receiver keeps what we gave, unless since played (or, the chooser, discarded).
        _pin(fixed, allowed, card.mask & ~known, seat, discard_owner)

    # Voids shown in play.
    trump = view.game.trump if view.game is not None else None
    tricks = [(t.leader, t.cards) for t in view.tricks]
    if view.leader is not None and view.trick:
        tricks.append((view.leader, view.trick))
    for leader, cards in tricks:
        led = cards[0].suit
        for index in range(1, len(cards)):
            seat = (leader + index) % 3
            card = cards[index]
            if card.suit != led:
                allowed[seat] &= ~_suit_bits(led)
                if trump is None or view.rules.void is VoidRule.KURNIK:
                    continue
                if card.suit != trump:  # a void seat plays a trump when it holds one
                    allowed[seat] &= ~_suit_bits(trump)
                elif view.rules.void is VoidRule.OVERTRUMP:
                    # It plays above the trick's trumps when it can: a trump played below
                    # them says it holds none above them.
                    best = max((c.id for c in cards[:index] if c.suit == trump), default=-1)
                    if card.id < best:
                        allowed[seat] &= ~(_suit_bits(trump) & ~((2 << best) - 1))

    for place in range(4):
        fixed[place] &= ~played
    hidden = DECK_MASK & ~known & ~(fixed[0] | fixed[1] | fixed[2] | fixed[3])
    sizes = [counts[seat] - fixed[seat].bit_count() for seat in range(3)]
    sizes.append(pile_size - fixed[PILE].bit_count())
    return Constraints(
        hidden=hidden,
        allowed=tuple(a & hidden for a in allowed),
        sizes=tuple(sizes),
        fixed=tuple(fixed),
    )


def _pin(
    fixed: list[int], allowed: list[int], cards: int, seat: int, discard_owner: int | None
) -> None:
    """Record that ``cards`` belong to ``seat`` (its hand, or its discard if it is the chooser)."""
    if not cards:
        return
    for place in range(4):
        if place != seat and not (place == PILE and seat == discard_owner):
            allowed[place] &= ~cards
    if seat != discard_owner:
        fixed[seat] |= cards


def _deal(c: Constraints, rng: random.Random, tries: int = 200) -> World:
    """Place the hidden cards: most constrained first, each where room is left, at random."""
    cards = [i for i in range(64) if c.hidden >> i & 1]
    options = {i: [p for p in range(4) if c.allowed[p] >> i & 1] for i in cards}
    for _ in range(tries):
        rng.shuffle(cards)
        cards.sort(key=lambda i: len(options[i]))
        room = list(c.sizes)
        placed = [0, 0, 0, 0]
        for card in cards:
            places = [p for p in options[card] if room[p] > 0]
            if not places:
                break
            weights = [room[p] for p in places]
            place = rng.choices(places, weights)[0]
            room[place] -= 1
            placed[place] |= 1 << card
        else:
            hands = triple(CardSet(placed[s] | c.fixed[s]) for s in range(3))
            return World(hands=hands, pile=CardSet(placed[PILE] | c.fixed[PILE]))
    raise SamplingError("no layout of the hidden cards fits the view")


def sample_worlds(view: SeatView, count: int, rng: random.Random) -> Iterator[World]:
    """``count`` independent random layouts of the hidden cards that fit ``view``."""
    constraints = constraints_of(view)
    if sum(constraints.sizes) != constraints.hidden.bit_count():
        raise SamplingError(
            f"{constraints.hidden.bit_count()} hidden cards for {sum(constraints.sizes)} places"
        )
    for _ in range(count):
        yield _deal(constraints, rng)


def role_hands(view: SeatView, world: World) -> tuple[int, int, int]:
    """The world's hands as bitboards in role order (chooser, third, dealer), for the solver."""
    return triple(world.hands[view.seat_of(role)].mask for role in Role)
