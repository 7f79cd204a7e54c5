#!/usr/bin/env python3
"""Evaluate a policy against two of ts358's players in the duplicate arena.

Every board (a deal with its match context) is played once in every seating of the policy
and the two players, so the luck of the cards mostly cancels out. The policy is the linear
one saved by train_linear.py (``--weights PATH``) or a baseline: ``random`` (a uniformly
random legal action) or ``first-legal`` (the lowest-numbered legal action).

    python examples/rl/evaluate.py --weights linear.npz --opponents easy,medium --boards 200
    python examples/rl/evaluate.py --policy random --opponents easy,easy --json
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np
from train_linear import LinearPolicy  # this script's neighbour (its folder is on sys.path)

from ts358.players import PlayerSpec
from ts358.rl import evaluate_policy


def make_policy(args: argparse.Namespace):
    if args.policy == "weights":
        return LinearPolicy.load(args.weights).greedy
    if args.policy == "first-legal":
        return lambda observation: int(np.flatnonzero(observation["action_mask"])[0])
    rng = np.random.default_rng(args.seed)  # seeded: the same run, the same scores
    return lambda observation: int(rng.choice(np.flatnonzero(observation["action_mask"])))


def interval(ci: list[float] | None) -> str:
    return "-" if ci is None else f"[{ci[0]:+.2f}, {ci[1]:+.2f}]"


def print_table(results: dict) -> None:
    print(
        f"{results['boards']} boards x {results['permutations']} seatings = "
        f"{results['deals']} deals, seed {results['seed']}; mean score per deal"
    )
    width = max(len("player"), *(len(r["config"]) for r in results["results"]))
    print(f"{'player':<{width}} {'seats':>5} {'mean':>7} {'95% CI':>16} {'won':>7}")
    for r in results["results"]:
        won = f"{100 * r['won']:.1f}%"
        print(
            f"{r['config']:<{width}} {r['seats']:>5} {r['mean']:>+7.2f} "
            f"{interval(r['ci95']):>16} {won:>7}"
        )
    # The paired differences: on the same boards, so tighter than the separate intervals.
    for pair in results["pairs"]:
        print(
            f"{pair['a']} - {pair['b']}: {pair['mean_difference']:+.2f} per deal "
            f"(95% CI {interval(pair['ci95'])})"
        )
    print("won: share of the deals with the highest score (ties shared; 1/3 is par)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--policy", choices=("weights", "random", "first-legal"))
    parser.add_argument("--weights", metavar="PATH", help="weights saved by train_linear.py")
    parser.add_argument(
        "--opponents", default="easy,easy", help="two players, e.g. easy,medium (levels)"
    )
    parser.add_argument("--boards", type=int, default=100, help="boards to play")
    parser.add_argument("--seed", type=int, default=0, help="the arena's seed (its boards)")
    parser.add_argument("--json", action="store_true", help="print the whole results as JSON")
    args = parser.parse_args()
    args.policy = args.policy or ("weights" if args.weights else "random")
    if args.policy == "weights" and not args.weights:
        parser.error("--policy weights needs --weights PATH")
    opponents = args.opponents.split(",")
    if len(opponents) != 2:
        parser.error(f"--opponents takes two players, not {args.opponents!r}")
    for opponent in opponents:
        try:
            PlayerSpec.parse(opponent)
        except ValueError as exc:
            parser.error(f"--opponents: {exc}")

    def progress(index: int) -> None:
        end = "\r" if sys.stderr.isatty() and index + 1 < args.boards else "\n"
        print(f"board {index + 1}/{args.boards}", end=end, file=sys.stderr, flush=True)

    results = evaluate_policy(
        make_policy(args), opponents, boards=args.boards, seed=args.seed, on_board=progress
    )
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print_table(results)


if __name__ == "__main__":
    main()
