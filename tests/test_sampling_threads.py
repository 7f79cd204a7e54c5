"""The hard player on several threads: each thread its own solver and table, the layouts dealt
round-robin, each thread's share of the node budget its own, the results combined in layout
order. Decisions depend on the seed, the view, the effort and the thread count, never on
timing; one thread is the sequential player."""

import _thread
import signal
import threading
import time

import pytest

from test_sampling_player import run_deal_to, twin
from ts358 import Contract, Role, Rules, _core358
from ts358.analysis import hints as hints_module
from ts358.analysis.hints import HintService
from ts358.cards import Card
from ts358.match import Match
from ts358.players import Effort, HeuristicPlayer, PlayEstimate, SamplingPlayer, make_player
from ts358.players.layouts import role_hands
from ts358.players.solving import CorePosition
from ts358.view import DecisionKind

# Budgets that bind: in play some layouts are cut short; the game choice and the discard
# (whole deals) are solved on part of the layouts or on none (rollouts then).
PLAY = Effort(play_early=4, play_late=5, late_from=8, node_budget=60_000)
CHOICE = Effort(choose=3, discard=3, discard_candidates=3, node_budget=200_000)


def hard(seed, effort, threads):
    return SamplingPlayer(seed, effort=effort, tt_mb=4, threads=threads)


def play_views():
    """Play decisions early, in the middle and late in deals 1 of seeded matches."""
    out = []
    for match_seed, seat, tricks in [(31, 0, 0), (31, 1, 3), (8, 2, 6), (40, 0, 10), (5, 1, 1)]:
        out.append(run_deal_to(match_seed, seat, tricks).view(seat))
    return out


def choice_views():
    """The game choice and the discard of the first deal of seeded matches."""
    out = []
    for seed in range(3):
        match = Match(Rules(length=3), seed=seed)
        pending = match.pending()
        assert pending.kind is DecisionKind.CHOOSE
        out.append(pending.view)
        match.apply_answer(HeuristicPlayer().decide(pending.view))
        while (pending := match.pending()).kind is not DecisionKind.DISCARD:
            match.apply_answer(HeuristicPlayer().decide(pending.view))
        out.append(pending.view)
    return out


# ---------------------------------------------------------------- one thread: as it always was


def sequential_estimate(seed, effort, view):
    """The play estimate of a hard player on one solver, written out plainly: the layouts
    solved in turn with what is left of the node budget, the layout the budget runs out in
    counted by the middle of its bounds, a layout with nothing proven not at all. Returns
    the estimate and the nodes searched."""
    worlds = SamplingPlayer(seed, effort=effort)._worlds(
        view, effort.play_late if len(view.hand) <= effort.late_from else effort.play_early
    )
    solver = _core358.Solver(4, check_every=min(1 << 16, effort.node_budget))
    leader = view.leader if view.leader is not None else view.seat
    taken = view.taken[view.seat]
    totals = dict.fromkeys((c.id for c in view.options), 0.0)
    left = effort.node_budget
    solved = bounded = 0
    for world in worlds:
        if left <= 0:
            break
        before = solver.nodes
        raw = solver.move_bounds(
            role_hands(view, world),
            int(view.role_of(leader)),
            [c.id for c in view.trick],
            int(view.game),
            int(view.rules.void),
            max_nodes=left,
        )
        left -= solver.nodes - before
        if all(lo == 0 and hi == len(view.hand) for _, lo, hi in raw):
            continue
        for card, lo, hi in raw:
            low, high = (view.role.score(view.game, taken + t) for t in (lo, hi))
            totals[card] += (low + high) / 2
        solved += all(lo == hi for _, lo, hi in raw)
        bounded += any(lo != hi for _, lo, hi in raw)
    layouts = solved + bounded
    scores = {Card.from_id(c): t / layouts for c, t in totals.items()} if layouts else {}
    return PlayEstimate(scores, solved, bounded), solver.nodes


