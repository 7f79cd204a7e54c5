"""Run chunked batch work in parallel: in this process, on a local process pool, or on a Dask
distributed cluster. Shared by ``ts358 arena`` and ``ts358 analyze``.

A batch is a list of *chunks* (picklable arguments) and a module-level function applied to
each. The results come back in chunk order, whatever order the chunks finish in, and the
callers make every chunk's result a function of its arguments only (each deal's random
generator derives from the seed and the deal's index), so the output of a seeded run doesn't
depend on where or in how many pieces it ran.

Where the work runs:

* ``workers=1`` (and no scheduler): in this process, one chunk after another.
* ``workers=K > 1``: a pool of K worker processes (``spawn``, so it works the same on every
  platform and is safe with the progress bar's thread). When a worker process dies (killed,
  out of memory, a crash in C code), Python's pool breaks as a whole: the chunks that had
  finished are kept, the ones in flight are resubmitted to a fresh pool. A chunk in flight
  when the pool broke more than ``retries`` times gives up with :class:`WorkerLost`.
* ``scheduler="tcp://host:8786"``: the chunks are Dask tasks on that cluster (``pip install
  ts358[dask]``; the workers need ts358 installed too). Dask itself reschedules a task whose
  worker died (its ``allowed-failures`` setting), and ``retries`` re-runs a task that raised.

A chunk that raises an ordinary exception is a bug, not bad luck: locally it is raised at
once, without retries.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import uuid
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

__all__ = [
    "MissingExtra",
    "ParallelError",
    "SchedulerUnreachable",
    "WorkerLost",
    "chunk_ranges",
    "cluster_workers",
    "connect",
    "default_workers",
    "run_chunks",
    "task_slots",
]

C = TypeVar("C")
R = TypeVar("R")

DASK_HINT = "--scheduler needs Dask: pip install 'ts358[dask]'"


class ParallelError(RuntimeError):
    """The batch could not be run (base of the errors below); the message is one line."""


class MissingExtra(ParallelError):
    """Dask is not installed."""


class SchedulerUnreachable(ParallelError):
    """No Dask scheduler answered at the address given."""


class WorkerLost(ParallelError):
    """A chunk was in flight on a worker that died, more times than allowed."""


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def chunk_ranges(count: int, workers: int, *, per_worker: int = 4, cap: int = 16) -> list[range]:
    """Split ``range(count)`` into consecutive chunks: about ``per_worker`` chunks per
    worker (so a slow chunk doesn't leave the others idle at the end) and at most ``cap``
    items each (so a dead worker loses little). Results never depend on this split."""
    if count <= 0:
        return []
    size = max(1, min(cap, math.ceil(count / (max(1, workers) * per_worker))))
    return [range(start, min(start + size, count)) for start in range(0, count, size)]


def _dask() -> Any:
    try:
        import distributed
    except ImportError:
        raise MissingExtra(DASK_HINT) from None
    return distributed


def connect(scheduler: str) -> Any:
    """A client of the Dask scheduler at ``scheduler``; SchedulerUnreachable (one line) if
    it can't be reached, MissingExtra without Dask."""
    distributed = _dask()
    try:
        return distributed.Client(scheduler, timeout="10s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise SchedulerUnreachable(
            f"can't reach the Dask scheduler at {scheduler}: {reason}"
        ) from None


def cluster_workers(scheduler: str) -> int:
    """How many task slots (worker threads) the cluster at ``scheduler`` has now."""
    client = connect(scheduler)
    try:
        return max(1, int(sum(client.nthreads().values())))
    finally:
        client.close()


def task_slots(workers: int | None, scheduler: str | None) -> int:
    """How many chunks can run at once: the cluster's task slots with a ``scheduler``, else
    ``workers`` (default: :func:`default_workers`)."""
    if scheduler is not None:
        return cluster_workers(scheduler)
    return workers if workers is not None else default_workers()


def run_chunks(
    fn: Callable[[C], R],
    chunks: Sequence[C],
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    retries: int = 2,
    on_done: Callable[[int, R], None] | None = None,
) -> list[R]:
    """``[fn(chunk) for chunk in chunks]``, run in parallel (see the module notes).

    Args:
        fn: a module-level function (it is pickled by reference for the workers).
        chunks: its arguments, one per task.
        workers: local worker processes; None means one per usable core. Ignored with
            ``scheduler``.
        scheduler: a Dask scheduler address; None runs locally.
        retries: how many more times a lost chunk is run (worker death; with Dask, also a
            chunk that raised).
        on_done: called in this process as ``on_done(index, result)`` when a chunk
            finishes (any order), e.g. to advance a progress bar or stream results.

    Raises:
        MissingExtra, SchedulerUnreachable, WorkerLost: see the classes; an exception raised
        by ``fn`` itself is propagated.
    """
    if scheduler is not None:
        return _run_dask(fn, chunks, scheduler, retries, on_done)
    count = default_workers() if workers is None else workers
    if count < 1:
        raise ValueError(f"workers must be at least 1, not {count}")
    if count == 1 or len(chunks) <= 1:
        results = []
        for index, chunk in enumerate(chunks):
            result = fn(chunk)
            results.append(result)
            if on_done is not None:
                on_done(index, result)
        return results
    return _run_pool(fn, chunks, min(count, len(chunks)), retries, on_done)


def _worker_init() -> None:
    # Ctrl-C in the terminal reaches every process of the group: only the parent handles it
    # (it stops the workers), so the workers don't each print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop(pool: ProcessPoolExecutor) -> None:
    processes = list(getattr(pool, "_processes", {}).values())  # no public way to kill them
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=5)


