"""Rate limits by key (an address, a name, a person): a token bucket per key, in this
process's memory, bounded in the keys it keeps.

>>> signing = Limiter(per_minute=60, burst=2, clock=lambda: 0.0)
>>> [signing.allow("10.0.0.1") for _ in range(3)]
[True, True, False]
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

__all__ = ["Limiter"]


class Limiter:
    """At most ``burst`` at once, refilled at ``per_minute``, for each key.

    Args:
        per_minute: the pace kept up.
        burst: how many at once.
        keys: the most keys remembered; the oldest is forgotten first (a flood of new
            keys, such as many addresses, can't fill the memory).
        clock: seconds (:func:`time.monotonic`).
    """

    def __init__(
        self,
        per_minute: float,
        burst: int,
        keys: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = per_minute / 60.0
        self.burst = burst
        self.keys = keys
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, key: str) -> bool:
        """Take one for ``key`` if there is one left; whether there was."""
        now = self.clock()
        tokens, at = self._buckets.pop(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - at) * self.rate)
        allowed = tokens >= 1.0
        self._buckets[key] = (tokens - 1.0 if allowed else tokens, now)
        while len(self._buckets) > self.keys:
            self._buckets.popitem(last=False)
        return allowed

    def retry_after(self, key: str) -> float:
        """Seconds until ``key`` has one again (0 if it has one now)."""
        tokens, at = self._buckets.get(key, (float(self.burst), self.clock()))
        tokens = min(float(self.burst), tokens + (self.clock() - at) * self.rate)
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) / self.rate
