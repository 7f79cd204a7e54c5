"""``ts358 arena``: duplicate-deal comparison of computer players, on all local cores or on a
Dask cluster (``--scheduler``). A thin layer over :func:`ts358.batch.arena.run_arena`; see
docs/arena.md.

Results go to stdout (a table, or ``--json``); the progress bar goes to stderr and only when
stderr is a terminal.
"""

from __future__ import annotations

import contextlib
import json
import secrets
from typing import Annotated, Any

import typer
from rich.console import Console, JustifyMethod
from rich.table import Table

from ts358.batch.arena import ArenaError, run_arena
from ts358.bots import DEFAULT_SECONDS
from ts358.bots.listen import BotListener, ListenError
from ts358.bots.spec import REMOTE
from ts358.cli.app import CommandError, app, progress, run_batch, signed
from ts358.cli.options import (
    BotTime,
    Listen,
    Players,
    RuleSet,
    Scheduler,
    Seed,
    Workers,
    local_or_cluster,
    time_limit,
    whole_number,
)

__all__ = ["arena_command"]

DEFAULT_BOARDS = 100
DEFAULT_PLAYERS = ("medium", "medium", "medium")
DEFAULT_BOT_WAIT = 300.0

ARENA_HELP = (
    "Compare computer players on duplicate deals.\n\n"
    "Every board (a deal with its match context) is played with the players in every seat "
    "permutation, so the luck of the cards cancels. Reports each player's mean score per deal "
    "with a 95% confidence interval, share of deals won (ties shared; 1/3 is par) and decision "
    "times. Runs on all local cores, or on a Dask cluster with --scheduler (docs/arena.md)."
)


def _ms(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def _interval(ci: list[float] | None) -> str:
    return "-" if ci is None else f"[{ci[0]:+.2f}, {ci[1]:+.2f}]"


def _arena_table(doc: dict[str, Any]) -> Table:
    # No borders, so that it fits 80 columns (the width of a pipe) with room to spare, and
    # an interval never broken over two lines.
    table = Table(
        title=(
            f"Score per deal: {doc['boards']} boards x {doc['permutations']} seatings = "
            f"{doc['deals']} deals, seed {doc['seed']}"
        ),
        box=None,
        padding=(0, 2, 0, 0),
        pad_edge=False,
    )
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("player", "left"),
        ("seats", "right"),
        ("mean", "right"),
        ("95% CI", "right"),
        ("won", "right"),
        ("decisions", "right"),
        ("median ms", "right"),
        ("max ms", "right"),
    )
    for name, justify in columns:
        # A player's settings can be long: folded onto more lines rather than cut.
        table.add_column(
            name,
            justify=justify,
            no_wrap=name == "95% CI",
            overflow="fold" if name == "player" else "ellipsis",
        )
    for r in doc["results"]:
        table.add_row(
            r["config"],
            str(r["seats"]),
            signed(r["mean"], 2),
            _interval(r["ci95"]),
            "-" if r["won"] is None else f"{100 * r['won']:.1f}%",
            str(r["decisions"]),
            _ms(r["decision_ms"]["median"]),
            _ms(r["decision_ms"]["max"]),
        )
    return table


def _listen(address: tuple[str, int], count: int, wait: float) -> BotListener:
    """The listener of the remote seats, once every bot has connected (each told on stderr
    how to connect); CommandError if one has not within ``wait`` seconds."""
    host, port = address
    try:
        listener = BotListener(count, host, port)
    except ListenError as exc:
        raise CommandError(str(exc)) from None
    for number, bot in enumerate(listener.bots, 1):
        typer.echo(
            f"remote bot {number} of {count}: ts358 bot --level LEVEL --connect "
            f"{listener.url} --token {bot.token}  (or any bot: docs/bots.md#remote-bots)",
            err=True,
        )
    typer.echo(f"waiting up to {wait:g} s for the remote bots (Ctrl-C stops)", err=True)
    try:
        if not listener.wait(wait):
            raise CommandError(f"not every remote bot connected within {wait:g} s")
    except BaseException:
        listener.close()
        raise
    return listener


@app.command("arena", help=ARENA_HELP)
def arena_command(
    players: Players = None,
    deals: Annotated[
        int,
        typer.Option(
            "--deals",
            metavar="N",
            parser=whole_number(1),
            help="Boards (deals) to play; each is played in all six seatings.",
        ),
    ] = DEFAULT_BOARDS,
    seed: Seed = None,
    rules: RuleSet = None,
    workers: Workers = None,
    scheduler: Scheduler = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the results document as JSON.")
    ] = False,
    bot_time: BotTime = None,
    listen: Listen = None,
    bot_wait: Annotated[
        float,
        typer.Option(
            "--bot-wait",
            metavar="SECONDS",
            parser=time_limit,
            help="How long to wait for the remote bots to connect before the first board.",
        ),
    ] = DEFAULT_BOT_WAIT,
) -> None:
    local_or_cluster(workers, scheduler)
    configs = players if players is not None else DEFAULT_PLAYERS
    run_seed = seed if seed is not None else secrets.randbelow(2**32)
    remote_seats = sum(c == REMOTE for c in configs)
    if listen is not None and not remote_seats:
        raise CommandError("--listen is where remote bots connect: name one in --players")
    if remote_seats and scheduler is not None:
        raise CommandError("remote bots play in this process: --scheduler can't be used")
    with contextlib.ExitStack() as stack:
        listener = None
        if remote_seats:
            listener = _listen(listen or ("127.0.0.1", 0), remote_seats, bot_wait)
            stack.callback(listener.close)
        with progress("arena", deals) as advance:
            try:
                doc = run_batch(
                    lambda: run_arena(
                        configs,
                        deals,
                        run_seed,
                        workers=workers,
                        scheduler=scheduler,
                        on_boards=advance,
                        bot_seconds=bot_time or DEFAULT_SECONDS,
                        remote=listener.bots if listener is not None else (),
                        rules=rules,
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
        ci_text = "" if ci is None else f" (95% CI {_interval(ci)})"
        console.print(
            f"{pair['a']} - {pair['b']}: {pair['mean_difference']:+.2f} per deal{ci_text}",
            highlight=False,
        )
    ex = doc["execution"]
    workers = ex["workers"]
    where = ex["scheduler"] or f"{workers} local worker{'' if workers == 1 else 's'}"
    console.print(
        f"{doc['deals']} deals in {ex['seconds']:.1f} s on {where}; won = highest score of the "
        "deal, ties shared (1/3 is par)",
        highlight=False,
    )
