"""Benchmark of the double-dummy solver (ts358._core358.Solver) on full deals.

    python bench/solver.py                 # 200 deals per contract + 200 void-heavy deals
    python bench/solver.py --quick         # 20 per set: a quick check (a few minutes)
    python bench/solver.py --deals 50      # any number per set
    python bench/solver.py --compare A.json B.json   # per-deal speed ratio B vs A

One solve = one full deal (16/16/16, chooser on lead unless ``--rules`` says who leads), one
contract, player = chooser, the chooser's value only (``Solver.value``), single thread,
table cleared before each deal (``Solver.clear``; the clear itself is not timed), the
default table of ``ts358 solve`` (``new_solver()``: 64 MB, grown to 256 MB by a deal that
fills it; such a deal's solver is then replaced by a fresh one, so that every deal starts at
64 MB) unless ``--tt-mb`` fixes its size. The deal sets are fixed by seeds, so two
runs (two commits, two machines) solve the same positions:

* per contract (all six): deals ``Position.random(seed, contract)`` for seeds 0 .. N-1
  (the same card deals for every contract);
* void-heavy: N deals dealt with biased suit lengths (each player shuns some suits, so
  voids and long suits are common), contract cycling through the six.

There is no per-solve time limit: slow deals are solved to the end and listed.

It also times the plain-Python reference solver (tests/reference_solver.py) against the
core on small endgames (3 and 4 tricks left) in the same run and reports the speed-up.

Results go to bench/results/solver-<date>.json (solver-quick-<date>.json with --quick).
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import signal
import sys
import time
from typing import Any

import common
from ts358 import _core358
from ts358.analysis.solve import DEFAULT_TABLE_MB, GROWN_TABLE_MB, new_solver
from ts358.cards import DECK, CardSet
from ts358.position import Position
from ts358.rules import Contract, Role, Rules, VoidRule

VOID_SEED = 358_000
ENDGAME_SEED = 4_242


# ---------------------------------------------------------------------- deal sets


def contract_deals(
    n: int, contract: Contract, void: VoidRule, first: int = 0, leader: Role = Role.CHOOSER
) -> list[dict[str, Any]]:
    return [
        {
            "set": contract.label,
            "seed": seed,
            "contract": contract,
            "position": dataclasses.replace(Position.random(seed, contract, void), leader=leader),
        }
        for seed in range(first, first + n)
    ]


def void_heavy_position(seed: int, contract: Contract, void: VoidRule) -> Position:
    """A full deal with biased suit lengths: each player weights each suit, often near zero."""
    rng = random.Random(seed)
    cards = sorted(DECK)
    rng.shuffle(cards)
    weights = [
        [0.02 if rng.random() < 0.35 else rng.uniform(0.5, 2.0) for _ in range(4)] for _ in range(3)
    ] + [[1.0] * 4]  # the talon takes any suit
    room = [16, 16, 16, 4]
    held: list[list[Any]] = [[], [], [], []]
    for card in cards:
        open_ = [p for p in range(4) if room[p]]
        w = [weights[p][card.suit] for p in open_]
        p = rng.choices(open_, weights=w)[0]
        held[p].append(card)
        room[p] -= 1
    return Position(contract, tuple(CardSet(h) for h in held[:3]), void=void)  # type: ignore[arg-type]


def void_deals(n: int, void: VoidRule) -> list[dict[str, Any]]:
    out = []
    for i in range(n):
        contract = Contract(i % 6)
        out.append(
            {
                "set": "void-heavy",
                "seed": VOID_SEED + i,
                "contract": contract,
                "position": void_heavy_position(VOID_SEED + i, contract, void),
            }
        )
    return out


def voids_in(pos: Position) -> int:
    return sum(1 for hand in pos.hands for suit in range(4) if not hand.suit(suit))  # type: ignore[arg-type]


# ---------------------------------------------------------------------- timing


class Interrupted(Exception):
    """Ctrl-C during a run: carries the rows so far, the interrupted deal marked unfinished."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        super().__init__("interrupted")
        self.rows = rows


