"""ts358.batch.pool: chunks come back in order wherever they ran; a worker that dies loses only
work that is run again; Dask is optional and its absence is a one-line hint."""

import os
import sys
from pathlib import Path

import pytest

from ts358.batch import pool as parallel
from ts358.batch.pool import MissingExtra, WorkerLost, chunk_ranges, run_chunks


# Chunk functions live at module level: spawned workers import this module to find them.
def square_all(chunk):
    return [x * x for x in chunk]


def die_once(chunk):
    """Kill the worker process the first time chunk 3 runs (a marker file says it did)."""
    marker, items = chunk
    if 3 in items and not os.path.exists(marker):
        Path(marker).write_text("died")
        os._exit(17)
    return [x * x for x in items]


def always_die(chunk):
    os._exit(17)


def fail(chunk):
    raise ValueError(f"bad chunk {chunk}")


@pytest.mark.parametrize("count,workers", [(1, 1), (10, 1), (10, 3), (100, 2), (7, 50)])
def test_chunk_ranges_cover_every_item_once_in_order(count, workers):
    ranges = chunk_ranges(count, workers, cap=8)
    items = [i for r in ranges for i in r]
    assert items == list(range(count))
    assert all(1 <= len(r) <= 8 for r in ranges)


def test_chunk_ranges_of_nothing():
    assert chunk_ranges(0, 4) == []


def test_in_process_results_in_order_and_each_reported():
    chunks = [[1, 2], [3], [4, 5, 6]]
    seen = []
    results = run_chunks(square_all, chunks, workers=1, on_done=lambda i, r: seen.append((i, r)))
    assert results == [[1, 4], [9], [16, 25, 36]]
    assert sorted(seen) == list(enumerate(results))


def test_process_pool_gives_the_same_results_as_in_process():
    chunks = [list(range(i, i + 3)) for i in range(0, 30, 3)]
    seen = []
    results = run_chunks(square_all, chunks, workers=2, on_done=lambda i, r: seen.append(i))
    assert results == [[x * x for x in c] for c in chunks]
    assert sorted(seen) == list(range(len(chunks)))


def test_a_chunk_whose_worker_dies_is_run_again(tmp_path):
    marker = str(tmp_path / "died")
    chunks = [(marker, [i, i + 1]) for i in range(0, 12, 2)]  # chunk 1 holds item 3
    done = []
    results = run_chunks(
        die_once, chunks, workers=2, retries=2, on_done=lambda i, r: done.append(i)
    )
    assert Path(marker).read_text() == "died"  # the worker really died once
    assert results == [[x * x for x in items] for _, items in chunks]
    assert sorted(done) == list(range(len(chunks)))  # each chunk reported exactly once


class _BreaksOnThirdSubmit(parallel.ProcessPoolExecutor):
    """A pool whose third submit finds it broken, as when a worker dies between two
    submits; every pool after the first works."""

    pools = 0

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        type(self).pools += 1
        self.submits = 0

    def submit(self, *args, **kwargs):
        self.submits += 1
        if type(self).pools == 1 and self.submits == 3:
            raise parallel.BrokenProcessPool("a worker died")
        return super().submit(*args, **kwargs)


def test_a_chunk_submitted_to_a_broken_pool_is_not_lost(monkeypatch):
    monkeypatch.setattr(parallel, "ProcessPoolExecutor", _BreaksOnThirdSubmit)
    monkeypatch.setattr(_BreaksOnThirdSubmit, "pools", 0)  # the first pool of this run breaks
    chunks = [[i] for i in range(6)]
    done = []
    results = run_chunks(
        square_all, chunks, workers=2, retries=1, on_done=lambda i, r: done.append(i)
    )
    assert _BreaksOnThirdSubmit.pools == 2  # the break really happened, and a new pool ran
    assert results == [[i * i] for i in range(6)]
    assert sorted(done) == list(range(6))


def test_a_chunk_that_always_kills_its_worker_gives_up():
    with pytest.raises(WorkerLost, match="died"):
        run_chunks(always_die, [[1], [2]], workers=2, retries=1)


def test_an_exception_in_a_chunk_is_raised_not_retried():
    with pytest.raises(ValueError, match="bad chunk"):
        run_chunks(fail, [[1], [2]], workers=2)
    with pytest.raises(ValueError, match="bad chunk"):
        run_chunks(fail, [[1]], workers=1)


def test_missing_dask_is_a_one_line_hint(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails as if not installed
    with pytest.raises(MissingExtra) as info:
        run_chunks(square_all, [[1]], scheduler="tcp://127.0.0.1:8786")
    message = str(info.value)
    assert "\n" not in message and "pip install" in message and "ts358[dask]" in message


def test_default_workers_is_the_usable_cores(monkeypatch):
    if hasattr(os, "sched_getaffinity"):
        assert parallel.default_workers() == len(os.sched_getaffinity(0))
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)  # macOS, Windows
    monkeypatch.setattr(os, "cpu_count", lambda: 6)
    assert parallel.default_workers() == 6
    monkeypatch.setattr(os, "cpu_count", lambda: None)  # unknown: one
    assert parallel.default_workers() == 1


# ---------------------------------------------------------------------- Dask


@pytest.fixture(scope="module")
def cluster():
    # In-process (threads) cluster: starts in a fraction of a second. Only these tests need
    # Dask (the `dask` extra); the ones above run without it.
    import distributed  # the test extra installs Dask

    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as local:
        yield local


def test_dask_gives_the_same_results_in_order(cluster):
    chunks = [list(range(i, i + 2)) for i in range(0, 20, 2)]
    seen = []
    results = run_chunks(
        square_all, chunks, scheduler=cluster.scheduler_address, on_done=lambda i, r: seen.append(i)
    )
    assert results == run_chunks(square_all, chunks, workers=1)
    assert sorted(seen) == list(range(len(chunks)))
    assert parallel.cluster_workers(cluster.scheduler_address) == 2


def test_dask_exception_propagates(cluster):
    with pytest.raises(ValueError, match="bad chunk"):
        run_chunks(fail, [[1]], scheduler=cluster.scheduler_address, retries=0)
