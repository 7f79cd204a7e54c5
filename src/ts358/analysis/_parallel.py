"""Running solver tasks on several threads that search one shared table.

The threads are run by :func:`ts358.players._threads.run_threads` (Ctrl-C or an error
stops them all). Each thread has its own solver (its own search state) on the main solver's
table: what one thread proves, the others use. While threads share it, a bucket is written
under a per-bucket sequence lock and a reader checks the lock's version before trusting an
entry (``Solver.share``; docs/solver.md, Threads). The tasks (per-card runs of equal cards,
then players' values) are cut into one contiguous segment per thread, since neighbouring
cards share most of their subtrees; a thread that finishes its segment takes tasks from the
end of the longest segment left.
"""

from __future__ import annotations

import threading
import weakref
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ts358 import _core358
from ts358.players._threads import run_threads

__all__ = ["helper_solvers", "release_helpers", "run_tasks"]

T = TypeVar("T")
R = TypeVar("R")

_HELPERS: weakref.WeakKeyDictionary[Any, list[Any]] = weakref.WeakKeyDictionary()


SHARED_TABLE = True
"""Whether the helpers search ``solver``'s own table (else each has its own)."""


def helper_solvers(solver: Any, count: int) -> list[Any]:
    """``solver`` and ``count - 1`` more solvers, kept for the next solve with the same main
    solver: sharing its table (:data:`SHARED_TABLE`) or with tables of the same size."""
    helpers = _HELPERS.setdefault(solver, [])
    while len(helpers) < count - 1:
        if SHARED_TABLE:
            helper = _core358.Solver(check_every=solver.check_every, table_of=solver)
        else:
            helper = _core358.Solver(max(1, solver.tt_bytes >> 20), check_every=solver.check_every)
        helpers.append(helper)
    return [solver, *helpers[: count - 1]]


def release_helpers(solver: Any) -> None:
    """Let go of ``solver``'s helpers (``Solver.detach``), so that its table may grow: no
    other solver may use a table that moves (``Solver.grow``). The next
    :func:`helper_solvers` makes new ones."""
    for helper in _HELPERS.pop(solver, []):
        helper.detach()


def run_tasks(tasks: Sequence[T], solvers: Sequence[Any], run: Callable[[Any, T], R]) -> list[R]:
    """``run(solver, task)`` for every task, on one thread per solver; results in task order.

    Ctrl-C (delivered to the calling thread, which waits) stops every search at its next
    check and is raised once the threads have ended; an error in a task is raised likewise
    (:func:`ts358.players._threads.run_threads`).
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
