"""``ts358 arena`` (duplicate-deal comparison of computer players) and ``ts358 analyze``
(double-dummy statistics of random deals): batch commands that run on all local cores or on
a Dask cluster (``--scheduler``). See docs/arena.md.

Results go to stdout (a table, ``--json``, or JSON lines); the progress bar goes to stderr
and only when stderr is a terminal.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Callable

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from ts358.batch.pool import ParallelError
from ts358.cli.app import CommandError, app
from ts358.rules import Contract, Rules

ARENA_HELP = (
    "Compare computer players on duplicate deals: every board (a deal with its match "
    "context) is played with the players in every seat permutation, so the luck of the "
    "cards cancels. Reports each player's mean score per deal with a 95% confidence "
    "interval, share of deals won (ties shared; 1/3 is par) and decision times."
)
ANALYZE_HELP = (
    "Double-dummy statistics of random deals: for each deal and game, the chooser's score "
    "after the best of a few rule-of-thumb discards, and each player's value; one JSON line "
    "per deal. --summary FILE prints tables from such a file instead."
)


def _int(name: str, text: str, minimum: int = 0) -> int:
    try:
        value = int(text.strip())
    except ValueError:
        raise CommandError(f"{name} must be a whole number, not {text!r}") from None
    if value < minimum:
        raise CommandError(f"{name} must be at least {minimum}, not {value}")
    return value


def _execution(workers: str, scheduler: str) -> tuple[int | None, str | None]:
    address = scheduler.strip() or None
    if workers.strip() and address is not None:
        raise CommandError("--workers is for local runs; a --scheduler cluster has its own workers")
    count = _int("--workers", workers, 1) if workers.strip() else None
    return count, address


def _seed(text: str) -> int:
    return _int("--seed", text) if text.strip() else secrets.randbelow(2**32)


def _rules(text: str) -> Rules:
    key = text.strip().lower()
    if key == "house":
        return Rules()
    if key == "kurnik":
        return Rules.kurnik()
    raise CommandError(f"--rules must be house or kurnik, not {text!r}")


@contextlib.contextmanager
def _progress(label: str, total: int) -> Iterator[Callable[[int], None]]:
    """A progress bar on stderr (shown only on a terminal); yields ``advance(n)``."""
    console = Console(stderr=True)
    progress = Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )
    with progress:
        task = progress.add_task(label, total=total)
        yield lambda n: progress.advance(task, n)


def _run(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except ParallelError as exc:
        raise CommandError(str(exc)) from None


# ---------------------------------------------------------------------- arena


def _fmt(x: float | None, signed: bool = True) -> str:
    if x is None:
        return "-"
    return f"{x:+.2f}" if signed else f"{x:.2f}"


def _arena_table(doc: dict[str, Any]) -> Table:
    table = Table(
        title=(
            f"Score per deal: {doc['boards']} boards x {doc['permutations']} seatings = {doc['deals']} deals, "
            f"seed {doc['seed']}"
        )
    )
    for name, justify in (
        ("player", "left"),
        ("seats", "right"),
        ("mean", "right"),
        ("95% CI", "right"),
        ("won", "right"),
        ("decisions", "right"),
        ("median ms", "right"),
        ("max ms", "right"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for r in doc["results"]:
        ci = r["ci95"]
        table.add_row(
            r["config"],
            str(r["seats"]),
            _fmt(r["mean"]),
            "-" if ci is None else f"[{ci[0]:+.2f}, {ci[1]:+.2f}]",
            "-" if r["won"] is None else f"{100 * r['won']:.1f}%",
            str(r["decisions"]),
            _fmt(r["decision_ms"]["median"], signed=False),
            _fmt(r["decision_ms"]["max"], signed=False),
        )
    return table


@app.command("arena", help=ARENA_HELP)
def arena_command(
    players: str = typer.Option(
        "medium,medium,medium",
        "--players",
        metavar="A,B,C",
        help="Three player levels, e.g. hard,medium,medium.",
    ),
    deals: str = typer.Option("100", "--deals", metavar="N", help="Boards (deals) to play."),
    seed: str = typer.Option("", "--seed", metavar="S", help="Seed (default: random)."),
    workers: str = typer.Option(
        "", "--workers", metavar="K", help="Local worker processes (default: one per core)."
    ),
    scheduler: str = typer.Option(
        "", "--scheduler", metavar="ADDRESS", help="Run on a Dask cluster, e.g. tcp://host:8786."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the results document as JSON."),
) -> None:
    from ts358.batch.arena import ArenaError, run_arena
    from ts358.players import LEVELS

    configs = [p.strip().lower() for p in players.split(",")]
    if len(configs) != 3 or not all(configs):
        raise CommandError(f"--players needs three levels separated by commas, not {players!r}")
    for level in configs:
        if level not in LEVELS:
            raise CommandError(f"--players: not a level: {level!r} (one of {', '.join(LEVELS)})")
    boards = _int("--deals", deals, 1)
    run_seed = _seed(seed)
    count, address = _execution(workers, scheduler)
    with _progress("arena", boards) as advance:
        try:
            doc = _run(
                lambda: run_arena(
                    configs, boards, run_seed, workers=count, scheduler=address, on_boards=advance
                )
            )
        except ArenaError as exc:
            raise CommandError(str(exc)) from None
    if as_json:
        typer.echo(json.dumps(doc))
        return
    console = Console()
    console.print(_arena_table(doc))
    for pair in doc["pairs"]:
        ci = pair["ci95"]
        ci_text = "" if ci is None else f" (95% CI [{ci[0]:+.2f}, {ci[1]:+.2f}])"
        console.print(
            f"{pair['a']} - {pair['b']}: {pair['mean_difference']:+.2f} per deal{ci_text}",
            highlight=False,
        )
    ex = doc["execution"]
    where = ex["scheduler"] or f"{ex['workers']} local worker(s)"
    console.print(
        f"{doc['deals']} deals in {ex['seconds']:.1f} s on {where}; won = highest score of the "
        "deal, ties shared (1/3 is par)",
        highlight=False,
    )


# ---------------------------------------------------------------------- analyze


def _games(text: str) -> tuple[Contract, ...]:
    if not text.strip() or text.strip().lower() == "all":
        return tuple(Contract)
    games = []
    for part in text.split(","):
        try:
            game = Contract.parse(part)
        except ValueError as exc:
            raise CommandError(f"--games: {exc}") from None
        if game not in games:
            games.append(game)
    return tuple(sorted(games))


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _signed(x: float | None) -> str:
    return "-" if x is None else f"{x:+.2f}"


def _print_summary(summary: dict[str, Any]) -> None:
    console = Console()
    method = "; ".join(summary["discard"]) or "-"
    budgets = summary["max_nodes"]
    budgeted = any(budgets) or any(row["unsolved"] for row in summary["games"])
    budget = ""
    if any(budgets):
        budget = "; node budget per solve: " + ", ".join(f"{b:,}" if b else "none" for b in budgets)
    games = Table(title=f"{summary['deals']} deals (discard: {method}{budget})")
    columns = [
        "game",
        "deals",
        *(["unsolved"] if budgeted else []),
        "made by chooser",
        "chooser",
        "third",
        "dealer",
    ]
    for name in columns:
        games.add_column(name, justify="left" if name == "game" else "right")
    for row in summary["games"]:
        ms = row["mean_score"]
        games.add_row(
            row["game"],
            str(row["deals"]),
            *([str(row["unsolved"])] if budgeted else []),
            _pct(row["made"]),
            _signed(ms["chooser"]),
            _signed(ms["third"]),
            _signed(ms["dealer"]),
        )
    console.print(games)
    console.print(
        "(chooser/third/dealer: mean double-dummy score, each valued alone against the other two)",
        highlight=False,
    )
    if budgeted:
        console.print(
            "Unsolved values (solves stopped at the node budget) are excluded from every figure "
            "here; 'unsolved' counts the deals without a chooser value. The hardest solves are "
            "the ones cut, so the figures are biased toward easier deals.",
            highlight=False,
        )
    longest = Table(title="Made by the chooser, by the longest suit among the first six")
    for name in ("longest", "deals", "that suit trump", "no-trump", "no-tricks", "any game"):
        longest.add_column(name, justify="right")
    for row in summary["by_longest"]:
        longest.add_row(
            str(row["length"]),
            str(row["deals"]),
            _pct(row["trump"]),
            _pct(row["no-trump"]),
            _pct(row["no-tricks"]),
            _pct(row["any"]),
        )
    console.print(longest)
    trumps = Table(title="Trump games, by trumps among the first six")
    for name in ("trumps", "games", "made", "mean score"):
        trumps.add_column(name, justify="right")
    for row in summary["by_trumps"]:
        trumps.add_row(
            str(row["trumps"]),
            str(row["observations"]),
            _pct(row["made"]),
            _signed(row["mean_score"]),
        )
    console.print(trumps)


@app.command("analyze", help=ANALYZE_HELP)
def analyze_command(
    deals: str = typer.Option("10", "--deals", metavar="N", help="Deals to analyze."),
    seed: str = typer.Option("", "--seed", metavar="S", help="Seed (default: random)."),
    first: str = typer.Option(
        "0", "--first", metavar="I", help="Index of the first deal (to split a run in parts)."
    ),
    out: Path | None = typer.Option(
        None, "--out", metavar="FILE.jsonl", help="Write the JSON lines here (default: stdout)."
    ),
    games: str = typer.Option(
        "all",
        "--games",
        metavar="G,G",
        help="Games to analyze, e.g. hearts,no-trump (default: all six).",
    ),
    candidates: str = typer.Option(
        "3",
        "--candidates",
        metavar="N",
        help="Rule-of-thumb discards tried per game (best one kept).",
    ),
    max_nodes: str = typer.Option(
        "0",
        "--max-nodes",
        metavar="N",
        help=(
            "Node budget per solve (default 0: no limit). Trades completeness for predictable "
            "time: a solve that needs more nodes stops, and its value is written as null "
            "(counted as 'unsolved'); the summary leaves those out, so it leans toward easier "
            "deals. The solver searches a few million nodes a second."
        ),
    ),
    rules: str = typer.Option("house", "--rules", help="house or kurnik."),
    workers: str = typer.Option(
        "", "--workers", metavar="K", help="Local worker processes (default: one per core)."
    ),
    scheduler: str = typer.Option(
        "", "--scheduler", metavar="ADDRESS", help="Run on a Dask cluster, e.g. tcp://host:8786."
    ),
    summary: Path | None = typer.Option(
        None, "--summary", metavar="FILE.jsonl", help="Print tables from an analysis file and stop."
    ),
    as_json: bool = typer.Option(False, "--json", help="With --summary: the tables as JSON."),
) -> None:
    from ts358.analysis.game_stats import read_stats_lines, run_game_stats, stats_line
    from ts358.analysis.game_stats import summarize_game_stats as summarize_records

    if summary is not None:
        try:
            with open(summary, encoding="utf-8") as f:
                records = read_stats_lines(f)
        except OSError as exc:
            raise CommandError(f"can't read {summary}: {exc.strerror or exc}") from None
        except ValueError as exc:
            raise CommandError(f"{summary}: {exc}") from None
        table = summarize_records(records)
        if as_json:
            typer.echo(json.dumps(table))
        else:
            _print_summary(table)
        return
    count = _int("--deals", deals, 1)
    start = _int("--first", first)
    tried = _int("--candidates", candidates, 1)
    budget = _int("--max-nodes", max_nodes)
    chosen = _games(games)
    rule_set = _rules(rules)
    run_seed = _seed(seed)
    workers_count, address = _execution(workers, scheduler)
    try:
        sink = open(out, "w", encoding="utf-8") if out is not None else sys.stdout
    except OSError as exc:
        raise CommandError(f"can't write {out}: {exc.strerror or exc}") from None
    try:
        with _progress("analyze", count) as advance:

            def write(record: dict[str, Any]) -> None:
                sink.write(stats_line(record) + "\n")
                sink.flush()
                advance(1)

            _run(
                lambda: run_game_stats(
                    count,
                    run_seed,
                    first=start,
                    games=chosen,
                    candidates=tried,
                    rules=rule_set,
                    workers=workers_count,
                    scheduler=address,
                    on_deal=write,
                    max_nodes=budget,
                )
            )
    finally:
        if out is not None:
            sink.close()
    if out is not None:
        typer.echo(f"{count} deals written to {out} (seed {run_seed})", err=True)
