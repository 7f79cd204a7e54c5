"""The ``ts358`` command: a thin layer over the Python API (one module per command group)."""

from __future__ import annotations

import sys

import typer

# Importing a command module registers its commands on `app`.
from ts358.cli import (
    arena,  # noqa: F401
    play,  # noqa: F401
    solve,  # noqa: F401
    stats,  # noqa: F401
)
from ts358.cli.app import ClickException, CommandError, UsageError, app

__all__ = ["CommandError", "app", "main"]


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``ts358`` console script and ``python -m ts358``."""
    try:
        code = app(args=argv, prog_name="ts358", standalone_mode=False)
    except UsageError as exc:
        # A bad option or argument: one line, like every expected error, not Click's usage
        # block (``--help`` shows the usage).
        print(f"ts358: error: {exc.format_message()}", file=sys.stderr, flush=True)
        code = CommandError.exit_code
    except ClickException as exc:
        exc.show()
        code = exc.exit_code
    except (typer.Abort, KeyboardInterrupt):
        code = 130
    if code == 130:  # Typer turns Ctrl-C inside a command into a silent Exit(130)
        print("\nts358: interrupted", file=sys.stderr)
    sys.exit(code if isinstance(code, int) else 0)
