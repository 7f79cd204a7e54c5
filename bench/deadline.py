"""How well time limits are kept: solve() and the after-deal review with a deadline.

For each of N seeded hard positions (full deals, no-tricks first: the heaviest solves) and
each time limit, ``solve(position, time_limit=T)`` with every player and every card (what
``ts358 solve --time-limit T`` runs) on a fresh 64 MB table, and records how long it took
(the overrun past T), how many of its values came out exact, and how wide the others are.
``--review`` also reviews finished deals (``review_deal`` with a deadline T from its start).

    python bench/deadline.py --deals 10 --limits 0.1,0.5,1,2
    python bench/deadline.py --quick

The clock is read inside the search every 65,536 nodes (a few ms at 10M nodes/s), so the
overrun should stay well under a second; a machine shared with other work runs slower
but keeps the deadline the same.
"""

from __future__ import annotations

import argparse
import time

import common  # bench/common.py: puts src/ on sys.path, machine info, result files
from ts358 import Contract, Match, Position, Rules, make_player
from ts358.analysis.review import review_deal
from ts358.analysis.solve import solve


def _positions(deals: int, first: int) -> list[tuple[str, Position]]:
    out = []
    for i in range(deals):
        contract = (Contract.NO_TRICKS, Contract.NO_TRUMP, Contract.HEARTS)[i % 3]
        seed = first + i
        out.append((f"{contract.label} seed {seed}", Position.random(seed, contract)))
    return out


def _summary(overruns: list[float]) -> dict[str, float]:
    return {
        "median_ms": round(1000 * common.percentile(overruns, 50), 1),
        "p90_ms": round(1000 * common.percentile(overruns, 90), 1),
        "max_ms": round(1000 * max(overruns), 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="3 deals, limits 0.2 and 1")
    parser.add_argument("--deals", type=int, default=9, help="positions per limit (default 9)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--limits", default="0.1,0.5,1,2", help="seconds, comma-separated")
    parser.add_argument("--review", type=int, default=3, help="finished deals to review")
    parser.add_argument("--name", default="deadline", help="result file name")
    args = parser.parse_args()
    limits = [float(x) for x in args.limits.split(",")]
    deals = args.deals
    if args.quick:
        deals, limits, args.review = 3, [0.2, 1.0], 1
    rows = []
    for limit in limits:
        overruns, exact, values, widths = [], 0, 0, []
        for label, pos in _positions(deals, args.first_seed):
            start = time.monotonic()
            result = solve(pos, time_limit=limit)
            overrun = time.monotonic() - start - limit
            overruns.append(max(overrun, 0.0))
            for v in (*result.players, *result.moves):
                values += 1
                exact += v.exact
                widths.append(v.bounds[1] - v.bounds[0])
            print(
                f"  {limit:5.2f} s  {label:22}  overrun {1000 * overrun:7.1f} ms  "
                f"exact {sum(v.exact for v in result.moves)}/{len(result.moves)} cards",
                flush=True,
            )
        rows.append(
            {
                "limit_s": limit,
                "solves": deals,
                "overrun": _summary(overruns),
                "exact_values": f"{exact}/{values}",
                "mean_width": round(sum(widths) / len(widths), 2),
            }
        )
    reviews = []
    for r in range(args.review):
        match = Match(Rules(length=3), seed=100 + r)
        match.run([make_player("medium", s) for s in range(3)])
        for result in match.results:
            for limit in limits:
                start = time.monotonic()
                review = review_deal(result, deadline=start + limit)
                overrun = time.monotonic() - start - limit
                reviews.append(
                    {
                        "limit_s": limit,
                        "game": result.game.label,
                        "overrun_ms": round(1000 * overrun, 1),
                        "first_trick": review.first_trick,
                    }
                )
    by_limit = {}
    for limit in limits:
        over = [max(x["overrun_ms"] / 1000, 0.0) for x in reviews if x["limit_s"] == limit]
        if over:
            by_limit[str(limit)] = _summary(over)
    data = {
        "benchmark": "deadline",
        "config": {
            "deals": deals,
            "first_seed": args.first_seed,
            "limits": limits,
            "review_matches": args.review,
        },
        "solve": rows,
        "review": {"per_limit": by_limit, "runs": reviews},
    }
    for row in rows:
        print(
            f"solve  limit {row['limit_s']:5.2f} s: overrun {row['overrun']}, "
            f"exact {row['exact_values']}, mean width {row['mean_width']}"
        )
    for limit, s in by_limit.items():
        print(f"review limit {float(limit):5.2f} s: overrun {s}")
    path = common.write_results(args.name, data)
    print(f"wrote {common.shown(path)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
