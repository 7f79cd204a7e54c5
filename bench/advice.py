"""The advice of ``hint`` at every kind of decision: its time, what its values rest on.

    python bench/advice.py --matches 2
    python bench/advice.py --quick

Three medium players play the first deals of seeded 3-deal matches. At every decision of
every seat except the plays, and at the plays of seat 0, the strong player of ``ts358 play``'s
hint (:class:`ts358.analysis.hints.HintService`: the default effort, one second, every usable
core, one player kept for the whole run as the session keeps it) advises on the same view,
and the advice is timed. Per kind (play early: more than ``Effort.late_from`` cards in hand;
play late; a decision with one option counts as forced) the median, p90 and max time, and
how often each basis (solved, rollouts, rule of thumb) and how many layouts the values
rest on (median). A trump's return does not occur (medium players give no trumps); it
solves nothing.
"""

from __future__ import annotations

import argparse
import collections
import time
from typing import Any

import common  # bench/common.py: puts src/ on sys.path, machine info, result files
from ts358 import Basis, Match, Rules
from ts358.analysis.hints import HINT_SECONDS, HintService
from ts358.analysis.solve import default_threads
from ts358.players import Effort, HeuristicPlayer
from ts358.view import DecisionKind, SeatView

KINDS = ("choose", "discard", "give", "return", "play-early", "play-late", "forced")


def _kind(view: SeatView, effort: Effort) -> str:
    if view.kind is DecisionKind.PLAY and len(view.options) > 1:
        return "play-late" if len(view.hand) <= effort.late_from else "play-early"
    if view.kind is DecisionKind.CHOOSE and len(view.available[view.seat]) > 1:
        return "choose"
    if view.kind in (DecisionKind.DISCARD, DecisionKind.GIVE, DecisionKind.RETURN):
        return str(view.kind)
    return "forced"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="1 match of 1 deal")
    parser.add_argument("--matches", type=int, default=2, help="seeded matches (default 2)")
    parser.add_argument(
        "--deals", type=int, default=3, choices=(1, 2, 3), help="deals played of each match"
    )
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--name", default="advice", help="result file name")
    args = parser.parse_args()
    matches, deals = (1, 1) if args.quick else (args.matches, args.deals)
    effort = Effort()
    medium = HeuristicPlayer()
    hints = HintService()
    rows: list[dict[str, Any]] = []
    for m in range(matches):
        seed = args.first_seed + m
        match = Match(Rules(length=3), seed=seed)
        while len(match.results) < deals and (pending := match.pending()) is not None:
            view = pending.view
            if view.kind is not DecisionKind.PLAY or pending.seat == 0:
                kind = _kind(view, effort)
                start = time.perf_counter()
                advice = hints(view)
                ms = 1000 * (time.perf_counter() - start)
                rows.append(
                    {
                        "match_seed": seed,
                        "deal": view.deal_number,
                        "seat": pending.seat,
                        "kind": kind,
                        "ms": round(ms, 2),
                        "basis": str(advice.basis),
                        "layouts": advice.layouts,
                        "sampled": advice.sampled,
                        "options": len(advice.options),
                    }
                )
                print(
                    f"  match {seed} deal {view.deal_number} seat {pending.seat} {kind:10} "
                    f"{ms:7.1f} ms  {advice.basis} ({advice.layouts}/{advice.sampled} layouts)",
                    flush=True,
                )
            match.apply_answer(medium.decide(view))
    kinds = []
    for kind in KINDS:
        mine = [r for r in rows if r["kind"] == kind]
        if not mine:
            continue
        s = common.summarize([r["ms"] for r in mine])
        bases = collections.Counter(r["basis"] for r in mine)
        kinds.append(
            {
                "kind": kind,
                "decisions": len(mine),
                **{k: round(s[k], 1) for k in ("median_ms", "p90_ms", "max_ms")},
                "basis": {str(b): bases[str(b)] for b in Basis if bases[str(b)]},
                "median_layouts": common.percentile([r["layouts"] for r in mine], 50),
            }
        )
    print(f"\n{'kind':10} {'n':>4}  {'median':>7} {'p90':>7} {'max':>7} ms  layouts  basis")
    for k in kinds:
        bases = ", ".join(f"{b} {n}" for b, n in k["basis"].items())
        print(
            f"{k['kind']:10} {k['decisions']:4}  {k['median_ms']:7.1f} {k['p90_ms']:7.1f} "
            f"{k['max_ms']:7.1f}     {k['median_layouts']:7}  {bases}"
        )
    data = {
        "benchmark": "advice",
        "config": {
            "matches": matches,
            "deals": deals,
            "first_seed": args.first_seed,
            "threads": default_threads(),
            "time_limit": HINT_SECONDS,
        },
        "kinds": kinds,
        "decisions": rows,
    }
    path = common.write_results(args.name, data)
    print(f"wrote {common.shown(path)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
