"""solve(): values, scores and per-card values, against the plain-Python reference solver
and against positions worked out by hand."""

import dataclasses
import os
import random

import pytest

from reference_solver import reference_move_values, reference_value
from ts358 import Card, CardSet, Contract, Role, VoidRule, _core358
from ts358.analysis.solve import SolveResult, new_solver, solve
from ts358.position import Position

OBLIGATION = {Role.CHOOSER: 8, Role.THIRD: 5, Role.DEALER: 3}
LIMIT = {Role.CHOOSER: 3, Role.THIRD: 5, Role.DEALER: 8}


def expected_score(contract, role, tricks):
    """docs/rules.md#scoring-a-deal, written out again."""
    if contract is Contract.NO_TRICKS:
        return LIMIT[role] - tricks
    return tricks - OBLIGATION[role]


@pytest.fixture(scope="module")
def solver():
    # One small table for the whole module: a fresh 64 MB table per solve costs more than
    # these small searches.
    return new_solver(4)


def core_args(pos):
    return (
        tuple(h.mask for h in pos.hands),
        int(pos.leader),
        [c.id for c in pos.trick],
        int(pos.contract),
        int(pos.void),
    )


def small_position(rng, contract, void, tricks_left, in_progress):
    """A random position with ``tricks_left`` tricks to go, reached by random legal play
    from a random deal (so tricks taken are non-zero and vary)."""
    pos = Position.random(rng.randrange(2**32), contract, void)
    plies = 3 * (16 - tricks_left) + in_progress
    for _ in range(plies):
        pos = pos.play(rng.choice(sorted(pos.legal_moves())))
    return pos


def cases():
    rng = random.Random(358)
    out = []
    for contract in Contract:
        for void in VoidRule:
            for tricks_left in (1, 2, 3, 4):
                for in_progress in (0, 1, 2):
                    out.append((contract, void, tricks_left, in_progress, rng.randrange(2**32)))
    return out


@pytest.mark.parametrize("contract,void,tricks_left,in_progress,seed", cases())
def test_solve_matches_the_reference(solver, contract, void, tricks_left, in_progress, seed):
    rng = random.Random(seed)
    for _ in range(2):
        pos = small_position(rng, contract, void, tricks_left, in_progress)
        assert len(pos.trick) == in_progress and pos.tricks_left == tricks_left
        args = core_args(pos)
        result = solve(pos, solver=solver)

        assert [p.role for p in result.players] == list(Role)
        for role in Role:
            tricks = pos.taken[role] + reference_value(*args, int(role))
            assert result.player(role).tricks == tricks, (pos, role)
            assert result.player(role).score == expected_score(contract, role, tricks)

        mover = pos.to_move
        assert result.to_move is mover
        ref = [(Card.from_id(c), pos.taken[mover] + v) for c, v in reference_move_values(*args)]
        ref.sort(key=lambda cv: (cv[0].suit, -cv[0].rank))
        assert [(m.card, m.tricks) for m in result.moves] == ref, pos
        best_score = max(expected_score(contract, mover, t) for _, t in ref)
        for m in result.moves:
            assert m.score == expected_score(contract, mover, m.tricks)
            assert m.best == (m.score == best_score)
        assert CardSet(m.card for m in result.moves) == pos.legal_moves()
        # the mover's value is what their best card gives them
        assert result.player(mover).score == best_score

        # one player only, with and without per-card values
        for role in Role:
            alone = solve(pos, role, moves=False, solver=solver)
            assert alone.players == (result.player(role),)
            assert alone.moves == ()
        with_moves = solve(pos, Role((mover + 1) % 3), solver=solver)
        assert with_moves.moves == result.moves


# ---------------------------------------------------------------- worked by hand


def test_one_trick_left_third_must_trump():
    # hearts; the chooser led AS; third holds only a heart and must ruff; dealer follows.
    pos = Position(
        Contract.HEARTS,
        ("-.-.-.-", "-.2.-.-", "K.-.-.-"),
        trick=("AS",),
        leader=Role.CHOOSER,
        taken=(9, 3, 3),
    )
    result = solve(pos)
    assert [(p.tricks, p.score) for p in result.players] == [(9, 1), (4, -1), (3, 0)]
    assert [(str(m.card), m.tricks, m.score, m.best) for m in result.moves] == [("2H", 4, -1, True)]


