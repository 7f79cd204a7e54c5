"""The ``ts358`` command: a thin layer over the Python API (one module per command group)."""

from __future__ import annotations

import sys

import click

from .app import CommandError, app

# Importing a command module registers its commands on `app`.
from . import solve  # noqa: F401
from . import play  # noqa: F401

__all__ = ["CommandError", "app", "main"]


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``ts358`` console script and ``python -m ts358``."""
    try:
        code = app(args=argv, prog_name="ts358", standalone_mode=False)
    except click.ClickException as exc:
        exc.show()
        code = exc.exit_code
    except (click.exceptions.Abort, KeyboardInterrupt):
        print("\nts358: interrupted", file=sys.stderr)
        code = 130
    sys.exit(code if isinstance(code, int) else 0)
