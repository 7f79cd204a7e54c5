"""Throughput of the batch commands, with 1 and with 2 local workers (the scaling ratio).

    python bench/arena.py [--levels easy,medium] [--boards N] [--analyze-deals N]
                          [--games spades,hearts,no-trump] [--candidates N] [--workers 1,2]
                          [--max-nodes N]

* arena: deals per second of ``ts358 arena --players L,L,L`` (one seating per board, so
  boards = deals) for each level L;
* analyze: full-deal double-dummy solves per second of ``ts358 analyze`` (each deal and
  game: N candidate discards for the chooser, then the third and the dealer).
  ``--max-nodes`` gives each solve the node budget of ``ts358 analyze --max-nodes`` (stopped
  solves count as solves and are reported as ``unsolved``); without it a few long solves
  set the time, and with 2 workers the split of so few deals is uneven.

The 1-worker runs are in-process (no pool); K workers are a spawn pool of K processes, so
their time includes starting the pool. Scaling ratio = rate(2) / rate(1); 2.0 would be
perfect on two free cores. CPU seconds (this process and its reaped workers) give rates per
CPU second too: when the machine is shared, these show the parallel overhead apart from the
cores the others take. Writes bench/results/<name>-<date>.json (--name, default arena-throughput).
"""

from __future__ import annotations

import argparse
import resource
import time

import common  # bench/common.py: puts src/ on sys.path, machine info, result files
from ts358.analysis.game_stats import run_game_stats
from ts358.batch.arena import run_arena
from ts358.rules import Contract


def cpu_seconds() -> float:
    """CPU time of this process and its finished children (the pool's workers are reaped
    when the pool shuts down, so their time is in RUSAGE_CHILDREN by then)."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


def arena_rate(level: str, boards: int, workers: int, seed: int) -> dict[str, float]:
    start, cpu = time.perf_counter(), cpu_seconds()
    doc = run_arena((level, level, level), boards, seed, workers=workers)
    seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu
    return {
        "deals": doc["deals"],
        "seconds": round(seconds, 3),
        "cpu_seconds": round(cpu, 3),
        "deals_per_s": round(doc["deals"] / seconds, 3),
        "deals_per_cpu_s": round(doc["deals"] / cpu, 3),
    }


def analyze_rate(
    deals: int,
    games: tuple[Contract, ...],
    candidates: int,
    workers: int,
    seed: int,
    first: int,
    max_nodes: int,
) -> dict[str, float]:
    start, cpu = time.perf_counter(), cpu_seconds()
    records = run_game_stats(
        deals,
        seed,
        first=first,
        games=games,
        candidates=candidates,
        workers=workers,
        max_nodes=max_nodes,
    )
    seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu
    solves = sum(r["solves"] for r in records)
    unsolved = sum(g.get("unsolved", 0) for r in records for g in r["games"].values())
    return {
        "deals": deals,
        "solves": solves,
        "unsolved": unsolved,
        "seconds": round(seconds, 3),
        "cpu_seconds": round(cpu, 3),
        "solves_per_s": round(solves / seconds, 3),
        "solves_per_cpu_s": round(solves / cpu, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--levels", default="easy,medium", help="arena levels (hard is slow: minutes a deal)"
    )
    parser.add_argument(
        "--boards",
        type=int,
        default=40,
        help="arena boards per run (hard: one per worker of the largest count)",
    )
    parser.add_argument("--analyze-deals", type=int, default=4)
    parser.add_argument("--first", type=int, default=0, help="first analyzed deal")
    parser.add_argument(
        "--games",
        default="spades,hearts,no-trump",
        help="analyzed games (no-tricks solves can take minutes)",
    )
    parser.add_argument("--candidates", type=int, default=2)
    parser.add_argument(
        "--max-nodes",
        type=int,
        default=0,
        help="analyze: node budget per solve (0: none; see ts358 analyze --help)",
    )
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--name", default="arena-throughput", help="result file name (default arena-throughput)"
    )
    args = parser.parse_args()
    counts = [int(w) for w in args.workers.split(",")]
    games = tuple(Contract.parse(g) for g in args.games.split(",") if g.strip())

    arena: dict[str, dict[str, object]] = {}
    for level in [x.strip() for x in args.levels.split(",") if x.strip()]:
        boards = max(counts) if level == "hard" else args.boards
        runs = {}
        for workers in counts:
            # The same boards for every worker count: boards differ in cost (each replays
            # its match up to the deal), so only the same set gives a fair ratio.
            runs[str(workers)] = arena_rate(level, boards, workers, args.seed)
            print(f"arena {level}: {workers} worker(s) {runs[str(workers)]}", flush=True)
        arena[level] = {"runs": runs}
        if "1" in runs and "2" in runs:
            arena[level]["scaling_2_vs_1"] = round(
                runs["2"]["deals_per_s"] / runs["1"]["deals_per_s"], 2
            )

    analyze: dict[str, object] = {
        "games": [g.label for g in games],
        "candidates": args.candidates,
        "max_nodes": args.max_nodes,
        "runs": {},
    }
    if args.analyze_deals > 0:
        runs = {}
        for workers in counts:
            runs[str(workers)] = analyze_rate(
                args.analyze_deals,
                games,
                args.candidates,
                workers,
                args.seed,
                args.first,
                args.max_nodes,
            )
            print(f"analyze: {workers} worker(s) {runs[str(workers)]}", flush=True)
        analyze["runs"] = runs
        if "1" in runs and "2" in runs:
            analyze["scaling_2_vs_1"] = round(
                runs["2"]["solves_per_s"] / runs["1"]["solves_per_s"], 2
            )

    path = common.write_results(args.name, {"arena": arena, "analyze": analyze, "args": vars(args)})
    print(f"written to {path}")


if __name__ == "__main__":
    main()
