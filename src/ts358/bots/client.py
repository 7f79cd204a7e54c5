"""The bot's side of ``ts358-bot/1``: a player of this package answering a table's messages
(``ts358 bot --level hard``), so that ts358's own players can play wherever the protocol is
served: on stdin and stdout for a table that starts the bot (:func:`serve_bot`), or over
the WebSocket of a server's remote bot seat (:func:`connect_bot`). It keeps no state
between decisions but its player: each ``decide`` carries the seat's whole view.
"""

from __future__ import annotations

import importlib.metadata
import json
import sys
from collections.abc import Callable
from typing import IO, Any

from ts358.bots.protocol import (
    PROTOCOL,
    BotProtocolError,
    decision_message,
    parse_message,
    view_from_json,
)
from ts358.players.base import Player

__all__ = ["BotSide", "connect_bot", "serve_bot"]


class BotSide:
    """The answers of the player ``make(seed)`` (made at the hello, with the seed the table
    sends) to the table's messages, one at a time."""

    def __init__(self, make: Callable[[int | None], Player], name: str) -> None:
        self.make = make
        self.name = name
        self.player: Player | None = None
        self.done = False  # the table said bye

    def answer(self, line: str | bytes) -> dict[str, Any] | None:
        """The reply to one message of the table (None: nothing to say);
        BotProtocolError for a message not understood."""
        data = parse_message(line)
        kind = data.get("type")
        if kind == "hello":
            seed = data.get("seed")
            seeded = isinstance(seed, int) and not isinstance(seed, bool)
            self.player = self.make(seed if seeded else None)
            return {"type": "hello", "protocol": PROTOCOL, "name": self.name, "version": _version()}
        if kind == "decide":
            if self.player is None:
                raise BotProtocolError("a decide before the hello")
            view = view_from_json(data.get("view"))
            return decision_message(data.get("id"), self.player.decide(view))  # type: ignore[arg-type]
        if kind == "bye":
            self.done = True
        # events, deal_end and match_end (the player needs none of them: each decide holds
        # the whole view), and what a later version adds
        return None

    def close(self) -> None:
        if self.player is not None:
            self.player.close()


def serve_bot(
    make: Callable[[int | None], Player],
    name: str,
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
    stderr: IO[str] | None = None,
) -> int:
    """Answer the table on ``stdin``/``stdout`` until it says ``bye`` or closes. A message
    that is not understood is one line on ``stderr`` and is otherwise ignored (the table
    then decides for us). Returns the exit code: 0."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    side = BotSide(make, name)
    for line in stdin:
        if not line.strip():
            continue
        try:
            reply = side.answer(line)
        except BotProtocolError as exc:
            print(f"ts358 bot: {exc}", file=stderr, flush=True)
            continue
        if reply is not None:
            stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
            stdout.flush()
        if side.done:
            break
    side.close()
    return 0


def connect_bot(
    url: str,
    token: str,
    make: Callable[[int | None], Player],
    name: str,
    stderr: IO[str] | None = None,
) -> int:
    """Take the remote bot's seat of ``token`` on the server at ``url`` (its ``/bot``
    WebSocket, ``ws://host:port/bot``) and answer until the table says ``bye`` or the
    connection closes. Needs the web extra (websockets). Returns the exit code: 0, or 2
    when the server refuses the token."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    stderr = stderr or sys.stderr
    side = BotSide(make, name)
    with connect(url, max_size=2**20) as socket:
        socket.send(json.dumps({"type": "join", "token": token}))
        try:
            for text in socket:
                try:
                    data = parse_message(text)
                    if data.get("type") == "error" and data.get("gone"):
                        print(f"ts358 bot: {data.get('message')}", file=stderr, flush=True)
                        return 2
                    reply = side.answer(text)
                except BotProtocolError as exc:
                    print(f"ts358 bot: {exc}", file=stderr, flush=True)
                    continue
                if reply is not None:
                    socket.send(json.dumps(reply, separators=(",", ":")))
                if side.done:
                    break
        except ConnectionClosed:
            pass
        finally:
            side.close()
    return 0


def _version() -> str:
    try:
        return importlib.metadata.version("ts358")
    except importlib.metadata.PackageNotFoundError:  # run from a checkout not installed
        return "unknown"