def solve_deals(deals: list[dict[str, Any]], tt_mb: int | None) -> list[dict[str, Any]]:
    solver = new_solver(tt_mb)
    start_bytes = solver.tt_bytes
    rows: list[dict[str, Any]] = []
    for k, deal in enumerate(deals):
        pos: Position = deal["position"]
        hands = tuple(h.mask for h in pos.hands)
        if solver.tt_bytes != start_bytes:
            solver = new_solver(tt_mb)  # the last deal grew the table
        solver.clear()
        solver.reset_stats()
        cpu = time.process_time()
        start = time.perf_counter()
        try:
            value = solver.value(
                hands, int(pos.leader), [], int(pos.contract), int(pos.void), int(Role.CHOOSER)
            )
        except KeyboardInterrupt:
            # Keep the slow deal in the results: its time so far is a lower bound.
            rows.append(
                {
                    "set": deal["set"],
                    "seed": deal["seed"],
                    "contract": pos.contract.label,
                    "unfinished": True,
                    "ms": round((time.perf_counter() - start) * 1000, 3),
                    "cpu_ms": round((time.process_time() - cpu) * 1000, 3),
                    "nodes": solver.nodes,
                    "value": None,
                    "voids": voids_in(pos),
                }
            )
            print(file=sys.stderr)
            raise Interrupted(rows) from None
        ms = (time.perf_counter() - start) * 1000
        cpu_ms = (time.process_time() - cpu) * 1000
        rows.append(
            {
                "set": deal["set"],
                "seed": deal["seed"],
                "contract": pos.contract.label,
                "ms": round(ms, 3),
                "cpu_ms": round(cpu_ms, 3),
                "nodes": solver.nodes,
                "value": value,
                "voids": voids_in(pos),
                "tt_mb": solver.tt_bytes >> 20,
            }
        )
        print(
            f"\r  {deal['set']:<11} {k + 1}/{len(deals)}  last {ms:9.1f} ms",
            end="",
            file=sys.stderr,
            flush=True,
        )
    print(file=sys.stderr)
    return rows


def group_summary(rows: list[dict[str, Any]], tt_bytes: int) -> dict[str, Any]:
    ms = [r["ms"] for r in rows]
    nodes = sum(r["nodes"] for r in rows)
    seconds = sum(ms) / 1000
    cpu = [r.get("cpu_ms", r["ms"]) for r in rows]
    return {
        **common.summarize(ms),
        # CPU time of the (single-threaded) solve: less skewed than wall time when other
        # work shares the machine
        "cpu_median_ms": common.percentile(cpu, 50),
        "cpu_max_ms": max(cpu) if cpu else None,
        "nodes_total": nodes,
        "nodes_median": common.percentile([r["nodes"] for r in rows], 50),
        "nodes_per_s": nodes / seconds if seconds else None,
        "tt_bytes": tt_bytes,
    }


def endgames(per_size: int, void: VoidRule) -> list[Position]:
    """Small endgames (3 and 4 tricks left, all six contracts) reached by random play."""
    rng = random.Random(ENDGAME_SEED)
    out = []
    for tricks_left in (3, 4):
        for i in range(per_size):
            contract = Contract(i % 6)
            pos = Position.random(rng.randrange(2**32), contract, void)
            for _ in range(3 * (16 - tricks_left)):
                pos = pos.play(rng.choice(sorted(pos.legal_moves())))
            out.append(pos)
    return out


def reference_speedup(positions: list[Position], tt_mb: int | None) -> dict[str, Any]:
    """Time the chooser's value with the reference solver and with the core, same positions."""
    from reference_solver import reference_value

    solver = new_solver(tt_mb)
    rows = []
    mismatches = 0
    for pos in positions:
        args = (
            tuple(h.mask for h in pos.hands),
            int(pos.leader),
            [c.id for c in pos.trick],
            int(pos.contract),
            int(pos.void),
            int(Role.CHOOSER),
        )
        start = time.perf_counter()
        ref = reference_value(*args)
        ref_ms = (time.perf_counter() - start) * 1000
        solver.clear()
        start = time.perf_counter()
        core = solver.value(*args)
        core_ms = (time.perf_counter() - start) * 1000
        mismatches += ref != core
        rows.append(
            {
                "tricks_left": pos.tricks_left,
                "contract": pos.contract.label,
                "reference_ms": ref_ms,
                "core_ms": core_ms,
            }
        )
    out: dict[str, Any] = {"positions": len(rows), "value_mismatches": mismatches}
    for size in sorted({r["tricks_left"] for r in rows}):
        sub = [r for r in rows if r["tricks_left"] == size]
        ref_total = sum(r["reference_ms"] for r in sub)
        core_total = sum(r["core_ms"] for r in sub)
        out[f"{size}_tricks"] = {
            "n": len(sub),
            "reference_median_ms": common.percentile([r["reference_ms"] for r in sub], 50),
            "core_median_ms": common.percentile([r["core_ms"] for r in sub], 50),
            "speedup_total": ref_total / core_total if core_total else None,
            "speedup_geomean": common.geometric_mean(
                r["reference_ms"] / r["core_ms"] for r in sub if r["core_ms"] > 0
            ),
        }
    return out


