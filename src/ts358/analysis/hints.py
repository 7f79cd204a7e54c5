"""Hints: the strong (sampling) player's advice at any decision, as ``ts358 play`` and the
browser table give it, from a service its owner keeps (a session, a server) rather than a
module's global player.

The player behind the hints is one object, made on first use and kept (its solvers' tables
are reused from hint to hint), and it is not made for two threads: the service gives one
hint at a time, whatever thread asks.
"""

from __future__ import annotations

import threading

from ts358.analysis.solve import default_threads
from ts358.deal import Answer
from ts358.players.advice import Advice
from ts358.players.sampling import SamplingPlayer
from ts358.view import SeatView

__all__ = ["HINT_SECONDS", "HintService"]

HINT_SECONDS = 1.0
"""About how long a hint may think."""


class HintService:
    """Advice at any decision (:meth:`SamplingPlayer.advise`): the options ranked by their
    expected deal score, thinking about ``seconds`` on ``threads`` threads (default: every
    usable core); estimates where a layout was not solved in time, the rule of thumb's
    choice where nothing could be valued. Callable: ``hints(view)``. Thread-safe."""

    def __init__(self, seconds: float = HINT_SECONDS, threads: int | None = None) -> None:
        self.seconds = seconds
        self.threads = threads
        self._player: SamplingPlayer | None = None
        self._lock = threading.Lock()

    def __call__(self, view: SeatView) -> Advice[Answer]:
        with self._lock:
            if self._player is None:
                self._player = SamplingPlayer(0, threads=self.threads or default_threads())
            return self._player.advise(view, time_limit=self.seconds)
