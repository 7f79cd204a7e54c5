"""Bots kept from one match to the next: a run of many short matches (the arena plays each
board as a match of one deal) starts a bot's process once for each seat it takes at a time,
not once per match. Each match begins with a new ``hello`` (its seat, rules and seed), after
which the bot starts afresh (docs/bots.md: several matches); a bot that failed is not kept,
and the next match starts it again. A remote bot's connection (``remote`` seats) is made
once, before the run, and kept; one that failed stays closed, so each later match records
the fault and plays the seat by the rule of thumb.
"""

from __future__ import annotations

from collections.abc import Sequence

from ts358.bots.process import Transport
from ts358.bots.seat import DEFAULT_SECONDS, BotPlayer
from ts358.bots.spec import BotSpec, RemoteSpec, parse_seat
from ts358.players import make_player
from ts358.players.base import Player

__all__ = ["BotKeeper"]


class BotKeeper:
    """Makes the players of seats named as :func:`~ts358.bots.spec.parse_seat` names them
    (:meth:`make`), and takes them back after each match (:meth:`done`), keeping the
    processes of the bots that are still well; :meth:`close` reaps them all.

    Args:
        seconds: the bots' time control, seconds for each decision.
        remote: the connections of the ``remote`` seats (one for each seat a remote bot
            takes at a time, e.g. the :class:`~ts358.bots.remote.RemoteBot` seats of a
            :class:`~ts358.bots.listen.BotListener`).
    """

    def __init__(self, seconds: float = DEFAULT_SECONDS, remote: Sequence[Transport] = ()) -> None:
        self.seconds = seconds
        self._idle: dict[BotSpec | RemoteSpec, list[Transport]] = {RemoteSpec(): list(remote)}
        self._specs: dict[int, BotSpec | RemoteSpec] = {}  # by id() of the players out
        self.started = 0  # bot processes started

    def make(self, text: str, seed: int | None = None) -> Player:
        """The player of the seat ``text`` names, seeded with ``seed``: a bot's seat on a
        process kept from an earlier match if one is idle; ValueError for a ``remote`` seat
        with no connection left."""
        spec = parse_seat(text)
        if not isinstance(spec, (BotSpec, RemoteSpec)):
            return make_player(spec, seed)
        idle = self._idle.get(spec)
        if idle:
            player = BotPlayer(idle.pop(), seconds=self.seconds, seed=seed)
        elif isinstance(spec, RemoteSpec):
            raise ValueError("remote: no remote bot is connected for this seat")
        else:
            player = spec.make(seed, seconds=self.seconds)
            self.started += 1
        self._specs[id(player)] = spec
        return player

    def done(self, player: Player) -> None:
        """The match of ``player`` (made by :meth:`make`) is over: a bot still well is kept
        for the next one, anything else closed. A remote seat keeps its connection even
        closed (its next match records the fault: nobody can connect again mid-run)."""
        spec = self._specs.pop(id(player), None)
        if spec is None or not isinstance(player, BotPlayer):
            player.close()
            return
        process = player.detach()
        if isinstance(spec, RemoteSpec) and not isinstance(player.command, (str, Sequence)):
            process = player.command
        if process is not None:
            self._idle.setdefault(spec, []).append(process)

    def close(self) -> None:
        """Say goodbye to every kept bot and reap it (again: nothing)."""
        idle, self._idle = self._idle, {}
        for processes in idle.values():
            for process in processes:
                process.close()
