"""One deal as a step-by-step state machine (RULES.md, One deal).

The engine never calls a player: :meth:`Deal.pending` says whose decision is due, of what
kind, with that seat's view, and :meth:`Deal.apply` takes the decision. A blocking loop, an
interactive prompt and a replayed record all drive it the same way. An illegal decision
raises :class:`IllegalDecision` before anything changes, so the caller can simply ask again.
"""

from __future__ import annotations

import dataclasses
import enum
import random
from collections.abc import Iterable, Sequence

from ts358.cards import DECK, Card, CardSet
from ts358.exchange import ExchangeStep, Transfer, automatic_return, giveable, plan_exchange
from ts358.rules import Contract, Role, Rules, Seating
from ts358.tricks import legal_cards, trick_winner
from ts358.view import DecisionKind, SeatView, Trick

__all__ = [
    "IllegalDecision",
    "DealSetup",
    "Pending",
    "DealResult",
    "Deal",
    "Decision",
    "ALL_GAMES",
    "format_decision",
]

ALL_GAMES = frozenset(Contract)
_EMPTY = CardSet()
TRICKS_PER_DEAL = 16

Decision = Contract | Card | CardSet | Iterable[Card] | str | None
"""What :meth:`Deal.apply` accepts: a Contract (choose), a Card or None to stop (give), a Card
(return, play), four Cards (discard); or any of these in notation (``"hearts"``, ``"4C"``,
``"stop"``, ``"AS KS 2D 3D"``)."""


class IllegalDecision(ValueError):
    """A decision the rules don't allow now; the message says what and why. Nothing changed."""


@dataclasses.dataclass(frozen=True, slots=True)
class DealSetup(Seating):
    """The cards of one deal: each seat's 16 cards in the order dealt, and the talon."""

    number: int
    dealer: int
    hands: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
    talon: tuple[Card, ...]

    def __post_init__(self) -> None:
        if self.dealer not in (0, 1, 2):
            raise ValueError(f"dealer must be seat 0-2, not {self.dealer!r}")
        if len(self.hands) != 3 or any(len(h) != 16 for h in self.hands) or len(self.talon) != 4:
            raise ValueError("a deal is 16 cards to each of three seats and a talon of 4")
        cards = [c for h in self.hands for c in h] + list(self.talon)
        if not all(isinstance(c, Card) for c in cards) or CardSet(cards) != DECK:
            raise ValueError("a deal must use each of the 52 cards exactly once")

    @classmethod
    def shuffled(cls, number: int, dealer: int, rng: random.Random) -> DealSetup:
        """Shuffle and deal one card at a time clockwise from the chooser; the last 4 are
        the talon. The chooser's first six are the first six cards dealt to them."""
        deck = list(DECK)
        rng.shuffle(deck)
        hands: list[tuple[Card, ...]] = [(), (), ()]
        for role in Role:
            hands[role.seat(dealer)] = tuple(deck[role:48:3])
        return cls(number, dealer, (hands[0], hands[1], hands[2]), tuple(deck[48:]))


@dataclasses.dataclass(frozen=True, slots=True)
class Pending:
    """The decision due: which seat, what kind, and that seat's view."""

    seat: int
    kind: DecisionKind
    view: SeatView


@dataclasses.dataclass(frozen=True, slots=True)
class DealResult(Seating):
    """Everything that happened in a finished deal; seats are match seats."""

    number: int
    dealer: int
    hands: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
    talon: tuple[Card, ...]
    game: Contract
    exchanges: tuple[ExchangeStep, ...]
    discard: CardSet
    tricks: tuple[Trick, ...]
    taken: tuple[int, int, int]
    scores: tuple[int, int, int]


class _Phase(enum.Enum):
    CHOOSE = 1
    EXCHANGE = 2
    DISCARD = 3
    PLAY = 4
    DONE = 5


def _as_card(value: object, what: str) -> Card:
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        try:
            return Card.parse(value)
        except ValueError as exc:
            raise IllegalDecision(f"{what}: {exc}") from None
    raise IllegalDecision(f"{what}: expected a card, not {value!r}")


def format_decision(kind: DecisionKind, value: object) -> str:
    """A decision in the notation :meth:`Deal.apply` reads back (used by snapshots)."""
    if kind is DecisionKind.GIVE and value is None:
        return "stop"
    if kind is DecisionKind.DISCARD:
        return " ".join(str(c) for c in CardSet(value))  # type: ignore[arg-type]
    return str(value)


