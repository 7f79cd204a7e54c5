"""A duplicate arena that keeps every board as it ends, for runs longer than a session.

``ts358 arena`` answers when all its boards are played; a run of hours on a shared machine
can be stopped before that and then leaves nothing. This plays the same boards (the same
seed gives the same boards, seatings and player seeds as ``ts358 arena``), one per task on
``--workers`` processes, and appends each board's outcome to ``--out`` as it ends;
``--resume`` plays only the boards the file lacks; ``--summary`` writes the arena's results
document for the boards played so far (``bench/results/<--name>-<date>.json``, with the
machine section) and prints its pairs.

    python bench/arena_boards.py --players expert,expert:inference=0,hard --boards 300 \\
        --seed 7002 --out /tmp/expert.boards
    python bench/arena_boards.py --summary /tmp/expert.boards --name arena-expert-vs-hard

The outcome file is a sequence of pickles (the run's header, then one
``ts358.batch.arena.BoardOutcome`` per board): a file of this run, not an exchange format.
"""

from __future__ import annotations

import argparse
import pickle
import sys
from pathlib import Path
from typing import Any

import common  # bench/common.py: puts src/ on sys.path, machine info, result files
from ts358.batch.arena import BoardOutcome, make_board, play_board, summarize_arena
from ts358.players import PlayerSpec


def _play(task: tuple[int, int, tuple[str, str, str]]) -> BoardOutcome:
    seed, index, configs = task
    return play_board(make_board(seed, index), configs, seed)


def read(path: Path) -> tuple[dict[str, Any], list[BoardOutcome], int]:
    """The header and the outcomes of a run's file, and where its last whole outcome ends (a
    run stopped while writing leaves part of one after it)."""
    outcomes = []
    with path.open("rb") as f:
        header = pickle.load(f)
        end = f.tell()
        while True:
            try:
                outcomes.append(pickle.load(f))
            except Exception:  # the end, or a record cut short: unpickling says which variously
                break
            end = f.tell()
    return header, outcomes, end


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", help="three player configurations, comma-separated")
    parser.add_argument("--boards", type=int)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--out", type=Path, help="the outcome file to write")
    parser.add_argument("--resume", type=Path, help="an outcome file to complete")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--summary", type=Path, help="an outcome file to summarize")
    parser.add_argument("--name", default="arena-boards")
    args = parser.parse_args()
    if args.summary:
        header, outcomes, _ = read(args.summary)
        doc = {
            "command": "arena (bench/arena_boards.py)",
            "players": list(header["configs"]),
            "seed": header["seed"],
            "boards_asked": header.get("boards"),
            **summarize_arena(header["configs"], outcomes),
        }
        path = common.write_results(args.name, doc)
        for pair in doc["pairs"]:
            print(f"{pair['a']} - {pair['b']}: {pair['mean_difference']:+.3f} {pair['ci95']}")
        print(f"{doc['boards']} boards; results: {common.shown(path)}")
        return 0
    if args.resume:
        header, done, end = read(args.resume)
        out = args.resume
        with out.open("r+b") as f:
            f.truncate(end)
    else:
        if not (args.players and args.boards and args.seed is not None and args.out):
            parser.error("--players, --boards, --seed and --out (or --resume, --summary)")
        configs = tuple(str(PlayerSpec.parse(c)) for c in args.players.split(","))
        header = {"configs": configs, "seed": args.seed, "boards": args.boards}
        done = []
        out = args.out
        with out.open("wb") as f:
            pickle.dump(header, f)
    left = sorted(set(range(header["boards"])) - {o.index for o in done})
    tasks = [(header["seed"], b, header["configs"]) for b in left]
    with out.open("ab") as f:

        def keep(outcome: BoardOutcome, n: int) -> None:
            pickle.dump(outcome, f)
            f.flush()
            print(f"{len(done) + n}/{header['boards']}", flush=True)

        common.run_tasks(_play, tasks, args.workers, keep)
    return 0


if __name__ == "__main__":
    sys.exit(main())
