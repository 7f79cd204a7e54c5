"""Threads against one thread: ``solve()`` of full deals with every player and every card,
as ``ts358 solve FILE`` runs it, with ``--threads 1`` and ``--threads N`` alternating deal by
deal in one run (the host's speed drifts; alternating keeps the comparison fair).

    python bench/threads.py --deals 20 --threads 2
    python bench/threads.py --quick
    python bench/threads.py --value --deals 200 --contracts no-tricks --name threads-value

``--value``: only the chooser's value of each deal (``solve(position, Role.CHOOSER,
moves=False)``), the one solve ``bench/solver.py`` times, which the threads search together.

``--runs N``: each deal is solved N times each way (still alternating) and the fastest of
each way's runs counts: whatever else runs on the host only ever slows a solve, and it
slows a team, which needs both cores, more than one thread (docs/solver.md, Threads,
Measured: the same 40 deals' ratio moved by up to 0.77 from run to run).

Per contract: the time ratio (one thread / N threads; above 1: the threads are faster), as
the geometric mean per deal, the median and in total, and whether every value agreed (it
must). Each solve starts from empty tables (cleared, not timed). One thread searches a
solver of its own that threads never shared, as ``--threads 1`` in a fresh process does: a
table threads have shared keeps a check word per entry, which costs one thread about 14%
(docs/solver.md, Threads, Measured).
"""

from __future__ import annotations

import argparse
import time

import common  # bench/common.py: puts src/ on sys.path, machine info, result files
from ts358 import Contract, Position, Role
from ts358.analysis.solve import new_solver, solve


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="4 deals per contract")
    parser.add_argument("--deals", type=int, default=20, help="deals per contract (default 20)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--contracts", default="spades,hearts,diamonds,clubs,no-trump,no-tricks")
    parser.add_argument(
        "--value", action="store_true", help="only the chooser's value (as bench/solver.py)"
    )
    parser.add_argument(
        "--runs", type=int, default=1, help="solves of each deal each way; the fastest counts"
    )
    parser.add_argument("--name", default="threads")
    args = parser.parse_args()
    deals = 4 if args.quick else args.deals
    if args.runs < 1:
        parser.error(f"--runs must be at least 1, not {args.runs}")
    contracts = [Contract.parse(c) for c in args.contracts.split(",")]
    solver = new_solver(64)  # the team's, shared
    helpers = solver.helpers(args.threads)
    alone = new_solver(64)  # one thread's: never shared, so without check words
    rows = []
    for contract in contracts:
        one_s, many_s, ratios, agree = [], [], [], 0
        for seed in range(args.first_seed, args.first_seed + deals):
            pos = Position.random(seed, contract)
            timed: dict[int, float] = {}
            answers = []
            for run in range(args.runs):
                for threads in (1, args.threads) if (seed + run) % 2 else (args.threads, 1):
                    for s in (*helpers, alone):
                        s.clear()
                    used = alone if threads == 1 else solver
                    start = time.perf_counter()
                    if args.value:
                        result = solve(pos, Role.CHOOSER, False, solver=used, threads=threads)
                    else:
                        result = solve(pos, solver=used, threads=threads)
                    took = time.perf_counter() - start
                    timed[threads] = min(timed.get(threads, took), took)
                    answers.append((result.players, result.moves))
            t1, tn = timed[1], timed[args.threads]
            same = all(answer == answers[0] for answer in answers)
            agree += same
            one_s.append(t1)
            many_s.append(tn)
            ratios.append(t1 / tn)
            print(
                f"  {contract.label:9} seed {seed:3}  1 thread {t1:7.2f} s  "
                f"{args.threads} threads {tn:7.2f} s  x{t1 / tn:4.2f}"
                f"{'' if same else '  VALUES DIFFER'}",
                flush=True,
            )
        rows.append(
            {
                "contract": contract.label,
                "deals": deals,
                "ratio_geomean": round(common.geometric_mean(ratios), 3),
                "ratio_median": round(common.percentile(ratios, 50), 3),
                "ratio_total": round(sum(one_s) / sum(many_s), 3),
                "one_thread_total_s": round(sum(one_s), 2),
                "threads_total_s": round(sum(many_s), 2),
                "values_agree": f"{agree}/{deals}",
                "one_thread_median_s": round(common.percentile(one_s, 50), 4),
                "threads_median_s": round(common.percentile(many_s, 50), 4),
                "per_deal": [
                    {"seed": args.first_seed + i, "one_s": round(a, 4), "threads_s": round(b, 4)}
                    for i, (a, b) in enumerate(zip(one_s, many_s))
                ],
            }
        )
    for row in rows:
        print(
            f"{row['contract']:9}  x{row['ratio_geomean']:.2f} per deal (median "
            f"x{row['ratio_median']:.2f}), x{row['ratio_total']:.2f} in total "
            f"({row['one_thread_total_s']} s against {row['threads_total_s']} s), "
            f"values agree {row['values_agree']}"
        )
    data = {
        "benchmark": "threads",
        "config": {
            "threads": args.threads,
            "deals": deals,
            "runs": args.runs,
            "first_seed": args.first_seed,
            "solve": "the chooser's value" if args.value else "every player and every card",
        },
        "results": rows,
    }
    path = common.write_results(args.name, data)
    print(f"wrote {common.shown(path)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