# ---------------------------------------------------------------------- reports


def print_table(groups: dict[str, dict[str, Any]]) -> None:
    head = (
        f"{'set':<12}{'n':>5}{'median ms':>11}{'p90 ms':>10}{'max ms':>11}"
        f"{'cpu med ms':>12}{'med nodes':>12}{'Mnodes/s':>10}"
    )
    print(head)
    print("-" * len(head))
    for name, g in groups.items():
        rate = g["nodes_per_s"] / 1e6 if g["nodes_per_s"] else float("nan")
        print(
            f"{name:<12}{g['n']:>5}{g['median_ms']:>11.1f}{g['p90_ms']:>10.1f}"
            f"{g['max_ms']:>11.1f}{g['cpu_median_ms']:>12.1f}{g['nodes_median']:>12,.0f}"
            f"{rate:>10.2f}"
        )


def run(args: argparse.Namespace) -> int:
    if not hasattr(_core358, "Solver"):
        print(
            "bench/solver.py: the built core has no Solver (build it: "
            "python setup.py build_ext --inplace)",
            file=sys.stderr,
        )
        return 2
    n = args.deals if args.deals is not None else (20 if args.quick else 200)
    try:
        rules = Rules.parse(args.rules)
    except ValueError as exc:
        parser_error = f"bench/solver.py: --rules: {exc}"
        print(parser_error, file=sys.stderr)
        return 2
    void, leader = rules.void, rules.first_leader
    contracts = (
        [Contract.parse(c) for c in args.contracts.split(",")]
        if args.contracts
        else sorted(rules.contracts)
    )
    tt_bytes = new_solver(args.tt_mb).tt_bytes
    table = f"table {tt_bytes / 2**20:.0f} MiB" + (
        f" (growing to {GROWN_TABLE_MB} MB)" if args.tt_mb is None else ""
    )
    print(
        f"solver benchmark: {n} deals per set, {rules.label} rules ({void.label} void rule, "
        f"{leader.label} leads), "
        f"{table}, chooser's value, fresh table per deal",
        file=sys.stderr,
    )

    rows: list[dict[str, Any]] = []
    interrupted = False
    try:
        for contract in contracts if n and not args.only_void else []:
            deals = contract_deals(n, contract, void, args.first_seed, leader)
            rows += solve_deals(deals, args.tt_mb)
        if n and not args.no_void:
            rows += solve_deals(void_deals(n, void), args.tt_mb)
    except Interrupted as exc:
        # Ctrl-C: report and save what was measured, the interrupted deal included.
        rows += exc.rows
        interrupted = True
        print(
            "interrupted: partial results (the unfinished deal counts with its time so far)",
            file=sys.stderr,
        )

    groups = {}
    if rows:  # --deals 0 runs only the reference comparison
        groups = set_groups(rows, tt_bytes)
        print()
        print_table(groups)
        print(f"table memory: {tt_bytes:,} bytes ({tt_bytes / 2**20:.1f} MiB)")
        grown = [r for r in rows if r.get("tt_mb", 0) > tt_bytes >> 20]
        if grown:
            print(
                f"table grown to {max(r['tt_mb'] for r in grown)} MiB in "
                + ", ".join(f"{r['set']} seed {r['seed']}" for r in grown)
            )
        slowest = sorted(rows, key=lambda r: -r["ms"])[:5]
        print(
            "slowest: "
            + "; ".join(
                f"{r['set']} seed {r['seed']} ({r['contract']}) {r['ms']:.0f} ms"
                + (" UNFINISHED" if r.get("unfinished") else "")
                for r in slowest
            )
        )

    reference = None
    if args.endgames and not interrupted:
        print("reference solver vs core, chooser's value on small endgames...", file=sys.stderr)
        reference = reference_speedup(endgames(args.endgames, void), args.tt_mb)
        print()
        for key, val in reference.items():
            if isinstance(val, dict):
                print(
                    f"{key.replace('_', ' ')} left ({val['n']} positions): reference median "
                    f"{val['reference_median_ms']:.2f} ms, core median "
                    f"{val['core_median_ms']:.3f} ms, speed-up {val['speedup_total']:.0f}x "
                    f"(total), {val['speedup_geomean']:.0f}x (geometric mean)"
                )
        if reference["value_mismatches"]:
            print(f"WARNING: {reference['value_mismatches']} values differ from the reference")

    data = {
        "benchmark": "solver",
        "machine": common.machine_info(),
        "config": {
            "deals_per_set": n,
            "first_seed": args.first_seed,
            "rules": void.label,
            "rule_set": args.rules,
            "leader": leader.label,
            "tt_mb": args.tt_mb,  # None: the default table, growing to grow_mb
            "grow_mb": GROWN_TABLE_MB if args.tt_mb is None else None,
            "contracts": [c.label for c in contracts],
            "void_heavy": not args.no_void,
            "player": "chooser",
            "what": "Solver.value on a full deal, table cleared",
        },
        "interrupted": interrupted,
        "unfinished": [r for r in rows if r.get("unfinished")],
        "groups": groups,
        "reference": reference,
        "deals": rows,
    }
    name = args.name or ("solver-quick" if args.quick else "solver")
    if interrupted:
        name += "-partial"
    path = common.write_results(name, data)
    print(f"wrote {common.shown(path)}")
    return 0


