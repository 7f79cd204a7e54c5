"""``ts358 solve``: double-dummy solving of position files.

A thin layer over :mod:`ts358.position` and :mod:`ts358.analysis.solve`: read the files, solve,
print (Rich tables for people, one JSON line per file with ``--json``).
"""

from __future__ import annotations

import contextlib
import json
import sys
import time
from collections.abc import Callable, Iterator
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ts358.analysis.solve import (
    DEFAULT_TABLE_MB,
    SolveProgress,
    SolveResult,
    new_solver,
    solve,
)
from ts358.cards import Card, CardSet, Suit
from ts358.cli.app import CommandError, app, signed
from ts358.cli.options import Player, TableMegabytes, Threads, TimeLimit
from ts358.position import Position, PositionError
from ts358.rules import Contract, Role
from ts358.table.texts import can_encode_symbols

__all__ = ["solve_command"]


def _paragraphs(*paragraphs: str) -> str:
    return "\n\n".join(paragraphs)


FORMAT_HELP = """[bold]Position file[/bold] (TOML; '-' reads standard input):

[dim]
  contract = "hearts"   # spades hearts diamonds clubs no-trump no-tricks
  rules = "house"       # optional: house (default) or kurnik
  lead = "chooser"      # optional: who leads if no trick is in progress
  \\[hands]               # cards held: suits S.H.D.C, high to low, - = void
  chooser = "AKQ2.T98.-.J76543"
  third   = "JT9.AKQ.5432.-"
  dealer  = "876.J76.AKQ.AKQ"
  \\[trick]               # optional: the trick in progress
  leader = "third"
  cards  = ["7H", "8H"] # in play order from the leader
  \\[taken]               # optional: tricks already won (default 0)
  chooser = 3
  third = 2
  dealer = 1[/dim]"""

SOLVE_HELP = _paragraphs(
    "Solve positions double dummy: the tricks each player can guarantee, card by card.",
    "Each player is valued alone against the other two playing together, all cards seen. "
    "In trump games and no-trump a value is the most tricks the player can make sure to "
    "take; in no-tricks, the fewest they can make sure not to exceed. Values count the "
    "tricks already taken; the score is tricks minus the obligation (chooser 8, third 5, "
    "dealer 3), or in no-tricks the limit (3, 5, 8) minus tricks. Every legal card of the "
    "player to move is listed with its value; the best ones are marked.",
    "A full no-tricks deal can take minutes: --time-limit stops each solve in time and "
    "shows what it proved, a range (7-9) where a value is not exact. On a terminal, stderr "
    "shows what is being solved, the bounds so far and the node rate.",
    "--json prints one line per file: "
    '{"contract", "to_move", "players": {ROLE: {"tricks", "score", "bounds"}}, '
    '"moves": [{"card", "tricks", "score", "bounds"}, ...], "nodes", "seconds"}; '
    "bounds is \\[lo, hi] (lo = hi when exact); tricks and score are null when a value is "
    "not exact. Moves are in suit order S H D C, ranks high to low, and the list is empty "
    "with --no-moves or when no cards are left (to_move is then null).",
    FORMAT_HELP,
)


class _Style:
    """How cards are drawn: suit symbols (red hearts and diamonds) or plain letters."""

    def __init__(self, symbols: bool) -> None:
        self.symbols = symbols

    def suit(self, suit: Suit) -> Text:
        text = suit.symbol if self.symbols else suit.letter
        return Text(text, style="red" if suit in (Suit.HEARTS, Suit.DIAMONDS) else "")

    def card(self, card: Card) -> Text:
        text = card.symbol() if self.symbols else str(card)
        return Text(text, style="red" if card.suit in (Suit.HEARTS, Suit.DIAMONDS) else "")

    @staticmethod
    def ranks(cards: CardSet, suit: Suit) -> str:
        ranks = "".join(c.rank.letter for c in sorted(cards.suit(suit), reverse=True))
        return ranks or "-"


def _read_position(name: str) -> Position:
    """Load one position file ('-' = stdin); every failure becomes a one-line CommandError."""
    try:
        if name == "-":
            return Position.load(sys.stdin.buffer, source="<stdin>")
        return Position.load(name)
    except PositionError as exc:
        raise CommandError(str(exc)) from None
    except OSError as exc:
        raise CommandError(f"{name}: cannot read: {exc.strerror or exc}") from None