class Deal(Seating):
    """One deal from the deal to the score, driven by :meth:`pending` and :meth:`apply`."""

    def __init__(
        self,
        setup: DealSetup,
        rules: Rules = Rules(),
        *,
        available: Sequence[frozenset[Contract]] | None = None,
        previous_scores: tuple[int, int, int] | None = None,
        totals: tuple[int, int, int] = (0, 0, 0),
    ) -> None:
        self.setup = setup
        self.rules = rules
        self.available = tuple(available) if available is not None else (ALL_GAMES,) * 3
        if not self.available[setup.chooser]:
            raise ValueError(f"seat {setup.chooser} has no game left to choose")
        # The first deal of a match has no previous scores, hence no exchange.
        self.previous_scores = previous_scores if setup.number > 1 else None
        self.totals = totals
        self.dealer = setup.dealer
        self._hands = [CardSet(h).mask for h in setup.hands]
        self._phase = _Phase.CHOOSE
        self._game: Contract | None = None
        self._plan: tuple[Transfer, ...] = ()
        self._transfer = 0  # index into _plan
        self._given = 0  # cards given so far in the current transfer
        self._awaiting: Card | None = None  # a trump given, its return still to be chosen
        self._exchanges: list[ExchangeStep] = []
        self._talon = CardSet(setup.talon)
        self._talon_shown = False
        self._discard: CardSet | None = None
        self._tricks: list[Trick] = []
        self._leader = self.chooser
        self._trick: list[Card] = []
        self._taken = [0, 0, 0]
        # Decisions as applied (kind, value); formatted only when asked for.
        self._log: list[tuple[DecisionKind, object]] = []
        # The legal cards of the pending play, shared by the view and the check in apply.
        self._legal: CardSet | None = None

    # ------------------------------------------------------------------ queries

    @property
    def game(self) -> Contract | None:
        return self._game

    @property
    def done(self) -> bool:
        return self._phase is _Phase.DONE

    @property
    def decisions(self) -> tuple[str, ...]:
        """The decisions applied so far, in notation; applying them to a fresh deal with the
        same setup restores this state."""
        return tuple(format_decision(kind, value) for kind, value in self._log)

    @property
    def exchanges(self) -> tuple[ExchangeStep, ...]:
        """The exchange steps so far (engine-side truth: all cards, for records and tests)."""
        return tuple(self._exchanges)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The finished tricks so far."""
        return tuple(self._tricks)

    @property
    def trick(self) -> tuple[Card, ...]:
        """The cards of the trick in progress, leader first."""
        return tuple(self._trick)

    @property
    def talon_taken(self) -> bool:
        """Whether the talon has been shown and taken (it is then in the chooser's hand)."""
        return self._talon_shown

    @property
    def discard(self) -> CardSet | None:
        """The chooser's discards once made (engine-side truth)."""
        return self._discard

    def hand(self, seat: int) -> CardSet:
        """The cards ``seat`` holds now (engine-side truth, not a view)."""
        return CardSet(self._hands[seat])

    def _due(self) -> tuple[int, DecisionKind] | None:
        phase = self._phase
        if phase is _Phase.PLAY:
            return (self._leader + len(self._trick)) % 3, DecisionKind.PLAY
        if phase is _Phase.CHOOSE:
            return self.chooser, DecisionKind.CHOOSE
        if phase is _Phase.EXCHANGE:
            transfer = self._plan[self._transfer]
            if self._awaiting is not None:
                return transfer.receiver, DecisionKind.RETURN
            return transfer.giver, DecisionKind.GIVE
        if phase is _Phase.DISCARD:
            return self.chooser, DecisionKind.DISCARD
        return None

    def _legal_now(self, hand: int) -> CardSet:
        if self._legal is None:
            assert self._game is not None
            self._legal = legal_cards(CardSet(hand), self._trick, self._game, self.rules.void)
        return self._legal

    def _options(self, seat: int, kind: DecisionKind, hand: CardSet) -> CardSet:
        if kind is DecisionKind.PLAY:
            return self._legal_now(hand.mask)
        if kind is DecisionKind.GIVE:
            assert self._game is not None
            return giveable(hand, self._game, self.rules)
        if kind is DecisionKind.CHOOSE:
            return CardSet()
        return hand

    def pending(self) -> Pending | None:
        """The decision due now, or None when the deal is over."""
        due = self._due()
        if due is None:
            return None
        seat, kind = due
        return Pending(seat, kind, self._view(seat, kind))

    def view(self, seat: int) -> SeatView:
        """What ``seat`` knows now; it carries the decision's options if one is due from it."""
        due = self._due()
        return self._view(seat, due[1] if due is not None and due[0] == seat else None)

    def _view(self, seat: int, kind: DecisionKind | None) -> SeatView:
        if self._phase is _Phase.CHOOSE and seat == self.chooser:
            hand = CardSet(self.setup.hands[seat][:6])
        else:
            hand = CardSet(self._hands[seat])
        mine = tuple(s for s in self._exchanges if seat in (s.giver, s.receiver))
        give_to = None
        gives_left = 0
        received = None
        if kind is DecisionKind.GIVE:
            transfer = self._plan[self._transfer]
            give_to = transfer.receiver
            gives_left = transfer.count - self._given
        elif kind is DecisionKind.RETURN:
            received = self._awaiting
        return SeatView(
            seat=seat,
            deal_number=self.setup.number,
            dealer=self.dealer,
            rules=self.rules,
            hand=hand,
            available=self.available,
            totals=self.totals,
            previous_scores=self.previous_scores,
            game=self._game,
            exchanges=mine,
            others_exchanged=len(self._exchanges) - len(mine),
            talon=self._talon if self._talon_shown else None,
            discard=self._discard if seat == self.chooser else None,
            tricks=tuple(self._tricks),
            leader=self._leader if self._phase is _Phase.PLAY else None,
            trick=tuple(self._trick),
            taken=(self._taken[0], self._taken[1], self._taken[2]),
            kind=kind,
            options=self._options(seat, kind, hand) if kind is not None else _EMPTY,
            give_to=give_to,
            gives_left=gives_left,
            received=received,
        )

    def result(self) -> DealResult:
        """The finished deal; raises ValueError while it is still being played."""
        if self._phase is not _Phase.DONE:
            raise ValueError("the deal is not finished")
        assert self._game is not None and self._discard is not None
        taken = (self._taken[0], self._taken[1], self._taken[2])
        game = self._game
        scores = tuple(self.role_of(s).score(game, taken[s]) for s in range(3))
        return DealResult(
            number=self.setup.number,
            dealer=self.dealer,
            hands=self.setup.hands,
            talon=self.setup.talon,
            game=game,
            exchanges=tuple(self._exchanges),
            discard=self._discard,
            tricks=tuple(self._tricks),
            taken=taken,
            scores=(scores[0], scores[1], scores[2]),
        )

    def position(self):  # type: ignore[no-untyped-def]
        """The current play position as a :class:`ts358.position.Position` (roles, not seats),
        for the solver: hands by role, the leader, the trick in progress, tricks taken."""
        from ts358.position import Position  # the solver side is optional for the engine

        if self._phase is not _Phase.PLAY or self._game is None:
            raise ValueError("a position exists only while the tricks are being played")

        def role(seat: int) -> Role:
            return Role((seat - self.dealer - 1) % 3)

        seats = [(self.dealer + 1 + r) % 3 for r in Role]
        return Position(
            contract=self._game,
            void=self.rules.void,
            hands=tuple(CardSet(self._hands[s]) for s in seats),
            leader=role(self._leader),
            trick=tuple(self._trick),
            taken=tuple(self._taken[s] for s in seats),
        )

    # ------------------------------------------------------------------ decisions

    def apply(self, decision: Decision) -> None:
        """Apply the pending decision; raises IllegalDecision (state unchanged) if not allowed."""
        due = self._due()
        if due is None:
            raise IllegalDecision("the deal is over: no decision is due")
        seat, kind = due
        if kind is DecisionKind.PLAY:
            self._play(seat, decision)
        elif kind is DecisionKind.CHOOSE:
            self._choose(seat, decision)
        elif kind is DecisionKind.GIVE:
            self._give(seat, decision)
        elif kind is DecisionKind.RETURN:
            self._return(seat, decision)
        else:
            self._discard_cards(seat, decision)

    def _choose(self, seat: int, decision: Decision) -> None:
        if isinstance(decision, str):
            try:
                decision = Contract.parse(decision)
            except ValueError as exc:
                raise IllegalDecision(f"seat {seat} choosing a game: {exc}") from None
        if not isinstance(decision, Contract):
            raise IllegalDecision(f"seat {seat} choosing a game: expected a game, not {decision!r}")
        if decision not in self.available[seat]:
            left = ", ".join(c.label for c in sorted(self.available[seat]))
            raise IllegalDecision(
                f"seat {seat} has already played {decision.label} in this match "
                f"(games left: {left})"
            )
        self._log.append((DecisionKind.CHOOSE, decision))
        self._game = decision
        self._plan = tuple(
            t
            for t in plan_exchange(self.previous_scores, self.dealer, decision, self.rules)
            if t.count > 0
        )
        self._phase = _Phase.EXCHANGE
        self._advance_exchange()

    def _advance_exchange(self) -> None:
        # Skip finished transfers (and a giver with nothing they may give); then the talon.
        assert self._game is not None
        while self._transfer < len(self._plan):
            transfer = self._plan[self._transfer]
            hand = CardSet(self._hands[transfer.giver])
            if self._given < transfer.count and giveable(hand, self._game, self.rules):
                return
            self._transfer += 1
            self._given = 0
        self._talon_shown = True
        self._hands[self.chooser] |= self._talon.mask
        self._phase = _Phase.DISCARD

    def _give(self, seat: int, decision: Decision) -> None:
        assert self._game is not None
        transfer = self._plan[self._transfer]
        if decision is None or (isinstance(decision, str) and decision.strip().lower() == "stop"):
            self._log.append((DecisionKind.GIVE, None))
            self._transfer += 1
            self._given = 0
            self._advance_exchange()
            return
        card = _as_card(decision, f"seat {seat} giving a card")
        hand = CardSet(self._hands[seat])
        if card not in hand:
            raise IllegalDecision(f"seat {seat} can't give {card}: not in their hand")
        if card not in giveable(hand, self._game, self.rules):
            raise IllegalDecision(
                f"seat {seat} can't give {card}: trump cards are not exchanged under these rules"
            )
        receiver = transfer.receiver
        back = automatic_return(CardSet(self._hands[receiver]), card, self._game)
        self._log.append((DecisionKind.GIVE, card))
        self._hands[seat] &= ~card.mask
        self._hands[receiver] |= card.mask
        if back is None:
            self._awaiting = card
            return
        self._complete_step(card, back)

    def _return(self, seat: int, decision: Decision) -> None:
        card = _as_card(decision, f"seat {seat} returning a card")
        if not self._hands[seat] & card.mask:
            raise IllegalDecision(f"seat {seat} can't return {card}: not in their hand")
        given = self._awaiting
        assert given is not None
        self._log.append((DecisionKind.RETURN, card))
        self._awaiting = None
        self._complete_step(given, card)

    def _complete_step(self, given: Card, back: Card) -> None:
        transfer = self._plan[self._transfer]
        self._hands[transfer.receiver] &= ~back.mask
        self._hands[transfer.giver] |= back.mask
        self._exchanges.append(ExchangeStep(transfer.giver, transfer.receiver, given, back))
        self._given += 1
        self._advance_exchange()

    def _discard_cards(self, seat: int, decision: Decision) -> None:
        what = f"seat {seat} discarding"
        try:
            if isinstance(decision, str):
                cards = CardSet.parse(decision)
            elif isinstance(decision, CardSet):
                cards = decision
            elif isinstance(decision, Iterable):
                cards = CardSet(decision)  # type: ignore[arg-type]
            else:
                raise IllegalDecision(f"{what}: expected four cards, not {decision!r}")
        except (ValueError, TypeError, AttributeError) as exc:
            if isinstance(exc, IllegalDecision):
                raise
            raise IllegalDecision(f"{what}: {exc}") from None
        if len(cards) != 4:
            raise IllegalDecision(f"{what}: exactly 4 different cards, not {len(cards)}")
        missing = cards - CardSet(self._hands[seat])
        if missing:
            raise IllegalDecision(f"{what}: {' '.join(map(str, missing))} not in their hand")
        self._log.append((DecisionKind.DISCARD, cards))
        self._hands[seat] &= ~cards.mask
        self._discard = cards
        self._phase = _Phase.PLAY

    def _play(self, seat: int, decision: Decision) -> None:
        game = self._game
        assert game is not None
        card = _as_card(decision, f"seat {seat} playing")
        mask = self._hands[seat]
        if not mask & card.mask:
            raise IllegalDecision(f"seat {seat} can't play {card}: not in their hand")
        legal = self._legal_now(mask)
        if card not in legal:
            lead = self._trick[0].suit
            if CardSet(mask).suit(lead):
                why = f"must follow {lead.name.lower()}"
            else:
                why = f"void in {lead.name.lower()}, must play a trump"
            raise IllegalDecision(f"seat {seat} can't play {card}: {why}")
        self._log.append((DecisionKind.PLAY, card))
        self._legal = None
        self._hands[seat] = mask & ~card.mask
        self._trick.append(card)
        if len(self._trick) < 3:
            return
        winner = (self._leader + trick_winner(self._trick, game)) % 3
        self._tricks.append(Trick(self._leader, tuple(self._trick), winner))
        self._taken[winner] += 1
        self._leader = winner
        self._trick = []
        if len(self._tricks) == TRICKS_PER_DEAL:
            self._phase = _Phase.DONE