@pytest.mark.parametrize("void", list(VoidRule))
def test_void_in_suit_led_with_a_trump_in_hand(void):
    # hearts; the chooser led AS and keeps 2D; third (no spade) holds 2H and KC; the
    # dealer holds QS and 3D.
    pos = Position(
        Contract.HEARTS,
        ("-.-.2.-", "-.2.-.K", "Q.-.3.-"),
        trick=("AS",),
        void=void,
        taken=(5, 5, 4),
    )
    result = solve(pos)
    # 2H ruffs the ace, then KC wins: nobody can follow clubs or has a trump left.
    two_h = ("2H", 7, 2, True)
    if void is not VoidRule.KURNIK:
        # must ruff (house, overtrump: no trump in the trick yet)
        assert [(str(m.card), m.tricks, m.score, m.best) for m in result.moves] == [two_h]
    else:
        # KC may be thrown: the ace wins, the chooser leads 2D, third ruffs it with 2H.
        assert [(str(m.card), m.tricks, m.score, m.best) for m in result.moves] == [
            two_h,
            ("KC", 6, 1, False),
        ]
        assert result.best_cards == CardSet.parse("-.2.-.-")
    assert result.player(Role.THIRD).tricks == 7
    # the chooser can't stop third ruffing; the dealer takes nothing either way
    assert result.player(Role.CHOOSER).tricks == 5
    assert result.player(Role.DEALER).tricks == 4


def test_no_tricks_forced_follow():
    # no-tricks; the chooser led 2S and keeps 4H; third must follow with the AS and win,
    # then lead 3H under the chooser's 4H; the dealer has 5S and 2H.
    pos = Position(
        Contract.NO_TRICKS, ("-.4.-.-", "A.3.-.-", "5.2.-.-"), trick=("2S",), taken=(1, 5, 8)
    )
    result = solve(pos)
    assert [(str(m.card), m.tricks, m.score) for m in result.moves] == [("AS", 6, -1)]
    assert [(p.tricks, p.score) for p in result.players] == [(2, 1), (6, -1), (8, 0)]


def test_no_tricks_ducking_is_best():
    # no-tricks, third to lead from AS 2C; chooser KS 3C; dealer 2H 4C.
    # AS wins the first trick (1 trick). 2C loses to the dealer's 4C; the dealer then leads
    # 2H and third, void in hearts, throws the AS: no trick.
    pos = Position(
        Contract.NO_TRICKS,
        ("K.-.-.3", "A.-.-.2", "-.2.-.4"),
        leader=Role.THIRD,
        taken=(4, 5, 5),
    )
    result = solve(pos, Role.THIRD)
    moves = {str(m.card): (m.tricks, m.score, m.best) for m in result.moves}
    assert moves == {"AS": (6, -1, False), "2C": (5, 0, True)}
    assert [str(m.card) for m in result.moves] == ["AS", "2C"]
    assert result.players[0].role is Role.THIRD
    assert (result.players[0].tricks, result.players[0].score) == (5, 0)


@pytest.mark.parametrize("contract", list(Contract))
def test_scores_for_each_role_and_contract(contract):
    # nothing left to play: the values are the tricks taken
    pos = Position(contract, ("-.-.-.-",) * 3, taken=(10, 4, 2))
    result = solve(pos)
    assert result.to_move is None and result.moves == () and result.nodes == 0
    got = {p.role: (p.tricks, p.score) for p in result.players}
    if contract is Contract.NO_TRICKS:
        assert got == {Role.CHOOSER: (10, -7), Role.THIRD: (4, 1), Role.DEALER: (2, 6)}
    else:
        assert got == {Role.CHOOSER: (10, 2), Role.THIRD: (4, -1), Role.DEALER: (2, -1)}
    assert sum(s for _, s in got.values()) == 0


