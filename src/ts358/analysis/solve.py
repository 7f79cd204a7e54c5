"""Double-dummy solving of a :class:`~ts358.position.Position`: what each player can guarantee.

The solver sees all three hands ("double dummy") and assumes the *paranoid* model: the
player being valued plays alone against the other two, who cooperate against them.

* In trump games and no-trump a player's value is the most tricks they can make sure to
  take, whatever the other two do.
* In no-tricks it is the fewest tricks they can make sure not to exceed while the other two
  try to push tricks onto them.

Values are reported as *total* tricks for the deal (tricks already taken plus tricks still
to come, the one in progress included) together with the deal score those tricks give
(:meth:`Role.score <ts358.rules.Role.score>`: tricks minus obligation 8/5/3 in trump games
and no-trump, limit 3/5/8 minus tricks in no-tricks). The three values come from three
separate paranoid searches, so they need not add up to the tricks left.

Example (the dealer, void in spades, must trump the chooser's ace)::

    >>> from ts358.position import Position
    >>> from ts358.analysis.solve import solve
    >>> pos = Position("hearts", ("A.-.-.-", "K.-.-.-", "-.2.-.-"), taken=(7, 5, 3))
    >>> result = solve(pos)
    >>> [(p.role.label, p.tricks, p.score) for p in result.players]
    [('chooser', 7, -1), ('third', 5, 0), ('dealer', 4, 1)]
    >>> [(str(m.card), m.tricks, m.best) for m in result.moves]
    [('AS', 7, True)]

The search runs in the Cython core (``ts358._core358.Solver``); one :class:`Solver` keeps a
transposition table, and can be passed to :func:`solve` to reuse its memory.

A solve can be given a budget (``time_limit`` in seconds, ``max_nodes``): the search stops
when it is spent and every value is then an interval of tricks that is always sound,
``lo <= tricks <= hi``, exact when the two meet (:attr:`PlayerValue.exact`). Without a
budget every value is exact.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any, TypeVar

from ts358 import _core358
from ts358._core358 import Solver
from ts358.batch.pool import default_workers
from ts358.cards import Card, CardSet
from ts358.players.solving import CorePosition
from ts358.players.threads import run_threads
from ts358.position import Position
from ts358.rules import Contract, Role

R = TypeVar("R")

FIRST_PASS_NODES = 1 << 16
"""The node budget of each value in the first pass of a limited solve (doubled each pass)."""

PARALLEL_FROM = 9
"""Positions with fewer tricks left are solved on one thread (they take milliseconds)."""


def default_threads() -> int:
    """The cores this process may use."""
    return default_workers()


__all__ = [
    "DEFAULT_TABLE_MB",
    "GROWN_TABLE_MB",
    "MoveValue",
    "PlayerValue",
    "SolveProgress",
    "SolveResult",
    "Solver",
    "new_solver",
    "solve",
]


def _score_bounds(role: Role, contract: Contract, lo: int, hi: int) -> tuple[int, int]:
    a, b = role.score(contract, lo), role.score(contract, hi)
    return (min(a, b), max(a, b))


class _Bounded:
    """A value given as bounds (``lo <= value <= hi``)."""

    bounds: tuple[int, int]

    @property
    def exact(self) -> bool:
        """Whether the value is known exactly (the solve was not cut short before it)."""
        return self.bounds[0] == self.bounds[1]


@dataclasses.dataclass(frozen=True)
class PlayerValue(_Bounded):
    """What one player can guarantee.

    Attributes:
        role: the player.
        tricks: total tricks for the deal (already taken + guaranteed future tricks; in
            no-tricks, the most tricks the player can be held to, i.e. the guaranteed
            ceiling); None when the solve stopped before it was exact.
        score: the deal score for ``tricks`` (:meth:`Role.score`), or None.
        bounds: ``(lo, hi)``: lo <= the exact value of ``tricks`` <= hi.
        score_bounds: the scores those bounds allow, lowest first.
    """

    role: Role
    tricks: int | None
    score: int | None
    bounds: tuple[int, int]
    score_bounds: tuple[int, int]


@dataclasses.dataclass(frozen=True)
class MoveValue(_Bounded):
    """The value of one legal card for the player to move.

    Attributes:
        card: the card.
        tricks: the mover's guaranteed total tricks for the deal after playing it (None
            when not exact).
        score: the mover's deal score for ``tricks`` (None when not exact).
        best: True when no other legal card is known to give the mover a better score (in
            no-tricks fewer tricks are better; best = highest score in every contract). With
            exact values: the cards of the highest score.
        bounds: ``(lo, hi)`` of ``tricks``, as in :class:`PlayerValue`.
        score_bounds: the scores those bounds allow, lowest first.
    """

    card: Card
    tricks: int | None
    score: int | None
    best: bool
    bounds: tuple[int, int]
    score_bounds: tuple[int, int]


@dataclasses.dataclass(frozen=True)
class SolveProgress:
    """Where a long solve stands, for :func:`solve`'s ``progress`` callback.

    Attributes:
        target: what is being solved: a role's label (``"dealer"``) or a card of the player
            to move (``"card 7H"``).
        bounds: the total tricks proven so far for it, ``(lo, hi)``.
        nodes: nodes searched so far in this solve.
        seconds: time since the solve started.
    """

    target: str
    bounds: tuple[int, int]
    nodes: int
    seconds: float


@dataclasses.dataclass(frozen=True)
class SolveResult:
    """The solution of one position.

    Attributes:
        position: the position solved.
        players: the values asked for, in role order (all three players, or just the one
            passed to :func:`solve` as ``player``).
        to_move: the player to move, or None when the deal is over.
        moves: one entry per legal card of the player to move, in display order (suits
            S H D C, ranks high to low); empty when the deal is over or when ``solve`` was
            called with ``moves=False``.
        nodes: search nodes visited (as counted by the core solvers, every thread's).
        seconds: wall-clock time of the solve.
        stopped: why the solve was cut short (``"time limit"`` or ``"node limit"``), or
            None when it ran to the end; values may be inexact only when it is not None.
    """

    position: Position
    players: tuple[PlayerValue, ...]
    to_move: Role | None
    moves: tuple[MoveValue, ...]
    nodes: int
    seconds: float
    stopped: str | None = None

    @property
    def exact(self) -> bool:
        """Whether every value (players and moves) is exact."""
        return all(p.exact for p in self.players) and all(m.exact for m in self.moves)

    def player(self, role: Role) -> PlayerValue:
        """The value of ``role``.

        Raises:
            KeyError: ``role`` was not solved (``solve`` was given another ``player``).
        """
        for value in self.players:
            if value.role is role:
                return value
        raise KeyError(f"{Role(role).label} was not solved")

    @property
    def best_moves(self) -> tuple[MoveValue, ...]:
        """The entries of :attr:`moves` marked best (empty when there are no moves)."""
        return tuple(m for m in self.moves if m.best)

    @property
    def best_cards(self) -> CardSet:
        """The best cards for the player to move, as a card set."""
        return CardSet(m.card for m in self.best_moves)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict, the shape printed by ``ts358 solve --json``::

            {"contract": "hearts", "to_move": "third",
             "players": {"chooser": {"tricks": 9, "score": 1, "bounds": [9, 9]}, ...},
             "moves": [{"card": "7H", "tricks": 4, "score": -1, "bounds": [4, 4]}, ...],
             "nodes": 123456, "seconds": 0.012}

        ``to_move`` is null when the deal is over; ``moves`` is empty then, or when the
        solve skipped per-card values. A value that a time or node limit left inexact has
        null ``tricks`` and ``score`` and its proven ``bounds``.
        """
        return {
            "contract": self.position.contract.label,
            "to_move": self.to_move.label if self.to_move is not None else None,
            "players": {
                p.role.label: {"tricks": p.tricks, "score": p.score, "bounds": list(p.bounds)}
                for p in self.players
            },
            "moves": [
                {
                    "card": str(m.card),
                    "tricks": m.tricks,
                    "score": m.score,
                    "bounds": list(m.bounds),
                }
                for m in self.moves
            ],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


DEFAULT_TABLE_MB = 64
"""The size of a fresh solver's transposition table, in megabytes, when none is given."""
GROWN_TABLE_MB = 256
"""What that default table grows to in a search that fills it (:func:`new_solver`)."""


def new_solver(tt_mb: int | None = None) -> Solver:
    """A core solver with a transposition table of about ``tt_mb`` megabytes, fixed.

    None: the default table, :data:`DEFAULT_TABLE_MB`, which grows to
    :data:`GROWN_TABLE_MB` in a search that fills it with its own entries (the few heavy
    no-tricks deals; ``Solver``'s ``grow_mb``; :func:`solve` grows a table its threads
    share between their searches). Values never depend on it.
    """
    if tt_mb is None:
        return _core358.Solver(DEFAULT_TABLE_MB, grow_mb=GROWN_TABLE_MB)
    return _core358.Solver(tt_mb)


def solve(
    position: Position,
    player: Role | None = None,
    moves: bool = True,
    *,
    solver: Solver | None = None,
    tt_mb: int | None = None,
    time_limit: float | None = None,
    max_nodes: int | None = None,
    threads: int | None = None,
    progress: Callable[[SolveProgress], object] | None = None,
) -> SolveResult:
    """Solve ``position`` double dummy.

    Args:
        position: the position to solve (always valid: :class:`Position` checks itself).
        player: solve only this player's value; None (the default) solves all three.
        moves: also value every legal card of the player to move (the mover's value is then
            the best of them, found in the same search). False skips the per-card values,
            which is faster when the mover is not the player asked for.
        solver: a ``ts358._core358.Solver`` to use (reuses its table and memory; its
            statistics are reset, its table is kept). None makes a fresh one.
        tt_mb: table size in megabytes for a fresh solver (ignored with ``solver``); None,
            the default table (:func:`new_solver`).
        time_limit: stop after about this many seconds (the clock is read every 65,536
            nodes, a few milliseconds of search); None: no limit.
        max_nodes: stop after about this many nodes in all; None: no limit. Unlike a time
            limit, the same budget stops at the same place on every machine.
        threads: search on this many threads (default: the cores this process may use),
            searching one table (the helpers are kept with ``solver`` for the next solve,
            ``Solver.helpers``). Positions of fewer than 9 tricks use one: they solve in
            milliseconds. Exact values are the same for any number of threads; limited
            solves are reproducible (``max_nodes``) with one thread only.
        progress: called a few hundred times a second during a long solve with a
            :class:`SolveProgress` (the callback can throttle itself).

    Returns:
        A :class:`SolveResult`. Without a limit every value is exact; with one, values the
        search did not finish are sound intervals (``bounds``) and ``stopped`` says why. A
        position with no cards left is valid: every value is the tricks already taken and
        there are no moves.

    Raises:
        KeyboardInterrupt: on Ctrl-C during a long search (the core checks for signals).
        ValueError: a limit that is not positive.
    """
    if not isinstance(position, Position):
        raise TypeError(f"expected a Position, not {type(position).__name__}")
    if time_limit is not None and not time_limit > 0:
        raise ValueError(f"time_limit must be positive, not {time_limit!r}")
    if max_nodes is not None and max_nodes < 1:
        raise ValueError(f"max_nodes must be at least 1, not {max_nodes!r}")
    if threads is not None and threads < 1:
        raise ValueError(f"threads must be at least 1, not {threads!r}")
    roles = tuple(Role) if player is None else (Role(player),)
    contract = position.contract
    start = time.perf_counter()
    deadline = time.monotonic() + time_limit if time_limit is not None else 0.0

    if position.is_over:
        players = tuple(_player_value(r, contract, position.taken[r]) for r in roles)
        return SolveResult(position, players, None, (), 0, time.perf_counter() - start)

    if solver is None:
        solver = new_solver(tt_mb)
    count = threads if threads is not None else default_threads()
    if position.tricks_left < PARALLEL_FROM:
        count = 1
    search = _Search(position, solver, count, deadline, max_nodes, progress, start)
    cards = dict.fromkeys((c.id for c in position.legal_moves()) if moves else (), search.none)
    mover = position.to_move
    future = {role: search.none for role in roles if not (moves and role is mover)}
    # Without a limit: one exact search per value. With one: passes over every value not
    # yet exact with a node budget each that doubles from pass to pass, so that when time
    # runs out every value has been looked at (one value at a time would leave the last
    # ones at the bounds of no search); the table keeps what each pass proved, and the
    # bounds of the passes are intersected.
    limited = time_limit is not None or max_nodes is not None
    search.each = FIRST_PASS_NODES if limited else 0
    runs = _runs(position) if moves else []
    while True:
        open_runs = [r for r in runs if any(cards[c][0] < cards[c][1] for c in r)]
        for cid, lo, hi in search.cards(open_runs):
            cards[cid] = _narrow(cards[cid], (lo, hi))
        open_roles = [role for role, (lo, hi) in future.items() if lo < hi]
        for role, got in zip(open_roles, search.roles(open_roles)):
            future[role] = _narrow(future[role], got)
        unfinished = any(lo < hi for lo, hi in (*cards.values(), *future.values()))
        if search.grow_wanted:
            # A table the threads share filled up: they stopped; it grows and the values
            # not yet exact are asked again, from what the table kept.
            search.grow_table()
            if unfinished and not search.over():
                continue
        if not unfinished or not limited or search.over():
            break
        search.each *= 2
    stopped = None
    if unfinished:
        stopped = "node limit" if search.budget() < 0 else "time limit"
    move_values: tuple[MoveValue, ...] = ()
    if moves:
        raw = [(cid, lo, hi) for cid, (lo, hi) in cards.items()]
        move_values = _move_values(mover, contract, position.taken[mover], raw)
        # The mover picks their best card: their value is that of the best card.
        pick = min if contract is Contract.NO_TRICKS else max
        future[mover] = (pick(lo for _, lo, _ in raw), pick(hi for _, _, hi in raw))
    players = tuple(
        _player_value(
            r, contract, position.taken[r] + future[r][0], position.taken[r] + future[r][1]
        )
        for r in roles
    )
    seconds = time.perf_counter() - start
    return SolveResult(position, players, mover, move_values, search.nodes(), seconds, stopped)


class _Search:
    """The searches of one solve: the core calls on one or several solvers within the
    solve's limits, reporting progress."""

    def __init__(
        self,
        position: Position,
        solver: Solver,
        threads: int,
        deadline: float,
        max_nodes: int | None,
        progress: Callable[[SolveProgress], object] | None,
        start: float,
    ) -> None:
        self.position = position
        self.solver = solver
        self.threads = threads
        self.solvers = solver.helpers(threads)
        for s in self.solvers:
            s.reset_stats()
        self.counted = 0  # the nodes of helpers let go (grow_table)
        self.grow_wanted = False  # a search stopped for the shared table to grow
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.progress = progress
        self.start = start
        self.each = 0  # the node budget of each value in this pass (0: none)
        self.none = (0, position.tricks_left)  # the bounds of no search
        self.args = CorePosition.of(position)
        # The threads search every value together: what one proves, the others use.
        self.team = _core358.Team(threads) if threads > 1 else None

    def nodes(self) -> int:
        return self.counted + sum(int(s.nodes) for s in self.solvers)

    def grow_table(self) -> None:
        """Grow the table the threads share (``Solver.grow``), its helpers let go first and
        made again on the grown table."""
        self.grow_wanted = False
        self.counted += sum(int(s.nodes) for s in self.solvers[1:])
        self.solver.release_helpers()
        try:
            self.solver.grow()
        except (MemoryError, RuntimeError):
            self.solver.grow_mb = 0  # the table stays as it is, and stops asking
        self.solvers = self.solver.helpers(self.threads)
        for s in self.solvers:
            s.stop(False)  # asked of every solver by _check_growth
        for s in self.solvers[1:]:
            s.reset_stats()

    def budget(self) -> int:
        """Nodes left of max_nodes (0: no limit; -1: spent)."""
        if self.max_nodes is None:
            return 0
        left = self.max_nodes - self.nodes()
        return left if left > 0 else -1

    def over(self) -> bool:
        """Whether the time or the node budget is spent."""
        return (self.deadline > 0 and time.monotonic() >= self.deadline) or self.budget() < 0

    def cards(self, runs: list[tuple[int, ...]]) -> list[tuple[int, int, int]]:
        """``(card, lo, hi)`` for the cards of ``runs`` (others may come with no search)."""
        if not runs:
            return []
        # One search over every open card, so that each card's search uses what the
        # previous ones stored. Threads each begin at another card and go round: they
        # search different cards until they meet, then the same ones together.
        only = sum(1 << c for r in runs for c in r)
        found = self._together(lambda solver, start: self._cards(solver, only, start))
        narrowed: dict[int, tuple[int, int]] = {}
        for card, lo, hi in (v for one in found for v in one):
            narrowed[card] = _narrow(narrowed.get(card, self.none), (lo, hi))
        return [(card, lo, hi) for card, (lo, hi) in narrowed.items()]

    def roles(self, roles: list[Role]) -> list[tuple[int, int]]:
        """The bounds of each role's value."""
        if not roles:
            return []

        def each_role(solver: Solver, start: float) -> dict[Role, tuple[int, int]]:
            first = int(start * len(roles))
            return {r: self._role(solver, r) for r in roles[first:] + roles[:first]}

        found = self._together(each_role)
        narrowed = dict.fromkeys(roles, self.none)
        for one in found:
            for role, got in one.items():
                narrowed[role] = _narrow(narrowed[role], got)
        return [narrowed[r] for r in roles]

    def _together(self, work: Callable[[Solver, float], R]) -> list[R]:
        """``work(solver, start)`` on one thread per solver, as one team, thread i beginning
        ``start = i / threads`` of the way through its values."""
        solvers = self.solvers
        if len(solvers) == 1:
            return [work(solvers[0], 0.0)]
        return run_threads(solvers, lambda i: work(solvers[i], i / len(solvers)), shared=True)

    def _cards(self, solver: Solver, only: int, start: float) -> list[tuple[int, int, int]]:
        if (self.each and self.over()) or self.grow_wanted:
            return []
        mover = self.position.to_move
        found: list[tuple[int, int, int]] = solver.move_bounds(
            *self.args,
            max_nodes=max(self.budget(), 0),
            deadline=self.deadline,
            progress=self._reporter(_card_label, self.position.taken[mover]),
            per_card=self.each,
            only=only,
            team=self.team,
            start=start,
        )
        self._check_growth(solver)
        return found

    def _role(self, solver: Solver, role: Role) -> tuple[int, int]:
        if (self.each and self.over()) or self.grow_wanted:
            return self.none
        left = self.budget()
        each = self.each
        found: tuple[int, int] = solver.bounds(
            *self.args,
            int(role),
            max_nodes=min(left, each) if left and each else (left or each),
            deadline=self.deadline,
            progress=self._reporter(_role_label(role), self.position.taken[role]),
            team=self.team,
        )
        self._check_growth(solver)
        return found

    def _check_growth(self, solver: Solver) -> None:
        """A search that stopped for the shared table to grow stops the other threads' too
        (at their next check, with what they proved), so that it can grow (grow_table)."""
        if solver.grow_wanted:
            self.grow_wanted = True
            for s in self.solvers:
                s.stop()

    def _reporter(
        self, target: Callable[[int], str], taken: int
    ) -> Callable[[int, int, int, int], None] | None:
        progress = self.progress
        if progress is None:
            return None
        start = self.start

        def report(nodes: int, card: int, lo: int, hi: int) -> None:
            bounds = (taken + lo, taken + hi)
            progress(SolveProgress(target(card), bounds, nodes, time.perf_counter() - start))

        return report


def _runs(position: Position) -> list[tuple[int, ...]]:
    """The legal cards of the player to move as runs of equal cards (ids, highest first):
    cards of a suit with nothing still in play between them (the core searches one card
    of each run and gives the others its value)."""
    gone = ~(sum(h.mask for h in position.hands) | sum(c.mask for c in position.trick))
    runs: list[tuple[int, ...]] = []
    for card in sorted(position.legal_moves(), key=lambda c: -c.id):
        if runs and runs[-1][-1] >> 4 == card.id >> 4:
            between = ((1 << runs[-1][-1]) - 1) & ~((1 << (card.id + 1)) - 1)
            if not between & ~gone:
                runs[-1] = (*runs[-1], card.id)
                continue
        runs.append((card.id,))
    return runs


def _narrow(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    """What two sound bounds of one value prove together."""
    return (max(a[0], b[0]), min(a[1], b[1]))


def _role_label(role: Role) -> Callable[[int], str]:
    return lambda _card: role.label


def _card_label(card: int) -> str:
    return f"card {Card.from_id(card)}"


def _player_value(role: Role, contract: Contract, lo: int, hi: int | None = None) -> PlayerValue:
    hi = lo if hi is None else hi
    exact = lo == hi
    return PlayerValue(
        role,
        lo if exact else None,
        role.score(contract, lo) if exact else None,
        (lo, hi),
        _score_bounds(role, contract, lo, hi),
    )


def _move_values(
    mover: Role, contract: Contract, taken: int, raw: list[tuple[int, int, int]]
) -> tuple[MoveValue, ...]:
    """The per-card values in display order, each marked best unless another card is
    known to score more."""
    entries = []
    for card_id, lo, hi in raw:
        bounds = (taken + lo, taken + hi)
        entries.append((Card.from_id(card_id), bounds, _score_bounds(mover, contract, *bounds)))
    surely = max(scores[0] for _, _, scores in entries)  # the score some card is sure of
    entries.sort(key=lambda e: (e[0].suit, -e[0].rank))
    return tuple(
        MoveValue(
            card,
            bounds[0] if bounds[0] == bounds[1] else None,
            scores[0] if bounds[0] == bounds[1] else None,
            scores[1] >= surely,
            bounds,
            scores,
        )
        for card, bounds, scores in entries
    )
