"""Running solver searches on threads: one solver per thread, stopped together.

The core searches without the GIL, so Python threads run searches truly in parallel. The
calling thread searches with the first solver itself and the others run on worker threads
kept for the next call (starting a thread costs about as much as a small search). Python
delivers Ctrl-C (and runs every signal handler) on the main thread only: there the core's
search notices it at its next check and raises, or the wait for the workers does; either
way every other search is asked to stop at its next check (``Solver.stop``) and the
exception is raised once all have ended, so no solver is left busy. Used by the hard player
(each thread on its own table) and by ``analysis.solve`` (threads on one shared table); it
lives in the players' layer, the lowest that searches.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

__all__ = ["run_threads"]

R = TypeVar("R")

_idle: list[queue.SimpleQueue[Callable[[], None]]] = []
"""The workers waiting for a job, each as its queue of jobs."""
_idle_lock = threading.Lock()


def _forget_workers() -> None:
    """In a forked child the workers' threads do not exist: start afresh."""
    global _idle_lock
    _idle.clear()
    _idle_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_workers)


def _worker(jobs: queue.SimpleQueue[Callable[[], None]]) -> None:
    while True:
        jobs.get()()


def _submit(job: Callable[[], None], finished: threading.Semaphore) -> None:
    """Run ``job`` on an idle worker thread, or on a new one; ``finished`` is released once
    it has ended and the worker is idle again (so the next call finds it)."""
    with _idle_lock:
        jobs = _idle.pop() if _idle else None
    if jobs is None:
        jobs = queue.SimpleQueue()
        threading.Thread(target=_worker, args=(jobs,), daemon=True, name="ts358-search").start()

    def run() -> None:
        try:
            job()
        finally:
            with _idle_lock:
                _idle.append(jobs)
            finished.release()

    jobs.put(run)


def run_threads(
    solvers: Sequence[Any],
    work: Callable[[int], R],
    *,
    shared: bool = False,
    on_stop: Callable[[], None] | None = None,
) -> list[R]:
    """``work(i)`` on one thread per solver, thread ``i`` searching with ``solvers[i]``
    only (``work(0)`` on the calling thread); the results in the order of ``i``.

    Every solver's stop request is cleared first; with ``shared`` (the solvers search one
    table) each searches as one of several writers of its table until the threads end.
    Ctrl-C or another signal's exception (raised in the calling thread) or an error in a
    thread asks every search to stop at its next check, calls ``on_stop`` (so that ``work``
    can give up what it has not started), and is raised once every thread has ended.
    """
    count = len(solvers)
    results: list[Any] = [None] * count
    errors: list[BaseException] = []
    finished = threading.Semaphore(0)
    # The jobs running, counted by the worker threads themselves: Python raises a signal's
    # exception in the calling thread anywhere, also between a job's queueing and its
    # counting there (``started``, ``done``). Once the call has ended (``closed``), a job
    # still queued does nothing: no search outlives the call unstopped.
    state = threading.Condition()
    running = 0
    closed = False

    def stop() -> None:
        if on_stop is not None:
            on_stop()
        for s in solvers:
            s.stop()

    def job(i: int) -> Callable[[], None]:
        def run() -> None:
            nonlocal running
            with state:
                if closed:
                    return
                running += 1
            try:
                results[i] = work(i)
            except BaseException as exc:  # reported to the calling thread
                errors.append(exc)
                stop()
            finally:
                with state:
                    running -= 1
                    state.notify_all()

        return run

    for s in solvers:
        s.stop(False)
        s.share(shared)
    # Counted on a semaphore rather than joined: a wait cut short by Ctrl-C can take a
    # running thread for finished (the solver it holds would then still be busy).
    started = done = 0
    try:
        for i in range(1, count):
            _submit(job(i), finished)
            started += 1
        try:
            results[0] = work(0)
        except BaseException:
            stop()
            raise
        while done < started:
            if finished.acquire(timeout=0.05):
                done += 1
    except BaseException:  # Ctrl-C, or a signal handler's exception (the session's SIGTERM)
        stop()
        with state:
            closed = True
            while running:
                state.wait()
        raise
    finally:
        with state:
            closed = True
            ended = not running
        if ended:  # else (a second Ctrl-C cut the wait short) the searches are still stopping
            for s in solvers:
                s.stop(False)
                s.share(False)
    if errors:
        raise errors[0]
    return results