@pytest.mark.parametrize("contract", list(Contract))
def test_one_trick_all_following_suit(contract):
    # the chooser's ace of clubs wins whatever the game (no one is void)
    pos = Position(contract, ("-.-.-.A", "-.-.-.2", "-.-.-.3"), taken=(7, 5, 3))
    result = solve(pos)
    assert [p.tricks for p in result.players] == [8, 5, 3]
    assert [p.score for p in result.players] == [
        expected_score(contract, r, t) for r, t in zip(Role, (8, 5, 3))
    ]


# ---------------------------------------------------------------- the result object


def test_result_is_frozen_and_serialisable(solver):
    pos = Position(Contract.SPADES, ("AK.-.-.-", "QJ.-.-.-", "-.2.-.3"), taken=(6, 5, 3))
    result = solve(pos, solver=solver)
    assert isinstance(result, SolveResult)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.nodes = 0
    data = result.to_dict()
    assert set(data) == {"contract", "to_move", "players", "moves", "nodes", "seconds"}
    assert data["contract"] == "spades" and data["to_move"] == "chooser"
    assert data["players"]["chooser"] == {"tricks": 8, "score": 0, "bounds": [8, 8]}
    assert [m["card"] for m in data["moves"]] == ["AS", "KS"]
    assert isinstance(data["nodes"], int) and data["nodes"] > 0
    assert data["seconds"] >= 0
    only = solve(pos, Role.DEALER, moves=False, solver=solver)
    with pytest.raises(KeyError):
        only.player(Role.CHOOSER)
    assert only.to_dict()["moves"] == [] and list(only.to_dict()["players"]) == ["dealer"]


def test_solve_rejects_other_types():
    with pytest.raises(TypeError):
        solve("contract = 'hearts'")


# ---------------------------------------------------------------------- budgets and bounds


def midgame(seed, contract):
    """A position 10 tricks from the end, reached by random legal play."""
    pos = Position.random(seed, contract)
    rng = random.Random(seed)
    while pos.tricks_left > 10:
        pos = pos.play(rng.choice(sorted(pos.legal_moves())))
    return pos


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("contract", list(Contract))
def test_a_node_budget_gives_sound_intervals(contract, threads):
    stopped = 0
    rng = random.Random(int(contract))
    for seed in range(6):
        pos = midgame(100 + seed, contract)
        exact = solve(pos, solver=new_solver(4), threads=1)
        budget = rng.randint(1, max(1, exact.nodes))
        cut = solve(
            pos, solver=_core358.Solver(4, check_every=64), max_nodes=budget, threads=threads
        )
        assert cut.stopped in (None, "node limit") and (cut.stopped is None) == cut.exact
        for want, got in zip(exact.players, cut.players):
            assert got.bounds[0] <= want.tricks <= got.bounds[1]
            assert got.score_bounds[0] <= want.score <= got.score_bounds[1]
            assert (got.tricks, got.score) == (
                (want.tricks, want.score) if got.exact else (None, None)
            )
        for want, got in zip(exact.moves, cut.moves):
            assert want.card == got.card and got.bounds[0] <= want.tricks <= got.bounds[1]
            if want.best:  # a best card is never ruled out by the bounds
                assert got.best
        for m in cut.moves:  # a card not marked best is beaten for sure by another
            if not m.best:
                assert any(o.score_bounds[0] > m.score_bounds[1] for o in cut.moves)
        data = cut.to_dict()
        for p in cut.players:
            entry = data["players"][p.role.label]
            assert entry["bounds"] == list(p.bounds) and entry["tricks"] == p.tricks
        stopped += not cut.exact
    assert stopped >= 2


def test_a_time_limit_stops_a_hard_solve_and_says_so():
    pos = Position.random(81, Contract.NO_TRICKS)
    seen = []
    cut = solve(pos, time_limit=0.3, tt_mb=16, progress=seen.append)
    assert cut.stopped == "time limit" and not cut.exact
    assert cut.seconds < 30  # not a timing test: bench/ measures how well limits are kept
    lows = [m.bounds[0] for m in cut.moves]
    assert all(lo >= 0 for lo in lows) and all(m.bounds[1] <= 16 for m in cut.moves)
    assert seen and all(isinstance(s.target, str) and s.nodes >= 0 for s in seen)
    assert {s.target for s in seen} <= {f"card {m.card}" for m in cut.moves} | {
        r.label for r in Role
    }


