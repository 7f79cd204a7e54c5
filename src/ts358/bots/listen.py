"""Remote bots' connections where no ``ts358 serve`` runs: the arena listens on a WebSocket
of its own (``ws://HOST:PORT/bot``) for bots on other computers, each joining its seat with
its token exactly as at a server's table (docs/bots.md#remote-bots), so that ``ts358 bot
--connect`` and any bot that plays at a server play in the arena too. Needs the web extra
(websockets).
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from typing import Any

from ts358.bots.protocol import MAX_LINE_BYTES
from ts358.bots.remote import RemoteBot

__all__ = ["BotListener", "ListenError"]

JOIN_SECONDS = 10.0
"""How long a new connection may take to send its join."""


class ListenError(RuntimeError):
    """The listener can't start (the address is taken, the web extra is missing); one line."""


class BotListener:
    """A WebSocket at ``host``:``port`` (0: any free port) where ``count`` remote bots join
    their seats (:attr:`bots`, each with its own token), served on a thread until
    :meth:`close`."""

    def __init__(self, count: int, host: str = "127.0.0.1", port: int = 0) -> None:
        try:
            from websockets.sync.server import serve
        except ImportError:
            raise ListenError('remote bots need the web extra: pip install "ts358[web]"') from None
        # 24 random bytes: 32 characters that can't be guessed, one per seat.
        self.bots = [RemoteBot(secrets.token_urlsafe(24)) for _ in range(count)]
        self.host = host
        try:
            self._server = serve(self._serve, host, port, max_size=MAX_LINE_BYTES)
        except OSError as exc:
            raise ListenError(f"can't listen on {host}:{port}: {exc.strerror or exc}") from None
        self.port: int = self._server.socket.getsockname()[1]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        """The WebSocket a bot opens."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"ws://{host}:{self.port}/bot"

    def wait(self, seconds: float) -> bool:
        """Wait until every bot has connected, ``seconds`` at most; whether they all have."""
        deadline = time.monotonic() + seconds
        while not all(bot.connected for bot in self.bots):
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.05)
        return True

    def close(self) -> None:
        """Stop listening (the bots' connections are closed with their seats)."""
        self._server.shutdown()
        self._thread.join(5)

    def _serve(self, connection: Any) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            first = connection.recv(timeout=JOIN_SECONDS)
            data = json.loads(first)
            token = data.get("token") if isinstance(data, dict) else None
        except (TimeoutError, ConnectionClosed, ValueError):
            return
        bot = self._bot(token) if isinstance(token, str) else None

        def sender(text: str | None) -> None:
            try:
                if text is None:
                    connection.close()
                else:
                    connection.send(text)
            except ConnectionClosed:
                pass

        if bot is None or not bot.attach(sender):
            why = "no seat has this token" if bot is None else "this seat has a bot already"
            sender(json.dumps({"type": "error", "gone": True, "message": why}))
            sender(None)
            return
        try:
            for message in connection:
                bot.arrived(message)
        except ConnectionClosed:
            pass
        finally:
            bot.detach()

    def _bot(self, token: str) -> RemoteBot | None:
        found = None
        for bot in self.bots:  # every token compared, in constant time
            if secrets.compare_digest(bot.token.encode(), token.encode()):
                found = bot
        return found
