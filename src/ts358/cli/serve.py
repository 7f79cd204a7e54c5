"""``ts358 serve``: the card table in a browser; a thin layer over :mod:`ts358.web.server`."""

from __future__ import annotations

import importlib.util
import re
import signal
from typing import Annotated, Optional

import typer

from ts358._input import quote
from ts358.bots.spec import BOT_PREFIX, parse_seat
from ts358.cli.app import CommandError, app
from ts358.cli.options import scheduler_address, whole_number
from ts358.players import LEVELS

REMOTE = "remote"  # ts358.web.lobby.REMOTE, without importing the web extra

__all__ = ["serve_command"]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8358

SERVE_HELP = (
    "Serve the card table in a browser: open the address printed (or give --open), start a "
    "new match against two computer players or resume one saved by 'ts358 play' (the same "
    "saves and statistics, in the user data directory or $TS358_HOME). Click or type your "
    "decisions; Hint, the last trick, the score sheet and the double-dummy review after each "
    "deal are on the page. To play with friends on your network, start with --host 0.0.0.0 "
    "and choose 2 or 3 people at the new match: each friend's seat gets a link with a secret "
    "token, shown on your page and printed here; each browser sees only its own cards. The "
    "start page answers only on this computer. Ctrl-C stops the server; every match is saved "
    'as it is played. Needs the web extra: pip install "ts358\\[web]" (docs/web.md). '
    "With --public it is the online server instead: people sign up (or come as guests), meet "
    "in a lobby of tables, are rated per rule set, and every match is kept in a database "
    "(SQLite by default, PostgreSQL by --db); behind a proxy with TLS, give --url "
    '(docs/web.md#online). Needs the online extra: pip install "ts358\\[online]".'
    # (the backslash: Rich would read [web] as markup and drop it)
)

_NEEDED = ("starlette", "uvicorn", "websockets")
_NEEDED_ONLINE = ("sqlalchemy", "alembic", "openskill")


def _bot(text: str) -> str:
    """``NAME=COMMAND``: the name a start page shows, the bot's command line; written out
    as ``NAME=cmd:COMMAND``."""
    name, sep, command = (part.strip() for part in text.partition("="))
    if not sep or not re.fullmatch(r"[A-Za-z0-9_.-]{1,40}", name):
        raise typer.BadParameter(
            f"NAME=COMMAND with a name of letters, digits, '_', '.' or '-', not {quote(text)}"
        )
    if name in (*LEVELS, REMOTE):
        raise typer.BadParameter(f"{name!r} is taken (a level, or a remote bot): give another")
    try:
        spec = parse_seat(BOT_PREFIX + command)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    return f"{name}={spec}"


def _thinking(text: str) -> str:
    """Where the computer players think: processes or threads."""
    key = text.strip().lower()
    if key not in ("processes", "threads"):
        raise typer.BadParameter(f"processes or threads, not {quote(text)}")
    return key


@app.command("serve", help=SERVE_HELP, short_help="The card table in a browser (--open).")
def serve_command(
    host: Annotated[
        str,
        typer.Option(
            "--host",
            metavar="ADDRESS",
            help="Listen on this address; 0.0.0.0 lets others on your network join.",
        ),
    ] = DEFAULT_HOST,
    port: Annotated[
        int,
        typer.Option(
            "--port", metavar="N", parser=whole_number(1, 65535), help="The port to listen on."
        ),
    ] = DEFAULT_PORT,
    open_browser: Annotated[
        bool, typer.Option("--open", help="Open the page in the default browser.")
    ] = False,
    bots: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option(
            "--bot",
            metavar="NAME=COMMAND",
            parser=_bot,
            help="A bot a new match may seat against you, by NAME on the start page: a "
            "program speaking the protocol ts358-bot/1 (docs/bots.md), e.g. --bot "
            "'mine=python3 mybot.py'. Repeat for more.",
        ),
    ] = None,
    public: Annotated[
        bool,
        typer.Option(
            "--public",
            help="The online server: accounts, a lobby of tables, ratings, a database "
            "(docs/web.md#online).",
        ),
    ] = False,
    db: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--db",
            metavar="URL",
            help="With --public: the database, e.g. sqlite:///ts358.db or "
            "postgresql+psycopg://user:password@host/ts358 (default: online.db in the user "
            "data directory).",
        ),
    ] = None,
    url: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--url",
            metavar="URL",
            help="With --public: the address people reach the server at, e.g. "
            "https://358.example.org behind a proxy with TLS (then the cookies are Secure).",
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--forwarded-allow-ips",
            metavar="ADDRESSES",
            help="With --public: the proxies whose X-Forwarded-For is believed, e.g. 127.0.0.1.",
        ),
    ] = None,
    thinking: Annotated[
        str,
        typer.Option(
            "--thinking",
            metavar="WHERE",
            parser=_thinking,
            help="With --public: where the computer players think: processes (a pool of "
            "this machine's cores, off the web process) or threads (the server's own).",
        ),
    ] = "processes",
    scheduler: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--scheduler",
            metavar="ADDRESS",
            parser=scheduler_address,
            help="With --public: the computer players think on this Dask cluster, e.g. "
            "tcp://10.0.0.5:8786 (each worker needs ts358 installed).",
        ),
    ] = None,
    redis: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--redis",
            metavar="URL",
            help="With --public: the Redis shared by several server processes of one "
            "database (e.g. redis://127.0.0.1:6379/0): any of them serves the lobby, and a "
            "seat reaches its table through whichever process plays it.",
        ),
    ] = None,
) -> None:
    needed = (*_NEEDED, *_NEEDED_ONLINE) if public else _NEEDED
    missing = [name for name in needed if importlib.util.find_spec(name) is None]
    if missing:
        extra = "online" if public else "web"
        raise CommandError(
            f"ts358 serve{' --public' if public else ''} needs the {extra} extra "
            f'({", ".join(missing)} missing): pip install "ts358[{extra}]"'
        )
    if not public and (
        db or url or forwarded_allow_ips or scheduler or redis or thinking != "processes"
    ):
        raise CommandError(
            "--db, --url, --forwarded-allow-ips, --thinking, --scheduler and --redis go with "
            "--public"
        )
    if public and (bots or open_browser):
        raise CommandError("--bot and --open are for the table on this computer, not --public")
    from ts358.web.server import ServeError, serve

    named = dict(b.split("=", 1) for b in bots or [])
    try:
        if public:
            from ts358.online.server import serve_public

            stopped = serve_public(
                host,
                port,
                db_url=db,
                url=url,
                forwarded_allow_ips=forwarded_allow_ips,
                thinking=thinking,
                scheduler=scheduler,
                redis_url=redis,
                echo=typer.echo,
            )
        else:
            stopped = serve(
                host, port, open_browser=open_browser, echo=typer.echo, lobby_bots=named
            )
    except ServeError as exc:
        raise CommandError(str(exc)) from None
    if stopped is not None:
        # 128 + the signal's number, as shells report it (130 after Ctrl-C, 143 after
        # SIGTERM); every match was saved on the way out.
        if stopped != signal.SIGINT:
            typer.echo(
                f"ts358 serve: stopped by {signal.Signals(stopped).name}; every match is saved",
                err=True,
            )
        raise typer.Exit(128 + stopped)
