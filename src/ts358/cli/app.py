"""The Typer application and the conventions every command follows.

Results go to stdout, progress and diagnostics to stderr. An expected error (bad input,
a rule broken, a file that can't be read) is one line on stderr and exit code 2; Ctrl-C
exits 130. Commands raise :class:`CommandError`, which prints that line; a value that an
option rejects is a usage error, printed as one line by :func:`ts358.cli.main`.

``--help`` shows a flag as a flag and an argument by its name: Typer (0.2x) writes the
value type of every parameter beside it (``--auto <bool>``, ``FILE <list[str]>``), which
:class:`_Group` leaves out for the flags and arguments of every command.

Also here: ``ts358 --version``, and the helpers that more than one command uses to write
numbers and to show the progress of a batch run.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Annotated, Any, Optional, TypeVar

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
from typer.core import TyperArgument, TyperGroup

import ts358
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


class _Argument(TyperArgument):
    """An argument shown by its metavar alone: ``FILE...``, in the usage line too (where
    Typer writes ``{FILE}...``)."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None

    def get_usage_pieces(self, ctx: Any) -> list[str]:
        return [self.metavar] if self.metavar else super().get_usage_pieces(ctx)


def _plain_help(params: Iterable[Any]) -> None:
    """Show ``params`` in --help without value types: a flag (``--auto``, ``--help``) takes
    no value, an argument's metavar says what it is."""
    for param in params:
        if isinstance(param, TyperArgument):
            # The same object, told to display itself as _Argument does (Typer builds the
            # parameters itself, so there is no class to ask it for).
            param.__class__ = _Argument
        elif getattr(param, "is_flag", False):
            param.metavar = ""


class _Group(TyperGroup):
    """The ``ts358`` command group: its help and every command's without value types."""

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)
        _plain_help(params)
        return params

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            _plain_help(command.get_params(ctx))
        return command


app = typer.Typer(
    name="ts358",
    cls=_Group,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    help="3-5-8, the three-player trick-taking card game: play a match, solve positions.",
)


def _version(value: bool | None) -> None:
    if value:
        print(f"ts358 {ts358.__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        Optional[bool],  # noqa: UP045
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = None,
) -> None:
    """The options of ``ts358`` itself, before the command."""


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
