"""The Typer application and the conventions every command follows.

Results go to stdout, progress and diagnostics to stderr. An expected error (bad input,
a rule broken, a file that can't be read) is one line on stderr and exit code 2; Ctrl-C
exits 130. Commands raise :class:`CommandError`, which prints that line.
"""

from __future__ import annotations

from typing import IO, Any

import click
import typer

app = typer.Typer(
    name="ts358",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    help="3-5-8, the three-player trick-taking card game: play a match, solve positions.",
)


class CommandError(click.ClickException):
    """An expected failure: one line ``ts358: error: ...`` on stderr, exit code 2."""

    exit_code = 2

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"ts358: error: {self.format_message()}", err=True, file=file)
