"""Options shared by several commands, as typed ``Annotated`` aliases, and the parsers of the
options whose values are names (rules, levels, games, roles).

Each option is parsed by Typer into its type; a value it rejects becomes one line on stderr
(``ts358: error: Invalid value for '--deals': ...``) and exit code 2, like every expected
error (:mod:`ts358.cli.app`). Parsers say what is allowed, from the same constants the
engine checks (:data:`~ts358.rules.MATCH_LENGTHS`, the labels of
:class:`~ts358.rules.Contract`, :class:`~ts358.rules.Role`, :class:`~ts358.rules.VoidRule`,
:data:`~ts358.players.LEVELS`).

An option whose default depends on the command (or is computed, like a random seed) is
``Optional`` with ``None`` for "not given", and its help says the default. Typer runs a
parser on the default as well, so options with a parser default to ``None`` too.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Annotated, Optional

import typer

from ts358._input import InputError, number, quote
from ts358.bots.spec import RemoteSpec, parse_seat
from ts358.cards import NotationError
from ts358.cli.app import CommandError
from ts358.players import LEVELS
from ts358.rules import Contract, Role, Rules, VoidRule, check_match_length
from ts358.table.saves import MAX_ANALYSIS_SECONDS
from ts358.table.texts import LANGUAGES

__all__ = [
    "MAX_SECONDS",
    "MAX_TABLE_MEGABYTES",
    "MAX_THREADS",
    "BotTime",
    "Deals",
    "Game",
    "GameList",
    "Games",
    "Language",
    "Level",
    "OpponentSeats",
    "Opponents",
    "Player",
    "PlayerLevels",
    "Players",
    "RuleSet",
    "Scheduler",
    "Seed",
    "TableMegabytes",
    "Threads",
    "TimeLimit",
    "Workers",
    "game",
    "games",
    "language",
    "level",
    "local_or_cluster",
    "match_length",
    "opponents",
    "player_levels",
    "role",
    "rule_set",
    "scheduler_address",
    "seconds",
    "time_limit",
    "void_rule",
    "whole_number",
]

MAX_TABLE_MEGABYTES = 65536
"""The largest transposition table ``--tt-mb`` asks for (64 GB)."""


class GameList(tuple[Contract, ...]):
    """Games given on the command line: no repeats, in the order of :class:`Contract`."""


class PlayerLevels(tuple[str, str, str]):
    """Three computer players' specifications (:class:`~ts358.players.PlayerSpec` texts in
    their written-out form), in seat order."""


class OpponentSeats(tuple[str, str]):
    """The two other seats of ``ts358 play``, in playing order after the human's: a
    player's specification or a bot's ``cmd:`` each."""


def whole_number(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    """A parser of whole numbers from ``minimum`` to ``maximum`` (no bound: None). Typer's own
    checks word their errors without the value given; these quote it."""

    def parse(text: str | int) -> int:
        try:
            value = int(str(text).strip())
        except ValueError:
            raise typer.BadParameter(f"not a whole number: {quote(text)}") from None
        if value < minimum:
            raise typer.BadParameter(f"must be at least {minimum}, not {quote(value)}")
        if maximum is not None and value > maximum:
            raise typer.BadParameter(f"must be at most {maximum}, not {quote(value)}")
        return value

    return parse


MAX_SECONDS = MAX_ANALYSIS_SECONDS
"""The longest time an option takes (11 days): anything longer is a typo."""


def seconds(text: str | float) -> float:
    """A time in seconds: a number from 0 to :data:`MAX_SECONDS`."""
    try:
        value = float(str(text).strip())
    except ValueError:
        raise typer.BadParameter(f"not a number: {quote(text)}") from None
    try:
        return float(number(value, 0, MAX_SECONDS, unit="seconds", given=str(text).strip()))
    except InputError as exc:
        raise typer.BadParameter(str(exc)) from None


def time_limit(text: str | float) -> float:
    """A time limit in seconds: more than 0, at most :data:`MAX_SECONDS`."""
    try:
        value = seconds(text)
    except typer.BadParameter:
        if str(text).strip().startswith("-"):
            raise typer.BadParameter(f"must be more than 0 seconds, not {text}") from None
        raise
    if value <= 0:
        raise typer.BadParameter(f"must be more than 0 seconds, not {value:g}")
    return value


def match_length(text: str) -> int:
    """The number of deals of a match: 3, 6, 9 or 18."""
    length: object = text
    with contextlib.suppress(ValueError):  # check_match_length rejects the text, quoting it
        length = int(text)
    try:
        return check_match_length(length)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None


def void_rule(text: str) -> VoidRule:
    """house, kurnik or overtrump: what a player void in the suit led must do."""
    try:
        return VoidRule.parse(text)
    except NotationError as exc:
        raise typer.BadParameter(str(exc)) from None


def rule_set(text: str) -> Rules:
    """A preset and options: ``sergeant-major``, ``house,talon=unseen`` (Rules.parse)."""
    try:
        return Rules.parse(text)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None


def level(text: str) -> str:
    """A computer player's level: easy, medium or hard."""
    key = text.strip().lower()
    if key not in LEVELS:
        raise typer.BadParameter(f"not a level: {quote(text)} (one of {', '.join(LEVELS)})")
    return key


