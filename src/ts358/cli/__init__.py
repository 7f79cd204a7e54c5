"""The ``ts358`` command: a thin layer over the Python API (one module per command)."""

from __future__ import annotations

import sys
from typing import Any

import typer

from ts358.cli.app import ClickException, CommandError, UsageError, app

# Importing a command module registers its command on `app`; --help lists them in this order.
# isort: off
from ts358.cli import play, stats, serve  # noqa: F401
from ts358.cli import solve, deal  # noqa: F401
from ts358.cli import arena, analyze, bot  # noqa: F401
# isort: on

__all__ = ["CommandError", "app", "main"]


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``ts358`` console script and ``python -m ts358``."""
    try:
        code = app(args=argv, prog_name="ts358", standalone_mode=False)
    except UsageError as exc:
        # A bad option or argument: one line, like every expected error, not Click's usage
        # block (``--help`` shows the usage). No message: the help was shown (no arguments).
        message = exc.format_message()  # type: ignore[attr-defined]
        if message:
            print(f"ts358: error: {message}", file=sys.stderr, flush=True)
        code = CommandError.exit_code
    except ClickException as exc:
        error: Any = exc  # ClickException is typed as Exception (app.py says why)
        error.show()
        code = error.exit_code
    except (typer.Abort, KeyboardInterrupt):
        code = 130
    if code == 130:  # Typer turns Ctrl-C inside a command into a silent Exit(130)
        print("\nts358: interrupted", file=sys.stderr)
    sys.exit(code if isinstance(code, int) else 0)
