"""The bot's side of ``ts358-bot/1``: a player of this package answering a table's messages
(``ts358 bot --level hard``), so that ts358's own players can play wherever the protocol is
served. It keeps no state between decisions but its player: each ``decide`` carries the
seat's whole view.
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

__all__ = ["serve_bot"]


def serve_bot(
    make: Callable[[int | None], Player],
    name: str,
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
    stderr: IO[str] | None = None,
) -> int:
    """Answer the table on ``stdin``/``stdout`` until it says ``bye`` or closes: the player
    is ``make(seed)``, made at the hello with the seed the table sends. A message that is
    not understood is one line on ``stderr`` and is otherwise ignored (the table then
    decides for us). Returns the exit code: 0."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    player: Player | None = None

    def write(message: dict[str, Any]) -> None:
        stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
        stdout.flush()

    for line in stdin:
        if not line.strip():
            continue
        try:
            data = parse_message(line)
            kind = data.get("type")
            if kind == "hello":
                seed = data.get("seed")
                player = make(
                    seed if isinstance(seed, int) and not isinstance(seed, bool) else None
                )
                write({"type": "hello", "protocol": PROTOCOL, "name": name, "version": _version()})
            elif kind == "decide":
                if player is None:
                    raise BotProtocolError("a decide before the hello")
                view = view_from_json(data.get("view"))
                write(decision_message(data.get("id"), player.decide(view)))  # type: ignore[arg-type]
            elif kind == "bye":
                break
        except BotProtocolError as exc:
            print(f"ts358 bot: {exc}", file=stderr, flush=True)
    if player is not None:
        player.close()
    return 0


def _version() -> str:
    try:
        return importlib.metadata.version("ts358")
    except importlib.metadata.PackageNotFoundError:  # run from a checkout not installed
        return "unknown"
