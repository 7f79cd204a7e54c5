"""What happened at the table since a bot last heard from it, as ``events`` messages
(docs/bots.md#events): the game chosen, the talon shown, the bot's own exchange steps and
the count of the others', every card played and every trick's winner.

The events are worked out from the seat's own views (and, once a deal is over, from its
played cards, which the whole table saw), so they hold nothing the seat may not know; a
bot that reads only the ``decide`` views misses nothing either.
"""

from __future__ import annotations

from typing import Any

from ts358.deal import DealResult
from ts358.view import SeatView, Trick

__all__ = ["EventLog"]


class EventLog:
    """What one seat has been told of the deal in progress."""

    def __init__(self) -> None:
        self._reset(0)

    def _reset(self, deal: int) -> None:
        self._deal = deal
        self._game = False
        self._talon = False
        self._steps = 0
        self._others = 0
        self._cards = 0  # cards played that were told

    def since(self, view: SeatView) -> list[dict[str, Any]]:
        """The events of ``view``'s deal not told yet, in the order they happened (a new
        deal starts the count again)."""
        if view.deal_number != self._deal:
            self._reset(view.deal_number)
        events: list[dict[str, Any]] = []
        if view.game is not None and not self._game:
            self._game = True
            events.append({"event": "game", "chooser": view.chooser, "game": view.game.label})
        for step in view.exchanges[self._steps :]:
            events.append(
                {
                    "event": "exchange",
                    "giver": step.giver,
                    "receiver": step.receiver,
                    "given": str(step.given),
                    "returned": str(step.returned),
                }
            )
        self._steps = len(view.exchanges)
        if view.others_exchanged != self._others:
            self._others = view.others_exchanged
            events.append({"event": "others_exchanged", "count": view.others_exchanged})
        if view.talon is not None and not self._talon:
            self._talon = True
            events.append({"event": "talon", "cards": [str(c) for c in view.talon]})
        in_progress = None
        if view.trick:
            assert view.leader is not None
            in_progress = Trick(view.leader, view.trick, -1)
        events += self._plays(view.tricks, in_progress)
        return events

    def rest(self, result: DealResult) -> list[dict[str, Any]]:
        """The cards of the finished deal ``result`` not told yet (after the seat's last
        decision), each trick with its winner."""
        if result.number != self._deal:
            self._reset(result.number)
        return self._plays(result.tricks, None)

    def _plays(self, tricks: tuple[Trick, ...], current: Trick | None) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        played = 0
        for trick in (*tricks, *((current,) if current is not None else ())):
            for index, card in enumerate(trick.cards):
                played += 1
                if played > self._cards:
                    seat = trick.seat_of(index)
                    events.append({"event": "card", "seat": seat, "card": str(card)})
                    if index == 2:
                        events.append({"event": "trick", "winner": trick.winner})
        self._cards = played
        return events