@pytest.mark.parametrize("limits", [{"time_limit": 0}, {"time_limit": -1.0}, {"max_nodes": 0}])
def test_limits_must_be_positive(limits):
    with pytest.raises(ValueError):
        solve(Position.random(1, Contract.HEARTS), **limits)


# ---------------------------------------------------------------------- threads


@pytest.mark.parametrize("contract", list(Contract))
def test_threads_give_the_same_values(contract):
    for seed in range(3):
        pos = midgame(200 + seed, contract)
        one = solve(pos, threads=1, solver=new_solver(4))
        for threads in (2, 3):
            many = solve(pos, threads=threads, solver=new_solver(4))
            assert many.players == one.players and many.moves == one.moves, (seed, threads)


def team_values(solvers, args):
    """Every player's bounds from each of the solvers' threads, searching as one team."""
    from ts358.players.threads import run_threads

    team = _core358.Team(len(solvers))
    return run_threads(
        solvers, lambda i: [solvers[i].bounds(*args, p, team=team) for p in range(3)], shared=True
    )


def team_cards(solvers, args):
    """Every card's bounds from each of the solvers' threads, searching as one team, thread
    i beginning i / threads of the way through the cards."""
    from ts358.players.threads import run_threads

    team = _core358.Team(len(solvers))
    return run_threads(
        solvers,
        lambda i: solvers[i].move_bounds(*args, team=team, start=i / len(solvers)),
        shared=True,
    )


@pytest.mark.parametrize("threads", [2, 3])
def test_a_team_finds_the_values_of_one_thread_on_any_table(threads):
    """Threads searching the same values together (a Team: each thread runs the whole
    search, and they share what they prove) answer with one thread's values: every
    player's, and every card's from any first card, on a 1 MB table (entries replaced all
    the time, so the threads race on full buckets) and on a 16 MB one."""
    for seed in range(12):
        pos = Position.random(500 + seed, Contract(seed % 6))
        rng = random.Random(seed)
        while pos.tricks_left > rng.randint(9, 11):
            pos = pos.play(rng.choice(sorted(pos.legal_moves())))
        args = core_args(pos)
        one = new_solver(16)
        players = [(v, v) for v in (one.value(*args, p) for p in range(3))]
        cards = [(card, v, v) for card, v in one.move_values(*args)]
        for mb in (1, 16):
            solvers = _core358.Solver(mb).helpers(threads)
            assert team_values(solvers, args) == [players] * threads, (seed, mb)
            assert team_cards(solvers, args) == [cards] * threads, (seed, mb)


def test_a_team_on_large_positions_finds_the_values_of_one_thread():
    """From 12 tricks left up, the threads of a team put off the moves another is searching
    and pass on the answers of the lead nodes they are inside (DEFER_FROM in the core):
    full deals' values and those of positions of 12 to 14 tricks, on a small table kept
    from solve to solve (so that the threads race on full buckets), are one thread's."""
    shared = new_solver(2)
    for seed in range(10):
        contract = Contract(seed % 5)  # trump and no-trump: no-tricks is slow this large
        pos = Position.random(700 + seed, contract)
        rng = random.Random(seed)
        left = 16 if seed < 5 else rng.randint(12, 14)
        while pos.tricks_left > left:
            pos = pos.play(rng.choice(sorted(pos.legal_moves())))
        moves = left < 16  # every card of the smaller ones; a full deal's chooser only
        player = None if moves else Role.CHOOSER
        one = solve(pos, player, moves, threads=1, solver=new_solver(16))
        for threads in (2, 3):
            many = solve(pos, player, moves, threads=threads, solver=shared)
            assert (many.players, many.moves) == (one.players, one.moves), (seed, threads)


