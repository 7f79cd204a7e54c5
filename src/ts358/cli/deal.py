"""``ts358 deal``: a random full deal written as a position file for ``ts358 solve``.

A thin layer over :meth:`ts358.position.Position.random`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from ts358.cli.app import CommandError, app
from ts358.cli.options import Game, VoidRuleOption, whole_number
from ts358.position import Position
from ts358.rules import Contract, VoidRule

__all__ = ["deal_command"]

DEAL_HELP = (
    "Write a random full deal as a position file: 16 cards each, chooser on lead.\n\n"
    "The talon (the 4 cards left over) is not part of the position. The output is the TOML "
    "format that 'ts358 solve' reads (see 'ts358 solve --help')."
)


@app.command(
    "deal",
    help=DEAL_HELP,
    epilog="Examples:  ts358 deal --seed 1;  ts358 deal --seed 42 --contract no-tricks "
    "--rules kurnik --out pos.toml && ts358 solve pos.toml",
)
def deal_command(
    seed: Annotated[
        int,
        typer.Option(
            "--seed",
            metavar="S",
            parser=whole_number(0),
            help="Seed of the shuffle: the same seed, the same deal.",
        ),
    ],
    contract: Game = None,
    rules: VoidRuleOption = None,
    out: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(
            "--out",
            "-o",
            metavar="FILE",
            dir_okay=False,
            help="Write the position here (default: stdout).",
        ),
    ] = None,
) -> None:
    game = contract if contract is not None else Contract.NO_TRUMP
    text = Position.random(seed, game, rules if rules is not None else VoidRule.HOUSE).to_toml()
    if out is None:
        sys.stdout.write(text)
        return
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"{out}: cannot write: {exc.strerror or exc}") from None
    print(f"wrote {out}", file=sys.stderr)
