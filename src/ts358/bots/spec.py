"""Who takes a seat, in one short text: a computer player of this package
(:class:`~ts358.players.PlayerSpec`: ``hard``, ``hard:layouts=48``), a bot's command after
``cmd:`` (``cmd:python mybot.py``), or ``remote``, a bot on another computer that connects
over a WebSocket (docs/bots.md#remote-bots), as the arena's ``--players`` takes them.

>>> str(parse_seat("cmd: python  mybot.py --fast"))
'cmd:python mybot.py --fast'
>>> parse_seat("cmd:")
Traceback (most recent call last):
...
ValueError: cmd: needs the bot's command after it, e.g. cmd:python mybot.py
"""

from __future__ import annotations

import dataclasses
import shlex

from ts358.bots.seat import DEFAULT_SECONDS, BotPlayer
from ts358.players import PlayerSpec, make_player
from ts358.players.base import Player

__all__ = ["BOT_PREFIX", "REMOTE", "BotSpec", "RemoteSpec", "make_seat", "parse_seat"]

BOT_PREFIX = "cmd:"
REMOTE = "remote"


@dataclasses.dataclass(frozen=True)
class BotSpec:
    """A bot's command line, its words as a POSIX shell splits them."""

    words: tuple[str, ...]

    def __str__(self) -> str:
        return BOT_PREFIX + shlex.join(self.words)

    def make(self, seed: int | None = None, *, seconds: float = DEFAULT_SECONDS) -> BotPlayer:
        """The bot's seat, with ``seconds`` for each decision."""
        return BotPlayer(self.words, seconds=seconds, seed=seed)


@dataclasses.dataclass(frozen=True)
class RemoteSpec:
    """A bot on another computer, which connects to take the seat: its player is made where
    the connection is served (the arena's :class:`~ts358.bots.keeper.BotKeeper`, a
    server's table)."""

    def __str__(self) -> str:
        return REMOTE


def parse_seat(text: str) -> PlayerSpec | BotSpec | RemoteSpec:
    """The seat ``text`` names; ValueError, quoting it, if it names none."""
    stripped = text.strip()
    if stripped.lower() == REMOTE:
        return RemoteSpec()
    if stripped[: len(BOT_PREFIX)].lower() != BOT_PREFIX:
        return PlayerSpec.parse(stripped)
    try:
        words = tuple(shlex.split(stripped[len(BOT_PREFIX) :]))
    except ValueError as exc:  # an unclosed quote
        raise ValueError(f"{BOT_PREFIX} a command line that can't be split: {exc}") from None
    if not words:
        raise ValueError(f"{BOT_PREFIX} needs the bot's command after it, e.g. cmd:python mybot.py")
    return BotSpec(words)


def make_seat(
    text: str,
    seed: int | None = None,
    *,
    threads: int | None = None,
    seconds: float = DEFAULT_SECONDS,
) -> Player:
    """The player of the seat ``text`` names (:func:`parse_seat`): a bot's seat with
    ``seconds`` for each decision, or :func:`~ts358.players.make_player`'s (on ``threads``
    threads); ValueError for ``remote``, which only a table serving its connection seats."""
    spec = parse_seat(text)
    if isinstance(spec, RemoteSpec):
        raise ValueError(
            "remote: a bot on another computer plays at a ts358 serve table or in the arena"
        )
    if isinstance(spec, BotSpec):
        return spec.make(seed, seconds=seconds)
    return make_player(spec, seed, threads=threads)
