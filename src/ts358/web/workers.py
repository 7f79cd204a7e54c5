"""The server's worker threads: the slow work of the tables (the computer players' decisions,
hints, the after-deal reviews) runs here, off the event loop, each kind on its own pool.

Each kind has its own threads, so that one kind can't take another's turn (a seat asking
hint after hint delays no computer player), and a bounded queue: work beyond it is refused
at once (:class:`Busy`) rather than queued behind everyone else's. The queue is first come,
first served, so tables take turns. The threads are daemons: a server that stops does not
wait for a search nobody will read (every decision is saved as it is made).
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from ts358.batch.pool import default_workers

__all__ = ["Busy", "WorkPool", "Workers"]

R = TypeVar("R")


class Busy(RuntimeError):
    """A pool's queue is full: the work was not started."""


class WorkPool:
    """``threads`` daemon threads taking work from a queue of at most ``capacity`` waiting
    items (0: no bound), started on first use."""

    def __init__(self, name: str, threads: int, capacity: int = 0) -> None:
        if threads < 1:
            raise ValueError(f"a pool needs a thread, not {threads}")
        self.name = name
        self.threads = threads
        self.capacity = capacity
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._waiting = 0  # items queued and not yet taken by a thread
        self._lock = threading.Lock()
        self._started = False

    @property
    def waiting(self) -> int:
        """Items queued and not started yet."""
        return self._waiting

    async def run(self, work: Callable[..., R], *args: Any) -> R:
        """``work(*args)`` on one of the pool's threads; Busy (nothing started) if the queue
        is full."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[R] = loop.create_future()
        with self._lock:
            if self.capacity and self._waiting >= self.capacity:
                raise Busy(f"the server's {self.name} queue is full")
            self._waiting += 1
            if not self._started:
                self._started = True
                for i in range(self.threads):
                    threading.Thread(
                        target=self._serve, name=f"ts358-{self.name}-{i}", daemon=True
                    ).start()
        self._queue.put((loop, future, work, args))
        return await future

    def _serve(self) -> None:
        while True:
            loop, future, work, args = self._queue.get()
            with self._lock:
                self._waiting -= 1
            if future.cancelled():  # the caller went (e.g. the server is stopping)
                continue
            try:
                result = work(*args)
            except BaseException as exc:  # handed to the caller, whatever it is
                loop.call_soon_threadsafe(_settle, future, None, exc)
            else:
                loop.call_soon_threadsafe(_settle, future, result, None)


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():  # cancelled meanwhile
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


class Workers:
    """The pools of one server, sized for the machine.

    Attributes:
        players: the computer players' decisions, two threads a core (each table has at
            most one decision in flight, so the queue is bounded by the tables).
        hints: the hints, one at a time (the strong player behind them searches on every
            core), at most ``2 * cores`` waiting.
        reviews: the after-deal reviews, one at a time (each searches on every core), at
            most ``4 * cores`` waiting.
    """

    def __init__(self, cores: int | None = None) -> None:
        cores = cores or default_workers()
        self.players = WorkPool("players", 2 * cores)
        self.hints = WorkPool("hints", 1, capacity=2 * cores)
        self.reviews = WorkPool("reviews", 1, capacity=4 * cores)
