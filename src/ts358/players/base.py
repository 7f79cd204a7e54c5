"""The player protocol: one method per kind of decision, each given only the seat's view.

The engine calls :meth:`Player.decide`, which dispatches on ``view.kind``. A player never
sees the engine, so it can't read hidden cards; it can only answer from its view.
"""

from __future__ import annotations

from ts358.cards import Card, CardSet
from ts358.deal import Answer, DealResult
from ts358.match import Match
from ts358.rules import Contract
from ts358.view import DecisionKind, SeatView

__all__ = ["Player"]


class Player:
    """Base class of computer (and later interactive) players; subclasses override the five
    decision methods. ``view.options`` always holds the cards allowed for the decision.

    What the engine promises: an honest player sees only what its seat may know, and no
    player can change what it should not. A view shares nothing changeable with the engine
    (changing its objects, even with ``object.__setattr__``, changes only the player's own
    copy), every answer is checked against the engine's own state (which keeps its own copy
    of a card set answered), and a player's seed is derived from the match seed apart from
    the deals (:func:`ts358.match.player_seed`). But a player runs in the engine's process,
    so Python's introspection (:mod:`gc`, stack frames) still reaches the engine, and
    rewriting the library (its modules, the one object of each card or enum member) changes
    every match in the process: no check in the engine can stop that. A player to be kept
    from it must run in another process and see only its views.
    """

    name: str = "player"

    def decide(self, view: SeatView) -> Answer:
        kind = view.kind
        if kind is DecisionKind.PLAY:
            return self.play(view)
        if kind is DecisionKind.CHOOSE:
            return self.choose_game(view)
        if kind is DecisionKind.GIVE:
            return self.give(view)
        if kind is DecisionKind.RETURN:
            return self.choose_return(view)
        if kind is DecisionKind.DISCARD:
            return self.discard(view)
        raise ValueError(f"no decision is asked in this view (kind {kind!r})")

    def choose_game(self, view: SeatView) -> Contract:
        """A game from ``view.available[view.seat]``, seeing only the first six cards."""
        raise NotImplementedError

    def give(self, view: SeatView) -> Card | None:
        """A card of ``view.options`` to give to ``view.give_to``, or None to stop giving."""
        raise NotImplementedError

    def choose_return(self, view: SeatView) -> Card:
        """Any card of ``view.options`` to return for the trump ``view.received``."""
        raise NotImplementedError

    def discard(self, view: SeatView) -> CardSet:
        """Exactly four cards of ``view.options`` (the chooser's 20) to discard."""
        raise NotImplementedError

    def play(self, view: SeatView) -> Card:
        """A legal card: one of ``view.options``."""
        raise NotImplementedError

    def reseed(self, key: str) -> None:
        """Start the player's random choices again from ``key`` (a session reseeds its
        computer players before each decision, so that a resumed match goes on as the
        uninterrupted one would have). A player that draws nothing at random ignores it."""

    def deal_over(self, seat: int, result: DealResult) -> None:
        """The deal this player sat in at ``seat`` is over (most players need not know)."""

    def match_over(self, seat: int, match: Match) -> None:
        """Called once when the match the player sat in (at ``seat``) is finished, with the
        finished match (most players need not know; a bot is sent its record, redacted to
        what the seat may know)."""

    def close(self) -> None:
        """The player is done: it frees what it holds (a bot's process; most hold nothing).
        Called again, nothing."""
