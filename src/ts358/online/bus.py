"""What server processes tell each other, over Redis pub/sub: the lobby's changes, and the
messages of a seat (or a spectator) connected to one process at a table another process
plays.

A person's browser may reach any process (a load balancer in front of several). The table
stays with the process that plays it: the process the browser reached relays the seat's
messages to the table (``ts358:t:<table>:in``) and the table's messages back
(``ts358:c:<connection>``), so nothing but the owner ever changes a table. A change of the
lobby (a seat taken or left, a table started or finished) is published on
``ts358:lobby``; the process that plays the table brings its seats in line with the
database, and every process drops what it knows of the table.

Redis is the transport only: the database stays the record of everything, so a message
lost (Redis restarted, a process gone) costs a reconnection, never a decision.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

__all__ = [
    "LOBBY",
    "PRESENCE",
    "Bus",
    "RemoteSocket",
    "SharedLimiter",
    "connection_channel",
    "table_channel",
]

LOBBY = "ts358:lobby"
"""The channel of the lobby's changes: ``{"table": ID}``."""
PRESENCE = "ts358:presence"
"""A sorted set: each person's id, scored by when a process last saw them."""

_log = logging.getLogger("ts358.online")


def table_channel(table_id: str) -> str:
    """The channel of what connections send to table ``table_id``'s process."""
    return f"ts358:t:{table_id}:in"


def connection_channel(connection: str) -> str:
    """The channel of what a table sends to one connection."""
    return f"ts358:c:{connection}"


class Bus:
    """This process's end of the Redis at ``url``: publishing from any thread, and one
    subscription (the lobby and every table's input) read by :meth:`listen`."""

    def __init__(self, url: str) -> None:
        import redis
        import redis.asyncio

        self.url = url
        self._sync = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)
        self._async = redis.asyncio.Redis.from_url(url, socket_connect_timeout=5)

    def check(self) -> None:
        """Raise ConnectionError (one line) unless Redis answers."""
        import redis

        try:
            self._sync.ping()
        except redis.RedisError as exc:
            raise ConnectionError(f"can't reach Redis at {self.url}: {exc}") from None

    def publish(self, channel: str, message: dict[str, Any]) -> None:
        """Send ``message`` on ``channel`` (from any thread); a Redis that is away is logged,
        not raised: the database keeps the record and the browsers reconnect."""
        import redis

        try:
            self._sync.publish(channel, json.dumps(message, ensure_ascii=False))
        except redis.RedisError as exc:
            _log.error("Redis: %s", exc)

    async def apublish(self, channel: str, message: dict[str, Any]) -> None:
        """:meth:`publish` from the event loop."""
        import redis

        try:
            await self._async.publish(channel, json.dumps(message, ensure_ascii=False))
        except redis.RedisError as exc:
            _log.error("Redis: %s", exc)

    def mark_present(self, people: dict[int, float]) -> None:
        """Record when each person (by id) was last seen by this process."""
        import redis

        if not people:
            return
        try:
            self._sync.zadd(PRESENCE, {str(k): v for k, v in people.items()})
        except redis.RedisError as exc:
            _log.error("Redis: %s", exc)

    def present(self, since: float) -> set[int]:
        """The people seen by any process since ``since`` (a time.time())."""
        import redis

        try:
            self._sync.zremrangebyscore(PRESENCE, "-inf", since)
            found: Any = self._sync.zrangebyscore(PRESENCE, since, "+inf")
            return {int(k) for k in found}
        except redis.RedisError as exc:
            _log.error("Redis: %s", exc)
            return set()

    def lobby_changed(self, table_id: str) -> None:
        """Tell every process that table ``table_id``'s row changed."""
        self.publish(LOBBY, {"table": table_id})

    async def listen(self, handle: Callable[[str, dict[str, Any]], Awaitable[None]]) -> None:
        """Read the lobby's changes and every table's input until cancelled: ``handle``
        gets each message's channel and data (the subscription is made again after a lost
        connection)."""
        import redis

        while True:
            try:
                async with self._async.pubsub() as pubsub:
                    await pubsub.subscribe(LOBBY)
                    await pubsub.psubscribe(table_channel("*"))
                    async for message in pubsub.listen():
                        if message.get("type") not in ("message", "pmessage"):
                            continue
                        try:
                            data = json.loads(message["data"])
                        except (ValueError, TypeError):
                            continue
                        channel = message["channel"]
                        channel = channel.decode() if isinstance(channel, bytes) else channel
                        try:
                            await handle(channel, data)
                        except Exception:  # a bug: logged, and the bus goes on
                            _log.exception("a message of %s failed", channel)
            except redis.RedisError as exc:
                _log.error("Redis: %s (listening again in 1 s)", exc)
                await asyncio.sleep(1.0)

    @contextlib.asynccontextmanager
    async def connection(self, connection: str) -> AsyncIterator[AsyncIterator[dict[str, Any]]]:
        """The messages a table sends to ``connection``, while the block runs."""
        pubsub = self._async.pubsub()
        await pubsub.subscribe(connection_channel(connection))

        async def messages() -> AsyncIterator[dict[str, Any]]:
            async for message in pubsub.listen():
                if message.get("type") == "message":
                    with contextlib.suppress(ValueError, TypeError):
                        yield json.loads(message["data"])

        try:
            yield messages()
        finally:
            with contextlib.suppress(Exception):
                await pubsub.unsubscribe()
                await pubsub.aclose()

    def close(self) -> None:
        self._sync.close()


class SharedLimiter:
    """A rate limit counted in Redis, so that it holds across every server process: at most
    ``per_minute`` for a key in each minute (a fixed window). With Redis away, this
    process's own limiter (``fallback``) decides."""

    def __init__(self, bus: Bus, name: str, per_minute: int, fallback: Any) -> None:
        self.bus = bus
        self.name = name
        self.per_minute = per_minute
        self.fallback = fallback

    def _key(self, key: str) -> tuple[str, float]:
        now = time.time()
        window = int(now // 60)
        return f"ts358:limit:{self.name}:{window}:{key}", 60 - now % 60

    def allow(self, key: str) -> bool:
        import redis

        name, _ = self._key(key)
        try:
            with self.bus._sync.pipeline() as pipe:
                pipe.incr(name)
                pipe.expire(name, 61)
                count, _ = pipe.execute()
        except redis.RedisError:
            return bool(self.fallback.allow(key))
        return int(count) <= self.per_minute

    def retry_after(self, key: str) -> float:
        return self._key(key)[1]


def new_connection() -> str:
    """A connection's name on the bus."""
    return secrets.token_hex(12)


class RemoteSocket:
    """A seat's or spectator's connection on another process, as the table's room sees it:
    what the room sends it goes over the bus to that process, which passes it to the
    browser."""

    def __init__(self, bus: Bus, connection: str) -> None:
        self.bus = bus
        self.connection = connection
        self.heard = time.monotonic()  # when its process last said it is there

    async def send_text(self, text: str) -> None:
        await self.bus.apublish(connection_channel(self.connection), {"text": text})

    async def close(self, code: int = 1000) -> None:
        await self.bus.apublish(connection_channel(self.connection), {"close": code})
