"""One deal as a step-by-step state machine (docs/rules.md#one-deal).

The engine never calls a player: :meth:`Deal.pending` says whose decision is due, of what
kind, with that seat's view, and a typed method takes it (:meth:`Deal.choose`,
:meth:`~Deal.give`, :meth:`~Deal.stop_giving`, :meth:`~Deal.return_card`,
:meth:`~Deal.discard`, :meth:`~Deal.play`), or :meth:`Deal.apply` in notation, or
:meth:`Deal.apply_answer` as a :class:`~ts358.players.base.Player` answered. Each returns
what happened (:class:`Applied`). A blocking loop, an interactive prompt and a replayed
record all drive it the same way. An illegal decision raises :class:`IllegalDecision` before
anything changes, so the caller can simply ask again.

>>> import random
>>> deal = Deal(DealSetup.shuffled(1, dealer=0, rng=random.Random(3)))
>>> pending = deal.pending()
>>> pending.seat, pending.kind, len(pending.view.hand)   # the chooser sees six cards
(1, <DecisionKind.CHOOSE: 'choose'>, 6)
>>> deal.apply("no-trump").decision
'no-trump'
>>> deal.pending().kind                                  # no exchange in a first deal
<DecisionKind.DISCARD: 'discard'>
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from ts358.cards import DECK, Card, CardSet
from ts358.exchange import ExchangeStep, Transfer, automatic_return, giveable, plan_exchange
from ts358.position import Position
from ts358.refusal import (
    Reason,
    Refusal,
    discard_refusal,
    game_refusal,
    give_refusal,
    malformed,
    play_refusal,
    return_refusal,
    verify,
)
from ts358.rules import TRICKS_PER_DEAL, Contract, Role, Rules, Seating, Talon
from ts358.tricks import legal_cards, trick_winner
from ts358.view import DecisionKind, SeatView, Trick

__all__ = [
    "Answer",
    "Applied",
    "Deal",
    "DealResult",
    "DealSetup",
    "Decider",
    "IllegalDecision",
    "Pending",
    "format_decision",
]

_T = TypeVar("_T")

Answer = Contract | Card | CardSet | None
"""A player's answer, as :meth:`Player.decide <ts358.players.base.Player.decide>` returns it:
a game (choose), a card or None to stop (give), a card (return, play), four cards (discard)."""


class IllegalDecision(ValueError):
    """A decision the rules don't allow now; nothing changed. :attr:`refusal` says why as a
    value (:class:`~ts358.refusal.Refusal`, which a front end translates), the message in
    English."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(str(refusal))
        self.refusal = refusal


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
        return cls.dealt(number, dealer, deck)

    @classmethod
    def dealt(cls, number: int, dealer: int, deck: Sequence[Card]) -> DealSetup:
        """The 52 cards of ``deck`` dealt in order, one at a time clockwise from the
        chooser; the last 4 are the talon."""
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


class Decider(Protocol):
    """Anything that answers a seat's decisions from its view, as
    :class:`~ts358.players.base.Player` does (:meth:`Match.run <ts358.match.Match.run>`)."""

    def decide(self, view: SeatView) -> Answer: ...


@dataclasses.dataclass(frozen=True, slots=True)
class Applied:
    """What one decision did.

    Attributes:
        seat: who decided.
        kind: what was decided.
        decision: the decision in notation, as :attr:`Deal.decisions` lists it.
        step: the exchange step it completed (a card given and the card back), if any.
        trick: the trick it completed, if any.
        result: the finished deal, when it was the deal's last decision.
    """

    seat: int
    kind: DecisionKind
    decision: str
    step: ExchangeStep | None = None
    trick: Trick | None = None
    result: DealResult | None = None


class _Phase(enum.Enum):
    CHOOSE = 1
    EXCHANGE = 2
    DISCARD = 3
    PLAY = 4
    DONE = 5


def _parsed(parse: Callable[[str], _T], text: str, seat: int, kind: DecisionKind) -> _T:
    try:
        return parse(text)
    except ValueError as exc:
        raise IllegalDecision(malformed(seat, kind, str(exc))) from None


def _typed(value: object, type_: type[_T], seat: int, kind: DecisionKind, expected: str) -> _T:
    # The typed entry points check at run time too: a player's answer is never trusted.
    if not isinstance(value, type_):
        raise IllegalDecision(malformed(seat, kind, f"expected {expected}, not {value!r}"))
    return value


def _refuse(refusal: Refusal | None) -> None:
    if refusal is not None:
        raise IllegalDecision(refusal)