def _run_pool(
    fn: Callable[[C], R],
    chunks: Sequence[C],
    workers: int,
    retries: int,
    on_done: Callable[[int, R], None] | None,
) -> list[R]:
    results: dict[int, R] = {}
    attempts = [0] * len(chunks)
    pending = deque(range(len(chunks)))
    context = multiprocessing.get_context("spawn")
    while pending:
        lost: list[int] = []
        with ProcessPoolExecutor(workers, mp_context=context, initializer=_worker_init) as pool:
            inflight: dict[Future[R], int] = {}
            popped: int | None = None
            try:
                while pending or inflight:
                    # A small window in flight: a broken pool then costs only these chunks.
                    while pending and len(inflight) < 2 * workers:
                        # submit raises BrokenProcessPool once a worker has died: the chunk
                        # stays pending for the next pool.
                        future = pool.submit(fn, chunks[pending[0]])
                        index = pending.popleft()
                        attempts[index] += 1
                        inflight[future] = index
                    done, _ = wait(inflight, return_when=FIRST_COMPLETED)
                    for future in sorted(done, key=lambda f: inflight[f]):
                        popped = index = inflight.pop(future)
                        result = future.result()  # BrokenProcessPool if its worker died
                        popped = None
                        results[index] = result
                        if on_done is not None:
                            on_done(index, result)
            except BrokenProcessPool:
                for future, index in inflight.items():
                    if future.done() and not future.cancelled() and future.exception() is None:
                        results[index] = future.result()
                        if on_done is not None:
                            on_done(index, results[index])
                    else:
                        lost.append(index)
                if popped is not None:  # the future whose result() raised
                    lost.append(popped)
            except BaseException:
                # Ctrl-C or an error in a chunk: don't wait for the chunks still running
                # (a solve can take minutes); stop the workers and re-raise.
                _stop(pool)
                raise
        for index in sorted(lost, reverse=True):
            if attempts[index] > retries:
                raise WorkerLost(
                    f"chunk {index} was lost {attempts[index]} times: a worker process died "
                    f"while running it (out of memory? killed?)"
                )
            pending.appendleft(index)
    return [results[i] for i in range(len(chunks))]


def _run_dask(
    fn: Callable[[C], R],
    chunks: Sequence[C],
    scheduler: str,
    retries: int,
    on_done: Callable[[int, R], None] | None,
) -> list[R]:
    distributed = _dask()
    client = connect(scheduler)
    try:
        run = uuid.uuid4().hex[:12]
        name = getattr(fn, "__name__", "task")
        futures = [
            client.submit(fn, chunk, key=f"ts358-{name}-{run}-{index}", retries=retries, pure=False)
            for index, chunk in enumerate(chunks)
        ]
        position = {future.key: index for index, future in enumerate(futures)}
        results: dict[int, R] = {}
        try:
            for future in distributed.as_completed(futures, loop=client.loop):
                index = position[future.key]
                try:
                    results[index] = future.result()
                except distributed.KilledWorker as exc:
                    raise WorkerLost(f"chunk {index}: {exc}") from None
                future.release()
                if on_done is not None:
                    on_done(index, results[index])
        except BaseException:
            client.cancel([f for f in futures if not f.done()])
            raise
        return [results[i] for i in range(len(chunks))]
    finally:
        client.close()
