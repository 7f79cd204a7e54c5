"""ts358.rl: environment steps per second on one core, with random legal actions, and where
the time goes.

    python bench/rl.py                  # 2,000 deals, 20 matches, 200 deals against medium
    python bench/rl.py --quick          # a tenth of that

Measured, each on seeded deals (seed ``--seed``):

- **deal**: ``ts358.rl.deal_env()`` (PettingZoo's wrappers on), the usual AEC loop
  (``agent_iter``, ``last``, ``step``) with a random legal action from the observation's mask;
- **raw deal**: the same without the wrappers (``raw_deal_env``);
- **match**: ``raw_match_env()``, whole 6-deal matches;
- **single vs easy / medium**: the Gymnasium wrapper, the agent's steps per second (the
  opponents' thinking included), one deal per episode.

A step is one action (a discard is four). Steps per second count the whole loop, the
random choice included; ``env_share`` is the share of the time spent inside the
environment's calls. ``profile`` splits one deal-environment run by where the time goes
(cProfile's own time per part of the code: the engine, the observation, the actions and
masks, PettingZoo's wrappers, the loop itself), with the profiler's overhead in every part.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from typing import Any

import numpy as np

import common  # bench/common.py: puts src/ on sys.path, machine info, result files
from ts358.rl import deal_env, raw_deal_env, raw_match_env, single_agent_env


def run_aec(env: Any, episodes: int, seed: int) -> dict[str, Any]:
    """Episodes of the AEC loop with random legal actions."""
    rng = random.Random(seed)
    clock = time.perf_counter
    steps = 0
    inside = 0.0
    start = clock()
    env.reset(seed=seed)
    for _ in range(episodes):
        for _agent in env.agent_iter():
            t = clock()
            observation, _, termination, truncation, _ = env.last()
            inside += clock() - t
            if termination or truncation:
                action = None
            else:
                action = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
                steps += 1
            t = clock()
            env.step(action)
            inside += clock() - t
        env.reset()
    seconds = clock() - start
    return _rates(steps, seconds, inside, episodes)


def run_single(opponents: str, episodes: int, seed: int) -> dict[str, Any]:
    """Episodes of the Gymnasium wrapper, the agent's actions random and legal."""
    env = single_agent_env(opponents)
    rng = random.Random(seed)
    clock = time.perf_counter
    steps = 0
    inside = 0.0
    start = clock()
    for episode in range(episodes):
        t = clock()
        observation, _ = env.reset(seed=seed + episode)
        inside += clock() - t
        done = False
        while not done:
            action = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
            t = clock()
            observation, _, done, _, _ = env.step(action)
            inside += clock() - t
            steps += 1
    seconds = clock() - start
    return _rates(steps, seconds, inside, episodes)


def _rates(steps: int, seconds: float, inside: float, episodes: int) -> dict[str, Any]:
    return {
        "episodes": episodes,
        "steps": steps,
        "seconds": round(seconds, 3),
        "steps_per_second": round(steps / seconds),
        "env_share": round(inside / seconds, 3),
    }


_PARTS = (
    ("engine", ("/ts358/deal.py", "/ts358/view.py", "/ts358/tricks.py", "/ts358/cards.py",
                "/ts358/rules.py", "/ts358/exchange.py", "/ts358/refusal.py", "_core358")),
    ("observation", ("/ts358/rl/observation.py",)),
    ("actions and masks", ("/ts358/rl/actions.py", "/ts358/rl/stepper.py")),
    ("environment", ("/ts358/rl/aec.py",)),
    ("PettingZoo wrappers", ("/pettingzoo/",)),
    ("NumPy", ("numpy",)),
)  # fmt: skip


def profile(episodes: int, seed: int) -> dict[str, float]:
    """Shares of the deal environment's loop by part of the code (cProfile's own time)."""
    profiler = cProfile.Profile()
    env = deal_env()
    profiler.enable()
    run_aec(env, episodes, seed)
    profiler.disable()
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    shares: dict[str, float] = {}
    total = 0.0
    for (path, _, name), (_, _, own, _, _) in stats.items():
        total += own
        part = next(
            (label for label, keys in _PARTS if any(k in path or k in name for k in keys)),
            "the loop and the rest",
        )
        shares[part] = shares.get(part, 0.0) + own
    return {k: round(v / total, 3) for k, v in sorted(shares.items(), key=lambda kv: -kv[1])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--single", type=int, default=200, help="episodes of the wrapper")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="a tenth of each")
    parser.add_argument("--name", default="rl")
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    deals, matches, single = (max(1, n // scale) for n in (args.deals, args.matches, args.single))
    results: dict[str, Any] = {}
    for label, run in (
        ("deal", lambda: run_aec(deal_env(), deals, args.seed)),
        ("raw deal", lambda: run_aec(raw_deal_env(), deals, args.seed)),
        ("match", lambda: run_aec(raw_match_env(), matches, args.seed)),
        ("single vs easy", lambda: run_single("easy", single, args.seed)),
        ("single vs medium", lambda: run_single("medium", single, args.seed)),
    ):
        print(f"{label} ...", file=sys.stderr, flush=True)
        results[label] = run()
        print(f"  {results[label]}", file=sys.stderr)
    print("profile ...", file=sys.stderr, flush=True)
    results["profile"] = profile(max(1, deals // 4), args.seed)
    print(f"  {results['profile']}", file=sys.stderr)
    path = common.write_results(
        args.name,
        {
            "command": " ".join(["python", *sys.argv]),
            "machine": common.machine_info(),
            "notes": __doc__,
            "results": results,
        },
    )
    print(f"results: {common.shown(path)}")


if __name__ == "__main__":
    main()
