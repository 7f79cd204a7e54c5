"""Why a decision is refused, as a value: the reason and the card, suit or games it is about.

The engine raises :class:`~ts358.deal.IllegalDecision` with a :class:`Refusal`, whose
``str`` is the engine's English text; a front end translates the same value into the
player's language (:meth:`ts358.table.texts.Translator.refusal`), so the reasons exist
once. :func:`verify` checks an answer against a seat's view before it reaches the engine
(pokerkit's ``verify_*``): the terminal and the browser say why at once, in the player's
words, and the engine's own checks (:meth:`ts358.deal.Deal.verify`) come to the same value.

>>> from ts358.cards import Card, CardSet
>>> refusal = play_refusal(1, Card.parse("2H"), CardSet.parse("2H 5S"), CardSet.parse("5S"),
...                        lead=Card.parse("KS").suit, trump=None)
>>> refusal.reason, str(refusal)
(<Reason.MUST_FOLLOW: 'must-follow'>, "seat 1 can't play 2H: must follow spades")
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterable, Sequence

from ts358.cards import Card, CardSet, Suit
from ts358.rules import Contract
from ts358.view import DecisionKind, SeatView

__all__ = [
    "Reason",
    "Refusal",
    "discard_refusal",
    "game_refusal",
    "give_refusal",
    "malformed",
    "play_refusal",
    "return_refusal",
    "verify",
]


class Reason(enum.Enum):
    """What makes a decision illegal."""

    MATCH_OVER = "match-over"  # no decision is due: the match is finished
    DEAL_OVER = "deal-over"  # no decision is due
    NOT_DUE = "not-due"  # a decision of another kind is due (``due``)
    MALFORMED = "malformed"  # not an answer of the kind due (``detail`` says what it was)
    GAME_USED = "game-used"  # ``game`` was played in the match already (``games``: left)
    NOT_HELD = "not-held"  # ``card`` is not in the seat's hand
    TRUMP_NOT_GIVEN = "trump-not-given"  # ``card`` is a trump, which these rules don't exchange
    DISCARD_TWICE = "discard-twice"  # ``card`` is named twice in a discard
    DISCARD_COUNT = "discard-count"  # a discard of ``count`` cards, not four
    MUST_FOLLOW = "must-follow"  # ``card`` does not follow ``suit``, which the seat holds
    MUST_TRUMP = "must-trump"  # void in ``suit``, the seat must play a ``trump``


_DOING = {
    DecisionKind.CHOOSE: "choose a game",
    DecisionKind.GIVE: "give a card",
    DecisionKind.RETURN: "return a card",
    DecisionKind.DISCARD: "discard",
    DecisionKind.PLAY: "play a card",
}
_VERB = {
    DecisionKind.GIVE: "give",
    DecisionKind.RETURN: "return",
    DecisionKind.DISCARD: "discard",
    DecisionKind.PLAY: "play",
}


def _doing(kind: DecisionKind | None) -> str:
    return _DOING[kind] if kind is not None else "decide"


@dataclasses.dataclass(frozen=True, slots=True)
class Refusal:
    """Why ``seat``'s decision of ``kind`` is refused; the fields the reason names are set.

    Attributes:
        reason: what makes it illegal.
        seat: whose decision (None when no decision is due).
        kind: the decision the seat was making (None when no decision is due).
        card: the card refused.
        suit: the suit led, which had to be followed (or trumped, being void).
        trump: the trump suit (:attr:`Reason.MUST_TRUMP`).
        game: the game refused.
        games: the games the seat has left (:attr:`Reason.GAME_USED`).
        count: how many cards a discard had.
        due: the decision due instead (:attr:`Reason.NOT_DUE`).
        detail: what was given instead of an answer (:attr:`Reason.MALFORMED`).
    """

    reason: Reason
    seat: int | None = None
    kind: DecisionKind | None = None
    card: Card | None = None
    suit: Suit | None = None
    trump: Suit | None = None
    game: Contract | None = None
    games: frozenset[Contract] = frozenset()
    count: int = 0
    due: DecisionKind | None = None
    detail: str = ""

    def __str__(self) -> str:
        reason, seat, card = self.reason, self.seat, self.card
        verb = _VERB.get(self.kind, "decide") if self.kind is not None else "decide"
        doing = f"seat {seat} can't {verb} {card}"
        if reason is Reason.MATCH_OVER:
            return "the match is over: no decision is due"
        if reason is Reason.DEAL_OVER:
            return "the deal is over: no decision is due"
        if reason is Reason.NOT_DUE:
            return f"seat {seat} is to {_doing(self.due)} now, not to {_doing(self.kind)}"
        if reason is Reason.MALFORMED:
            return f"seat {seat} to {_doing(self.kind)}: {self.detail}"
        if reason is Reason.GAME_USED:
            left = ", ".join(g.label for g in sorted(self.games))
            label = self.game.label if self.game is not None else "?"
            return f"seat {seat} has already played {label} in this match (games left: {left})"
        if reason is Reason.NOT_HELD:
            return f"{doing}: not in their hand"
        if reason is Reason.TRUMP_NOT_GIVEN:
            return f"{doing}: trump cards are not exchanged under these rules"
        if reason is Reason.DISCARD_TWICE:
            return f"seat {seat} can't discard {card} twice"
        if reason is Reason.DISCARD_COUNT:
            return f"seat {seat} discarding: exactly 4 different cards, not {self.count}"
        lead = self.suit.name.lower() if self.suit is not None else "?"
        if reason is Reason.MUST_FOLLOW:
            return f"{doing}: must follow {lead}"
        return f"{doing}: void in {lead}, must play a trump"


def game_refusal(seat: int, game: Contract, games_left: frozenset[Contract]) -> Refusal | None:
    """Why ``seat`` may not choose ``game`` with ``games_left``, or None."""
    if game in games_left:
        return None
    return Refusal(
        Reason.GAME_USED, seat, DecisionKind.CHOOSE, game=game, games=frozenset(games_left)
    )


def give_refusal(seat: int, card: Card, hand: CardSet, giveable: CardSet) -> Refusal | None:
    """Why ``seat`` may not give ``card`` from ``hand`` (of which it may give ``giveable``),
    or None."""
    if card in giveable:
        return None
    reason = Reason.NOT_HELD if card not in hand else Reason.TRUMP_NOT_GIVEN
    return Refusal(reason, seat, DecisionKind.GIVE, card=card)


def return_refusal(seat: int, card: Card, hand: CardSet) -> Refusal | None:
    """Why ``seat`` may not return ``card`` for a trump received (any card held may), or
    None."""
    if card in hand:
        return None
    return Refusal(Reason.NOT_HELD, seat, DecisionKind.RETURN, card=card)


def discard_refusal(seat: int, cards: Iterable[Card], hand: CardSet) -> Refusal | None:
    """Why ``cards`` (a set, or a list as typed, which may name a card twice) may not be
    ``seat``'s discard from ``hand``, or None."""
    named: Sequence[Card] = list(cards)
    for card in named:
        if card not in hand:
            return Refusal(Reason.NOT_HELD, seat, DecisionKind.DISCARD, card=card)
    seen: set[Card] = set()
    for card in named:
        if card in seen:
            return Refusal(Reason.DISCARD_TWICE, seat, DecisionKind.DISCARD, card=card)
        seen.add(card)
    if len(named) != 4:
        return Refusal(Reason.DISCARD_COUNT, seat, DecisionKind.DISCARD, count=len(named))
    return None


