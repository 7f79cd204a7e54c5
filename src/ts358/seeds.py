"""Random generators and seeds derived from a run's seed and a label.

Batch runs (the arena, the game statistics) make every deal and every player from its own
generator, keyed by the run's seed and the item's place in the run, so results never depend
on how the work was split between processes. The key's parts are joined into a string and
hashed (``random.Random`` seeds from a string through SHA-512), which is the same in every
process, Python version and platform.

A match makes its deals and its players' seeds so too (:mod:`ts358.match`), under different
labels: a :func:`derived_seed` is one way (SHA-256), so a player's seed tells nothing of the
deals but by trying keys. A generator's draws are not one way (the Mersenne Twister can be
predicted from enough of them), so a generator that makes hidden cards stays in the engine.

>>> derived_rng("arena-board", 7, 0).random() == derived_rng("arena-board", 7, 0).random()
True
>>> derived_seed("a", 1) == derived_seed("a", 1) != derived_seed("a", 2)
True
"""

from __future__ import annotations

import hashlib
import random

__all__ = ["derived_rng", "derived_seed"]


def _key(key: tuple[object, ...]) -> str:
    return "ts358/" + "/".join(map(str, key))


def derived_rng(*key: object) -> random.Random:
    """A generator seeded by ``key`` (e.g. a label, the run's seed and a deal's index)."""
    return random.Random(_key(key))


def derived_seed(*key: object) -> int:
    """A 64-bit seed derived from ``key`` by SHA-256."""
    return int.from_bytes(hashlib.sha256(_key(key).encode()).digest()[:8], "big")