def _render(console: Console, name: str, result: SolveResult, style: _Style) -> None:
    pos = result.position
    trump = pos.contract.trump
    console.rule(Text(name, style="bold"), align="left")
    head = Text()
    head.append(pos.contract.label, style="bold")
    head.append(f" ({pos.void.label} rules)")
    if result.to_move is not None:
        head.append(f", {result.to_move.label} to move")
    else:
        head.append(", all cards played")
    console.print(head)

    hands = Table(show_header=True, header_style="bold", box=None, padding=(0, 2, 0, 0))
    hands.add_column("")
    for role in Role:
        hands.add_column(role.label)
    for suit in Suit:
        label = style.suit(suit)
        if suit is trump:
            label.append(" trump", style="dim")
        hands.add_row(label, *(style.ranks(pos.hands[r], suit) for r in Role))
    hands.add_row(Text("taken", style="dim"), *(str(pos.taken[r]) for r in Role))
    console.print(hands)

    if pos.trick:
        line = Text("trick: ")
        for i, card in enumerate(pos.trick):
            if i:
                line.append(", ")
            line.append(f"{pos.leader.next(i).label} ")
            line.append_text(style.card(card))
        console.print(line)
    elif result.to_move is not None:
        console.print(f"trick: {pos.leader.label} to lead")

    what = "tricks (at most)" if pos.contract is Contract.NO_TRICKS else "tricks"
    values = Table(title=None, box=None, header_style="bold", padding=(0, 2, 0, 0))
    values.add_column("player")
    values.add_column(what, justify="right")
    values.add_column("score", justify="right")
    for p in result.players:
        values.add_row(p.role.label, _interval(p.bounds), _interval(p.score_bounds, signed))
    console.print()
    console.print(values)

    if result.moves:
        assert result.to_move is not None
        console.print()
        moves = Table(box=None, header_style="bold", padding=(0, 2, 0, 0))
        moves.add_column(f"{result.to_move.label} plays")
        moves.add_column(what, justify="right")
        moves.add_column("score", justify="right")
        moves.add_column("")
        for m in result.moves:
            mark = Text("best", style="bold green") if m.best else Text("")
            if m.best and not m.exact:
                mark = Text("best?", style="green")  # not ruled out: no card is sure to beat it
            moves.add_row(
                style.card(m.card), _interval(m.bounds), _interval(m.score_bounds, signed), mark
            )
        console.print(moves)
    if result.stopped is not None:
        console.print(
            Text(
                f"The {result.stopped} was reached: a range (7-9) is what the search proved, "
                "the exact value lies in it.",
                style="yellow",
            )
        )
    console.print(Text(f"{result.nodes:,} nodes, {result.seconds:.3f} s", style="dim"))


def _interval(bounds: tuple[int, int], show: Callable[[int], str] = str) -> str:
    """A value, or the range the search proved for it: ``7``, ``7-9``, ``-1 to +1``."""
    lo, hi = bounds
    if lo == hi:
        return show(lo)
    if lo < 0 or show is not str:
        return f"{show(lo)} to {show(hi)}"
    return f"{lo}-{hi}"


class _Progress:
    """What a long solve is doing, on stderr, only when stderr is a terminal: the file, the
    value being searched, the bounds proven so far and the node rate, a few times a second;
    erased when the solve ends, so stdout stays the results."""

    def __init__(self) -> None:
        self.console = Console(stderr=True, highlight=False)
        self.shown = self.console.is_terminal
        self.name = ""
        self.next = 0.0
        self.status: Any = None

    @contextlib.contextmanager
    def solving(self, name: str) -> Iterator[Callable[[SolveProgress], None] | None]:
        if not self.shown:
            yield None
            return
        self.name = name
        self.next = 0.0
        with self.console.status(f"solving {name} (Ctrl-C stops)", spinner="line") as status:
            self.status = status
            yield self.update

    def update(self, p: SolveProgress) -> None:
        now = time.monotonic()
        if now < self.next:
            return
        self.next = now + 0.2
        rate = p.nodes / p.seconds / 1e6 if p.seconds > 0 else 0.0
        self.status.update(
            f"solving {self.name}: {p.target}, tricks {_interval(p.bounds)}, "
            f"{p.nodes:,} nodes, {rate:.1f}M nodes/s (Ctrl-C stops)"
        )


@app.command(
    "solve",
    help=SOLVE_HELP,
    epilog=(
        "Examples:  ts358 deal --seed 7 --contract hearts --out deal.toml;  "
        "ts358 solve deal.toml;  ts358 solve --json --player chooser a.toml b.toml;  "
        "cat pos.toml | ts358 solve -"
    ),
)
def solve_command(
    files: Annotated[
        list[str],
        typer.Argument(
            metavar="FILE...",
            help="Position files (TOML, see above); '-' reads stdin.",
            show_default=False,
        ),
    ],
    player: Player = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON line per file instead of tables.")
    ] = False,
    no_moves: Annotated[
        bool,
        typer.Option(
            "--no-moves",
            help="Skip the per-card values of the player to move (faster); JSON 'moves' is [].",
        ),
    ] = False,
    tt_mb: TableMegabytes = None,
    time_limit: TimeLimit = None,
    threads: Threads = None,
) -> None:
    # Help text: SOLVE_HELP, set on the command.
    # Read and check every file before the first (possibly long) search.
    positions = [(name, _read_position(name)) for name in files]
    stdout = sys.stdout
    console = Console(file=stdout, highlight=False, soft_wrap=False)
    style = _Style(can_encode_symbols(stdout))
    solver = None
    shown = _Progress()
    for name, position in positions:
        if not position.is_over:
            if solver is None:
                solver = _new_solver(tt_mb)
            else:
                solver.clear()
        with shown.solving("<stdin>" if name == "-" else name) as progress:
            result = solve(
                position,
                player,
                moves=not no_moves,
                solver=solver,
                time_limit=time_limit,
                threads=threads,
                progress=progress,
            )
        if as_json:
            stdout.write(json.dumps(result.to_dict()) + "\n")
            stdout.flush()
        else:
            _render(console, "<stdin>" if name == "-" else name, result, style)


def _new_solver(tt_mb: int | None) -> Any:
    try:
        return new_solver(tt_mb)
    except MemoryError:
        size = tt_mb if tt_mb is not None else DEFAULT_TABLE_MB
        raise CommandError(
            f"not enough memory for a transposition table of {size} MB; give a smaller --tt-mb"
        ) from None
