"""The computer players' thinking off the web processes: a decision sent as a job (the
level, the player's seed, its threads, the decision's number and the seat's view) to a pool
of worker processes on this machine, or to a Dask cluster, and its answer sent back.

A ts358 player's decision depends only on those (:class:`ts358.table.seats.ComputerSeat`
reseeds it from its seed and the decision's number), so a worker makes the same decision
the web process would have made, whichever worker takes it: matches resumed, replayed or
moved between processes go on alike. A worker keeps the last few players it has made.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import logging
import multiprocessing
import signal
from collections import OrderedDict
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ts358.batch.pool import default_workers
from ts358.deal import Answer, Pending
from ts358.players import Player
from ts358.table.seats import ComputerSeat
from ts358.view import SeatView

__all__ = ["KEPT_PLAYERS", "Job", "Thinkers", "decide"]

KEPT_PLAYERS = 4
"""How many players a worker process keeps between decisions. Few: a player's solvers hold
their tables (16 MB a thread for a hard one), which start empty at each decision anyway
(:meth:`ts358.players.sampling.SamplingPlayer.reseed`), and every worker would otherwise
keep a player for every seat it has served (bench/web.py: 165 MB a table with 64 kept, as
against 35 MB on the server's own threads)."""

_log = logging.getLogger("ts358.online")
_players: OrderedDict[tuple[str, int, int], Player] = OrderedDict()


@dataclasses.dataclass(frozen=True)
class Job:
    """One computer decision, all a worker needs to make it."""

    level: str
    seed: int
    threads: int
    step: int
    view: SeatView


def decide(job: Job) -> Answer:
    """Make ``job``'s decision (in a worker process)."""
    from ts358.bots.spec import make_seat

    key = (job.level, job.seed, job.threads)
    player = _players.pop(key, None)
    if player is None:
        player = make_seat(job.level, job.seed, threads=job.threads)
    _players[key] = player
    while len(_players) > KEPT_PLAYERS:
        _, old = _players.popitem(last=False)
        old.close()
    player.reseed(f"{job.seed}:{job.step}")
    return player.decide(job.view)


def _ready(seconds: float) -> int:
    """A worker is up, with the players' code loaded (held ``seconds``, so that every
    worker takes one when they are asked at once)."""
    import time

    import ts358.players  # noqa: F401  (loaded now, not at the first decision)

    time.sleep(seconds)
    return multiprocessing.current_process().pid or 0


def _quiet() -> None:
    """A worker leaves Ctrl-C to the server, which stops it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Thinkers:
    """Where the computer players think: ``processes`` (worker processes on this machine, by
    default as many as it has cores), or a Dask cluster (``scheduler``: its address), or
    ``threads`` (the web process's own worker threads, as ``ts358 serve``).

    A worker process that dies costs only the decision it was making: the pool is made
    again and the decision asked again (once).
    """

    def __init__(
        self,
        kind: str = "processes",
        processes: int | None = None,
        scheduler: str | None = None,
    ) -> None:
        if scheduler is not None:
            kind = "dask"
        if kind not in ("processes", "threads", "dask"):
            raise ValueError(f"thinking is processes, threads or dask, not {kind!r}")
        self.kind = kind
        self.processes = processes or default_workers()
        self.scheduler = scheduler
        self._executor: concurrent.futures.Executor | None = None
        self._client: Any = None

    def _pool(self) -> concurrent.futures.Executor:
        if self._executor is None:
            if self.kind == "dask":
                from ts358.batch.pool import connect

                self._client = connect(self.scheduler or "")
                self._executor = self._client.get_executor(pure=False)
            else:
                # spawn: a fork of a server with threads running could inherit held locks.
                self._executor = concurrent.futures.ProcessPoolExecutor(
                    self.processes,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_quiet,
                )
        return self._executor

    def warm(self) -> None:
        """Start the worker processes now rather than at the first decision (a server
        starting: its first computer decision then waits for no process to start)."""
        if self.kind == "processes":
            pool = self._pool()
            for done in [pool.submit(_ready, 0.2) for _ in range(self.processes)]:
                done.result()

    def job(self, seat: ComputerSeat, pending: Pending, step: int) -> Job | None:
        """The job of ``pending`` for ``seat``, or None when it must be decided where the
        seat's player is (a bot, or the threads' way)."""
        if self.kind == "threads" or seat.level is None or seat.level.startswith("cmd:"):
            return None
        return Job(seat.level, seat.seed, seat.threads, step, pending.view)

    async def think(self, job: Job) -> Answer:
        """``job``'s answer from a worker."""
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            try:
                return await loop.run_in_executor(self._pool(), decide, job)
            except BrokenProcessPool:
                _log.error("a thinking process died (attempt %d): the pool is made again", attempt)
                self._reset()
        return await loop.run_in_executor(self._pool(), decide, job)

    def _reset(self) -> None:
        executor, self._executor = self._executor, None
        if isinstance(executor, concurrent.futures.ProcessPoolExecutor):
            executor.shutdown(wait=False, cancel_futures=True)
        elif executor is not None:  # Dask's, which cancels nothing
            executor.shutdown(wait=False)

    def close(self) -> None:
        """Stop the workers (a server stopping)."""
        self._reset()
        if self._client is not None:
            self._client.close()
            self._client = None
