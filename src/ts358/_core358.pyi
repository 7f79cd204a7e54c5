# Stubs for the compiled core (src/_core358.pyx). Card id = suit * 16 + rank; card sets are
# bitboards (int); contracts 0-3 trump suit S H D C, 4 no-trump, 5 no-tricks; void rule
# 0 house, 1 kurnik, 2 overtrump (ts358.rules.VoidRule).
from collections.abc import Callable, Sequence

from typing_extensions import disjoint_base

def legal_moves(hand: int, trick: Sequence[int], contract: int, void_rule: int = 0) -> int: ...
def trick_winner(cards: Sequence[int], contract: int) -> int: ...
def random_playout(
    hands: Sequence[int], leader: int, contract: int, void_rule: int, seed: int
) -> tuple[int, int, int]: ...
def random_deals(n: int, seed: int, contract: int, void_rule: int = 0) -> tuple[int, int, int]: ...

# ---- solver (src/_solver_api.pxi)

@disjoint_base
class Solver:
    """Double-dummy solver: one player against the other two; the table is kept between calls."""

    def __init__(
        self,
        tt_mb: int = 64,
        *,
        grow_mb: int = 0,
        check_every: int = 65536,
        table_of: Solver | None = None,
    ) -> None: ...
    def bounds(
        self,
        hands: tuple[int, int, int],
        leader: int,
        trick: Sequence[int],
        contract: int,
        void_rule: int,
        player: int,
        *,
        max_nodes: int = 0,
        deadline: float = 0.0,
        progress: Callable[[int, int, int, int], object] | None = None,
        team: Team | None = None,
    ) -> tuple[int, int]: ...
    def value(
        self,
        hands: tuple[int, int, int],
        leader: int,
        trick: Sequence[int],
        contract: int,
        void_rule: int,
        player: int,
        *,
        max_nodes: int = 0,
        deadline: float = 0.0,
    ) -> int: ...
    def move_bounds(
        self,
        hands: tuple[int, int, int],
        leader: int,
        trick: Sequence[int],
        contract: int,
        void_rule: int,
        *,
        max_nodes: int = 0,
        deadline: float = 0.0,
        progress: Callable[[int, int, int, int], object] | None = None,
        per_card: int = 0,
        only: int = 0,
        team: Team | None = None,
        start: float = 0.0,
    ) -> list[tuple[int, int, int]]: ...
    def move_values(
        self,
        hands: tuple[int, int, int],
        leader: int,
        trick: Sequence[int],
        contract: int,
        void_rule: int,
        *,
        max_nodes: int = 0,
        deadline: float = 0.0,
    ) -> list[tuple[int, int]]: ...
    @property
    def nodes(self) -> int: ...
    @property
    def check_every(self) -> int: ...
    @property
    def tt_bytes(self) -> int: ...
    def grow(self, tt_mb: int = 0) -> None: ...
    @property
    def grow_mb(self) -> int: ...
    @grow_mb.setter
    def grow_mb(self, mb: int) -> None: ...
    @property
    def grow_wanted(self) -> bool: ...
    def helpers(self, count: int) -> list[Solver]: ...
    def release_helpers(self) -> None: ...
    def detach(self) -> None: ...
    def reset_stats(self) -> None: ...
    def clear(self) -> None: ...
    def stop(self, stop: bool = True) -> None: ...
    def share(self, shared: bool = True) -> None: ...

@disjoint_base
class Team:
    """Threads searching the same values of one position together on a shared table."""

    def __init__(self, threads: int = 2) -> None: ...
    @property
    def threads(self) -> int: ...
    def reset(self) -> None: ...

class SearchLimit(RuntimeError):
    """A solve stopped at its node limit or deadline; ``bounds`` holds what it proved."""

    bounds: tuple[int, int] | list[tuple[int, int, int]] | None
    def __init__(
        self, message: str, bounds: tuple[int, int] | list[tuple[int, int, int]] | None = None
    ) -> None: ...
