"""What the shared table's check words cost one thread: ``solve()`` of the chooser's value of
full deals on one thread, on a table threads never shared (no check words) and on one that
has them (``Solver.share(True)``, as every table a team has searched keeps them), the two
alternating deal by deal, tables cleared before each solve, every value compared.

    python bench/check_words.py --deals 200 --contracts no-trump,spades

Per contract: the time with check words over the time without (above 1: they cost).
"""

from __future__ import annotations

import argparse
import time

import common  # bench/common.py: puts src/ on sys.path, machine info, result files
from ts358 import Contract, Position, Role
from ts358.analysis.solve import new_solver, solve


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=50, help="deals per contract (default 50)")
    parser.add_argument("--contracts", default="spades,no-trump")
    parser.add_argument("--name", default="check-words")
    args = parser.parse_args()
    plain = new_solver(64)
    checked = new_solver(64)
    checked.share(True)
    rows = []
    for contract in (Contract.parse(c) for c in args.contracts.split(",")):
        spent = {"plain": 0.0, "checked": 0.0}
        for seed in range(args.deals):
            position = Position.random(seed, contract)
            order = ("plain", "checked") if seed % 2 else ("checked", "plain")
            found = {}
            for kind in order:
                solver = plain if kind == "plain" else checked
                solver.clear()
                start = time.perf_counter()
                result = solve(position, Role.CHOOSER, False, solver=solver, threads=1)
                spent[kind] += time.perf_counter() - start
                found[kind] = (result.players, result.moves)
            if found["plain"] != found["checked"]:
                raise SystemExit(f"{contract.label} seed {seed}: the values differ")
        cost = spent["checked"] / spent["plain"]
        print(
            f"{contract.label:9}  without {spent['plain']:.2f} s, with check words "
            f"{spent['checked']:.2f} s: x{cost:.3f}",
            flush=True,
        )
        rows.append(
            {
                "contract": contract.label,
                "deals": args.deals,
                "plain_s": round(spent["plain"], 3),
                "checked_s": round(spent["checked"], 3),
                "cost": round(cost, 3),
            }
        )
    data = {"benchmark": "check-words", "config": {"deals": args.deals}, "results": rows}
    print(f"wrote {common.shown(common.write_results(args.name, data))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