def test_the_first_card_searched_changes_no_value():
    pos = midgame(40, Contract.NO_TRUMP)
    args = core_args(pos)
    want = new_solver(4).move_bounds(*args)
    for start in (0.0, 0.3, 0.5, 0.99):
        assert new_solver(4).move_bounds(*args, start=start) == want
        # With one card to search, that card is searched wherever the start.
        last = new_solver(4).move_bounds(*args, start=start, only=1 << want[-1][0])[-1]
        assert last == want[-1]
    with pytest.raises(ValueError, match="start"):
        new_solver(1).move_bounds(*args, start=1.0)
    with pytest.raises(ValueError, match="threads"):
        _core358.Team(0)


def test_a_team_keeps_to_one_position():
    """What a team proved is of one position: a search of another through it is refused,
    not answered from the first one's values; reset, it takes the other."""
    first, other = core_args(midgame(42, Contract.SPADES)), core_args(midgame(43, Contract.SPADES))
    team = _core358.Team(2)
    solver = new_solver(4)
    assert solver.bounds(*first, 0, team=team) == (solver.value(*first, 0),) * 2
    assert solver.move_bounds(*first, team=team) == [
        (card, v, v) for card, v in solver.move_values(*first)
    ]
    with pytest.raises(ValueError, match="one position"):
        solver.bounds(*other, 0, team=team)
    with pytest.raises(ValueError, match="one position"):
        solver.move_bounds(*other, team=team)
    team.reset()
    assert solver.bounds(*other, 1, team=team) == (new_solver(4).value(*other, 1),) * 2


def test_a_shared_table_that_fills_grows_and_the_values_stay():
    """Two threads on a 1 MB table that may grow to 4 MB: where their searches fill it, they
    stop, the table grows (its helpers let go and made again) and the search goes on; the
    values are those of one thread on a fixed table. (Whether two threads fill it depends on
    their timing: seeds 2 and 4 grew it in 23 of 24 runs; one value alone always does, in
    seed 2.)"""
    grew = {"threads": 0, "alone": 0}
    for seed in (2, 4, 5):
        pos = Position.random(seed, Contract.NO_TRICKS)
        rng = random.Random(seed)
        while pos.tricks_left > 12:
            pos = pos.play(rng.choice(sorted(pos.legal_moves())))
        growing = _core358.Solver(1, grow_mb=4)
        many = solve(pos, threads=2, solver=growing)
        one = solve(pos, threads=1, solver=new_solver(64))
        assert (many.players, many.moves) == (one.players, one.moves), seed
        assert many.exact and many.nodes > 0
        grew["threads"] += growing.tt_bytes > 2 << 20
        # One value alone is one task, searched on the calling thread beside idle helpers.
        growing = _core358.Solver(1, grow_mb=4)
        alone = solve(pos, Role.CHOOSER, moves=False, threads=2, solver=growing)
        assert alone.players == one.players[:1] and alone.exact, seed
        grew["alone"] += growing.tt_bytes > 2 << 20
    assert grew["threads"] >= 1 and grew["alone"] >= 1, grew


def test_a_helper_let_go_cannot_search():
    owner = _core358.Solver(1, grow_mb=4)
    helper = _core358.Solver(table_of=owner)
    with pytest.raises(RuntimeError, match="in use by other solvers"):
        owner.grow()
    helper.detach()
    owner.grow()
    assert owner.tt_bytes > 3 << 20 and owner.grow_mb == owner.tt_bytes >> 20
    with pytest.raises(RuntimeError, match="no table any more"):
        helper.value(*core_args(Position.random(1, Contract.HEARTS)), 0)
    owner.grow_mb = 0  # fixed from now on
    assert owner.grow_mb == owner.tt_bytes >> 20


def test_runs_of_equal_cards():
    from ts358.analysis.solve import _runs

    # The chooser leads: A K Q with the J and T out of play and the 9 are one run; the 5 is
    # split from it by the 7 and from the 2 by the 4 and 3, all still in play.
    pos = Position(Contract.NO_TRUMP, ("AKQ952.-.-.-", "43.AKQJ.-.-", "7.-.-.AKQJ6"))
    runs = [[str(Card.from_id(c)) for c in run] for run in _runs(pos)]
    # The J and T of spades are out of play (in no hand and not in the trick).
    assert runs == [["AS", "KS", "QS", "9S"], ["5S"], ["2S"]]


