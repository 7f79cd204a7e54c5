"""Anytime answers: a solve stopped by a node budget or a deadline answers with bounds that
always contain the exact value, for a player's value and for every card's, and the table it
leaves behind keeps later solves exact."""

from __future__ import annotations

import random
import time

import pytest

from ts358 import _core358

NO_TRICKS = 5


def deal(rng: random.Random, cards_each: int) -> tuple[int, int, int]:
    cards = rng.sample(range(52), 3 * cards_each)
    ids = [(c // 13) * 16 + c % 13 for c in cards]
    return tuple(sum(1 << i for i in ids[k * cards_each : (k + 1) * cards_each]) for k in range(3))


def positions(seed: int, count: int):
    """Positions of 8-11 tricks: solved exactly in milliseconds, yet big enough that a solver
    checking every 64 nodes stops them at many different points."""
    rng = random.Random(seed)
    for _ in range(count):
        contract = rng.randrange(6)
        size = rng.randint(8, 11)
        yield deal(rng, size), rng.randrange(3), contract, rng.randrange(3), rng.randrange(3)


def check_value_bounds(seed: int, count: int) -> int:
    """Stop each solve at a random budget; the bounds must hold the exact value. Returns how
    many solves really stopped (so that a test can insist the stops were exercised)."""
    rng = random.Random(seed)
    exact_solver, stopped_solver = _core358.Solver(4), _core358.Solver(4, check_every=64)
    stopped = 0
    for hands, leader, contract, void, player in positions(seed, count):
        exact_solver.clear()
        exact_solver.reset_stats()
        exact = exact_solver.value(hands, leader, [], contract, void, player)
        # A budget somewhere inside the search the exact solve needed (same table size,
        # cleared: the same search).
        stopped_solver.clear()
        budget = rng.randint(1, max(1, exact_solver.nodes))
        lo, hi = stopped_solver.bounds(hands, leader, [], contract, void, player, max_nodes=budget)
        assert lo <= exact <= hi, (hands, leader, contract, void, player, budget, lo, hi, exact)
        stopped += lo < hi
        # The stopped solver's table stays valid: going on gives the exact value.
        assert stopped_solver.value(hands, leader, [], contract, void, player) == exact
    return stopped


def test_stopped_values_hold_the_exact_value():
    assert check_value_bounds(1, 400) >= 200


@pytest.mark.slow
def test_stopped_values_hold_the_exact_value_soak():
    assert check_value_bounds(2, 5000) >= 2500


def test_stopped_card_values_hold_the_exact_values():
    rng = random.Random(3)
    stopped = 0
    for hands, leader, contract, void, _ in positions(3, 150):
        counting = _core358.Solver(4)
        exact = dict(counting.move_values(hands, leader, [], contract, void))
        budget = rng.randint(1, max(1, counting.nodes))
        got = _core358.Solver(4, check_every=64).move_bounds(
            hands, leader, [], contract, void, max_nodes=budget
        )
        assert [card for card, _, _ in got] == sorted(exact)
        for card, lo, hi in got:
            assert lo <= exact[card] <= hi, (hands, contract, card, lo, hi, exact[card])
        stopped += any(lo < hi for _, lo, hi in got)
    assert stopped >= 50


def test_progress_reports_sound_bounds_as_they_narrow():
    reports = 0
    for hands, leader, contract, void, player in positions(4, 12):
        exact = _core358.Solver(4).value(hands, leader, [], contract, void, player)
        seen = []
        solver = _core358.Solver(4, check_every=64)
        bounds = solver.bounds(
            hands, leader, [], contract, void, player, progress=lambda *a, seen=seen: seen.append(a)
        )
        assert bounds == (exact, exact)
        nodes = [n for n, _, _, _ in seen]
        assert nodes == sorted(nodes) and all(card == -1 for _, card, _, _ in seen)
        for _, _, lo, hi in seen:
            assert lo <= exact <= hi
        los = [lo for _, _, lo, _ in seen]
        his = [hi for _, _, _, hi in seen]
        assert los == sorted(los) and his == sorted(his, reverse=True)  # bounds only narrow
        reports += len(seen)
    assert reports > 20


def test_progress_names_the_card_being_valued():
    hands, leader, contract, void, _ = next(positions(5, 1))
    seen = []
    _core358.Solver(4, check_every=64).move_bounds(
        hands, leader, [], contract, void, progress=lambda *a: seen.append(a)
    )
    legal = {
        card
        for card, _, _ in _core358.Solver(4).move_bounds(
            hands, leader, [], contract, void, max_nodes=1
        )
    }
    assert seen and {card for _, card, _, _ in seen} <= legal


def test_an_error_in_progress_stops_the_solve_and_is_raised():
    hands, leader, contract, void, player = next(positions(6, 1))

    def broken(*args):
        raise RuntimeError("progress failed")

    solver = _core358.Solver(4, check_every=64)
    with pytest.raises(RuntimeError, match="progress failed"):
        solver.bounds(hands, leader, [], 5, void, player, progress=broken)
    # The solver is free again and still exact.
    assert solver.value(hands, leader, [], contract, void, player) == _core358.Solver(4).value(
        hands, leader, [], contract, void, player
    )


def test_a_deadline_stops_the_search_inside_it():
    # A full no-tricks deal takes seconds to minutes; a deadline 0.2 s away stops it soon
    # after (the clock is read every 65,536 nodes). The time is not asserted tightly: the
    # machine is shared; bench/ measures how well deadlines are kept.
    hands = deal(random.Random(7), 16)
    solver = _core358.Solver(16)
    start = time.monotonic()
    lo, hi = solver.bounds(hands, 0, [], NO_TRICKS, 0, 0, deadline=start + 0.2)
    assert lo < hi and time.monotonic() - start < 10
    with pytest.raises(_core358.SearchLimit, match="deadline") as info:
        solver.value(hands, 0, [], NO_TRICKS, 0, 0, deadline=time.monotonic() + 0.05)
    lo2, hi2 = info.value.bounds
    assert lo2 >= lo and hi2 <= hi  # the table kept what the first stop proved


def test_per_card_budgets_and_left_out_cards():
    rng = random.Random(8)
    checked = 0
    for hands, leader, contract, void, _ in positions(8, 40):
        exact = dict(_core358.Solver(4).move_values(hands, leader, [], contract, void))
        if len(exact) < 3:
            continue
        mover = leader
        n = bin(hands[mover]).count("1")
        # Leave out a whole suit: equal cards (one suit) share the value of the one searched.
        suit = rng.choice(sorted({c >> 4 for c in exact}))
        only = sum(1 << c for c in exact if c >> 4 != suit)
        if not only:
            continue  # one suit only (0 would mean every card)
        got = _core358.Solver(4, check_every=64).move_bounds(
            hands, leader, [], contract, void, per_card=rng.randint(1, 3000), only=only
        )
        for card, lo, hi in got:
            assert lo <= exact[card] <= hi
            if card >> 4 == suit:
                assert (lo, hi) == (0, n)  # not searched: the bounds of no search
        # Each card's own budget stops only that card: with an ample one, all are exact.
        full = _core358.Solver(4, check_every=64).move_bounds(
            hands, leader, [], contract, void, per_card=10**9
        )
        assert {card: lo for card, lo, hi in full if lo == hi} == exact
        checked += 1
    assert checked > 20


def test_progress_of_a_card_that_completes_a_trick_counts_the_trick():
    from ts358 import Contract, Position

    checked = 0
    for seed in range(40):
        pos = Position.random(seed, Contract(seed % 6))
        rng = random.Random(seed)
        while pos.tricks_left > 9 or len(pos.trick) < 2:
            pos = pos.play(rng.choice(sorted(pos.legal_moves())))
        args = (
            tuple(h.mask for h in pos.hands),
            int(pos.leader),
            [c.id for c in pos.trick],
            int(pos.contract),
            int(pos.void),
        )
        exact = dict(_core358.Solver(4).move_values(*args))
        seen = []
        _core358.Solver(4, check_every=64).move_bounds(
            *args, progress=lambda *a, seen=seen: seen.append(a)
        )
        for _, card, lo, hi in seen:
            assert lo <= exact[card] <= hi, (seed, card, lo, hi, exact[card])
        checked += len(seen)
    assert checked > 50
