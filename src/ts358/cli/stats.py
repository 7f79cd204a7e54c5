"""``ts358 stats``: local statistics of finished matches and the leaderboard.

A thin layer over :mod:`ts358.table.history` (:func:`~ts358.table.history.load_entries`)
and :func:`ts358.terminal.render.render_history`.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer
from rich.console import Console

from ts358.cli.app import CommandError, app
from ts358.cli.options import Language, whole_number
from ts358.table.history import load_entries, stats_path
from ts358.table.texts import Translator, detect_language
from ts358.terminal.render import render_history

__all__ = ["stats_command"]

DEFAULT_TOP = 10


@app.command("stats")
def stats_command(
    lang: Language = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the finished matches as JSON lines.")
    ] = False,
    top: Annotated[
        int,
        typer.Option(
            "--top", metavar="N", parser=whole_number(1), help="Entries in the leaderboard."
        ),
    ] = DEFAULT_TOP,
) -> None:
    """Statistics of your finished matches and the leaderboard (won matches, result = total x 10).

    Kept in the user data directory (or $TS358_HOME), file stats.jsonl.
    """
    tr = Translator(lang or detect_language())
    path = stats_path()
    try:
        entries, bad = load_entries(path)
    except OSError as exc:
        raise CommandError(f"{path}: can't read the statistics: {exc.strerror or exc}") from None
    if bad:
        print("ts358: warning: " + tr("stats.bad_lines", count=bad, path=path), file=sys.stderr)
    if as_json:
        for entry in entries:
            sys.stdout.write(json.dumps(entry.to_json(), ensure_ascii=False) + "\n")
        return
    Console(file=sys.stdout, highlight=False).print(render_history(entries, tr, top))
