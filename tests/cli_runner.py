"""Running ``ts358`` in tests: through the console-script entry point :func:`ts358.cli.main`,
inside Click's isolation (captured stdin, stdout and stderr, environment).

``main`` is what users run and what turns a CommandError into one stderr line and exit 2;
``CliRunner.invoke`` would call the Typer command directly and miss that.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

from typer.testing import CliRunner

from ts358.cli import main


@dataclass(frozen=True)
class CliResult:
    exit_code: int
    stdout: str
    stderr: str


def run_cli(args, input=None, env=None, charset="utf-8") -> CliResult:
    """``ts358 ARGS`` with ``input`` on stdin; the exit code and both streams, apart."""
    runner = CliRunner(charset=charset)
    code = 0
    with runner.isolation(input=input, env=env) as (out, err, _):
        try:
            main(list(args))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
        stdout = out.getvalue().decode(charset, "replace")
        stderr = err.getvalue().decode(charset, "replace")
    return CliResult(code, stdout, stderr)


def read_until_closed(fd: int) -> bytes:
    """Everything written to a pseudo-terminal's master ``fd`` until the other side closes."""
    chunks = []
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # Linux reports the closed slave as EIO
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)