@pytest.mark.parametrize("player", [None, Role.CHOOSER])
def test_ctrl_c_during_a_threaded_solve_stops_every_thread(player):
    import _thread
    import threading

    pos = Position.random(81, Contract.NO_TRICKS)
    solver = new_solver(8)
    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        solve(pos, player, moves=player is None, threads=2, solver=solver)
    timer.cancel()
    # The solvers are free again.
    small = Position("hearts", ("A.-.-.-", "K.-.-.-", "-.2.-.-"), taken=(7, 5, 3))
    assert solve(small, threads=2, solver=solver).player(Role.DEALER).tricks == 4


def test_a_deadline_stops_every_thread_searching_one_value():
    pos = Position.random(81, Contract.NO_TRICKS)
    solver = new_solver(16)
    cut = solve(pos, Role.CHOOSER, moves=False, threads=2, time_limit=0.3, solver=solver)
    assert cut.stopped == "time limit" and not cut.exact
    assert cut.seconds < 30  # not a timing test: bench/deadline.py measures how well
    lo, hi = cut.players[0].bounds
    assert 0 <= lo < hi <= 16
    # Every thread has stopped: the solvers take the next solve.
    small = Position("hearts", ("A.-.-.-", "K.-.-.-", "-.2.-.-"), taken=(7, 5, 3))
    assert solve(small, threads=2, solver=solver).player(Role.DEALER).tricks == 4


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX only")
def test_threads_work_in_a_forked_child():
    """The worker threads kept for the next search do not exist in a forked child: it
    starts its own (else it would wait forever for a thread that is not there)."""
    import signal
    import warnings

    pos = midgame(41, Contract.HEARTS)
    want = solve(pos, threads=2, solver=new_solver(4)).players
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # fork with threads running
        pid = os.fork()
    if pid == 0:
        code = 1
        try:
            signal.alarm(60)  # a child left waiting ends, and the test fails
            code = 0 if solve(pos, threads=2, solver=new_solver(4)).players == want else 1
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_an_error_in_a_thread_is_raised():
    pos = midgame(300, Contract.HEARTS)

    def broken(_progress):
        raise RuntimeError("progress failed")

    with pytest.raises(RuntimeError, match="progress failed"):
        solve(pos, threads=2, solver=_core358.Solver(4, check_every=64), progress=broken)


@pytest.mark.slow
def test_threads_on_a_growing_shared_table_soak():
    """Threaded solves on a 1 MB table that may grow to 8 MB (the threads race on a full
    table, stop, and the table moves under new helpers) give the values of one thread."""
    grew = 0
    for seed in range(40):
        pos = Position.random(1000 + seed, Contract.NO_TRICKS if seed % 2 else Contract(seed % 5))
        rng = random.Random(seed)
        while pos.tricks_left > rng.randint(11, 13):
            pos = pos.play(rng.choice(sorted(pos.legal_moves())))
        one = solve(pos, threads=1, solver=new_solver(64))
        growing = _core358.Solver(1, grow_mb=8)
        many = solve(pos, threads=2, solver=growing)
        assert (many.players, many.moves) == (one.players, one.moves), seed
        grew += growing.tt_bytes > 2 << 20
    assert grew >= 5


@pytest.mark.slow
def test_threads_on_a_shared_table_soak():
    """300 threaded solves on a 2 MB shared table (constant replacement, so threads race on
    the same buckets) give the values of one thread."""
    shared = new_solver(2)
    for seed in range(150):
        contract = Contract(seed % 6)
        pos = Position.random(seed, contract)
        rng = random.Random(seed)
        target = rng.randint(9, 12) if contract is not Contract.NO_TRICKS else rng.randint(9, 11)
        while pos.tricks_left > target:
            pos = pos.play(rng.choice(sorted(pos.legal_moves())))
        one = solve(pos, threads=1, solver=new_solver(2))
        for threads in (2, 3):
            shared.clear()
            many = solve(pos, threads=threads, solver=shared)
            assert (many.players, many.moves) == (one.players, one.moves), (seed, threads)
