"""The Typer application and the conventions every command follows.

Results go to stdout, progress and diagnostics to stderr. An expected error (bad input,
a rule broken, a file that can't be read) is one line on stderr and exit code 2; Ctrl-C
exits 130. Commands raise :class:`CommandError`, which prints that line.
"""

from __future__ import annotations

import sys
from typing import IO, Any

import typer

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