def format_decision(kind: DecisionKind, value: object) -> str:
    """A decision in the notation :meth:`Deal.apply` reads back (used by snapshots)."""
    if kind is DecisionKind.GIVE and value is None:
        return "stop"
    if isinstance(value, CardSet):
        return " ".join(str(c) for c in value)
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
        # A private copy of the rules; each view gets its own copy of it (ts358.view).
        self._view_rules = Rules(*dataclasses.astuple(rules))
        self.available = tuple(available) if available is not None else (rules.contracts,) * 3
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
        self._talon = CardSet(setup.talon).mask
        self._talon_taken = False
        self._discard: CardSet | None = None
        self._tricks: list[Trick] = []
        self._leader = self.seat_of(rules.first_leader)
        self._trick: list[Card] = []
        self._taken = [0, 0, 0]
        # Decisions as applied (kind, value); formatted only when asked for.
        self._log: list[tuple[DecisionKind, object]] = []
        # The legal cards of the pending play (a mask: the view gets a CardSet of its own).
        self._legal: int | None = None
        if rules.exchanges_before(None):  # Sergeant Major: the exchange comes first
            self._plan = self._transfers(None)
            self._phase = _Phase.EXCHANGE
            self._advance_exchange()

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
        """Whether the chooser has taken the talon (it is then in their hand or discard)."""
        return self._talon_taken

    def talon_seen_by(self, seat: int) -> bool:
        """Whether ``seat`` has seen the talon: everyone once it is turned (house rules),
        only the chooser once taken unseen (docs/rules.md#the-talon)."""
        if not self._talon_taken:
            return False
        return self.rules.talon is Talon.SHOWN or seat == self.chooser

    @property
    def discarded(self) -> CardSet | None:
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

    def _legal_now(self, hand: int) -> int:
        if self._legal is None:
            assert self._game is not None
            legal = legal_cards(CardSet(hand), self._trick, self._game, self.rules.void)
            self._legal = legal.mask
        return self._legal

    def _options(self, seat: int, kind: DecisionKind, hand: CardSet) -> CardSet:
        # Always a new CardSet (or the view's own hand): never an object the engine keeps.
        if kind is DecisionKind.PLAY:
            return CardSet(self._legal_now(hand.mask))
        if kind is DecisionKind.GIVE:
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
        # Every changeable object of the view is new (see ts358.view): a player that changes
        # one changes only its own copy.
        if self._phase is _Phase.CHOOSE and seat == self.chooser and self.rules.sees < 16:
            hand = CardSet(self.setup.hands[seat][: self.rules.sees])
        else:
            hand = CardSet(self._hands[seat])
        mine = tuple(s for s in self._exchanges if seat in (s.giver, s.receiver))
        discard = None
        if self._discard is not None and seat == self.chooser:
            discard = CardSet(self._discard.mask)
        give_to = None
        gives_left = 0
        received = None
        if kind is DecisionKind.GIVE:
            transfer = self._plan[self._transfer]
            give_to = transfer.receiver
            gives_left = transfer.count - self._given
        elif kind is DecisionKind.RETURN:
            received = self._awaiting
            give_to = self._plan[self._transfer].giver  # who handed it over: it goes back
        return SeatView(
            seat=seat,
            deal_number=self.setup.number,
            dealer=self.dealer,
            rules=copy.copy(self._view_rules),
            hand=hand,
            available=self.available,
            totals=self.totals,
            previous_scores=self.previous_scores,
            game=self._game,
            exchanges=mine,
            others_exchanged=len(self._exchanges) - len(mine),
            talon=CardSet(self._talon) if self.talon_seen_by(seat) else None,
            talon_taken=self._talon_taken,
            discard=discard,
            tricks=tuple(self._tricks),
            leader=self._leader if self._phase is _Phase.PLAY else None,
            trick=tuple(self._trick),
            taken=(self._taken[0], self._taken[1], self._taken[2]),
            kind=kind,
            options=self._options(seat, kind, hand) if kind is not None else CardSet(),
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
        scores = tuple(self.rules.score(self.role_of(s), game, taken[s]) for s in range(3))
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

    def position(self) -> Position:
        """The current play position (roles, not seats) for the solver: hands by role, the
        leader, the trick in progress, tricks taken. ValueError before the play starts."""
        if self._phase is not _Phase.PLAY or self._game is None:
            raise ValueError("a position exists only while the tricks are being played")
        seats = [self.seat_of(r) for r in Role]
        hands = [CardSet(self._hands[s]) for s in seats]
        taken = [self._taken[s] for s in seats]
        return Position(
            contract=self._game,
            void=self.rules.void,
            hands=(hands[0], hands[1], hands[2]),
            leader=self.role_of(self._leader),
            trick=tuple(self._trick),
            taken=(taken[0], taken[1], taken[2]),
        )

    # ------------------------------------------------------------------ decisions

    def _expect(self, kind: DecisionKind) -> int:
        """The seat due to make a decision of ``kind``; IllegalDecision if none is due."""
        seat, due_kind = self._due_now()
        if due_kind is not kind:
            raise IllegalDecision(Refusal(Reason.NOT_DUE, seat, kind, due=due_kind))
        return seat

    def _due_now(self) -> tuple[int, DecisionKind]:
        due = self._due()
        if due is None:
            raise IllegalDecision(Refusal(Reason.DEAL_OVER))
        return due

    def verify(self, answer: object) -> Refusal | None:
        """Why ``answer`` (an :data:`Answer`) may not be the decision due now, or None if
        :meth:`apply_answer` would take it (the reasons it would raise, as values)."""
        due = self._due()
        if due is None:
            return Refusal(Reason.DEAL_OVER)
        return verify(self._view(due[0], due[1]), answer)

    def _applied(
        self,
        seat: int,
        kind: DecisionKind,
        value: object,
        step: ExchangeStep | None = None,
        trick: Trick | None = None,
    ) -> Applied:
        self._log.append((kind, value))
        result = self.result() if self._phase is _Phase.DONE else None
        return Applied(seat, kind, format_decision(kind, value), step, trick, result)

    def apply(self, text: str) -> Applied:
        """Apply the pending decision written in notation: a game (``"hearts"``,
        ``"no-trump"``), a card (``"4C"``, ``"10h"``), ``"stop"`` to stop giving, four cards
        to discard (``"AS KS 2D 3D"``). IllegalDecision (state unchanged) if not allowed."""
        seat, kind = self._due_now()
        if not isinstance(text, str):
            raise IllegalDecision(malformed(seat, kind, f"expected notation (text), not {text!r}"))
        if kind is DecisionKind.CHOOSE:
            return self.choose(_parsed(Contract.parse, text, seat, kind))
        if kind is DecisionKind.DISCARD:
            return self.discard(_parsed(CardSet.parse, text, seat, kind))
        if kind is DecisionKind.GIVE and text.strip().lower() == "stop":
            return self.stop_giving()
        card = _parsed(Card.parse, text, seat, kind)
        if kind is DecisionKind.GIVE:
            return self.give(card)
        if kind is DecisionKind.RETURN:
            return self.return_card(card)
        return self.play(card)

    def apply_answer(self, answer: Answer) -> Applied:
        """Apply a player's answer to the pending decision (:data:`Answer`: None stops
        giving). IllegalDecision (state unchanged) if it is not an answer the rules allow."""
        kind = self._due_now()[1]
        value: Any = answer  # each entry point checks the type of what it is given
        if kind is DecisionKind.CHOOSE:
            return self.choose(value)
        if kind is DecisionKind.GIVE:
            return self.stop_giving() if value is None else self.give(value)
        if kind is DecisionKind.RETURN:
            return self.return_card(value)
        if kind is DecisionKind.DISCARD:
            return self.discard(value)
        return self.play(value)

    def choose(self, game: Contract) -> Applied:
        """The chooser picks the game (one they have not used up in the match)."""
        seat = self._expect(DecisionKind.CHOOSE)
        game = _typed(game, Contract, seat, DecisionKind.CHOOSE, "a game")
        _refuse(game_refusal(seat, game, self.available[seat]))
        applied = self._applied(seat, DecisionKind.CHOOSE, game)
        self._game = game
        if self.rules.exchanges_before(None):
            self._to_talon()
        else:
            self._plan = self._transfers(game)
            self._phase = _Phase.EXCHANGE
            self._advance_exchange()
        return applied

    def _transfers(self, game: Contract | None) -> tuple[Transfer, ...]:
        plan = plan_exchange(self.previous_scores, self.dealer, game, self.rules)
        return tuple(t for t in plan if t.count > 0)

    def _advance_exchange(self) -> None:
        # Skip finished transfers (and a giver with nothing they may give); then the choice
        # (an exchange before it) or the talon.
        while self._transfer < len(self._plan):
            transfer = self._plan[self._transfer]
            hand = CardSet(self._hands[transfer.giver])
            if self._given < transfer.count and giveable(hand, self._game, self.rules):
                return
            self._transfer += 1
            self._given = 0
        if self._game is None:
            self._phase = _Phase.CHOOSE
        else:
            self._to_talon()

    def _to_talon(self) -> None:
        # The chooser takes the talon (shown, or unseen by the others) and discards; or
        # discards first and takes it after (Talon.DISCARD_FIRST, in discard()).
        if self.rules.talon is not Talon.DISCARD_FIRST:
            self._take_talon()
        self._phase = _Phase.DISCARD

    def _take_talon(self) -> None:
        self._talon_taken = True
        self._hands[self.chooser] |= self._talon

    def stop_giving(self) -> Applied:
        """The plus player giving now gives no more cards."""
        seat = self._expect(DecisionKind.GIVE)
        applied = self._applied(seat, DecisionKind.GIVE, None)
        self._transfer += 1
        self._given = 0
        self._advance_exchange()
        return applied

    def give(self, card: Card) -> Applied:
        """The plus player gives ``card``; a non-trump comes back at once (the receiver's
        highest of its suit, counting it: :attr:`Applied.step`), a trump waits for
        :meth:`return_card`."""
        seat = self._expect(DecisionKind.GIVE)
        card = _typed(card, Card, seat, DecisionKind.GIVE, "a card")
        hand = CardSet(self._hands[seat])
        _refuse(give_refusal(seat, card, hand, giveable(hand, self._game, self.rules)))
        receiver = self._plan[self._transfer].receiver
        back = automatic_return(CardSet(self._hands[receiver]), card, self._game)
        self._hands[seat] &= ~card.mask
        self._hands[receiver] |= card.mask
        if back is None:
            self._awaiting = card
            return self._applied(seat, DecisionKind.GIVE, card)
        step = self._complete_step(card, back)
        return self._applied(seat, DecisionKind.GIVE, card, step=step)

    def return_card(self, card: Card) -> Applied:
        """The receiver of a trump returns ``card`` (any card of their hand)."""
        seat = self._expect(DecisionKind.RETURN)
        card = _typed(card, Card, seat, DecisionKind.RETURN, "a card")
        _refuse(return_refusal(seat, card, CardSet(self._hands[seat])))
        given = self._awaiting
        assert given is not None
        self._awaiting = None
        step = self._complete_step(given, card)
        return self._applied(seat, DecisionKind.RETURN, card, step=step)

    def _complete_step(self, given: Card, back: Card) -> ExchangeStep:
        transfer = self._plan[self._transfer]
        self._hands[transfer.receiver] &= ~back.mask
        self._hands[transfer.giver] |= back.mask
        step = ExchangeStep(transfer.giver, transfer.receiver, given, back)
        self._exchanges.append(step)
        self._given += 1
        self._advance_exchange()
        return step

    def discard(self, cards: CardSet) -> Applied:
        """The chooser discards four of their 20 cards, face down (of their 16, before
        taking the talon, under :attr:`Talon.DISCARD_FIRST <ts358.rules.Talon>`)."""
        seat = self._expect(DecisionKind.DISCARD)
        # The engine's own copy, checked and kept: the player could change its object later.
        cards = CardSet(_typed(cards, CardSet, seat, DecisionKind.DISCARD, "four cards").mask)
        _refuse(discard_refusal(seat, cards, CardSet(self._hands[seat])))
        self._hands[seat] &= ~cards.mask
        self._discard = cards
        if not self._talon_taken:
            self._take_talon()
        self._phase = _Phase.PLAY
        return self._applied(seat, DecisionKind.DISCARD, cards)

    def play(self, card: Card) -> Applied:
        """The seat to move plays ``card`` (following suit, trumping when the rules say)."""
        seat = self._expect(DecisionKind.PLAY)
        game = self._game
        assert game is not None
        card = _typed(card, Card, seat, DecisionKind.PLAY, "a card")
        mask = self._hands[seat]
        legal = self._legal_now(mask)
        if not legal & card.mask:
            lead = self._trick[0].suit if self._trick else None
            hand, options = CardSet(mask), CardSet(legal)
            _refuse(play_refusal(seat, card, hand, options, lead, game.trump))
        self._legal = None
        self._hands[seat] = mask & ~card.mask
        self._trick.append(card)
        if len(self._trick) < 3:
            return self._applied(seat, DecisionKind.PLAY, card)
        winner = (self._leader + trick_winner(self._trick, game)) % 3
        trick = Trick(self._leader, tuple(self._trick), winner)
        self._tricks.append(trick)
        self._taken[winner] += 1
        self._leader = winner
        self._trick = []
        if len(self._tricks) == TRICKS_PER_DEAL:
            self._phase = _Phase.DONE
        return self._applied(seat, DecisionKind.PLAY, card, trick=trick)