def deal_key(r: dict[str, Any]) -> tuple[str, int, str]:
    """What identifies a deal across result files."""
    return (r["set"], r["seed"], r["contract"])


def set_groups(rows: list[dict[str, Any]], tt_bytes: int) -> dict[str, dict[str, Any]]:
    """The summary of each set, in order of appearance, and of all rows ("overall")."""
    groups = {
        name: group_summary([r for r in rows if r["set"] == name], tt_bytes)
        for name in dict.fromkeys(r["set"] for r in rows)
    }
    groups["overall"] = group_summary(rows, tt_bytes)
    return groups


def merge(paths: list[str], name: str | None) -> int:
    """One result file from runs over disjoint deals (e.g. two --first-seed ranges run side by
    side), with the summary recomputed over all of them; each file's commit is kept."""
    if not name:
        print("bench/solver.py: --merge needs --name for the merged file", file=sys.stderr)
        return 2
    files = [common.load_results(p) for p in paths]
    commits = [f["machine"].get("git_commit") for f in files]
    if len(set(commits)) > 1:
        print(
            "bench/solver.py: warning: the files come from different commits (merge only "
            "runs whose solver code is the same for these deals)",
            file=sys.stderr,
        )
    rows: list[dict[str, Any]] = []
    seen: set[tuple[Any, ...]] = set()
    for path, f in zip(paths, files):
        for r in f["deals"]:
            key = deal_key(r)
            if key in seen:
                print(
                    f"bench/solver.py: {path}: {key[0]} seed {key[1]} is in two files",
                    file=sys.stderr,
                )
                return 2
            seen.add(key)
            rows.append(r)
    groups = set_groups(rows, files[0]["groups"]["overall"]["tt_bytes"])
    print_table(groups)
    first_set = rows[0]["set"]
    data = {
        **files[0],
        "config": {
            **files[0]["config"],
            "deals_per_set": groups[first_set]["n"],
            "first_seed": min(r["seed"] for r in rows if r["set"] == first_set),
            "merged_from": [{"file": p, "git_commit": c} for p, c in zip(paths, commits)],
        },
        "interrupted": any(f["interrupted"] for f in files),
        "unfinished": [u for f in files for u in f["unfinished"]],
        "groups": groups,
        "deals": rows,
    }
    path = common.write_results(name, data)
    print(f"wrote {common.shown(path)}")
    return 0


