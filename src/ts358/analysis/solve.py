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
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

from ts358 import _core358
from ts358.cards import Card, CardSet
from ts358.position import Position
from ts358.rules import Contract, Role

__all__ = ["MoveValue", "PlayerValue", "SolveResult", "new_solver", "solve"]


@dataclasses.dataclass(frozen=True)
class PlayerValue:
    """What one player can guarantee.

    Attributes:
        role: the player.
        tricks: total tricks for the deal (already taken + guaranteed future tricks; in
            no-tricks, the most tricks the player can be held to, i.e. the guaranteed ceiling).
        score: the deal score for ``tricks`` (:meth:`Role.score`).
    """

    role: Role
    tricks: int
    score: int


@dataclasses.dataclass(frozen=True)
class MoveValue:
    """The value of one legal card for the player to move.

    Attributes:
        card: the card.
        tricks: the mover's guaranteed total tricks for the deal after playing it.
        score: the mover's deal score for ``tricks``.
        best: True when no other legal card gives the mover a better score (in no-tricks
            fewer tricks are better; best = highest score in every contract).
    """

    card: Card
    tricks: int
    score: int
    best: bool


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
        nodes: search nodes visited (as counted by the core solver).
        seconds: wall-clock time of the solve.
    """

    position: Position
    players: tuple[PlayerValue, ...]
    to_move: Role | None
    moves: tuple[MoveValue, ...]
    nodes: int
    seconds: float

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
             "players": {"chooser": {"tricks": 9, "score": 1}, ...},
             "moves": [{"card": "7H", "tricks": 4, "score": -1}, ...],
             "nodes": 123456, "seconds": 0.012}

        ``to_move`` is null when the deal is over; ``moves`` is empty then, or when the
        solve skipped per-card values.
        """
        return {
            "contract": self.position.contract.label,
            "to_move": self.to_move.label if self.to_move is not None else None,
            "players": {p.role.label: {"tricks": p.tricks, "score": p.score} for p in self.players},
            "moves": [
                {"card": str(m.card), "tricks": m.tricks, "score": m.score} for m in self.moves
            ],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


def new_solver(tt_mb: int = 64) -> Any:
    """A core solver with a transposition table of about ``tt_mb`` megabytes."""
    return _core358.Solver(tt_mb)


def solve(
    position: Position,
    player: Role | None = None,
    moves: bool = True,
    *,
    solver: Any | None = None,
    tt_mb: int = 64,
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
        tt_mb: table size in megabytes for a fresh solver (ignored with ``solver``).

    Returns:
        A :class:`SolveResult`. A position with no cards left is valid: every value is
        the tricks already taken and there are no moves.

    Raises:
        KeyboardInterrupt: on Ctrl-C during a long search (the core checks for signals).
    """
    if not isinstance(position, Position):
        raise TypeError(f"expected a Position, not {type(position).__name__}")
    roles = tuple(Role) if player is None else (Role(player),)
    contract = position.contract
    start = time.perf_counter()

    if position.is_over:
        players = tuple(_player_value(r, contract, position.taken[r]) for r in roles)
        return SolveResult(position, players, None, (), 0, time.perf_counter() - start)

    if solver is None:
        solver = new_solver(tt_mb)
    else:
        solver.reset_stats()
    hands = tuple(h.mask for h in position.hands)
    leader = int(position.leader)
    trick = [c.id for c in position.trick]
    code, void = int(contract), int(position.void)
    mover = position.to_move

    move_values: tuple[MoveValue, ...] = ()
    future: dict[Role, int] = {}
    if moves:
        raw = solver.move_values(hands, leader, trick, code, void)
        taken = position.taken[mover]
        entries = [(Card.from_id(cid), taken + v) for cid, v in raw]
        scores = [mover.score(contract, t) for _, t in entries]
        best = max(scores)
        order = sorted(range(len(entries)), key=lambda i: (entries[i][0].suit, -entries[i][0].rank))
        move_values = tuple(
            MoveValue(entries[i][0], entries[i][1], scores[i], scores[i] == best) for i in order
        )
        # The mover picks their best card, so their value is the best card's value.
        future[mover] = next(m.tricks for m in move_values if m.best) - taken
    for role in roles:
        if role not in future:
            future[role] = solver.value(hands, leader, trick, code, void, int(role))
    seconds = time.perf_counter() - start
    players = tuple(_player_value(r, contract, position.taken[r] + future[r]) for r in roles)
    return SolveResult(position, players, mover, move_values, int(solver.nodes), seconds)


def _player_value(role: Role, contract: Contract, tricks: int) -> PlayerValue:
    return PlayerValue(role, tricks, role.score(contract, tricks))