def player_levels(text: str) -> PlayerLevels:
    """Three player specifications separated by commas, e.g. ``hard:layouts=48,hard,medium``."""
    parts = text.split(",")
    if len(parts) != 3 or not all(p.strip() for p in parts):
        raise typer.BadParameter(f"three levels separated by commas, not {quote(text)}")
    try:
        return PlayerLevels(str(parse_seat(p)) for p in parts)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None


def opponents(text: str) -> OpponentSeats:
    """Two players separated by a comma: levels with settings or bots' commands
    (``hard,cmd:python3 mybot.py``)."""
    parts = text.split(",")
    if len(parts) != 2 or not all(p.strip() for p in parts):
        raise typer.BadParameter(f"two players separated by a comma, not {quote(text)}")
    try:
        seats = [parse_seat(p) for p in parts]
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    if any(isinstance(seat, RemoteSpec) for seat in seats):
        raise typer.BadParameter(
            "remote: a bot on another computer plays at a ts358 serve table or in the arena"
        )
    return OpponentSeats(str(seat) for seat in seats)


def language(text: str) -> str:
    """A language of the texts: pl, cs or en."""
    key = text.strip().lower()
    if key not in LANGUAGES:
        raise typer.BadParameter(f"not a language: {quote(text)} (one of {', '.join(LANGUAGES)})")
    return key


def game(text: str) -> Contract:
    """One of the six games: spades, hearts, diamonds, clubs, no-trump, no-tricks."""
    try:
        return Contract.parse(text)
    except NotationError as exc:
        raise typer.BadParameter(str(exc)) from None


def games(text: str) -> GameList:
    """Games separated by commas, or ``all`` (also an empty text) for the six."""
    if not text.strip() or text.strip().lower() == "all":
        return GameList(Contract)
    return GameList(sorted({game(part) for part in text.split(",")}))


def role(text: str) -> Role:
    """A player by role: chooser, third or dealer."""
    try:
        return Role.parse(text)
    except NotationError as exc:
        raise typer.BadParameter(str(exc)) from None


def scheduler_address(text: str) -> str:
    """The address of a Dask scheduler; surrounding spaces are dropped."""
    address = text.strip()
    if not address:
        raise typer.BadParameter("an address such as tcp://host:8786, not an empty text")
    return address


def local_or_cluster(workers: int | None, scheduler: str | None) -> None:
    """Refuse local worker processes for a run on a cluster."""
    if workers is not None and scheduler is not None:
        raise CommandError("--workers is for local runs; a --scheduler cluster has its own workers")


# Optional[...] rather than "X | None": Typer reads these annotations at run time, and the
# package supports Python 3.10.
Seed = Annotated[
    Optional[int],  # noqa: UP045
    typer.Option(
        "--seed",
        metavar="S",
        parser=whole_number(0),
        help="Seed of the shuffles (and of the computer players): the same seed, the same "
        "deals (default: random).",
    ),
]
Deals = Annotated[
    Optional[int],  # noqa: UP045
    typer.Option(
        "--deals",
        metavar="N",
        parser=match_length,
        help="Deals of the match: 3, 6, 9 or 18 (default: 6).",
    ),
]
RuleSet = Annotated[
    Optional[Rules],  # noqa: UP045
    typer.Option(
        "--rules",
        metavar="RULES",
        parser=rule_set,
        help="house (default), kurnik (void in the suit led: any card; trumps not "
        "exchanged), sergeant-major or 9-5-2 (the English game: the dealer takes 8 and "
        "names trumps after seeing all 16 cards; 12 tricks in a deal win), then options "
        "to change, comma-separated: 'house,talon=unseen', 'sergeant-major,end=target,"
        "target_score=10'. Every option: docs/rules.md.",
    ),
]
VoidRuleOption = Annotated[
    Optional[VoidRule],  # noqa: UP045
    typer.Option(
        "--rules",
        metavar="RULES",
        parser=void_rule,
        help="house (default: void in the suit led, trump), kurnik (any card) or "
        "overtrump (trump, above the trick's trumps when you can).",
    ),
]
Level = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(
        "--level",
        metavar="LEVEL",
        parser=level,
        help="Computer players: easy (random), medium (rule of thumb) or hard (sampling with "
        "the solver); default: medium.",
    ),
]
Players = Annotated[
    Optional[PlayerLevels],  # noqa: UP045
    typer.Option(
        "--players",
        metavar="A,B,C",
        parser=player_levels,
        help="Three players separated by commas: levels (easy, medium, hard, expert), the hard "
        "ones with optional settings, e.g. hard:layouts=48:nodes=12000000,hard,medium, or a "
        "bot's command after cmd: (cmd:python mybot.py, docs/bots.md), or remote, a bot on "
        "another computer that connects (see --listen) "
        "(default: medium,medium,medium; settings: docs/arena.md).",
    ),
]
Opponents = Annotated[
    Optional[OpponentSeats],  # noqa: UP045
    typer.Option(
        "--opponents",
        metavar="A,B",
        parser=opponents,
        help="Who plays the two other seats, in playing order after yours: levels or bots, "
        "e.g. hard,cmd:python3 mybot.py (a bot of the protocol ts358-bot/1, docs/bots.md). "
        "Default: both at --level. Not saved: give it again with --resume.",
    ),
]


