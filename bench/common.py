"""Shared helpers for the benchmarks in bench/: machine description, result files, statistics.

Every benchmark writes one JSON file ``bench/results/<name>-<YYYY-MM-DD>.json`` through
:func:`write_results`, with a ``machine`` section from :func:`machine_info`, so that two
result files can be compared knowing what ran them.
"""

from __future__ import annotations

import datetime as _dt
import importlib.util
import json
import math
import os
import platform
import shlex
import subprocess
import sys
import sysconfig
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"

# Let `python bench/x.py` import the package from the source tree (built in place) when it
# is not installed, and the test helpers (tests/reference_solver.py). An installed package
# wins: the source tree of a checkout installed without building in place has no core, and
# the processes a run spawns import from the paths this leaves.
for _path in (ROOT / "src", ROOT / "tests"):
    if _path.name == "src" and importlib.util.find_spec("ts358") is not None:
        continue
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))


def _run(args: Sequence[str]) -> str | None:
    try:
        out = subprocess.run(
            list(args), capture_output=True, text=True, timeout=10, cwd=ROOT, check=True
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def _git_state() -> tuple[str | None, bool]:
    commit = _run(["git", "rev-parse", "HEAD"])
    dirty = _run(["git", "status", "--porcelain", "--untracked-files=no"])
    return commit, bool(dirty)


# Taken when a benchmark script starts (it imports this module first): a long run must name
# the code it measured, not whatever was committed by the time it finished.
_GIT_AT_START = _git_state()


def machine_info() -> dict[str, Any]:
    """What ran the benchmark: CPU model and cores, Python, platform, C compiler, Cython,
    the load average when called, the git commit of the source tree when the script started,
    and the date and time (UTC)."""
    try:
        usable = len(os.sched_getaffinity(0))  # type: ignore[attr-defined]
    except (AttributeError, OSError):
        usable = os.cpu_count()
    cc = sysconfig.get_config_var("CC") or "cc"
    compiler = _run([*shlex.split(cc)[:1], "--version"])
    try:
        import Cython

        cython_version: str | None = Cython.__version__
    except ImportError:
        cython_version = None
    try:
        load: list[float] | None = [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        load = None
    commit, dirty = _GIT_AT_START
    return {
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "cores_usable": usable,
        "python": sys.version.split()[0],
        "python_implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "compiler": compiler.splitlines()[0] if compiler else cc,
        "python_built_with": platform.python_compiler(),
        "cython": cython_version,
        "load_average": load,  # 1, 5, 15 min: other work on a shared machine skews timings
        "git_commit": commit,
        "git_dirty": dirty,
        "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
    }


def write_results(name: str, data: dict[str, Any]) -> Path:
    """Write ``data`` (plus a ``machine`` section if it has none) to
    ``bench/results/<name>-<YYYY-MM-DD>.json`` and return the path. A later run on the same
    day with the same name replaces the file."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    if "machine" not in data:
        data = {"machine": machine_info(), **data}
    path = RESULTS / f"{name}-{_dt.date.today().isoformat()}.json"
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return path


def shown(path: Path) -> str:
    """A result path as printed: relative to the checkout when it lies inside it (a --name
    may also be a path elsewhere)."""
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


def load_results(path: str | Path) -> dict[str, Any]:
    """Read a result file written by :func:`write_results`."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) with linear interpolation; NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    low = math.floor(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def geometric_mean(values: Iterable[float]) -> float:
    values = [v for v in values if v > 0]
    if not values:
        return math.nan
    return math.exp(sum(math.log(v) for v in values) / len(values))


def summarize(ms: Sequence[float]) -> dict[str, float]:
    """Median, p90, max and total of a list of timings (milliseconds)."""
    return {
        "n": len(ms),
        "median_ms": percentile(ms, 50),
        "p90_ms": percentile(ms, 90),
        "max_ms": max(ms) if ms else math.nan,
        "total_ms": sum(ms),
    }


def run_tasks(
    function: Callable[[Any], Any],
    tasks: Sequence[Any],
    workers: int,
    keep: Callable[[Any, int], None],
) -> None:
    """``function(task)`` for each task on ``workers`` processes, ``keep(result, n)`` called
    with each result as it ends (n: how many have ended). A task that fails stops the run
    at once (the tasks not begun are cancelled, not played to the end for nothing) and the
    error names it."""
    with ProcessPoolExecutor(workers) as pool:
        futures = {pool.submit(function, task): task for task in tasks}
        try:
            for n, future in enumerate(as_completed(futures), 1):
                try:
                    result = future.result()
                except Exception as exc:
                    raise RuntimeError(f"task {futures[future]!r} failed: {exc}") from exc
                keep(result, n)
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise


def interval(values: list[float]) -> dict[str, Any]:
    """The mean of paired differences with its 95% t interval, as the arena gives its pairs."""
    from ts358.batch.arena import _mean_ci  # imported here, after the path set-up above

    if not values:
        return {"n": 0, "mean": None, "ci95": None}
    mean, half = _mean_ci(values)
    ci = None if half is None else [round(mean - half, 4), round(mean + half, 4)]
    return {"n": len(values), "mean": round(mean, 4), "ci95": ci}


def answers(view: Any) -> int:
    """How many answers a seat's decision has (a game left, a legal card...; a give may also
    stop): a decision with one is forced."""
    from ts358.view import DecisionKind  # imported here, after the path set-up above

    if view.kind is DecisionKind.CHOOSE:
        return len(view.available[view.seat])
    return len(view.options) + (view.kind is DecisionKind.GIVE)
