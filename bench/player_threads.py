"""The hard player on one thread against N threads: decision times on the decisions met by
hard players in seeded matches, the two thread counts alternating view by view.

    python bench/player_threads.py --matches 3 --threads 2
    python bench/player_threads.py --quick

Three hard players (one thread each, the default effort) play the first deals of each
3-deal match; at every decision of theirs that uses the solver (the game choice, the
discard, a play with more than one legal card) a hard player with N threads (same seed, its
own tables, seeing the same views in the same order) decides the same view, and the two are
timed one after the other, which one first alternating from view to view (the host's speed
drifts). The match goes on with the one-thread decision. Per kind of decision (play early:
more than ``Effort.late_from`` cards in hand; play late) the median, p90 and max time of
each, the ratio (one thread / N threads; above 1: the threads are faster) as the geometric
mean per decision and of the totals, the threads' CPU time per wall time (about N when they
ran side by side; less on a busy host), the nodes searched, and how often the two made the
same decision (they need not: each thread's layouts get another budget).
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from typing import Any

import common  # bench/common.py: puts src/ on sys.path, machine info, result files
from ts358 import Match, Rules
from ts358.match import player_seed
from ts358.players import Effort, SamplingPlayer
from ts358.view import DecisionKind, SeatView

KINDS = ("choose", "discard", "play-early", "play-late")


def _kind(view: SeatView, effort: Effort) -> str | None:
    """The row a decision is counted in, or None for those that do not solve."""
    if view.kind is DecisionKind.CHOOSE:
        return "choose" if len(view.available[view.seat]) > 1 else None
    if view.kind is DecisionKind.DISCARD:
        return "discard"
    if view.kind is DecisionKind.PLAY and len(view.options) > 1:
        return "play-late" if len(view.hand) <= effort.late_from else "play-early"
    return None  # the exchange (rule of thumb) and forced plays


def _timed(player: SamplingPlayer, view: SeatView) -> tuple[float, float, Any, int]:
    """Wall and CPU seconds (of the process: every thread), the decision, the nodes."""
    before = sum(s.nodes for s in player._solvers)
    start, cpu = time.perf_counter(), time.process_time()
    decision = player.decide(view)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    return seconds, cpu, decision, sum(s.nodes for s in player._solvers) - before


def _stats(ms: list[float]) -> dict[str, float]:
    s = common.summarize(ms)
    return {k: round(s[k], 1) for k in ("median_ms", "p90_ms", "max_ms", "total_ms")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="1 match of 1 deal")
    parser.add_argument("--matches", type=int, default=3, help="seeded matches (default 3)")
    parser.add_argument(
        "--deals", type=int, default=3, choices=(1, 2, 3), help="deals played of each match"
    )
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--name", default="player-threads", help="result file name")
    args = parser.parse_args()
    matches, deals = (1, 1) if args.quick else (args.matches, args.deals)
    effort = Effort()
    rows: list[dict[str, Any]] = []
    for m in range(matches):
        seed = args.first_seed + m
        match = Match(Rules(length=3), seed=seed)
        seeds = [player_seed(seed, s) for s in range(3)]
        one = [SamplingPlayer(s, effort=effort) for s in seeds]
        many = [SamplingPlayer(s, effort=effort, threads=args.threads) for s in seeds]
        while len(match.results) < deals and (pending := match.pending()) is not None:
            view = pending.view
            kind = _kind(view, effort)
            if kind is None:
                match.apply_answer(one[pending.seat].decide(view))
                continue
            order = (1, args.threads) if len(rows) % 2 else (args.threads, 1)
            timed = {}
            for t in order:
                timed[t] = _timed((one if t == 1 else many)[pending.seat], view)
            (s1, c1, d1, n1), (sn, cn, dn, nn) = timed[1], timed[args.threads]
            rows.append(
                {
                    "match_seed": seed,
                    "deal": view.deal_number,
                    "seat": pending.seat,
                    "kind": kind,
                    "one_ms": round(1000 * s1, 2),
                    "threads_ms": round(1000 * sn, 2),
                    "one_cpu_ms": round(1000 * c1, 2),
                    "threads_cpu_ms": round(1000 * cn, 2),
                    "one_nodes": n1,
                    "threads_nodes": nn,
                    "same": d1 == dn,
                }
            )
            print(
                f"  match {seed} deal {view.deal_number} seat {pending.seat} {kind:10} "
                f"1 thread {1000 * s1:7.1f} ms  {args.threads} threads {1000 * sn:7.1f} ms"
                f"{'' if d1 == dn else '  (other decision)'}",
                flush=True,
            )
            match.apply_answer(d1)
    kinds = []
    for kind in (*KINDS, "all"):
        mine = [r for r in rows if kind in ("all", r["kind"])]
        if not mine:
            continue
        one_ms = [r["one_ms"] for r in mine]
        many_ms = [r["threads_ms"] for r in mine]
        kinds.append(
            {
                "kind": kind,
                "decisions": len(mine),
                "one_thread": _stats(one_ms),
                "threads": _stats(many_ms),
                "ratio_geomean": round(
                    common.geometric_mean(a / b for a, b in zip(one_ms, many_ms) if b > 0), 3
                ),
                "ratio_total": round(sum(one_ms) / sum(many_ms), 3),
                # CPU / wall time of the threads: about N when they ran side by side.
                "threads_cpu_per_wall": round(
                    sum(r["threads_cpu_ms"] for r in mine) / sum(many_ms), 2
                ),
                "median_nodes_one": int(common.percentile([r["one_nodes"] for r in mine], 50)),
                "median_nodes_threads": int(
                    common.percentile([r["threads_nodes"] for r in mine], 50)
                ),
                "same_decision": f"{sum(r['same'] for r in mine)}/{len(mine)}",
            }
        )
    print(f"\n{'kind':10} {'n':>4}  {'1 thread ms (med/p90/max)':>26}  ", end="")
    print(f"{f'{args.threads} threads ms':>26}  ratio/dec  total  cpu/wall  same")
    for k in kinds:
        a, b = k["one_thread"], k["threads"]
        print(
            f"{k['kind']:10} {k['decisions']:4}  "
            f"{a['median_ms']:8.1f} {a['p90_ms']:8.1f} {a['max_ms']:8.1f}  "
            f"{b['median_ms']:8.1f} {b['p90_ms']:8.1f} {b['max_ms']:8.1f}  "
            f"x{k['ratio_geomean']:<8.2f} x{k['ratio_total']:<5.2f} "
            f"{k['threads_cpu_per_wall']:<9.2f} {k['same_decision']}"
        )
    data = {
        "benchmark": "player-threads",
        "config": {
            "threads": args.threads,
            "matches": matches,
            "deals": deals,
            "first_seed": args.first_seed,
            "effort": dataclasses.asdict(effort),
        },
        "kinds": kinds,
        "decisions": rows,
    }
    path = common.write_results(args.name, data)
    print(f"wrote {common.shown(path)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
