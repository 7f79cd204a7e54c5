"""Benchmark of the game engine: the Cython core's random playouts and the Python engine's
full matches (what ``ts358 play --auto`` runs).

    python bench/engine.py [--deals N] [--matches M] [--repeat R]

Targets: >= 50,000 full random deals/s in the core (deal, then 16 random legal tricks);
>= 20 full 18-deal matches/s in the Python engine with random players (every decision
through a fresh seat view, legality checked). Writes bench/results/engine-<date>.json.
"""

from __future__ import annotations

import argparse
import functools
import time

import common  # bench/common.py: puts src/ on sys.path, machine info, result files
from ts358 import Contract, Rules, VoidRule, _core358
from ts358.match import Match, player_seed
from ts358.players import HeuristicPlayer, RandomPlayer

CORE_TARGET = 50_000
ENGINE_TARGET = 20


def best_rate(run, units: int, repeat: int) -> float:
    """Units per second of the fastest of ``repeat`` runs (the least disturbed by others)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return units / best


def core_rates(deals: int, repeat: int) -> dict[str, float]:
    rates = {}
    for contract in (Contract.HEARTS, Contract.NO_TRUMP):
        for void in VoidRule:
            run = functools.partial(_core358.random_deals, deals, 1, int(contract), int(void))
            rate = best_rate(run, deals, repeat)
            rates[f"{contract.label}/{void.label}"] = round(rate)
    return rates


def engine_rate(matches: int, repeat: int, players: str) -> float:
    def run() -> None:
        for seed in range(matches):
            match = Match(Rules(length=18), seed)
            if players == "random":
                match.run([RandomPlayer(player_seed(seed, s)) for s in range(3)])
            else:
                match.run([HeuristicPlayer() for _ in range(3)])

    return best_rate(run, matches, repeat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200_000, help="core deals per run")
    parser.add_argument("--matches", type=int, default=20, help="18-deal matches per run")
    parser.add_argument("--repeat", type=int, default=3, help="runs; the best counts")
    args = parser.parse_args()

    core = core_rates(args.deals, args.repeat)
    random_matches = engine_rate(args.matches, args.repeat, "random")
    medium_matches = engine_rate(max(1, args.matches // 2), args.repeat, "medium")
    data = {
        "core_random_deals_per_s": core,
        "core_target": CORE_TARGET,
        "core_meets_target": min(core.values()) >= CORE_TARGET,
        "engine_matches_per_s": {
            "random": round(random_matches, 1),
            "medium": round(medium_matches, 1),
        },
        "engine_target": ENGINE_TARGET,
        "engine_meets_target": random_matches >= ENGINE_TARGET,
        "params": vars(args),
    }
    path = common.write_results("engine", data)
    for key, rate in core.items():
        print(f"core random deals/s   {key:<20} {rate:>12,.0f}   (target {CORE_TARGET:,})")
    print(f"engine 18-deal matches/s, random  {random_matches:8.1f}   (target {ENGINE_TARGET})")
    print(f"engine 18-deal matches/s, medium  {medium_matches:8.1f}")
    print(f"results: {path}")


if __name__ == "__main__":
    main()
