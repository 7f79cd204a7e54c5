"""A bot on another computer: its seat's end of a connection that the bot opens to the server
(the WebSocket ``/bot`` of ``ts358 serve``, docs/bots.md#remote-bots), with the same
messages and the same guarantees as a bot's process (:class:`~ts358.bots.process.BotProcess`):
the table never waits past the time control, a flood or a dropped connection is a fault.

The table's side (``send``, ``receive``, ``close``) runs on the server's worker threads; the
connection's side (``attach``, ``arrived``, ``detach``) on its event loop. Messages the table
sends before the bot has connected wait for it (the hello first), so a bot may connect any
time before its first decision is due.
"""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Callable
from typing import Any

from ts358.bots.process import BotFault, Inbox
from ts358.bots.protocol import MAX_LINE_BYTES

__all__ = ["RemoteBot"]


class RemoteBot:
    """The seat of a bot that connects with ``token``."""

    def __init__(self, token: str) -> None:
        self.token = token
        self._inbox = Inbox("messages")
        self._waiting: list[str] = []  # sent before the bot connected
        self._sender: Callable[[str | None], None] | None = None
        self._lock = threading.Lock()
        self.closed = False

    @property
    def connected(self) -> bool:
        return self._sender is not None

    # ------------------------------------------------------------------ the table's side

    def send(self, message: dict[str, Any]) -> None:
        """One message to the bot (kept until it connects); BotFault("died") once its
        connection has gone or the seat was closed."""
        text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
        with self._lock:
            if self.closed:
                raise BotFault("died", "the bot's connection is closed")
            sender = self._sender
            if sender is None:
                self._waiting.append(text)
                return
        sender(text)

    def receive(self, deadline: float) -> bytes:
        """The bot's next message, waiting until ``deadline`` at most (BotFault as
        :meth:`BotProcess.receive <ts358.bots.process.BotProcess.receive>`)."""
        try:
            kind, value = self._inbox.get(deadline)
        except queue.Empty:
            detail = "no answer within the time control"
            if not self.connected:
                detail += " (the bot has not connected)"
            raise BotFault("late", detail) from None
        if kind == "line":
            line: bytes = value
            return line
        raise BotFault(kind, value)

    def close(self) -> None:
        """Tell the bot ``bye`` and close its connection (again: nothing)."""
        with self._lock:
            if self.closed:
                return
            self.closed = True
            sender, self._sender = self._sender, None
        if sender is not None:
            sender(json.dumps({"type": "bye"}))
            sender(None)  # the connection's end

    # ------------------------------------------------------------------ the connection's side

    def attach(self, sender: Callable[[str | None], None]) -> bool:
        """The bot has connected: ``sender(text)`` sends it a message, ``sender(None)``
        closes the connection (both from any thread). False if the seat has a connection
        already or is closed (this one is then refused)."""
        with self._lock:
            if self.closed or self._sender is not None:
                return False
            self._sender = sender
            waiting, self._waiting = self._waiting, []
        for text in waiting:
            sender(text)
        return True

    def arrived(self, data: str | bytes) -> None:
        """A message from the bot."""
        raw = data.encode() if isinstance(data, str) else data
        if len(raw) > MAX_LINE_BYTES:
            self._inbox.put("oversized", f"a message of more than {MAX_LINE_BYTES} bytes")
        else:
            self._inbox.put("line", raw)

    def detach(self) -> None:
        """The bot's connection has gone: a fault if the seat still wanted it."""
        with self._lock:
            self._sender = None
            if self.closed:
                return
            self.closed = True
        self._inbox.put("died", "the bot's connection closed")
