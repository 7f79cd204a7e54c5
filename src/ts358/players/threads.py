"""Running solver searches on threads: one solver per thread, stopped together.

The core searches without the GIL, so Python threads run searches truly in parallel. Python
delivers Ctrl-C (and runs every signal handler) on the main thread only, which here just
waits: on the exception a signal raises there it asks every thread's search to stop at its
next check (``Solver.stop``) and raises once all have ended, so no solver is left busy.
Used by the hard player (each thread on its own table) and by ``analysis.solve``
(threads on one shared table); it lives in the players' layer, the lowest that searches.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

__all__ = ["run_threads"]

R = TypeVar("R")


def run_threads(
    solvers: Sequence[Any],
    work: Callable[[int], R],
    *,
    shared: bool = False,
    on_stop: Callable[[], None] | None = None,
) -> list[R]:
    """``work(i)`` on one thread per solver, thread ``i`` searching with ``solvers[i]``
    only; the results in the order of ``i``.

    Every solver's stop request is cleared first; with ``shared`` (the solvers search one
    table) each searches as one of several writers of its table until the threads end.
    Ctrl-C or another signal's exception (raised in the calling thread, which waits) or an
    error in a thread asks every search to stop at its next check, calls ``on_stop`` (so
    that ``work`` can give up what it has not started), and is raised once every thread has
    ended.
    """
    count = len(solvers)
    results: list[Any] = [None] * count
    errors: list[BaseException] = []
    finished = threading.Semaphore(0)

    def stop() -> None:
        if on_stop is not None:
            on_stop()
        for s in solvers:
            s.stop()

    def worker(i: int) -> None:
        try:
            results[i] = work(i)
        except BaseException as exc:  # reported to the waiting thread
            errors.append(exc)
            stop()
        finally:
            finished.release()

    for s in solvers:
        s.stop(False)
        s.share(shared)
    for i in range(count):
        threading.Thread(target=worker, args=(i,), daemon=True).start()
    # Counted on a semaphore rather than Thread.join: a join cut short by Ctrl-C can take a
    # running thread for finished (the solver it holds would then still be busy).
    done = 0
    try:
        while done < count:
            if finished.acquire(timeout=0.05):
                done += 1
    except BaseException:  # Ctrl-C, or a signal handler's exception (the session's SIGTERM)
        stop()
        while done < count:
            finished.acquire()
            done += 1
        raise
    finally:
        if done == count:
            for s in solvers:
                s.stop(False)
                s.share(False)
    if errors:
        raise errors[0]
    return results
