"""``ts358 bot``: one of ts358's computer players as a bot of the protocol ``ts358-bot/1``
(JSON lines on stdin and stdout, docs/bots.md); a thin layer over
:func:`ts358.bots.serve_bot`."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from ts358.cli.app import CommandError, app
from ts358.players import Player, PlayerSpec, make_player

__all__ = ["bot_command"]

BOT_HELP = (
    "Play as a bot of the protocol ts358-bot/1: read the table's messages on stdin, one JSON "
    "object a line (hello, decide, deal_end, bye), and answer on stdout. Seats a ts358 player "
    "wherever the protocol is served, e.g. ts358 arena --players 'cmd:ts358 bot --level hard',"
    "hard,medium. The player is seeded with the seed the table sends, so it plays as the same "
    "player would in the table's own process. With --connect and --token it takes a remote "
    "bot's seat of a ts358 serve instead, over its WebSocket (docs/bots.md)."
)


def _spec(text: str) -> str:
    try:
        return str(PlayerSpec.parse(text))
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None


@app.command("bot", help=BOT_HELP, short_help="Play as a bot of the protocol (stdin/stdout).")
def bot_command(
    level: Annotated[
        str,
        typer.Option(
            "--level",
            metavar="LEVEL",
            parser=_spec,
            help="The player: easy, medium, hard or expert, with settings as the arena takes "
            "them (hard:layouts=8); default: medium.",
        ),
    ] = "medium",
    connect: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--connect",
            metavar="URL",
            help="The WebSocket of a remote bot's seat, as the server gives it "
            "(ws://HOST:PORT/bot); needs --token.",
        ),
    ] = None,
    token: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--token", metavar="TOKEN", help="The seat's token, with --connect."),
    ] = None,
) -> None:
    def make(seed: int | None) -> Player:
        return make_player(level, seed)

    name = f"ts358 {level}"
    if connect is None and token is None:
        from ts358.bots import serve_bot

        serve_bot(make, name=name)
        return
    if connect is None or token is None:
        raise CommandError("--connect and --token go together")
    if not connect.startswith(("ws://", "wss://")):
        raise CommandError(f"--connect: a WebSocket address (ws://HOST:PORT/bot), not {connect!r}")
    from ts358.bots.client import connect_bot

    try:
        code = connect_bot(connect, token, make, name)
    except OSError as exc:
        raise CommandError(f"can't connect to {connect}: {exc.strerror or exc}") from None
    if code:
        raise typer.Exit(code)
