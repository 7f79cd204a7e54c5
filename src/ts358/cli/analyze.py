"""``ts358 analyze``: double-dummy statistics of random deals, on all local cores or on a Dask
cluster (``--scheduler``), and the tables of such statistics (``--summary``). A thin layer over
:mod:`ts358.analysis.game_stats`; see docs/arena.md.

Results go to stdout (JSON lines, or tables); the progress bar goes to stderr and only when
stderr is a terminal.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.console import Console
from rich.table import Table

from ts358._input import read_lines
from ts358.analysis.game_stats import (
    DEFAULT_CANDIDATES,
    read_stats_lines,
    run_game_stats,
    stats_line,
    summarize_game_stats,
)
from ts358.cli.app import CommandError, app, progress, run_batch, signed
from ts358.cli.options import (
    Games,
    RuleSet,
    Scheduler,
    Seed,
    Workers,
    local_or_cluster,
    whole_number,
)
from ts358.cli.options import (
    time_limit as time_limit_seconds,
)
from ts358.rules import Rules

__all__ = ["analyze_command"]

DEFAULT_DEALS = 10
MAX_NODES = 10**12
"""The largest node budget ``--max-nodes`` takes (days of search; the core counts in 64 bits)."""

ANALYZE_HELP = (
    "Double-dummy statistics of random deals.\n\n"
    "For each deal and game: the chooser's score after the best of a few rule-of-thumb "
    "discards, and each player's value; one JSON line per deal. --summary FILE prints tables "
    "from such a file instead. Runs on all local cores, or on a Dask cluster with --scheduler "
    "(docs/arena.md)."
)


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


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
            signed(ms["chooser"], 2),
            signed(ms["third"], 2),
            signed(ms["dealer"], 2),
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
            signed(row["mean_score"], 2),
        )
    console.print(trumps)


def _summary(path: Path, as_json: bool) -> None:
    try:
        with open(path, "rb") as f:
            records = read_stats_lines(read_lines(f))
    except OSError as exc:
        raise CommandError(f"can't read {path}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise CommandError(f"{path}: {exc}") from None
    table = summarize_game_stats(records)
    if as_json:
        typer.echo(json.dumps(table))
    else:
        _print_summary(table)


@app.command("analyze", help=ANALYZE_HELP)
def analyze_command(
    deals: Annotated[
        int,
        typer.Option("--deals", metavar="N", parser=whole_number(1), help="Deals to analyze."),
    ] = DEFAULT_DEALS,
    seed: Seed = None,
    first: Annotated[
        int,
        typer.Option(
            "--first",
            metavar="I",
            parser=whole_number(0),
            help="Index of the first deal (to split a run in parts).",
        ),
    ] = 0,
    out: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(
            "--out",
            metavar="FILE.jsonl",
            dir_okay=False,
            help="Write the JSON lines here (default: stdout).",
        ),
    ] = None,
    games: Games = None,
    candidates: Annotated[
        int,
        typer.Option(
            "--candidates",
            metavar="N",
            parser=whole_number(1),
            help="Rule-of-thumb discards tried per game (the best one is kept).",
        ),
    ] = DEFAULT_CANDIDATES,
    max_nodes: Annotated[
        int,
        typer.Option(
            "--max-nodes",
            metavar="N",
            parser=whole_number(0, MAX_NODES),
            help=(
                "Node budget per solve (0: no limit). Trades completeness for predictable "
                "time: a solve that needs more nodes stops, and its value is written as null "
                "(counted as 'unsolved'); the summary leaves those out, so it leans toward "
                "easier deals. The solver searches a few million nodes a second."
            ),
        ),
    ] = 0,
    time_limit: Annotated[
        Optional[float],  # noqa: UP045
        typer.Option(
            "--time-limit",
            metavar="SECONDS",
            parser=time_limit_seconds,
            help="Time limit per solve; a solve cut short is written as null like one over "
            "--max-nodes, and the record says 'time_limit' (not reproducible: it depends on "
            "the machine). Default: no limit.",
        ),
    ] = None,
    rules: RuleSet = None,
    workers: Workers = None,
    scheduler: Scheduler = None,
    summary: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(
            "--summary",
            metavar="FILE.jsonl",
            help="Print tables from an analysis file and stop (the other options are unused).",
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="With --summary: the tables as JSON.")
    ] = False,
) -> None:
    if summary is not None:
        _summary(summary, as_json)
        return
    local_or_cluster(workers, scheduler)
    rule_set = rules or Rules()
    chosen = games if games is not None else tuple(sorted(rule_set.contracts))
    run_seed = seed if seed is not None else secrets.randbelow(2**32)
    with contextlib.ExitStack() as stack:
        try:
            sink = (
                sys.stdout if out is None else stack.enter_context(out.open("w", encoding="utf-8"))
            )
        except OSError as exc:
            raise CommandError(f"can't write {out}: {exc.strerror or exc}") from None
        with progress("analyze", deals) as advance:

            def write(record: dict[str, Any]) -> None:
                sink.write(stats_line(record) + "\n")
                sink.flush()
                advance(1)

            run_batch(
                lambda: run_game_stats(
                    deals,
                    run_seed,
                    first=first,
                    games=chosen,
                    candidates=candidates,
                    rules=rule_set,
                    workers=workers,
                    scheduler=scheduler,
                    on_deal=write,
                    max_nodes=max_nodes,
                    time_limit=time_limit or 0,
                )
            )
    if out is not None:
        typer.echo(f"{deals} deals written to {out} (seed {run_seed})", err=True)
