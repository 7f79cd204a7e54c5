"""Two players compared where they differ: each decision where they would decide otherwise
is played on both ways, and the seat's deal scores compared.

A duplicate arena compares two players over whole deals, so a change that alters one
decision in twenty drowns in the variance of everything else (a few hundred boards give a
95% interval of about +-0.2 points a deal). This looks only where the two differ. Seeded
boards (those of ``ts358 arena``) are played by ``--line`` players in every seat; at every
decision of the kinds asked (``--kinds``; plays only with at most ``--cards`` cards in hand)
both ``--a`` and ``--b`` decide from the seat's view, and where they differ the deal is
played on twice from there: once with that seat played by A from its decision on, once by
B, the other seats by ``--others`` players, the same seeds in both. The difference of the
seat's two deal scores is one sample of what A's decision (and A's play after it) is worth
over B's, on a real position whose hidden cards fit the seat's view as play made them.

    python bench/divergence.py --a expert --b expert:inference=0 --line hard \\
        --others hard --kinds play --boards 200 --seed 9920 \\
        --out /tmp/inference.jsonl
    python bench/divergence.py --summary /tmp/inference.jsonl --name divergence-inference

The summary gives the mean difference per divergence (95% t interval), how often the two
differ, and the difference per seat and deal (the divergences of a board summed, divided by
its three seats; interval over the boards), which is what the change is worth to a deal as
long as one divergence does not change where the others occur. Where a seat diverges often
in one deal that sum counts A's later play more than once (each branch already plays A on
to the end), so the summary also gives the same with each seat's first divergence only
(``per_seat_deal_first``): what playing the seat by A instead of B from the first point
where they differ is worth, per seat and deal. Each board is appended to
``--out`` as it ends (JSON lines); ``--resume FILE`` plays the boards the file lacks.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import common  # bench/common.py: puts src/ on sys.path, machine info, result files
from ts358.batch.arena import make_board
from ts358.deal import Deal, format_decision
from ts358.players import PlayerSpec, make_player
from ts358.seeds import derived_seed
from ts358.view import DecisionKind

KINDS = tuple(k.value for k in DecisionKind)


def _players(spec: str, seed: int, board: int, role: str) -> list[Any]:
    return [make_player(spec, derived_seed("divergence", role, seed, board, s)) for s in range(3)]


def _play_on(deal: Deal, seat: int, player: Any, others: list[Any]) -> int:
    """Play ``deal`` to its end, ``seat`` by ``player``, the rest by ``others``: the seat's
    score."""
    while (pending := deal.pending()) is not None:
        who = player if pending.seat == seat else others[pending.seat]
        deal.apply_answer(who.decide(pending.view))
    return deal.result().scores[seat]


def shown(kind: str, answer: Any) -> str:
    return format_decision(DecisionKind(kind), answer)


def play_board(task: dict[str, Any]) -> dict[str, Any]:
    """One board: the line played, every decision asked of A and B, the divergences played
    on both ways."""
    seed, index = task["seed"], task["board"]
    board = make_board(seed, index)
    line = _players(task["line"], seed, index, "line")
    # A and B draw the same layouts where they sample alike: the same seeds.
    a_players = _players(task["a"], seed, index, "tried")
    b_players = _players(task["b"], seed, index, "tried")
    kinds = set(task["kinds"])
    deal = board.deal()
    answers: list[Any] = []
    asked: Counter[str] = Counter()
    found = []
    while (pending := deal.pending()) is not None:
        view, seat = pending.view, pending.seat
        assert view.kind is not None
        kind = view.kind.value
        wanted = kind in kinds and (kind != "play" or len(view.hand) <= task["cards"])
        if wanted and common.answers(view) > 1:
            asked[kind] += 1
            a, b = a_players[seat].decide(view), b_players[seat].decide(view)
            if a != b:
                scores = []
                own = derived_seed("divergence", "tried", seed, index, seat)
                for spec in (task["a"], task["b"]):
                    # Fresh players: the branches start alike, whatever the tables above hold.
                    player = make_player(spec, own)
                    branch = board.deal()
                    for answer in answers:
                        branch.apply_answer(answer)
                    others = _players(task["others"], seed, index, f"others-{len(answers)}")
                    scores.append(_play_on(branch, seat, player, others))
                found.append(
                    {"seat": seat, "kind": kind, "cards": len(view.hand), "a": scores[0],
                     "b": scores[1], "game": str(view.game), "a_decided": shown(kind, a),
                     "b_decided": shown(kind, b)}
                )  # fmt: skip
        answer = line[seat].decide(view)
        deal.apply_answer(answer)
        answers.append(answer)
    return {"board": index, "asked": dict(asked), "divergences": found}


def read(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and the boards of a run's file (a line cut short by a stop is left out)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    boards = []
    for text in lines[1:]:
        try:
            boards.append(json.loads(text))
        except json.JSONDecodeError:
            break
    return header, boards


def summarize(header: dict[str, Any], boards: list[dict[str, Any]]) -> dict[str, Any]:
    asked: Counter[str] = Counter()
    diffs, per_board, first_per_board = [], [], []
    by_cards: dict[int, list[float]] = {}
    for board in boards:
        asked.update(board["asked"])
        total = 0.0
        first: dict[int, float] = {}  # each seat's first divergence (they are in play order)
        for d in board["divergences"]:
            diff = d["a"] - d["b"]
            diffs.append(diff)
            total += diff
            first.setdefault(d["seat"], diff)
            by_cards.setdefault(d["cards"], []).append(diff)
        per_board.append(total / 3)
        first_per_board.append(sum(first.values()) / 3)
    return {
        **header,
        "boards": len(boards),
        "decisions_asked": dict(asked),
        "divergences": len(diffs),
        "per_divergence": common.interval(diffs),
        "per_seat_deal": common.interval(per_board),
        "per_seat_deal_first": common.interval(first_per_board),
        "per_divergence_by_cards": {c: common.interval(v) for c, v in sorted(by_cards.items())},
        "wins_losses_ties": [
            sum(x > 0 for x in diffs),
            sum(x < 0 for x in diffs),
            sum(x == 0 for x in diffs),
        ],
        "mean_abs": round(statistics.fmean(map(abs, diffs)), 4) if diffs else None,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", help="the player tried")
    parser.add_argument("--b", help="the player it is compared with")
    parser.add_argument("--line", default="hard", help="who plays the deals up to each decision")
    parser.add_argument("--others", default="hard", help="who plays the other seats on from it")
    parser.add_argument("--kinds", default="play", help=f"comma-separated, of {', '.join(KINDS)}")
    parser.add_argument("--cards", type=int, default=16, help="plays: at most this many in hand")
    parser.add_argument("--boards", type=int)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, help="the file to write, one board a line")
    parser.add_argument("--resume", type=Path, help="a file to complete")
    parser.add_argument("--summary", type=Path, help="a file to summarize")
    parser.add_argument("--name", default="divergence")
    args = parser.parse_args()
    if args.summary:
        doc = summarize(*read(args.summary))
        path = common.write_results(args.name, doc)
        keys = ("boards", "divergences", "per_divergence", "per_seat_deal", "per_seat_deal_first")
        print(json.dumps({k: doc[k] for k in keys}))
        print(f"results: {common.shown(path)}")
        return 0
    if args.resume:
        header, done = read(args.resume)
        out = args.resume
        lines = [json.dumps(header), *(json.dumps(b) for b in done)]
        out.write_text("\n".join(lines) + "\n", encoding="utf-8")  # drops a line cut short
    else:
        if not (args.a and args.b and args.boards and args.seed is not None and args.out):
            parser.error("--a, --b, --boards, --seed and --out (or --resume, --summary)")
        kinds = [k.strip() for k in args.kinds.split(",")]
        if bad := [k for k in kinds if k not in KINDS]:
            parser.error(f"not a decision kind: {bad[0]!r} (one of {', '.join(KINDS)})")
        header = {
            "a": str(PlayerSpec.parse(args.a)),
            "b": str(PlayerSpec.parse(args.b)),
            "line": str(PlayerSpec.parse(args.line)),
            "others": str(PlayerSpec.parse(args.others)),
            "kinds": kinds,
            "cards": args.cards,
            "seed": args.seed,
            "boards_asked": args.boards,
        }
        done = []
        out = args.out
        out.write_text(json.dumps(header) + "\n", encoding="utf-8")
    left = sorted(set(range(header["boards_asked"])) - {b["board"] for b in done})
    tasks = [{**header, "board": b} for b in left]
    with out.open("a", encoding="utf-8") as f:

        def keep(result: dict[str, Any], n: int) -> None:
            f.write(json.dumps(result) + "\n")
            f.flush()
            print(f"{len(done) + n}/{header['boards_asked']}: board {result['board']}, "
                  f"{len(result['divergences'])} divergences", flush=True)  # fmt: skip

        common.run_tasks(play_board, tasks, args.workers, keep)
    return 0


if __name__ == "__main__":
    sys.exit(main())
