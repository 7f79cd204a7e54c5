"""The rule-of-thumb player ("medium"): the hints of docs/rules.md#hints-for-play plus simple,
cheap card play.

- Game: from the first six cards, the longest suit as trump (high cards break ties), or
  no-trump with many high cards and no long suit, or no-tricks with low cards; only games the
  seat still has.
- Exchange: give low cards of suits without the ace (the ace may come back); for a trump
  received, return the lowest card of a short side suit.
- Discard: low cards of short side suits (to make voids for trumping); in no-tricks the
  highest cards.
- Play: in trump and no-trump games every trick is worth a point, so win as cheaply as
  possible when a card can win, otherwise play low. In no-tricks duck: the highest card that
  still loses, shed high cards when void, play low when leading.
"""

from __future__ import annotations

from ts358.cards import DECK, Card, CardSet, Suit
from ts358.players.base import Player
from ts358.rules import Contract
from ts358.tricks import trick_winner
from ts358.view import SeatView

__all__ = ["HeuristicPlayer"]

_POINTS = {12: 4, 11: 3, 10: 2, 9: 1}  # A K Q J


def _points(cards: CardSet) -> int:
    return sum(_POINTS.get(c.rank, 0) for c in cards)


def _game_values(six: CardSet) -> dict[Contract, float]:
    """A rough merit of each game for these six cards (higher is better)."""
    values: dict[Contract, float] = {}
    aces = sum(1 for c in six if c.rank == 12)
    for suit in Suit:
        cards = six.suit(suit)
        # Length counts most (trumps win tricks in other suits), then high trumps, then aces.
        values[Contract(suit.value)] = 2.0 * len(cards) + 0.5 * _points(cards) + 0.5 * aces
    longest = max(len(six.suit(s)) for s in Suit)
    values[Contract.NO_TRUMP] = _points(six) * 0.75 - 2.0 * max(0, longest - 2)
    low = sum(1 for c in six if c.rank <= 5)  # 2 to 7
    values[Contract.NO_TRICKS] = 2.0 * low - _points(six) - 2.0
    return values


class HeuristicPlayer(Player):
    name = "heuristic"

    def choose_game(self, view: SeatView) -> Contract:
        values = _game_values(view.hand)
        # The value first, then a fixed order so equal values don't depend on set ordering.
        return max(view.available[view.seat], key=lambda g: (values[g], -g.value))

    # ------------------------------------------------------------------ exchange

    def give(self, view: SeatView) -> Card | None:
        trump = view.game.trump if view.game is not None else None
        # A suit where the receiver sent my own card back holds nothing higher there: skip it.
        dry = {
            s.given.suit
            for s in view.exchanges
            if s.giver == view.seat and s.receiver == view.give_to and s.given is s.returned
        }
        side = [c for c in view.options if c.suit != trump and c.suit not in dry]
        if not side:
            return None
        no_ace = [c for c in side if Card(c.suit, 12) not in view.hand]
        pool = no_ace or side
        return min(pool, key=lambda c: (c.rank, len(view.hand.suit(c.suit))))

    def choose_return(self, view: SeatView) -> Card:
        trump = view.game.trump if view.game is not None else None
        side = [c for c in view.options if c.suit != trump] or list(view.options)
        return min(side, key=lambda c: (c.rank, len(view.hand.suit(c.suit))))

    # ------------------------------------------------------------------ discard

    def discard(self, view: SeatView) -> CardSet:
        hand = view.options
        if view.game is Contract.NO_TRICKS:
            order = sorted(hand, key=lambda c: (-c.rank, len(hand.suit(c.suit))))
            return CardSet(order[:4])
        trump = view.game.trump if view.game is not None else None

        def keep_value(c: Card) -> tuple[int, int, int]:
            # Trumps and aces last; otherwise shortest suits first, lowest cards first.
            return (c.suit == trump or c.rank == 12, len(hand.suit(c.suit)), c.rank)

        return CardSet(sorted(hand, key=keep_value)[:4])

    # ------------------------------------------------------------------ play

    def play(self, view: SeatView) -> Card:
        options = list(view.options)
        if len(options) == 1:
            return options[0]
        game = view.game
        assert game is not None
        if game is Contract.NO_TRICKS:
            return self._duck(view, options)
        return self._take(view, options)

    @staticmethod
    def _winners(view: SeatView, options: list[Card]) -> list[Card]:
        """The options that would be winning the trick once played (cheapest first)."""
        assert view.game is not None
        trick = list(view.trick)
        n = len(trick)
        wins = [c for c in options if trick_winner([*trick, c], view.game) == n]
        trump = view.game.trump
        return sorted(wins, key=lambda c: (c.suit == trump, c.rank))

    @staticmethod
    def _unseen(view: SeatView) -> CardSet:
        known = view.played | view.hand
        if view.discard is not None:
            known = known | view.discard
        return DECK - known

    def _take(self, view: SeatView, options: list[Card]) -> Card:
        unseen = self._unseen(view)

        def boss(card: Card) -> bool:
            higher = unseen.suit(card.suit)
            return not higher or higher.highest().rank < card.rank

        trump = view.game.trump if view.game is not None else None
        if not view.trick:
            bosses = [c for c in options if boss(c)]
            if bosses:
                # Side-suit winners before trumps: trumps are kept to ruff.
                return min(bosses, key=lambda c: (c.suit == trump, -c.rank))
            longest = max(options, key=lambda c: (c.suit != trump, len(view.options.suit(c.suit))))
            return view.options.suit(longest.suit).lowest()
        winners = self._winners(view, options)
        if winners:
            last = len(view.trick) == 2
            if last:
                return winners[0]
            safe = [c for c in winners if c.suit == trump or boss(c)]
            if safe:
                return safe[0]
        return self._lowest(view, options)

    @staticmethod
    def _lowest(view: SeatView, options: list[Card]) -> Card:
        trump = view.game.trump if view.game is not None else None
        return min(options, key=lambda c: (c.suit == trump, c.rank, len(view.hand.suit(c.suit))))

    def _duck(self, view: SeatView, options: list[Card]) -> Card:
        if not view.trick:
            return min(options, key=lambda c: (c.rank, -len(view.hand.suit(c.suit))))
        lead = view.trick[0].suit
        if options[0].suit != lead:
            # Void: get rid of the most dangerous card.
            return max(options, key=lambda c: (c.rank, -len(view.hand.suit(c.suit))))
        winners = set(self._winners(view, options))
        losers = [c for c in options if c not in winners]
        if losers:
            return max(losers, key=lambda c: c.rank)
        # Every card wins: if last, the trick is ours anyway, so shed the highest.
        return max(options) if len(view.trick) == 2 else min(options)