def compare(path_a: str, path_b: str) -> int:
    """Per-deal speed ratio A/B (above 1: B is faster) over the deals both files solved, and
    the ratio of nodes, which unlike time does not depend on the machine or its load."""
    a, b = common.load_results(path_a), common.load_results(path_b)

    b_rows = {deal_key(r): r for r in b["deals"]}
    pairs = [
        (r, b_rows[deal_key(r)])
        for r in a["deals"]
        if deal_key(r) in b_rows
        and not r.get("unfinished")
        and not b_rows[deal_key(r)].get("unfinished")
    ]
    if not pairs:
        print("bench/solver.py: the two files have no deal in common", file=sys.stderr)
        return 2
    differ = sum(1 for ra, rb in pairs if ra["value"] != rb["value"])
    print(f"A = {path_a} ({(a['machine'].get('git_commit') or '?')[:10]})")
    print(f"B = {path_b} ({(b['machine'].get('git_commit') or '?')[:10]})")
    print(
        f"{len(pairs)} deals in common; ratio = A ms / B ms (above 1: B is faster); nodes: "
        "A nodes / B nodes (above 1: B searched fewer)"
    )
    head = (
        f"{'set':<12}{'n':>5}{'median ratio':>14}{'geomean':>10}{'A total s':>11}"
        f"{'B total s':>11}{'nodes geomean':>15}{'nodes total':>13}"
    )
    print(head)
    print("-" * len(head))
    sets = [*list(dict.fromkeys(ra["set"] for ra, _ in pairs)), "overall"]
    for name in sets:
        sub = [(ra, rb) for ra, rb in pairs if name in ("overall", ra["set"])]
        ratios = [ra["ms"] / rb["ms"] for ra, rb in sub if rb["ms"] > 0]
        node_ratios = [ra["nodes"] / rb["nodes"] for ra, rb in sub if ra["nodes"] and rb["nodes"]]
        nodes_b = sum(rb["nodes"] for _, rb in sub)
        print(
            f"{name:<12}{len(sub):>5}{common.percentile(ratios, 50):>14.2f}"
            f"{common.geometric_mean(ratios):>10.2f}"
            f"{sum(ra['ms'] for ra, _ in sub) / 1000:>11.1f}"
            f"{sum(rb['ms'] for _, rb in sub) / 1000:>11.1f}"
            f"{common.geometric_mean(node_ratios):>15.3f}"
            f"{sum(ra['nodes'] for ra, _ in sub) / nodes_b if nodes_b else float('nan'):>13.3f}"
        )
    if differ:
        print(f"WARNING: {differ} deals have different values in A and B")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="bench/solver.py",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--quick", action="store_true", help="20 deals per set")
    parser.add_argument("--deals", type=int, metavar="N", help="deals per set (default 200)")
    parser.add_argument(
        "--first-seed",
        type=int,
        default=0,
        metavar="K",
        help="per-contract sets use seeds K .. K+N-1 (default 0), so that "
        "two runs can share one set between two cores (see --merge)",
    )
    parser.add_argument(
        "--rules",
        default="house",
        help="a rule set as ts358 play --rules takes it: house (default), kurnik, "
        "sergeant-major (suits only, void: any card, left of the dealer leads), 9-5-2, "
        "with options: 'house,void=overtrump'",
    )
    parser.add_argument(
        "--contracts", metavar="LIST", help="comma-separated contracts (default: all six)"
    )
    parser.add_argument("--no-void", action="store_true", help="skip the void-heavy set")
    parser.add_argument(
        "--only-void", action="store_true", help="only the void-heavy set (no per-contract sets)"
    )
    parser.add_argument(
        "--tt-mb",
        type=int,
        metavar="N",
        help=f"a fixed table size in MB (default: {DEFAULT_TABLE_MB}, growing to "
        f"{GROWN_TABLE_MB} when a deal fills it, as in ts358 solve)",
    )
    parser.add_argument(
        "--endgames",
        type=int,
        default=12,
        metavar="N",
        help="endgames per size (3 and 4 tricks left) timed against the "
        "reference solver (default 12; 0 skips)",
    )
    parser.add_argument(
        "--name",
        help="result file name under bench/results/, or a path "
        "(default solver / solver-quick; the date and .json are added)",
    )
    parser.add_argument(
        "--merge",
        nargs="+",
        metavar="FILE.json",
        help="combine result files over disjoint deals (e.g. runs with "
        "different --first-seed) into one, written under --name, and exit",
    )
    parser.add_argument(
        "--compare",
        nargs=2,
        metavar=("A.json", "B.json"),
        help="print the per-deal speed ratio of two result files and exit",
    )
    args = parser.parse_args(argv)
    # Ctrl-C must reach the run even when started from a job that ignores SIGINT.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    if args.first_seed < 0:
        parser.error("--first-seed must be at least 0")
    if args.compare:
        return compare(*args.compare)
    if args.merge:
        return merge(args.merge, args.name)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
