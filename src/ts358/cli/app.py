"""The Typer application and the conventions every command follows.

Results go to stdout, progress and diagnostics to stderr. An expected error (bad input,
a rule broken, a file that can't be read) is one line on stderr and exit code 2; Ctrl-C
exits 130. Commands raise :class:`CommandError`, which prints that line; a value that an
option rejects is a usage error, printed as one line by :func:`ts358.cli.main`.

Also here: the helpers that more than one command uses to write numbers and to show the
progress of a batch run.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import IO, Any, TypeVar

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

from ts358.batch.pool import ParallelError

__all__ = [
    "ClickException",
    "CommandError",
    "UsageError",
    "app",
    "progress",
    "run_batch",
    "signed",
]

app = typer.Typer(
    name="ts358",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    help="3-5-8, the three-player trick-taking card game: play a match, solve positions.",
)


# Recent Typer vendors Click (and does not install it), older Typer uses Click itself: take
# the ClickException that this Typer handles from the ancestry of one of its public classes.
ClickException: type[Exception] = next(
    k for k in typer.BadParameter.__mro__ if k.__name__ == "ClickException"
)
UsageError: type[Exception] = next(
    k for k in typer.BadParameter.__mro__ if k.__name__ == "UsageError"
)


class CommandError(ClickException):  # type: ignore[misc,valid-type]
    """An expected failure: one line ``ts358: error: ...`` on stderr, exit code 2."""

    exit_code = 2

    def show(self, file: IO[Any] | None = None) -> None:
        print(f"ts358: error: {self.format_message()}", file=file or sys.stderr, flush=True)


def signed(x: float | None, places: int = 0) -> str:
    """``x`` with its sign and ``places`` decimals (``+3``, ``-0.25``; zero has no sign);
    ``-`` for None (no value)."""
    if x is None:
        return "-"
    return f"{x:+.{places}f}" if x else f"{0:.{places}f}"


@contextlib.contextmanager
def progress(label: str, total: int) -> Iterator[Callable[[int], None]]:
    """A progress bar on stderr (shown only on a terminal); yields ``advance(n)``."""
    console = Console(stderr=True)
    bar = Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )
    with bar:
        task = bar.add_task(label, total=total)
        yield lambda n: bar.advance(task, n)


_T = TypeVar("_T")


def run_batch(fn: Callable[[], _T]) -> _T:
    """``fn()``, a batch run; a failure of its workers or cluster becomes a CommandError."""
    try:
        return fn()
    except ParallelError as exc:
        raise CommandError(str(exc)) from None
