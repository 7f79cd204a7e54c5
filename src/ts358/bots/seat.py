"""A seat played by an external bot: a :class:`~ts358.players.base.Player` like the built-in
ones, so that the arena, a match or a table seats it the same way.

Faults never stop the table. A decision the bot gets wrong (a line that is not JSON, a
decision not allowed) is made by the fallback player instead; a bot that is late (past the
time control), writes a line too long, floods, hangs or ends is closed and its seat played
by the fallback for the rest of the match. Each fault is kept (:attr:`BotPlayer.faults`)
for the record. The fallback is the rule of thumb (the ``medium`` player), which answers at
once.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from typing import Any

from ts358.bots.events import EventLog
from ts358.bots.process import BotFault, BotProcess, Transport
from ts358.bots.protocol import (
    PROTOCOL,
    BotProtocolError,
    deal_end_message,
    decide_message,
    events_message,
    hello_message,
    match_end_message,
    parse_message,
    read_decision,
)
from ts358.deal import Answer, DealResult
from ts358.match import Match
from ts358.players.base import Player
from ts358.players.heuristic import HeuristicPlayer
from ts358.view import SeatView

__all__ = ["DEFAULT_SECONDS", "BotPlayer", "Fault"]

DEFAULT_SECONDS = 10.0
"""The time control unless one is given: seconds for each decision (and for the hello)."""

_FOR_THIS_DECISION = ("malformed", "illegal")  # the bot keeps its seat after these


@dataclasses.dataclass(frozen=True)
class Fault:
    """A fault of a bot, as the record keeps it.

    Attributes:
        deal: the deal's number in the match.
        decision: the decision's id (counted from 1 over the match; 0: the hello).
        kind: one of :data:`~ts358.bots.process.FAULT_KINDS`.
        detail: what happened, one line.
        handed_over: whether the seat went to the fallback for the rest of the match.
    """

    deal: int
    decision: int
    kind: str
    detail: str
    handed_over: bool

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


class BotPlayer(Player):
    """The bot run by ``command``, started at its first decision (when its seat and the
    rules are known), with ``seconds`` for each decision.

    Args:
        command: the bot's command line (``python mybot.py``) or its words; or the seat's
            end of a connection to a bot elsewhere (:class:`~ts358.bots.remote.RemoteBot`).
        seconds: the time control (:data:`DEFAULT_SECONDS`).
        seed: sent in the hello, for a bot that wants to be repeatable.
        fallback: who decides when the bot can't (default: the rule of thumb).
        cwd: the bot's working directory.
    """

    def __init__(
        self,
        command: str | Sequence[str] | Transport,
        *,
        seconds: float = DEFAULT_SECONDS,
        seed: int | None = None,
        fallback: Player | None = None,
        cwd: str | None = None,
    ) -> None:
        self.command = command
        self.seconds = seconds
        self.seed = seed
        self.fallback = fallback or HeuristicPlayer()
        self.cwd = cwd
        self.faults: list[Fault] = []
        self.bot_name: str | None = None
        self._process: Transport | None = None
        self._handed_over = False
        self._decisions = 0
        self._events = EventLog()
        words = command if isinstance(command, (str, Sequence)) else ("a remote bot",)
        self.name = f"bot {words if isinstance(words, str) else ' '.join(words)}"

    def decide(self, view: SeatView) -> Answer:
        """The bot's decision on ``view``, checked; the fallback's if the bot fails."""
        self._decisions += 1
        number = self._decisions
        if self._handed_over:
            return self.fallback.decide(view)
        try:
            process = self._process or self._start(view)
        except BotFault as fault:
            if fault.kind != "no_start":
                fault = BotFault("no_start", f"no hello from the bot: {fault.detail}")
            self._fault(view.deal_number, 0, fault)
            return self.fallback.decide(view)
        try:
            events = self._events.since(view)
            if events:
                process.send(events_message(view.deal_number, events))
            process.send(decide_message(number, view, self.seconds))
            return self._answer(process, number, view, time.monotonic() + self.seconds)
        except BotFault as fault:
            self._fault(view.deal_number, number, fault)
            return self.fallback.decide(view)

    def deal_over(self, seat: int, result: DealResult) -> None:
        """Tell the bot the deal's outcome (what the whole table knows of it)."""
        if self._process is None:
            return
        try:
            rest = self._events.rest(result)
            if rest:
                self._process.send(events_message(result.number, rest))
            self._process.send(
                deal_end_message(result.number, result.game, result.taken, result.scores)
            )
        except BotFault as fault:
            self._fault(result.number, self._decisions, fault)

    def match_over(self, seat: int, match: Match) -> None:
        """Send the bot the finished match's record as ``seat`` may know it (``match_end``);
        nothing to a bot that was never started or whose seat was handed over."""
        if self._process is None:
            return
        try:
            self._process.send(match_end_message(seat, match))
        except BotFault as fault:
            self._fault(match.number, self._decisions, fault)

    def detach(self) -> Transport | None:
        """Give up the bot's process (or connection) without closing it, for its next match,
        which starts with a new hello (:class:`~ts358.bots.keeper.BotKeeper`); None if the
        bot never started or its seat was handed over. This seat is then done."""
        process, self._process = self._process, None
        self._handed_over = True
        return process

    def close(self) -> None:
        """Say goodbye to the bot and reap it (again: nothing)."""
        process, self._process = self._process, None
        if process is not None:
            process.close()

    # ------------------------------------------------------------------ inside

    def _start(self, view: SeatView) -> Transport:
        command = self.command
        process: Transport = (
            BotProcess(command, cwd=self.cwd) if isinstance(command, (str, Sequence)) else command
        )
        self._process = process
        process.send(hello_message(view.seat, view.rules, self.seconds, seed=self.seed))
        deadline = time.monotonic() + self.seconds
        while True:
            try:
                data = parse_message(process.receive(deadline))
            except BotProtocolError as exc:
                raise BotFault("no_start", f"its hello: {exc}") from None
            if data.get("type") != "hello":
                continue
            if data.get("protocol", PROTOCOL) != PROTOCOL:
                raise BotFault("no_start", f"it speaks {data.get('protocol')!r}, not {PROTOCOL}")
            name = data.get("name")
            self.bot_name = name[:80] if isinstance(name, str) else None
            return process

    def _answer(self, process: Transport, number: int, view: SeatView, deadline: float) -> Answer:
        while True:
            line = process.receive(deadline)
            try:
                data = parse_message(line)
            except BotProtocolError as exc:
                raise BotFault("malformed", str(exc)) from None
            if data.get("type") != "decision" or data.get("id") != number:
                continue  # a message of its own, or a late answer to an earlier decision
            try:
                return read_decision(data, number, view)
            except BotProtocolError as exc:
                raise BotFault("illegal", str(exc)) from None

    def _fault(self, deal: int, number: int, fault: BotFault) -> None:
        hand_over = fault.kind not in _FOR_THIS_DECISION
        self.faults.append(Fault(deal, number, fault.kind, fault.detail, hand_over))
        if hand_over:
            self._handed_over = True
            self.close()
