"""How much a card played tells of the hidden cards, when the solver judges it: the data
behind the expert's ``solver_inference`` factor (``OFF_SOLVER_PLAY``).

Seeded arena boards (``ts358.batch.arena.make_board``) are played by ``--players`` (hard by
default) in every seat. At each card played with a choice, the solver checks it as the
expert does (``ts358.players.expert``: ``move_bounds`` from where it was played, at most
``CHECK_NODES``): is it proven worse, for the seat that played it, than another card it
held? Once in the real layout, and once in each of ``--layouts`` layouts that each other
seat deals from its view just after the card (so that the layouts hold the card, as the
expert's do when it checks past plays). If a card proven worse is rarer in the real
layout than in the sampled ones, a layout where the solver proves the card worse is less
likely to be the real one, by the ratio of the two rates: the factor the expert multiplies
such a layout's weight by.

One board per line of a JSON Lines file (``--out``; each card played with a choice: the
game, the cards in hand, the verdict in the real layout, and of the sampled layouts how
many proved it worse and how many there were); ``--fit FILE`` prints the two rates and
their ratio by kind of game and stage of the deal, and over all.

    python tools/play_consistency.py --boards 60 --seed 12000 \\
        --out tools/data/play-consistency.jsonl
    python tools/play_consistency.py --fit tools/data/play-consistency.jsonl

Run from the repository root with the core built in place (or the package installed).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from ts358 import _core358  # noqa: E402
from ts358.batch.arena import make_board  # noqa: E402
from ts358.cards import Card  # noqa: E402
from ts358.players import make_player  # noqa: E402
from ts358.players.expert import CHECK_NODES, _proven_worse  # noqa: E402
from ts358.players.layouts import sample_worlds  # noqa: E402
from ts358.rules import Contract, Role  # noqa: E402
from ts358.seeds import derived_seed  # noqa: E402
from ts358.view import DecisionKind, SeatView  # noqa: E402


def stage(cards: int) -> str:
    """The stage of the deal by the cards in hand before the play."""
    return "early (16-11 cards)" if cards > 10 else "middle (10-6)" if cards > 5 else "late (5-2)"


def verdict(solver: Any, hands: list[int], view: SeatView, card: Card) -> bool:
    """Whether ``card``, played at ``view``, is proven worse than another with ``hands`` (by
    seat) in the cards' places, checked as the expert checks it."""
    assert view.game is not None
    leader = view.leader if view.leader is not None else view.seat
    got = solver.move_bounds(
        tuple(hands[view.seat_of(r)] for r in Role),
        int(view.role_of(leader)),
        [c.id for c in view.trick],
        int(view.game),
        int(view.rules.void),
        max_nodes=CHECK_NODES,
        per_card=CHECK_NODES // len(view.options),
    )
    return _proven_worse(got, card, view.game is Contract.NO_TRICKS)


def play_board(task: dict[str, Any]) -> dict[str, Any]:
    """One board: each card played with a choice, its verdict in the real layout and in the
    other seats' sampled ones."""
    seed, index, layouts = task["seed"], task["board"], task["layouts"]
    board = make_board(seed, index)
    players = [
        make_player(task["players"], derived_seed("consistency", seed, index, s)) for s in range(3)
    ]
    solver = _core358.Solver(16)
    deal = board.deal()
    plays = []
    while (pending := deal.pending()) is not None:
        view, seat = pending.view, pending.seat
        answer = players[seat].decide(view)
        chose = view.kind is DecisionKind.PLAY and len(view.options) > 1
        if chose:
            real = verdict(solver, [deal.hand(s).mask for s in range(3)], view, answer)
        deal.apply_answer(answer)
        if not chose:
            continue
        sampled = []
        for other in (s for s in range(3) if s != seat):
            seen = deal.view(other)
            rng = random.Random(
                str(("consistency", seed, index, len(deal.tricks), len(deal.trick), other))
            )
            for world in sample_worlds(seen, layouts, rng):
                hands = [h.mask for h in world.hands]
                hands[seat] |= answer.mask
                sampled.append(verdict(solver, hands, view, answer))
        assert view.game is not None
        plays.append(
            {
                "game": view.game.label,
                "cards": len(view.hand),
                "real": real,
                "sampled": [sum(sampled), len(sampled)],  # proven worse, layouts
            }
        )
    return {"board": index, "plays": plays}


def fit(path: Path) -> None:
    """The rates of cards proven worse, real against sampled, and their ratio."""
    groups: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for line in path.read_text().splitlines():
        for play in json.loads(line)["plays"]:
            kind = "no-tricks" if play["game"] == "no-tricks" else "trump, no-trump"
            for key in ((kind, stage(play["cards"])), (kind, "all"), ("all", "all")):
                counts = groups[key]
                counts[0] += play["real"]
                counts[1] += 1
                counts[2] += play["sampled"][0]
                counts[3] += play["sampled"][1]
    print(f"{'game':16} {'stage':20} {'plays':>6} {'real':>7} {'sampled':>8} {'ratio':>6}")
    for (kind, when), (real, n, sampled, m) in sorted(groups.items()):
        ratio = (real / n) / (sampled / m) if sampled else float("nan")
        print(f"{kind:16} {when:20} {n:6} {real / n:7.3f} {sampled / m:8.3f} {ratio:6.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=60)
    parser.add_argument("--seed", type=int, default=12000)
    parser.add_argument("--players", default="hard", help="who plays every seat")
    parser.add_argument("--layouts", type=int, default=8, help="per other seat and card")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--fit", type=Path, metavar="FILE")
    args = parser.parse_args()
    if args.fit:
        fit(args.fit)
        return 0
    if args.out is None:
        parser.error("--out is needed to play boards")
    tasks = [
        {"seed": args.seed, "board": b, "players": args.players, "layouts": args.layouts}
        for b in range(args.boards)
    ]
    with ProcessPoolExecutor(args.workers) as pool, args.out.open("w") as out:
        for n, result in enumerate(pool.map(play_board, tasks), 1):
            out.write(json.dumps(result) + "\n")
            out.flush()
            print(f"{n}/{args.boards} boards", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