def sequential_choice(seed, effort, view):
    """The game choice or discard of a hard player on one solver, written out plainly:
    each option valued exactly on each layout in turn until the budget runs out, a layout
    counting only if every option was solved on it; rule-of-thumb rollouts when not one
    layout was. Returns the decision, the layouts solved and the nodes searched."""
    player = SamplingPlayer(seed, effort=effort)
    solver = _core358.Solver(4, check_every=min(1 << 16, effort.node_budget))
    if view.kind is DecisionKind.CHOOSE:
        options = sorted(view.available[view.seat])
        worlds = player._worlds(view, effort.choose)

        def hands(world):  # (full hand, discard, game, talon) per option
            full = world.hands[view.seat] | world.pile
            rule = player._rule_of_thumb_discard
            return [(full, rule(view, full, g), g, world.pile) for g in options]
    else:
        options = player._discard_candidates(view)
        worlds = player._worlds(view, effort.discard)

        def hands(world):
            return [(view.options, c, view.game, view.talon) for c in options]

    assert len(options) > 1  # else the player decides without solving
    totals = [0] * len(options)
    left = effort.node_budget
    solved = 0
    for world in worlds:
        scores = []
        for full, discard, game, _ in hands(world):
            if left <= 0:
                break
            layout = list(world.hands)
            layout[view.chooser] = full - discard
            masks = tuple(layout[view.seat_of(role)].mask for role in Role)
            before = solver.nodes
            try:
                tricks = solver.value(
                    masks, 0, [], int(game), int(view.rules.void), 0, max_nodes=left
                )
            except _core358.SearchLimit:
                left = 0
                break
            finally:
                left -= solver.nodes - before
            scores.append(Role.CHOOSER.score(game, tricks))
        if len(scores) < len(options):
            break
        totals = [t + s for t, s in zip(totals, scores)]
        solved += 1
    if not solved:
        for world in worlds:
            rollouts = []
            for full, discard, game, talon in hands(world):
                dealt = list(world.hands)  # the hands before the talon
                dealt[view.chooser] = full - talon
                tricks = player._rollout(view, tuple(dealt), talon, discard, game)
                rollouts.append(view.role.score(game, tricks))
            totals = [t + s for t, s in zip(totals, rollouts)]
    best = max(range(len(options)), key=lambda i: (totals[i], -i))
    return options[best], solved, solver.nodes


def test_one_thread_plays_as_the_sequential_player():
    cut = 0
    for seed, view in enumerate(play_views()):
        player = hard(seed, PLAY, threads=1)
        expected, nodes = sequential_estimate(seed, PLAY, view)
        estimate = player.estimate_play(view)
        assert estimate == expected  # the same floats: summed in the same order
        assert player._solvers[0].nodes == nodes
        cut += estimate.bounded
    assert cut  # the budget did cut layouts short


def test_one_thread_chooses_and_discards_as_the_sequential_player():
    partly = rollouts = 0
    for seed, view in enumerate(choice_views()):
        player = hard(seed, CHOICE, threads=1)
        expected, solved, nodes = sequential_choice(seed, CHOICE, view)
        assert player.decide(view) == expected
        assert player._solvers[0].nodes == nodes
        partly += 0 < solved < CHOICE.discard
        rollouts += solved == 0
    assert partly and rollouts  # both ways out of budget were met


# ---------------------------------------------------------------- two threads


def test_two_threads_decide_reproducibly():
    views = [(PLAY, v) for v in play_views()] + [(CHOICE, v) for v in choice_views()]
    for seed, (effort, view) in enumerate(views):
        a, b = hard(seed, effort, threads=2), hard(seed, effort, threads=2)
        if view.kind is DecisionKind.PLAY:
            assert a.estimate_play(view) == b.estimate_play(view)
        assert a.decide(view) == b.decide(view)
        assert [s.nodes for s in a._solvers] == [s.nodes for s in b._solvers]


def test_shares_run_one_after_another_decide_as_on_threads():
    # Late in a deal the shares run on the calling thread; on threads they give the same.
    for seed, view in enumerate(play_views()):
        worlds = hard(seed, PLAY, 2)._worlds(view, 5)
        results = []
        for parallel in (True, False):
            player = hard(seed, PLAY, threads=2)
            results.append(
                player._solve_layouts(
                    worlds,
                    lambda budget, world, v=view: budget.move_bounds(
                        CorePosition.in_play(v, world)
                    ),
                    parallel=parallel,
                )
            )
            results.append([s.nodes for s in player._solvers])
        assert results[0] == results[2] and results[1] == results[3]
        assert all(results[1])


