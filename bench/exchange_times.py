"""A player's decision times before the first card: the game choice, the exchange (gives and
the returns for a trump received) and the discard, on seeded arena boards.

    python bench/exchange_times.py --player expert --boards 100 --seed 9800

The arena's boards (``ts358.batch.arena.make_board``: deals part-way through matches, so
that the losers of the deal before give cards) are played by the rule of thumb up to the
first card, except that a seat giving in the exchange gives its lowest trump whenever it
may: the rule of thumb never gives a trump, and a trump's return is otherwise too rare to
time (none in 1,800 arena deals of the expert). At every one of these decisions with more
than one option, ``--player`` (fresh for each board and seat, seeded like the arena's)
decides the same view and is timed. Per kind: count, median, p90, p99 and max in ms.
Card play is timed by the arena (``bench/strength.py``). Run nothing beside it: the times
are the point.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import common  # bench/common.py: puts src/ on sys.path, machine info, result files
from ts358.batch.arena import TimeHistogram, make_board
from ts358.players import HeuristicPlayer, PlayerSpec, make_player
from ts358.seeds import derived_seed
from ts358.view import DecisionKind, SeatView

TIMED = (DecisionKind.CHOOSE, DecisionKind.GIVE, DecisionKind.RETURN, DecisionKind.DISCARD)


def _line(view: SeatView, rule_of_thumb: HeuristicPlayer) -> Any:
    trump = view.game.trump if view.game is not None else None
    if (
        view.kind is DecisionKind.GIVE
        and trump is not None
        and (trumps := view.options.suit(trump))
    ):
        return trumps.lowest()
    return rule_of_thumb.decide(view)


def time_board(spec: str, seed: int, index: int) -> list[dict[str, Any]]:
    deal = make_board(seed, index).deal()
    players = [make_player(spec, derived_seed("exchange-times", seed, index, s)) for s in range(3)]
    rule_of_thumb = HeuristicPlayer()
    rows = []
    while (pending := deal.pending()) is not None and pending.kind is not DecisionKind.PLAY:
        view = pending.view
        if view.kind in TIMED and common.answers(view) > 1:
            start = time.perf_counter()
            players[pending.seat].decide(view)
            ms = 1000 * (time.perf_counter() - start)
            rows.append({"board": index, "kind": str(view.kind), "ms": round(ms, 2)})
            print(f"  board {index} seat {pending.seat} {view.kind!s:8} {ms:7.1f} ms", flush=True)
        deal.apply_answer(_line(view, rule_of_thumb))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--player", default="expert", help="the player timed (a specification)")
    parser.add_argument("--boards", type=int, default=100)
    parser.add_argument("--seed", type=int, default=9800)
    parser.add_argument("--name", default="exchange-times", help="result file name")
    args = parser.parse_args()
    spec = str(PlayerSpec.parse(args.player))
    rows = [r for b in range(args.boards) for r in time_board(spec, args.seed, b)]
    kinds = {}  # as the arena's results give decision times
    for kind in TIMED:
        seconds = [r["ms"] / 1000 for r in rows if r["kind"] == str(kind)]
        if seconds:
            kinds[str(kind)] = TimeHistogram(seconds).milliseconds()
    print(f"\n{'kind':8} {'n':>5} {'median':>8} {'p90':>8} {'p99':>8} {'max':>8} ms")
    for name, k in kinds.items():
        figures = " ".join(f"{k[f]:8.1f}" for f in ("median", "p90", "p99", "max"))
        print(f"{name:8} {k['count']:5} {figures}")
    data = {
        "benchmark": "exchange-times",
        "config": {"player": spec, "boards": args.boards, "seed": args.seed},
        "kinds": kinds,
        "decisions": rows,
    }
    path = common.write_results(args.name, data)
    print(f"wrote {common.shown(path)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
