"""What each game is worth to the chooser when it is played out, beside what the computer
players think it is worth from the first six cards: the data behind the expert's game choice.

For each seeded arena board (``ts358.batch.arena.make_board``; the deal as the match left
it, games already played no longer available), at the chooser's decision:

- the values each way of choosing gives every game left, from the chooser's view alone: the
  expert's (``solver``: each sampled layout solved or bounded), the same layouts played out
  by rule of thumb (``rollouts``, ``expert:solver_choice=0``, the same seed) and the hard
  player's (``hard``, with the basis it used);
- then every game left is chosen in turn and the deal played to its end by ``--players``
  (hard by default) in every seat, the same seeds for every game: the chooser's deal score
  in each (``outcome``).

One board per line of a JSON Lines file (``--out``, resumable with ``--resume``). The
outcome of a game on a board is one play of one deal, so it is noisy; but every way of
choosing is judged on the same outcomes, so two ways compare paired, board by board.

``--add NAME=SPEC`` adds another player's values to every board of ``--out``, judged on the
same outcomes without playing anything again (``--add solver16=expert:choose=16``).

``--fit FILE`` fits, per kind of game (trump, no-trump, no-tricks), the chooser's outcome as
a line in the expert's value and prints how each way of choosing would have scored over the
boards (the calibrated one by cross-validation: fitted on the other folds), paired against
the expert's uncalibrated choice, and the oracle that knew the outcomes.

    python tools/game_values.py --boards 201 --seed 11000 --out tools/data/game-values.jsonl
    python tools/game_values.py --fit tools/data/game-values.jsonl

Run from the repository root with the core built in place (or the package installed).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from ts358.batch.arena import Board, _mean_ci, make_board  # noqa: E402
from ts358.players import make_player  # noqa: E402
from ts358.players.sampling import SamplingPlayer  # noqa: E402
from ts358.seeds import derived_seed  # noqa: E402
from ts358.view import DecisionKind, SeatView  # noqa: E402

WAYS = {"solver": "expert", "rollouts": "expert:solver_choice=0", "hard": "hard"}


def kind_of(game: str) -> str:
    """The kinds of game fitted apart: a trump suit, no-trump, no-tricks."""
    return game if game in ("no-trump", "no-tricks") else "trump"


def _chooser(seed: int, index: int) -> tuple[Board, SeatView, int]:
    board = make_board(seed, index)
    pending = board.deal().pending()
    assert pending is not None and pending.view.kind is DecisionKind.CHOOSE
    return board, pending.view, pending.seat


def values(seed: int, index: int, spec: str) -> tuple[dict[str, float], str]:
    """What ``spec`` makes of every game left on the board from the chooser's view, and the
    basis of its advice (solved, rollouts...)."""
    _, view, _ = _chooser(seed, index)
    player = make_player(spec, derived_seed("game-values", "advice", seed, index))
    assert isinstance(player, SamplingPlayer), "a level that advises: hard or expert"
    advice = player.advise(view)
    return {str(g): round(v or 0.0, 4) for g, v in advice.options}, str(advice.basis)


def one_board(seed: int, index: int, players: str) -> dict[str, Any]:
    board, view, seat = _chooser(seed, index)
    games = sorted(view.available[seat])
    row: dict[str, Any] = {
        "seed": seed,
        "board": index,
        "seat": seat,
        "cards": str(view.hand),
        "games": [str(g) for g in games],
        "values": {},
        "basis": {},
    }
    for way, spec in WAYS.items():
        row["values"][way], row["basis"][way] = values(seed, index, spec)
    outcome = {}
    for game in games:
        deal = board.deal()
        deal.apply_answer(game)
        seats = [make_player(players, derived_seed("game-values", "play", seed, index, s))
                 for s in range(3)]  # fmt: skip
        while (step := deal.pending()) is not None:
            deal.apply_answer(seats[step.seat].decide(step.view))
        outcome[str(game)] = deal.result().scores[seat]
    row["outcome"] = outcome
    return row


def _task(args: tuple[int, int, str]) -> dict[str, Any]:
    return one_board(*args)


def _values_task(args: tuple[int, int, str]) -> tuple[dict[str, float], str]:
    return values(*args)


def read(path: Path) -> list[dict[str, Any]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            break  # a line cut short by a stop
    return rows


Features = tuple[str, ...]  # the ways whose values a fitted line reads


def _least_squares(xs: list[list[float]], ys: list[float]) -> list[float]:
    """The coefficients c minimising sum (y - c . x)^2 (normal equations, Gauss-Jordan)."""
    n = len(xs[0])
    a = [[sum(x[i] * x[j] for x in xs) for j in range(n)] for i in range(n)]
    b = [sum(x[i] * y for x, y in zip(xs, ys, strict=True)) for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot], b[col], b[pivot] = a[pivot], a[col], b[pivot], b[col]
        if abs(a[col][col]) < 1e-12:
            continue  # a feature that never varies: its coefficient stays 0
        for r in range(n):
            if r != col:
                f = a[r][col] / a[col][col]
                a[r] = [u - f * v for u, v in zip(a[r], a[col], strict=True)]
                b[r] -= f * b[col]
    return [b[i] / a[i][i] if abs(a[i][i]) >= 1e-12 else 0.0 for i in range(n)]


def fit_lines(rows: list[dict[str, Any]], features: Features) -> dict[str, list[float]]:
    """Per kind of game, the least-squares coefficients of outcome ~ c0 + c1 * value of the
    first feature + ..."""
    xs: dict[str, list[list[float]]] = {}
    ys: dict[str, list[float]] = {}
    for row in rows:
        for game in row["games"]:
            xs.setdefault(kind_of(game), []).append(
                [1.0, *(row["values"][f][game] for f in features)]
            )
            ys.setdefault(kind_of(game), []).append(row["outcome"][game])
    return {kind: _least_squares(xs[kind], ys[kind]) for kind in xs}


def choice(row: dict[str, Any], values: dict[str, float]) -> str:
    """The game of the highest value; among equals the first in the board's order."""
    games: list[str] = row["games"]
    return max(games, key=lambda g: (values[g], -games.index(g)))