def test_two_threads_split_the_budget_and_use_both_solvers():
    view = play_views()[0]
    player = hard(3, PLAY, threads=2)
    player.estimate_play(view)
    nodes = [s.nodes for s in player._solvers]
    assert all(nodes)
    # Each thread has half the budget; a search stops at its first check past it.
    assert all(n <= PLAY.node_budget // 2 + (1 << 16) for n in nodes)


@pytest.mark.parametrize("seat, tricks_done", [(0, 0), (1, 3), (2, 6)])
def test_two_threads_ignore_the_real_hidden_cards(seat, tricks_done):
    import random

    deal = run_deal_to(31, seat, tricks_done)
    view = deal.view(seat)
    decision = hard(5, PLAY, threads=2).decide(view)
    rng = random.Random(seat)
    changed = 0
    for _ in range(2):
        other = twin(deal, seat, rng)
        assert other.view(seat) == view
        changed += any(other.hand(s) != deal.hand(s) for s in range(3) if s != seat)
        assert hard(5, PLAY, threads=2).decide(other.view(seat)) == decision
    assert changed


def test_two_threads_play_a_whole_match_legally():
    effort = Effort(
        play_early=2, play_late=3, choose=2, discard=2, discard_candidates=2, node_budget=200_000
    )
    match = Match(Rules(length=3), seed=12)
    players = [hard(1, effort, threads=2), HeuristicPlayer(), hard(2, effort, threads=2)]
    while (pending := match.pending()) is not None:
        match.apply_answer(players[pending.seat].decide(pending.view))  # raises if illegal
    assert sum(match.totals) == 0


@pytest.mark.parametrize("threads", [0, -1])
def test_threads_must_be_at_least_one(threads):
    with pytest.raises(ValueError, match="threads must be at least 1"):
        SamplingPlayer(1, threads=threads)
    with pytest.raises(ValueError, match="threads must be at least 1"):
        make_player("hard", 1, threads=threads)


def test_make_player_passes_the_threads_to_hard_only():
    assert make_player("hard", 1).threads == 1
    assert make_player("hard", 1, threads=2).threads == 2
    assert isinstance(make_player("medium", 1, threads=2), HeuristicPlayer)


class Terminated(BaseException):
    """What a signal handler raises (like the session's on SIGTERM)."""


def _terminate(signum, frame):
    raise Terminated


@pytest.mark.parametrize(
    ("signum", "raised"), [(signal.SIGINT, KeyboardInterrupt), (signal.SIGTERM, Terminated)]
)
def test_a_signal_during_a_threaded_decision_stops_both_threads(signum, raised):
    # Ctrl-C, or a signal whose handler raises another exception in the waiting thread.
    previous = signal.signal(signal.SIGTERM, _terminate)
    # A whole deal of no-tricks without a budget: minutes of search on each thread.
    match = Match(Rules(length=3), seed=2)
    match.apply_answer(Contract.NO_TRICKS)
    while (pending := match.pending()).kind is not DecisionKind.PLAY:
        match.apply_answer(HeuristicPlayer().decide(pending.view))
    player = SamplingPlayer(5, effort=Effort(node_budget=10**12), tt_mb=4, threads=2)
    timer = threading.Timer(0.3, _thread.interrupt_main, (signum,))
    timer.start()
    try:
        with pytest.raises(raised):
            player.estimate_play(pending.view)
    finally:
        timer.cancel()
        signal.signal(signal.SIGTERM, previous)
    # The solvers are free again.
    estimate = player.estimate_play(pending.view, time_limit=0.05)
    assert estimate.scores.keys() <= set(pending.view.options)


def test_a_ctrl_c_as_a_job_is_queued_leaves_no_search_running(monkeypatch):
    # Python raises a Ctrl-C where it looks at its signals: at the end of a call, such as
    # the one that queued a job, before run_threads has counted that job. The job's search
    # must still be stopped and waited for, not left running on its solver.
    from ts358 import Position
    from ts358.players import threads

    args = CorePosition.of(Position.random(81, Contract.NO_TRICKS))  # minutes of search
    solvers = [_core358.Solver(4) for _ in range(2)]
    submit = threads._submit

    def submit_then_ctrl_c(job, finished):
        submit(job, finished)
        time.sleep(0.1)  # the job's search under way
        raise KeyboardInterrupt

    monkeypatch.setattr(threads, "_submit", submit_then_ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        threads.run_threads(solvers, lambda i: solvers[i].bounds(*args, 0))
    # Every search has ended: each solver takes the next one (else "already solving").
    small = CorePosition.of(Position("hearts", ("A.-.-.-", "K.-.-.-", "-.2.-.-"), taken=(7, 5, 3)))
    assert [s.bounds(*small, 0) for s in solvers] == [solvers[0].bounds(*small, 0)] * 2


def test_the_session_thinks_on_every_usable_core(monkeypatch):
    from ts358.table import seats
    from ts358.table.seats import ComputerSeat
    from ts358.terminal import play

    monkeypatch.setattr(seats, "default_threads", lambda: 2)
    monkeypatch.setattr(play, "default_threads", lambda: 2)
    monkeypatch.setattr(hints_module, "default_threads", lambda: 2)
    assert ComputerSeat("hard", 1, 1).player.threads == 2
    hints = HintService()
    hints(run_deal_to(40, 0, 12).view(0))  # late in the deal: solved at once
    assert hints._player is not None and hints._player.threads == 2
    built = []
    monkeypatch.setattr(play, "make_player", lambda *a, **k: built.append(k) or make_player(*a))
    play.play_auto(Match(Rules(length=3), seed=1), "medium", False, lambda line: None)
    assert built == [{"threads": 2}] * 3