class ListenAddress(tuple[str, int]):
    """A host and a port to listen on (port 0: any free port)."""


def listen_address(text: str) -> ListenAddress:
    """``HOST:PORT`` (``[::]:8359`` for an IPv6 address; port 0: any free port)."""
    host, colon, port = text.strip().rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not colon or not host or not port.isdigit() or int(port) > 65535:
        raise typer.BadParameter(f"HOST:PORT, e.g. 0.0.0.0:8359, not {quote(text)}")
    return ListenAddress((host, int(port)))


Listen = Annotated[
    Optional[ListenAddress],  # noqa: UP045
    typer.Option(
        "--listen",
        metavar="HOST:PORT",
        parser=listen_address,
        help="Where remote bots connect (the players named remote): a WebSocket at "
        "ws://HOST:PORT/bot; the arena prints each seat's token and waits for the bots "
        "(default: 127.0.0.1 and a free port; 0.0.0.0:PORT for other computers).",
    ),
]
BotTime = Annotated[
    Optional[float],  # noqa: UP045
    typer.Option(
        "--bot-time",
        metavar="SECONDS",
        parser=time_limit,
        help="The bots' time control: seconds for each decision (default: 10); a bot that "
        "is later hands its seat to the rule of thumb (docs/bots.md).",
    ),
]
Language = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(
        "--lang",
        metavar="LANG",
        parser=language,
        help="pl, cs or en (default: from the locale, else en).",
    ),
]
Game = Annotated[
    Optional[Contract],  # noqa: UP045
    typer.Option(
        "--contract",
        "-c",
        metavar="GAME",
        parser=game,
        help="spades, hearts, diamonds, clubs, no-trump or no-tricks (default: no-trump).",
    ),
]
Games = Annotated[
    Optional[GameList],  # noqa: UP045
    typer.Option(
        "--games",
        metavar="G,G",
        parser=games,
        help="Games separated by commas, from spades, hearts, diamonds, clubs, no-trump, "
        "no-tricks; or all (default: all six).",
    ),
]
Player = Annotated[
    Optional[Role],  # noqa: UP045
    typer.Option(
        "--player",
        "-p",
        metavar="ROLE",
        parser=role,
        help="Only this player: chooser, third or dealer (default: all three).",
    ),
]
Workers = Annotated[
    Optional[int],  # noqa: UP045
    typer.Option(
        "--workers",
        metavar="K",
        parser=whole_number(1),
        help="Local worker processes (default: one per core); not with --scheduler.",
    ),
]
Scheduler = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(
        "--scheduler",
        metavar="ADDRESS",
        parser=scheduler_address,
        help="Run on a Dask cluster, e.g. tcp://host:8786 (default: on this machine).",
    ),
]
TimeLimit = Annotated[
    Optional[float],  # noqa: UP045
    typer.Option(
        "--time-limit",
        metavar="SECONDS",
        parser=time_limit,
        help="Stop each solve after about this long and show what it proved: a range of "
        "tricks where a value is not exact (default: no limit, exact values).",
    ),
]
MAX_THREADS = 256
"""The most threads ``--threads`` takes."""

Threads = Annotated[
    Optional[int],  # noqa: UP045
    typer.Option(
        "--threads",
        metavar="N",
        parser=whole_number(1, MAX_THREADS),
        help="Search on N threads sharing one table of --tt-mb (default: one per "
        "core). Exact values are the same for any N.",
    ),
]
TableMegabytes = Annotated[
    Optional[int],  # noqa: UP045
    typer.Option(
        "--tt-mb",
        metavar="MB",
        parser=whole_number(1, MAX_TABLE_MEGABYTES),
        help="Transposition table size in megabytes, kept as given (default: 64, which "
        "grows to 256 when a search fills it, as the heaviest no-tricks deals do).",
    ),
]
