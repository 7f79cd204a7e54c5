"""Running solver tasks on several threads that search one shared table.

The threads are run by :func:`ts358.players.threads.run_threads` (Ctrl-C or an error
stops them all). Each thread has its own solver (its own search state) on the main solver's
table: what one thread proves, the others use. While threads share it, a bucket is written
under a per-bucket sequence lock and a reader checks the lock's version before trusting an
entry (``Solver.share``; docs/solver.md, Threads). The main solver makes and keeps its
helpers (``Solver.helpers``). The tasks (per-card runs of equal cards,
then players' values) are cut into one contiguous segment per thread, since neighbouring
cards share most of their subtrees; a thread that finishes its segment takes tasks from the
end of the longest segment left.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Sequence
from typing import TypeVar

from ts358._core358 import Solver
from ts358.players.threads import run_threads

__all__ = ["run_tasks"]

T = TypeVar("T")
R = TypeVar("R")


def run_tasks(
    tasks: Sequence[T], solvers: Sequence[Solver], run: Callable[[Solver, T], R]
) -> list[R]:
    """``run(solver, task)`` for every task, on one thread per solver; results in task order.

    Ctrl-C (delivered to the calling thread, which waits) stops every search at its next
    check and is raised once the threads have ended; an error in a task is raised likewise
    (:func:`ts358.players.threads.run_threads`).
    """
    threads = min(len(solvers), len(tasks))
    if threads <= 1:
        return [run(solvers[0], task) for task in tasks]
    size, extra = divmod(len(tasks), threads)
    segments: list[deque[int]] = []
    first = 0
    for i in range(threads):
        length = size + (i < extra)
        segments.append(deque(range(first, first + length)))
        first += length
    lock = threading.Lock()
    stopping = threading.Event()
    results: dict[int, R] = {}

    def next_task(own: deque[int]) -> int | None:
        with lock:
            if stopping.is_set():
                return None
            if own:
                return own.popleft()
            longest = max(segments, key=len)
            return longest.pop() if longest else None

    def worker(i: int) -> None:
        while (index := next_task(segments[i])) is not None:
            results[index] = run(solvers[i], tasks[index])

    run_threads(solvers[:threads], worker, shared=True, on_stop=stopping.set)
    return [results[i] for i in range(len(tasks))]
