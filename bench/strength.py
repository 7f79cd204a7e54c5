"""Strength against thinking time: each player configuration in a duplicate arena against a
reference, with its decision times.

For every configuration C of ``--players`` the arena plays ``C, REF, REF`` (``--against``,
default ``hard``) on the same seeded boards, every board in all three seatings, and the
table gives C's mean score per deal minus REF's (paired per board, 95% CI) beside C's
decision times (median, p90, p99, max, in all and per decision kind). Every configuration
meets the same boards, so the rows compare with each other too.

    python bench/strength.py --boards 300 --seed 7100 \
        --players hard:layouts=6:nodes=750000,hard:layouts=24:nodes=12000000,expert

Writes ``bench/results/strength-<date>.json`` (``--name`` to change). Strength is
reproducible from the seed; times depend on the machine and its load (the results record
the load average), so run nothing else beside it when the times matter. The arena runs one
worker per core; a configuration with threads of its own (expert: 2) then shares the cores
with the other worker, which slows it but does not change its decisions.
"""

from __future__ import annotations

import argparse
import sys
import time

import common
from ts358.batch.arena import run_arena
from ts358.players import PlayerSpec


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", required=True, help="configurations, comma-separated")
    parser.add_argument("--against", default="hard", help="the reference configuration")
    parser.add_argument("--boards", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7100)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--name", default="strength")
    args = parser.parse_args(argv)
    try:
        configs = [str(PlayerSpec.parse(c)) for c in args.players.split(",")]
        against = str(PlayerSpec.parse(args.against))
    except ValueError as exc:
        print(f"strength: {exc}", file=sys.stderr)
        return 2
    rows = []
    print(f"{'player':40} {'vs ' + against:>22} {'median':>8} {'p90':>8} {'p99':>8} {'max':>8} ms")
    for config in configs:
        start = time.perf_counter()
        doc = run_arena((config, against, against), args.boards, args.seed, workers=args.workers)
        (pair,) = doc["pairs"]
        sign = 1 if pair["a"] == config else -1
        ci = pair["ci95"]
        diff = sign * pair["mean_difference"]
        interval = None if ci is None else sorted(sign * x for x in ci)
        times = next(r for r in doc["results"] if r["config"] == config)["decision_ms"]
        rows.append(
            {
                "config": config,
                "effort": doc["efforts"].get(config),
                "difference": diff,
                "ci95": interval,
                "decision_ms": times,
                "reference_decision_ms": next(r for r in doc["results"] if r["config"] == against)[
                    "decision_ms"
                ],
                "digest": doc["digest"],
                "seconds": round(time.perf_counter() - start, 1),
            }
        )
        shown_ci = "" if interval is None else f"[{interval[0]:+.2f}, {interval[1]:+.2f}]"
        print(
            f"{config:40} {diff:+6.2f} {shown_ci:>15} {times['median']:8.1f} {times['p90']:8.1f} "
            f"{times['p99']:8.1f} {times['max']:8.1f}",
            flush=True,
        )
    path = common.write_results(
        args.name,
        {
            "command": " ".join(["python", "bench/strength.py", *(argv or sys.argv[1:])]),
            "against": against,
            "boards": args.boards,
            "seed": args.seed,
            "rows": rows,
        },
    )
    print(f"results: {common.shown(path)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
