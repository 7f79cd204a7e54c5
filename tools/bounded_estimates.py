"""Where in its proven interval a whole deal's value lies when the solver was stopped early:
the data behind the expert player's estimate of a deal it could not solve in its share.

For seeded random deals of each game: the chooser takes the talon and discards by rule of
thumb, and the chooser's value is asked of a fresh solver with a node budget (what one of
the expert's whole-deal solves gets); the bounds it proved, the rule-of-thumb play-out's
tricks and the exact value (without a budget, up to ``--exact-nodes``) are written, one deal
per line, to a JSON Lines file. ``--fit`` reads such a file and prints, per kind of game
(no-tricks; the others), over the deals not solved in budget, the two estimates the expert
player could use with their errors beside that of the interval's middle: the share ``f`` of
the interval below the exact value, by least squares (exact ~ lo + f * (hi - lo)), and the
play-out's tricks shifted by ``b`` (the best of -3 to +1 in steps of 0.5) and moved into the
interval. ``ts358.players.expert`` takes the better of the two for each kind.

    python tools/bounded_estimates.py --deals 50 --budget 125000 \
        --out tools/data/bounded-estimates.jsonl
    python tools/bounded_estimates.py --fit tools/data/bounded-estimates.jsonl

Run from the repository root with the core built in place (or the package installed).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from ts358 import Contract, Role, Rules, _core358  # noqa: E402
from ts358.deal import Deal, DealSetup  # noqa: E402
from ts358.players import HeuristicPlayer  # noqa: E402
from ts358.view import DecisionKind  # noqa: E402


def kind_of(game: Contract) -> str:
    """The kinds the estimate distinguishes: no-tricks, and the games where tricks count."""
    return "no-tricks" if game is Contract.NO_TRICKS else "tricks"


def one_deal(seed: int, game: Contract, budget: int, exact_nodes: int) -> dict[str, object]:
    rule_of_thumb = HeuristicPlayer()
    setup = DealSetup.shuffled(1, dealer=2, rng=random.Random(seed))

    def started() -> Deal:
        deal = Deal(setup, Rules())
        deal.choose(game)
        while (pending := deal.pending()) is not None and pending.kind is not DecisionKind.PLAY:
            deal.apply_answer(rule_of_thumb.decide(pending.view))
        return deal

    deal = started()
    masks = tuple(deal.hand(deal.seat_of(r)).mask for r in Role)
    args = (masks, 0, [], int(game), 0, int(Role.CHOOSER))
    lo, hi = _core358.Solver(16).bounds(*args, max_nodes=budget)
    elo, ehi = _core358.Solver(64).bounds(*args, max_nodes=exact_nodes)
    rollout = started()
    while (pending := rollout.pending()) is not None:
        rollout.apply_answer(rule_of_thumb.decide(pending.view))
    return {
        "seed": seed,
        "game": game.label,
        "budget": budget,
        "lo": lo,
        "hi": hi,
        "exact": elo if elo == ehi else None,
        "exact_bounds": [elo, ehi],
        "rollout": rollout.result().taken[rollout.chooser],
    }


def _shifted(b: float) -> Callable[[dict[str, int]], float]:
    """The estimate: the play-out's tricks plus ``b``, moved into the interval."""
    return lambda r: min(r["hi"], max(r["lo"], r["rollout"] + b))


def _rmse(rows: list[dict[str, int]], estimate: Callable[[dict[str, int]], float]) -> float:
    return statistics.fmean((estimate(r) - r["exact"]) ** 2 for r in rows) ** 0.5


def fit(path: Path) -> dict[str, dict[str, float]]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    fitted: dict[str, dict[str, float]] = {}
    for kind in ("tricks", "no-tricks"):
        cut = [
            r
            for r in rows
            if kind_of(Contract.parse(r["game"])) == kind
            and r["exact"] is not None
            and r["lo"] != r["hi"]
        ]
        if not cut:
            continue
        f = sum((r["exact"] - r["lo"]) * (r["hi"] - r["lo"]) for r in cut) / sum(
            (r["hi"] - r["lo"]) ** 2 for r in cut
        )

        b = min((x / 2 for x in range(-6, 3)), key=lambda b: _rmse(cut, _shifted(b)))
        fitted[kind] = {"share": round(f, 3), "shift": b}
        estimates: dict[str, Callable[[dict[str, int]], float]] = {
            f"lo + {f:.3f} (hi - lo)": lambda r, f=f: r["lo"] + f * (r["hi"] - r["lo"]),
            f"play-out {b:+.1f} in the interval": _shifted(b),
            "middle": lambda r: (r["lo"] + r["hi"]) / 2,
        }
        solved = sum(1 for r in rows if kind_of(Contract.parse(r["game"])) == kind) - len(cut)
        print(f"{kind}: {len(cut)} deals cut short by the budget ({solved} solved in it)")
        for name, estimate in estimates.items():
            bias = statistics.fmean(estimate(r) - r["exact"] for r in cut)
            print(f"  {name:32} bias {bias:+.2f}  rmse {_rmse(cut, estimate):.2f}")
    return fitted


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=60, help="deals per game")
    parser.add_argument("--first-seed", type=int, default=5000)
    parser.add_argument("--budget", type=int, default=125_000)
    parser.add_argument("--exact-nodes", type=int, default=60_000_000)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--fit", type=Path)
    args = parser.parse_args()
    if args.fit:
        print(json.dumps(fit(args.fit)))
        return 0
    if not args.out:
        parser.error("--out or --fit")
    with args.out.open("w", encoding="utf-8") as out:
        for game in Contract:
            for i in range(args.deals):
                row = one_deal(args.first_seed + i, game, args.budget, args.exact_nodes)
                out.write(json.dumps(row) + "\n")
                out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
