"""Interleaved timing of two builds of the solver on the same deals (A/B at the same time).

The host's speed drifts (up to 2x within an hour on the shared 2-core machines), so two
benchmark runs made at different times mix the solver with the machine. This runs both
builds at once, one worker process each, and alternates them deal by deal (which one goes
first alternates too), keeping the fastest of --runs runs per deal.

A build is a directory holding a checkout whose core is built in place
(``python setup.py build_ext --inplace``), for example a ``git worktree`` of an older commit:

    git worktree add /tmp/old <commit> && (cd /tmp/old && python setup.py build_ext --inplace)
    python bench/ab.py /tmp/old . --contracts spades,no-tricks --seeds 0:20 --runs 2

``--threads N``: each deal's value is searched by a team of N threads on one shared table
(``solve(..., threads=N)``), to compare builds of the team; the builds still take turns,
so the team has the cores to itself. Node counts are then the first thread's, and vary
from run to run.

Per contract it prints the geometric mean of the per-deal ratio A time / B time (above 1: B
is faster), the ratio of total times, and the same two ratios for nodes. It stops with an
error if the two builds find different values for a deal.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from pathlib import Path

WORKER = "--worker"


def worker(build: str, threads: int) -> int:
    """Solve the deals named on stdin ("contract seed" lines), one JSON line each."""
    sys.path.insert(0, str(Path(build).resolve() / "src"))
    from ts358.analysis.solve import new_solver, solve
    from ts358.position import Position
    from ts358.rules import Contract, Role

    solver = new_solver()  # the build's default table (ts358 solve's): it may grow
    start_bytes = solver.tt_bytes
    for line in sys.stdin:
        label, seed = line.split()
        pos = Position.random(int(seed), Contract.parse(label))
        if solver.tt_bytes != start_bytes:
            solver = new_solver()  # every deal starts from the default size
        solver.clear()
        solver.reset_stats()
        start = time.perf_counter()
        if threads > 1:
            result = solve(pos, Role.CHOOSER, False, solver=solver, threads=threads)
            value = result.players[0].tricks
        else:
            value = solver.value(
                tuple(h.mask for h in pos.hands),
                int(pos.leader),
                [],
                int(pos.contract),
                int(pos.void),
                int(Role.CHOOSER),
            )
        seconds = time.perf_counter() - start
        print(json.dumps({"value": value, "nodes": solver.nodes, "s": seconds}), flush=True)
    return 0


def start_worker(build: str, threads: int) -> subprocess.Popen[str]:
    if not (Path(build) / "src" / "ts358").is_dir():
        raise SystemExit(f"bench/ab.py: {build}: no src/ts358 there (a checkout is needed)")
    return subprocess.Popen(
        [sys.executable, __file__, WORKER, build, str(threads)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


def ask(proc: subprocess.Popen[str], contract: str, seed: int) -> dict[str, float]:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(f"{contract} {seed}\n")
    proc.stdin.flush()
    line = proc.stdout.readline()
    if not line:
        raise SystemExit("bench/ab.py: a worker stopped (is its core built in place?)")
    return json.loads(line)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="bench/ab.py",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("build_a", help="checkout A (core built in place)")
    parser.add_argument("build_b", help="checkout B (core built in place)")
    parser.add_argument(
        "--contracts",
        default="spades,hearts,diamonds,clubs,no-trump",
        help="comma-separated contracts (default: the five trump and no-trump)",
    )
    parser.add_argument(
        "--seeds",
        default="0:20",
        metavar="FIRST:END",
        help="deal seeds FIRST .. END-1 (default 0:20), Position.random as in bench/solver.py",
    )
    parser.add_argument(
        "--runs",
        type=int,
        default=2,
        help="runs per deal and build; the fastest counts (default 2)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=1,
        help="threads searching each value together (default 1)",
    )
    args = parser.parse_args(argv)
    try:
        first, end = (int(x) for x in args.seeds.split(":"))
    except ValueError:
        parser.error(f"--seeds must look like 0:20, not {args.seeds!r}")
    if not 0 <= first < end or args.runs < 1 or args.threads < 1:
        parser.error("need 0 <= FIRST < END, --runs >= 1 and --threads >= 1")
    import common  # also puts this checkout's src/ on the path
    from ts358.rules import Contract

    contracts = []
    for name in args.contracts.split(","):
        try:
            contracts.append(Contract.parse(name).label)
        except ValueError as exc:
            parser.error(str(exc))
    procs = {
        "a": start_worker(args.build_a, args.threads),
        "b": start_worker(args.build_b, args.threads),
    }
    print(
        f"A = {args.build_a}, B = {args.build_b}; ratios A / B (above 1: B is faster or "
        "searched fewer nodes)"
    )
    for contract in contracts:
        times: dict[str, list[float]] = {"a": [], "b": []}
        nodes: dict[str, list[int]] = {"a": [], "b": []}
        for seed in range(first, end):
            best = {"a": math.inf, "b": math.inf}
            seen: dict[str, dict[str, float]] = {}
            for run in range(args.runs):
                for which in "ab" if (seed + run) % 2 == 0 else "ba":
                    seen[which] = ask(procs[which], contract, seed)
                    best[which] = min(best[which], seen[which]["s"])
            if seen["a"]["value"] != seen["b"]["value"]:
                raise SystemExit(
                    f"bench/ab.py: {contract} seed {seed}: A finds "
                    f"{seen['a']['value']}, B {seen['b']['value']}"
                )
            for which in "ab":
                times[which].append(best[which])
                nodes[which].append(int(seen[which]["nodes"]))
        t_ratio = common.geometric_mean(a / b for a, b in zip(times["a"], times["b"]) if b > 0)
        n_ratio = common.geometric_mean(a / b for a, b in zip(nodes["a"], nodes["b"]) if b)
        print(
            f"{contract:<10} {end - first} deals: time {t_ratio:.3f}x per deal, "
            f"{sum(times['a']) / sum(times['b']):.3f}x total "
            f"({sum(times['a']):.2f} s vs {sum(times['b']):.2f} s); "
            f"nodes {n_ratio:.3f}x per deal, {sum(nodes['a']) / sum(nodes['b']):.3f}x total",
            flush=True,
        )
    for proc in procs.values():
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == WORKER:
        sys.exit(worker(sys.argv[2], int(sys.argv[3])))
    sys.exit(main())