def play_refusal(
    seat: int, card: Card, hand: CardSet, legal: CardSet, lead: Suit | None, trump: Suit | None
) -> Refusal | None:
    """Why ``seat`` may not play ``card`` from ``hand`` when ``legal`` are the cards it may
    play, the trick's led suit is ``lead`` (None: it leads) and ``trump`` the trump suit,
    or None."""
    if card in legal:
        return None
    if card not in hand or lead is None:
        return Refusal(Reason.NOT_HELD, seat, DecisionKind.PLAY, card=card)
    reason = Reason.MUST_FOLLOW if hand.suit(lead) else Reason.MUST_TRUMP
    return Refusal(reason, seat, DecisionKind.PLAY, card=card, suit=lead, trump=trump)


def malformed(seat: int, kind: DecisionKind, detail: str) -> Refusal:
    """A value that is not an answer of ``kind`` (``detail`` says what it was)."""
    return Refusal(Reason.MALFORMED, seat, kind, detail=detail)


def verify(view: SeatView, answer: object) -> Refusal | None:
    """Why ``answer`` (a :data:`~ts358.deal.Answer`; a list of cards for a discard as
    typed) may not be the decision due in ``view``, or None if the rules allow it. The
    same reasons the engine gives for the same answer."""
    kind, seat = view.kind, view.seat
    if kind is None:
        return Refusal(Reason.DEAL_OVER)
    if kind is DecisionKind.CHOOSE:
        if not isinstance(answer, Contract):
            return malformed(seat, kind, f"expected a game, not {answer!r}")
        return game_refusal(seat, answer, view.available[seat])
    if kind is DecisionKind.DISCARD:
        if isinstance(answer, Card) or not isinstance(answer, (CardSet, list, tuple)):
            return malformed(seat, kind, f"expected four cards, not {answer!r}")
        if not all(isinstance(c, Card) for c in answer):
            return malformed(seat, kind, f"expected four cards, not {answer!r}")
        return discard_refusal(seat, answer, view.options)
    if kind is DecisionKind.GIVE and answer is None:
        return None
    if not isinstance(answer, Card):
        return malformed(seat, kind, f"expected a card, not {answer!r}")
    if kind is DecisionKind.GIVE:
        return give_refusal(seat, answer, view.hand, view.options)
    if kind is DecisionKind.RETURN:
        return return_refusal(seat, answer, view.options)
    game = view.game
    lead = view.trick[0].suit if view.trick else None
    trump = game.trump if game is not None else None
    return play_refusal(seat, answer, view.hand, view.options, lead, trump)
