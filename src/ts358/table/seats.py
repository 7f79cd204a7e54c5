"""A table's computer seats: ts358's own players and bots, repeatable from the match seed."""

from __future__ import annotations

from typing import Any

from ts358.analysis.solve import default_threads
from ts358.bots.seat import DEFAULT_SECONDS, BotPlayer, Fault
from ts358.bots.spec import BOT_PREFIX, make_seat
from ts358.deal import Answer, DealResult
from ts358.match import Match, player_seed
from ts358.players import Player
from ts358.view import SeatView

__all__ = ["ENGINE_NAMES", "HUMAN_SEAT", "ComputerSeat"]

HUMAN_SEAT = 0
"""The seat of the person who starts a match (at the terminal, or the browser's host)."""
ENGINE_NAMES = ("You", "Left", "Right")
"""The names of the seats in a match's record and save, seen from :data:`HUMAN_SEAT`."""


class ComputerSeat:
    """A computer player whose random choices depend only on its seed (the match seed's and
    its seat's, :func:`~ts358.match.player_seed`) and how many decisions the match has seen:
    a resumed match goes on exactly as the uninterrupted one would have, at the terminal
    and in the browser alike. Its generator is reseeded from its own seed, never the
    match's, which the generator's state would give away. A hard player thinks on every
    usable core (its decisions depend on their number too).

    Args:
        level: a level (``hard``), a bot (``cmd:python3 mybot.py``, docs/bots.md) or a
            player made already (a remote bot's seat).
        seed: the match seed.
        seat: the seat it plays.
        bot_seconds: a bot's time control, seconds for each decision.
    """

    def __init__(
        self,
        level: str | Player,
        seed: int,
        seat: int,
        bot_seconds: float = DEFAULT_SECONDS,
    ) -> None:
        self.seed = player_seed(seed, seat)
        self.seat = seat
        # The level's name when it is one (a player made elsewhere from it decides alike:
        # ts358.online.thinking), and the threads its searches use (its decisions depend on
        # their number).
        self.level = level if isinstance(level, str) else None
        self.threads = default_threads()
        self._seconds = bot_seconds
        self.made: Player | None = level if isinstance(level, Player) else None
        if self.made is None and str(level).startswith(BOT_PREFIX):
            self.made = self._make()  # a bot's process starts with its table
        self._told = 0  # the bot's faults said so far

    def _make(self) -> Player:
        assert self.level is not None
        return make_seat(self.level, self.seed, threads=self.threads, seconds=self._seconds)

    @property
    def player(self) -> Player:
        """The seat's player, made at first use (ts358's own: a hard one holds 16 MB of
        solver tables a thread, which a table whose decisions are made elsewhere, by
        :mod:`ts358.online.thinking`, never needs); :attr:`made` is None until then."""
        if self.made is None:
            self.made = self._make()
        return self.made

    def deal_over(self, result: DealResult) -> None:
        """Tell the player, if made, that the deal is over (a player never made has nothing
        to learn from it)."""
        if self.made is not None:
            self.made.deal_over(self.seat, result)

    def match_over(self, match: Match) -> None:
        """Tell the player, if made, that the match is over (a bot is sent its record)."""
        if self.made is not None:
            self.made.match_over(self.seat, match)

    def close(self) -> None:
        """The player, if made, is done (a bot's process is reaped)."""
        if self.made is not None:
            self.made.close()

    def new_faults(self) -> list[Fault]:
        """A bot's faults since this was last asked (none for ts358's own players)."""
        faults = self.made.faults if isinstance(self.made, BotPlayer) else []
        fresh, self._told = faults[self._told :], len(faults)
        return fresh

    def faults(self) -> list[dict[str, Any]]:
        """Every fault of the seat's bot, as the match record keeps them."""
        if not isinstance(self.made, BotPlayer):
            return []
        return [{"seat": self.seat, **f.to_json()} for f in self.made.faults]

    def decide(self, view: SeatView, step: int) -> Answer:
        """The player's answer to ``view``, the ``step``-th decision of the match."""
        self.player.reseed(f"{self.seed}:{step}")
        return self.player.decide(view)
