"""The solver's node limit: a deterministic budget that stops a solve, leaving the Solver
(and its table) fit for further exact solves."""

import random

import pytest

from reference_solver import reference_value
from ts358 import _core358


def deal(rng, cards_each):
    cards = rng.sample(range(52), 3 * cards_each)
    ids = [(c // 13) * 16 + c % 13 for c in cards]
    return tuple(sum(1 << i for i in ids[k * cards_each : (k + 1) * cards_each]) for k in range(3))


def test_limit_raises_search_limit_and_counts_nodes():
    solver = _core358.Solver(4)
    hands = deal(random.Random(1), 16)
    with pytest.raises(_core358.SearchLimit):
        solver.value(hands, 0, [], 5, 0, 0, max_nodes=1000)
    assert solver.nodes < 1000 + 2 * (1 << 16)  # stops at the next check after the limit


def test_limit_is_deterministic():
    # Clubs: this solve takes millions of nodes, far past the first signal check (the
    # limit is looked at there), so it stops at the limit whatever the solver's speed.
    counts = set()
    for _ in range(2):
        solver = _core358.Solver(4)
        with pytest.raises(_core358.SearchLimit):
            solver.value(deal(random.Random(2), 16), 0, [], 3, 0, 1, max_nodes=50_000)
        counts.add(solver.nodes)
    assert len(counts) == 1


@pytest.mark.parametrize("contract", range(6))
def test_after_a_stopped_solve_values_stay_exact(contract):
    rng = random.Random(contract)
    solver = _core358.Solver(1)
    stopped = 0
    for size in (11, 12, 13, 14) * 3:
        if stopped >= 3:
            break
        hands = deal(rng, size)
        player = rng.randrange(3)
        try:
            solver.value(hands, 0, [], contract, 0, player, max_nodes=1)
        except _core358.SearchLimit:
            stopped += 1
        # The same position solved to the end by the stopped Solver and by a fresh one.
        assert solver.value(hands, 0, [], contract, 0, player) == _core358.Solver(1).value(
            hands, 0, [], contract, 0, player
        )
    assert stopped
    small = deal(rng, 4)
    assert solver.value(small, 0, [], contract, 0, 0) == reference_value(
        small, 0, [], contract, 0, 0
    )
