"""The analysis board's times: to the first exact value and to all exact values.

For five full trump deals and five full no-tricks deals (``Position.random``, seeds from
``--first-seed``), the board's search (:func:`ts358.web.analysis.search`: ``solve`` in
rounds of growing time budgets, bounds reported as they narrow, as ``/analysis/ws`` sends
them) on a fresh default table, with the threads ``solve`` uses by default. Records the
time of the first report holding an exact value (a card's or a player's) and of the first
holding only exact values; a deal not done within ``--cap`` seconds (60) is stopped and
what was exact by then is recorded.

    python bench/analysis_board.py
    python bench/analysis_board.py --deals 2 --cap 10
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import common  # bench/common.py: puts src/ on sys.path, machine info, result files
from ts358 import Contract, Position
from ts358.web.analysis import search

TRUMPS = (Contract.SPADES, Contract.HEARTS, Contract.DIAMONDS, Contract.CLUBS)


def _run(label: str, position: Position, cap: float) -> dict[str, Any]:
    start = time.perf_counter()
    first: list[float] = []

    def report(message: dict[str, Any]) -> None:
        rows = [*message["cards"], *message["players"]]
        if not first and any(r["exact"] for r in rows):
            first.append(time.perf_counter() - start)

    last = search(position, report, time_limit=cap)
    elapsed = time.perf_counter() - start
    cards = last["cards"]
    players = last["players"]
    row = {
        "deal": label,
        "notation": str(position),
        "first_exact_s": round(first[0], 3) if first else None,
        "all_exact_s": round(elapsed, 3) if last["exact"] else None,
        "capped": not last["exact"],
        "exact_cards": f"{sum(c['exact'] for c in cards)}/{len(cards)}",
        "exact_players": f"{sum(p['exact'] for p in players)}/{len(players)}",
        "nodes": last["nodes"],
    }
    print(
        f"{label:22} first exact {row['first_exact_s']} s, all exact {row['all_exact_s']} s "
        f"(cards {row['exact_cards']}, players {row['exact_players']})",
        flush=True,
    )
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=5, help="deals of each kind (default 5)")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--cap", type=float, default=60.0, help="seconds per deal (default 60)")
    parser.add_argument("--name", default="analysis_board", help="result file name")
    args = parser.parse_args()
    rows = []
    for kind in ("trump", "no-tricks"):
        for i in range(args.deals):
            seed = args.first_seed + i
            contract = TRUMPS[i % 4] if kind == "trump" else Contract.NO_TRICKS
            position = Position.random(seed, contract)
            rows.append(_run(f"{contract.label} seed {seed}", position, args.cap))
    data = {"cap_s": args.cap, "deals": rows}
    path = common.write_results(args.name, data)
    print(f"wrote {common.shown(path)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
