"""A table: one match, its seats (people, ts358's players, bots), saved as it goes.

:class:`Table` knows no front end: the terminal (:mod:`ts358.terminal.play`) and the
browser (:mod:`ts358.web.table`) both play their matches through it, so a match goes on
alike in either (the same seeds for the computer players, the same moments of the save).
It is synchronous and does no I/O but its save and the statistics; a server calls it
under its own lock and runs :meth:`Table.think` and :meth:`Table.analyse` on worker
threads. A program can drive it alone::

    table = Table(saved, save_path=None, humans=[0])
    while not table.match.done:
        if (pending := table.computer_due()) is not None:
            table.apply_computer(pending, table.think(pending))
        elif table.waiting:
            table.go_on(0)
        else:
            table.decide(0, my_answer(table.view(0)))

A person's decision is checked against their own view (:func:`ts358.refusal.verify`) and
refused with the reason as a value (:class:`Refused`), which the front end says in the
person's language. The save is written when the table opens, right after a person's
decision, when a person's decision becomes due (with the computer players' decisions made
since) and at the end of each deal, so that a process killed at any moment loses at most
the answer being made.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ts358.analysis.review import DealReview, review_deal
from ts358.bots.seat import DEFAULT_SECONDS, Fault
from ts358.cards import Card, CardSet
from ts358.deal import Answer, Applied, DealResult, IllegalDecision, Pending
from ts358.match import Match
from ts358.players import Player
from ts358.refusal import Refusal, verify
from ts358.rules import Contract
from ts358.table.history import entry_from_match, record_match
from ts358.table.saves import SavedMatch, SaveLock, save
from ts358.table.seats import ComputerSeat
from ts358.view import SeatView

__all__ = ["Refused", "Table", "TableReason"]


class TableReason(enum.Enum):
    """Why a table takes no decision from a seat now (the rules' reasons are
    :class:`~ts358.refusal.Refusal`)."""

    FINISHED = "finished"  # the match is over, or the table closed
    BETWEEN_DEALS = "between-deals"  # a person has still to go on after the last deal
    NOT_YOUR_TURN = "not-your-turn"  # no decision is due from this seat
    MADE_ALREADY = "made-already"  # the computer player's decision was made meanwhile


class Refused(ValueError):
    """A decision the table does not take; :attr:`reason` says why (the rules' reason, or
    the table's). Nothing changed."""

    def __init__(self, reason: Refusal | TableReason) -> None:
        super().__init__(str(reason) if isinstance(reason, Refusal) else reason.value)
        self.reason = reason


class Table:
    """A match at a table of people and computer players.

    Args:
        saved: the match and its settings (a new one, or a save resumed); ``saved.human``
            is the seat of whoever opened the table, whose statistics the match counts in.
        save_path: where the match is saved as it goes; None: not saved (tests, benches).
        humans: the seats played by people; the others are computer players of
            ``saved.level``, or what ``opponents`` names for them.
        lock: the save's lock, held while the table is open (released at the end of the
            match or by :meth:`close`).
        stats: add the finished match to the statistics of :mod:`ts358.table.history`.
        opponents: who plays a computer seat, by seat: a level, a bot (``cmd:COMMAND``,
            docs/bots.md) or a player made already (a remote bot's seat).
        bot_seconds: the bots' time control, seconds for each decision.
        keeper: where the save goes instead of ``save_path`` (a database: called with the
            match whenever the save is due, as the file would be written; it raises
            WriteError, one line, if it can't keep it).
    """

    def __init__(
        self,
        saved: SavedMatch,
        save_path: Path | None,
        humans: Iterable[int],
        *,
        lock: SaveLock | None = None,
        stats: bool = True,
        opponents: Mapping[int, str | Player] | None = None,
        bot_seconds: float = DEFAULT_SECONDS,
        keeper: Callable[[SavedMatch], None] | None = None,
    ) -> None:
        self.saved = saved
        self.keeper = keeper
        self.bot_seconds = bot_seconds
        self.match: Match = saved.match
        self.save_path = save_path
        self.humans = frozenset(humans)
        if not self.humans or not self.humans <= {0, 1, 2}:
            raise ValueError(f"a table has 1-3 human seats (0-2), not {sorted(self.humans)}")
        self.host = saved.human if saved.human in self.humans else min(self.humans)
        self.lock = lock
        self.stats = stats
        seed = self.match.seed or 0
        chosen = opponents or {}
        self.computers = {
            s: ComputerSeat(chosen.get(s, saved.level), seed, s, bot_seconds)
            for s in range(3)
            if s not in self.humans
        }
        self.step = len(self.match.snapshot().decisions)
        self.waiting: set[int] = set()  # human seats still to go on after the last deal
        self.reviews: dict[int, DealReview] = {}
        self.stats_error: str | None = None  # why the statistics were not updated
        self._written = -1
        self.closed = False
        self.keep()

    # ------------------------------------------------------------------ seats

    def view(self, seat: int) -> SeatView | None:
        """What ``seat`` knows of the deal in progress (None once the match is over)."""
        deal = self.match.deal
        return deal.view(seat) if deal is not None else None

    def due_view(self, seat: int) -> SeatView:
        """``seat``'s view when a decision is due from it (to decide, or to ask advice on);
        :class:`Refused` otherwise."""
        if self.match.done or self.closed:
            raise Refused(TableReason.FINISHED)
        if self.waiting:
            raise Refused(TableReason.BETWEEN_DEALS)
        view = self.view(seat)
        if view is None or view.kind is None:
            raise Refused(TableReason.NOT_YOUR_TURN)
        return view

    def seat_computer(self, seat: int, level: str | None = None) -> None:
        """A computer player of ``level`` (default: the match's) takes person ``seat``'s
        place, from the decision due now (a person who left an online table). Seeded as
        every computer seat is, so the match goes on as it would have with the computer
        there from the start."""
        if seat not in self.humans or len(self.humans) == 1:
            raise ValueError(f"seat {seat} is not a person's seat that a computer can take")
        self.humans = self.humans - {seat}
        self.waiting.discard(seat)
        self.computers[seat] = ComputerSeat(
            level or self.saved.level, self.match.seed or 0, seat, self.bot_seconds
        )
        if self.host == seat:
            self.host = min(self.humans)

    def seat_person(self, seat: int) -> None:
        """A person takes computer seat ``seat`` (back), from the decision due now."""
        if self.computers.pop(seat, None) is None:
            raise ValueError(f"seat {seat} is not a computer's seat")
        # Not closed: it may be thinking on a worker thread (its answer is refused then,
        # apply_computer); it is freed with the last reference to it.
        self.humans = self.humans | {seat}

    # ------------------------------------------------------------------ decisions

    def computer_due(self) -> Pending | None:
        """The computer player's decision due now, if any (none while people read a deal's
        summary)."""
        if self.waiting:
            return None
        pending = self.match.pending()
        if pending is None or pending.seat not in self.computers:
            return None
        return pending

    def think(self, pending: Pending) -> Answer:
        """The computer player's answer to ``pending`` (slow for a hard player: a server
        calls it on a worker thread; it reads only the player and the view)."""
        return self.computers[pending.seat].decide(pending.view, self.step)

    def apply_computer(self, pending: Pending, answer: Answer) -> DealResult | None:
        """Apply a computer player's answer to ``pending``; the finished deal if it was the
        deal's last decision. Refused if the table has moved on meanwhile."""
        now = self.match.pending()
        if (
            self.closed
            or now is None
            or now.seat != pending.seat
            or now.kind is not pending.kind
            or pending.seat not in self.computers  # a person took the seat meanwhile
        ):
            raise Refused(TableReason.MADE_ALREADY)
        return self._applied(self.match.apply_answer(answer))

    def new_faults(self, seat: int) -> list[Fault]:
        """Computer seat ``seat``'s bot's faults since this was last asked (none for ts358's
        own players), for the table to be told."""
        return self.computers[seat].new_faults()

    def faults(self) -> list[dict[str, Any]]:
        """Every fault of the table's bots, as the match record keeps them."""
        return [f for computer in self.computers.values() for f in computer.faults()]

    def decide(self, seat: int, answer: Answer | Sequence[Card]) -> DealResult | None:
        """Make person ``seat``'s decision (a discard may be the cards as named, which may
        name one twice): checked against their view (:class:`Refused` with the rules'
        reason, nothing changed), then applied; the finished deal if it was the deal's
        last."""
        view = self.due_view(seat)
        refusal = verify(view, answer)
        if refusal is not None:
            raise Refused(refusal)
        decision: Answer
        if answer is None or isinstance(answer, (Contract, Card, CardSet)):
            decision = answer
        else:
            decision = CardSet(answer)
        try:
            applied = self.match.apply_answer(decision)
        except IllegalDecision as exc:  # the view's checks come first; this is a backstop
            raise Refused(exc.refusal) from None
        return self._applied(applied)

    def _applied(self, applied: Applied) -> DealResult | None:
        self.step += 1
        result = applied.result
        if result is not None:
            for computer in self.computers.values():
                computer.deal_over(result)
            if not self.match.done:
                self.waiting = set(self.humans)
            self.keep()
            if self.match.done:
                self._finish()
        elif applied.seat in self.humans or self._human_due():
            self.keep()
        return result

    def _human_due(self) -> bool:
        pending = self.match.pending()
        return pending is not None and pending.seat in self.humans

    def go_on(self, seat: int) -> None:
        """``seat`` has read the deal's summary; the next deal starts when every person has."""
        self.waiting.discard(seat)

    def analyse(self, result: DealResult, deadline: float | None = None) -> DealReview | None:
        """The after-deal double-dummy review: every person's cards valued with their
        alternatives, within the save's analysis time or by ``deadline`` (None when the
        analysis is off). Slow: a server calls it on a worker thread."""
        settings = self.saved.settings
        if not settings.analysis:
            return None
        if deadline is None:
            deadline = time.monotonic() + settings.analysis_seconds
        review = review_deal(result, self.match.rules, tuple(self.humans), deadline=deadline)
        self.reviews = {result.number: review}
        return review

    # ------------------------------------------------------------------ the save

    def keep(self) -> None:
        """Write the save unless it holds every decision applied already or the table is
        closed (WriteError, one line, if it can't be written)."""
        if self._written == self.step or self.closed:
            return
        if self.keeper is not None:
            self.keeper(self.saved)
        elif self.save_path is not None:
            save(self.saved, self.save_path)
        else:
            return
        self._written = self.step

    def _finish(self) -> None:
        for computer in self.computers.values():
            computer.match_over(self.match)
        if self.stats:
            entry = entry_from_match(self.match, self.saved.id, self.host, self.saved.level)
            try:
                record_match(entry)
            except OSError as exc:
                self.stats_error = str(exc.strerror or exc)
        self.close()

    def close(self) -> None:
        """Write the save if a change is not in it yet and give it up (its lock), e.g. when
        a server stops; the save stays. Nothing can be decided at the table any more, and
        the computer players are done (a bot's process is reaped). WriteError if the save
        can't be written (the lock is released all the same)."""
        try:
            if not self.closed:
                self.keep()
        finally:
            self.closed = True
            for computer in self.computers.values():
                computer.close()
            if self.lock is not None:
                self.lock.release()
                self.lock = None