def calibrated(
    row: dict[str, Any], features: Features, lines: dict[str, list[float]]
) -> dict[str, float]:
    def value(game: str) -> float:
        c = lines[kind_of(game)]
        terms = zip(c[1:], features, strict=True)
        return c[0] + sum(ci * float(row["values"][f][game]) for ci, f in terms)

    return {g: value(g) for g in row["games"]}


def _shown_ci(xs: list[float]) -> str:
    mean, half = _mean_ci(xs)
    half = float("nan") if half is None else half
    return f"{mean:+.3f} (95% CI {mean - half:+.3f} to {mean + half:+.3f})"


CALIBRATIONS: dict[str, Features] = {
    "calibrated": ("solver",),
    "calibrated+rollouts": ("solver", "rollouts"),
}


def report(rows: list[dict[str, Any]], folds: int = 5) -> None:
    rows = [r for r in rows if len(r["games"]) > 1]  # one game left is no choice
    for kind in ("trump", "no-trump", "no-tricks"):
        mine = [
            (r["values"]["solver"][g], r["outcome"][g])
            for r in rows
            for g in r["games"]
            if kind_of(g) == kind
        ]
        print(f"{kind}: {len(mine)} games played out, mean solver value "
              f"{statistics.fmean(v for v, _ in mine):+.2f}, mean outcome "
              f"{statistics.fmean(y for _, y in mine):+.2f}")  # fmt: skip
    for name, features in CALIBRATIONS.items():
        for kind, c in sorted(fit_lines(rows, features).items()):
            terms = " ".join(f"{ci:+.3f}*{f}" for ci, f in zip(c[1:], features, strict=True))
            print(f"{name}, {kind}: outcome ~ {c[0]:+.3f} {terms}")
    ways = list(rows[0]["values"])
    picks: dict[str, list[str]] = {w: [] for w in (*ways, *CALIBRATIONS, "oracle")}
    for i, row in enumerate(rows):
        train = [r for j, r in enumerate(rows) if j % folds != i % folds]
        for way in ways:
            picks[way].append(choice(row, row["values"][way]))
        for name, features in CALIBRATIONS.items():
            lines = fit_lines(train, features)
            picks[name].append(choice(row, calibrated(row, features, lines)))
        picks["oracle"].append(choice(row, {g: float(s) for g, s in row["outcome"].items()}))
    score = {w: [rows[i]["outcome"][g] for i, g in enumerate(p)] for w, p in picks.items()}
    print(f"{len(rows)} boards ({folds}-fold cross-validation for the calibrated ways);")
    print("the chooser's mean score by way of choosing, the paired difference from 'solver':")
    for way, scores in score.items():
        diff = [s - t for s, t in zip(scores, score["solver"], strict=True)]
        differ = sum(a != b for a, b in zip(picks[way], picks["solver"], strict=True))
        kinds = ("trump", "no-trump", "no-tricks")
        share = "/".join(str(sum(kind_of(g) == k for g in picks[way])) for k in kinds)
        print(f"  {way:20s} {statistics.fmean(scores):+.3f}  {_shown_ci(diff)}"
              f"  {differ:3d} choices differ; trump/no-trump/no-tricks {share}")  # fmt: skip


def add_way(path: Path, name: str, spec: str, workers: int) -> None:
    """Another way of choosing judged on the outcomes a file already holds: the values of
    player ``spec``, computed for every board and written back as ``name``."""
    make_player(spec)  # a bad specification fails here, with its own message
    rows = read(path)
    tasks = [(r["seed"], r["board"], spec) for r in rows]
    with ProcessPoolExecutor(workers) as pool:
        for n, (row, (got, basis)) in enumerate(zip(rows, pool.map(_values_task, tasks)), 1):
            row["values"][name], row["basis"][name] = got, basis
            print(f"{n}/{len(rows)}: board {row['board']}", flush=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--players", default="hard", help="who plays every game out")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--resume", action="store_true", help="keep the boards --out has")
    parser.add_argument("--fit", type=Path, help="a file to fit and report on")
    parser.add_argument(
        "--add", metavar="NAME=SPEC", help="add the values of player SPEC to every board of --out"
    )
    args = parser.parse_args()
    if args.fit:
        report(read(args.fit))
        return 0
    if args.add:
        name, _, spec = args.add.partition("=")
        if not (name and spec and args.out):
            parser.error("--add NAME=SPEC needs --out FILE")
        add_way(args.out, name, spec, args.workers)
        return 0
    if not (args.boards and args.seed is not None and args.out):
        parser.error("--boards, --seed and --out (or --fit FILE)")
    done = read(args.out) if args.resume and args.out.exists() else []
    args.out.write_text("".join(json.dumps(r) + "\n" for r in done), encoding="utf-8")
    have = {r["board"] for r in done if r["seed"] == args.seed}
    tasks = [(args.seed, b, args.players) for b in range(args.boards) if b not in have]
    with ProcessPoolExecutor(args.workers) as pool, args.out.open("a", encoding="utf-8") as f:
        for n, row in enumerate(pool.map(_task, tasks), 1):
            f.write(json.dumps(row) + "\n")
            f.flush()
            print(f"{n}/{len(tasks)}: board {row['board']} {row['outcome']}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
