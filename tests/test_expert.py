"""The expert player: legal and reproducible, blind to the hidden cards, the solver behind every
decision kind, and whole deals it cannot solve in budget valued inside the bounds it proved."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_solver import reference_move_values
from test_advice import exchange_deal, hidden_card_cases, recorded_view, score_after_the_talon
from test_sampling_player import play_a_match, run_deal_to
from ts358 import Basis, Card, CardSet, Contract, Match, Role, Rules, VoidRule, _core358
from ts358.players import HeuristicPlayer, RandomPlayer, SamplingPlayer, make_player
from ts358.players.expert import (
    EXPERT_EFFORT,
    OFF_SOLVER_PLAY,
    SELFISH_TIE,
    ExpertPlayer,
    _Play,
    bounded_estimate,
)
from ts358.players.layouts import World, role_hands, sample_worlds
from ts358.players.sampling import SolveBudget
from ts358.tricks import legal_cards, trick_winner
from ts358.view import DecisionKind

# Budgets that bind, so that whole deals are cut short and valued by their bounds.
LIGHT = dataclasses.replace(
    EXPERT_EFFORT,
    play_early=3,
    play_late=4,
    choose=2,
    discard=2,
    discard_candidates=3,
    give=2,
    node_budget=400_000,
)


def light(seed, threads=1, fusion=0, solver_inference=0, selfish=0):
    return ExpertPlayer(
        seed,
        effort=LIGHT,
        tt_mb=4,
        threads=threads,
        fusion=fusion,
        solver_inference=solver_inference,
        selfish=selfish,
    )


def test_make_player_expert_is_the_expert_on_two_threads():
    player = make_player("expert", 3)
    assert isinstance(player, ExpertPlayer) and player.threads == 2
    assert player.effort == EXPERT_EFFORT
    assert make_player("expert:threads=1:nodes=5000", 3).threads == 1


@pytest.mark.parametrize(
    "rules",
    [Rules(length=3), Rules(void=VoidRule.KURNIK, exchange_trumps=False, length=3)],
    ids=str,
)
def test_every_decision_is_legal_over_a_match(rules):
    kinds = play_a_match(rules, [light(1, fusion=6), HeuristicPlayer(), RandomPlayer(2)])
    assert DecisionKind.PLAY in kinds


def test_the_solver_decides_every_kind():
    player = light(4)
    returning = exchange_deal(0)
    trump = next(c for c in returning.view(0).options if c.suit.value == returning.game.value)
    returning.give(trump)
    views = {
        DecisionKind.CHOOSE: recorded_view(2, DecisionKind.CHOOSE),
        DecisionKind.DISCARD: recorded_view(2, DecisionKind.DISCARD),
        DecisionKind.GIVE: exchange_deal(2).view(0),
        DecisionKind.RETURN: returning.pending().view,
        DecisionKind.PLAY: run_deal_to(31, 1, 2).view(1),
    }
    for kind, view in views.items():
        advice = player.advise(view)
        assert advice.kind is kind
        assert advice.basis is Basis.SOLVED, kind
        assert advice.solved + advice.bounded > 0
        assert light(4).decide(view) == advice.best, kind
    # The hard player on the same budget gives by rule of thumb and values the choice by
    # rollouts: the budget does not fit one whole deal of each game.
    hard = SamplingPlayer(4, effort=LIGHT, tt_mb=4)
    assert hard.advise(views[DecisionKind.CHOOSE]).basis is Basis.ROLLOUTS
    assert hard.decide(views[DecisionKind.GIVE]) == HeuristicPlayer().decide(
        views[DecisionKind.GIVE]
    )


def test_same_seed_same_view_same_decision_on_one_or_two_threads():
    view = recorded_view(3, DecisionKind.CHOOSE)
    for threads in (1, 2):
        first = light(9, threads).advise(view)
        assert light(9, threads).advise(view) == first


def test_decisions_ignore_the_real_hidden_cards():
    cases = hidden_card_cases()
    kinds = set()
    for deal, seat, twins in cases:
        view = deal.view(seat)
        kinds.add(view.kind)
        decision = light(5, threads=2).decide(view)
        # The delayed solve too, at the play with seven cards left, and the solver's checks
        # of the others' cards played.
        delayed = light(5, threads=2, fusion=7).decide(view)
        checked = light(5, threads=2, solver_inference=4).decide(view)
        selfish = light(5, threads=2, selfish=8).decide(view)
        for other in twins:
            assert other.view(seat) == view  # the seat cannot tell the two deals apart
            assert any(other.hand(s) != deal.hand(s) for s in range(3) if s != seat)
            assert light(5, threads=2).decide(other.view(seat)) == decision
            assert light(5, threads=2, fusion=7).decide(other.view(seat)) == delayed
            assert light(5, threads=2, solver_inference=4).decide(other.view(seat)) == checked
            assert light(5, threads=2, selfish=8).decide(other.view(seat)) == selfish
    assert kinds == set(DecisionKind)


def test_a_whole_deal_cut_short_is_valued_inside_its_proven_bounds(monkeypatch):
    # A discard in a trump game: each candidate's whole deal, on each layout, is solved on a
    # budget too small to finish. Rollouts that claim every trick, then none, push each value
    # to the top and the bottom of its proven interval; the exact average of every candidate
    # (solved here without a budget) must lie between the two, and the intervals must have
    # been open (else this tested nothing).
    view = recorded_view(5, DecisionKind.DISCARD)
    assert view.game is not None and view.game.trump is not None
    effort = dataclasses.replace(LIGHT, discard=2, discard_candidates=2, node_budget=40_000)

    def advice_with_rollouts(tricks):
        monkeypatch.setattr(ExpertPlayer, "_rollout", lambda *args: tricks)
        return dict(ExpertPlayer(7, effort=effort, tt_mb=4, threads=1).advise(view).options)

    high, low = advice_with_rollouts(99), advice_with_rollouts(-1)
    monkeypatch.undo()
    assert any(high[c] > low[c] for c in high)  # some intervals were open
    # ... and the rollouts were moved into them: no value beyond what a deal can score.
    most, least = view.role.score(view.game, 16), view.role.score(view.game, 0)
    assert all(least <= low[c] <= high[c] <= most for c in high)
    player = ExpertPlayer(7, effort=effort, tt_mb=4, threads=1)
    worlds = list(sample_worlds(view, effort.discard, player._rng(view)))
    candidates = player._discard_candidates(view)
    solver = _core358.Solver(16)
    role = view.role
    for candidate in candidates:
        total = 0
        for world in worlds:
            hands = list(world.hands)
            hands[view.seat] = view.options - candidate
            masks = tuple(hands[view.seat_of(r)].mask for r in Role)
            tricks = solver.value(masks, 0, [], int(view.game), int(view.rules.void), int(role))
            total += role.score(view.game, tricks)
        exact = total / len(worlds)
        assert low[candidate] - 1e-9 <= exact <= high[candidate] + 1e-9, candidate


@given(
    st.sampled_from(list(Contract)),
    st.integers(0, 16),
    st.integers(0, 16),
    st.integers(-3, 20),
)
def test_an_estimate_never_leaves_its_interval(game, a, b, taken):
    lo, hi = min(a, b), max(a, b)
    calls = []

    def playout():
        calls.append(1)
        return taken

    estimate = bounded_estimate(game, lo, hi, playout)
    assert lo <= estimate <= hi
    if lo == hi:
        assert estimate == lo and not calls  # exact: no play-out played


def test_inference_weights_layouts_by_what_the_others_did():
    # Seat 1 at trick 6 of a hearts deal played by medium players: the rule of thumb made
    # every card the others played, so layouts where it would have played them count more.
    deal = run_deal_to(31, 1, 6)
    view = deal.view(1)
    player = light(3)
    worlds = player._worlds(view, 24)
    weights = player._layout_weights(view, worlds)
    assert weights is not None and all(0 < w <= 1 for w in weights)
    assert len(set(weights)) > 1  # the plays tell the layouts apart
    # The real layout, whose plays the model made (the players were the model), has weight
    # 1 as far as the plays go: no layout outweighs it.
    real = World(tuple(deal.hand(s) for s in range(3)), deal.discarded)
    assert player._likelihood(view, real) >= max(weights)
    # Switched off, the layouts count alike, as the hard player's.
    off = ExpertPlayer(3, effort=LIGHT, tt_mb=4, threads=1, inference=False)
    assert off._layout_weights(view, worlds) is None
    assert make_player("expert:inference=0").inference is False


def others_last_plays(view, world, last):
    """The other seats' ``last`` cards played, each as (trick index, leader, cards before it
    in the trick, seat, card, every seat's hand then as bitboards by seat)."""
    segments = [(t.leader, t.cards) for t in view.tricks] + [(view.leader, view.trick)]
    plays = [
        (k, leader, cards[:i], (leader + i) % 3, c)
        for k, (leader, cards) in enumerate(segments)
        for i, c in enumerate(cards)
    ]
    hands = [world.hands[s].mask for s in range(3)]
    for *_, seat, card in plays:
        hands[seat] |= card.mask
    out = []
    for play in plays:
        if play[3] != view.seat:
            out.append((*play, list(hands)))
        hands[play[3]] &= ~play[4].mask
    return out[-last:]


def found_worse(view, hands, leader, before, card):
    """Whether the reference minimax finds ``card`` worse, with ``hands`` (by seat), than
    another card its seat could play: fewer tricks for it, or in no-tricks more; None if it
    had no choice."""
    values = dict(
        reference_move_values(
            [hands[view.seat_of(r)] for r in Role],
            int(view.role_of(leader)),
            [c.id for c in before],
            int(view.game),
            int(view.rules.void),
        )
    )
    if len(values) < 2:
        return None
    return values[card.id] != (min if view.game is Contract.NO_TRICKS else max)(values.values())


def no_tricks_view(match_seed):
    """The view of the first seat to play with a choice after 12 tricks of a no-tricks deal
    1 played by medium players."""
    deal = Match(Rules(length=3), seed=match_seed).deal
    deal.choose(Contract.NO_TRICKS)
    medium = HeuristicPlayer()
    while (pending := deal.pending()) is not None:
        view = pending.view
        if view.kind is DecisionKind.PLAY and len(view.tricks) >= 12 and len(view.options) > 1:
            return view
        deal.apply_answer(medium.decide(view))
    raise AssertionError(f"no choice late in the deal of match seed {match_seed}")


def test_solver_inference_weights_layouts_by_the_others_last_cards_solved():
    # Late positions, so that the reference minimax is quick and every check exact: each
    # layout's factor is OFF_SOLVER_PLAY for each of the others' last three cards (played
    # by medium players, often not double-dummy best) found worse in it; trump games and
    # no-tricks (where worse is more tricks).
    views = [run_deal_to(s, seat, 12).view(seat) for s, seat in [(14, 2), (34, 1), (8, 0)]]
    views += [no_tricks_view(s) for s in (0, 1, 2)]
    lowered = 0
    for view in views:
        player = ExpertPlayer(2, effort=LIGHT, tt_mb=4, threads=1, solver_inference=3)
        weigh = player._play_evidence(view)
        assert weigh is not None
        for world in player._worlds(view, 6):
            budget = SolveBudget(player._solvers[0], 1, 0.0)  # the checks have their own
            worse = [
                found_worse(view, p[5], *p[1:3], p[4]) for p in others_last_plays(view, world, 3)
            ]
            expected = OFF_SOLVER_PLAY ** sum(w for w in worse if w is not None)
            assert weigh(budget, world) == pytest.approx(expected), (view, world)
            assert budget.left == 1
            lowered += expected < 1
    assert lowered
    assert ExpertPlayer(2, effort=LIGHT, tt_mb=4)._play_evidence(view) is None  # off
    assert make_player("expert:solver_inference=5").solver_inference == 5


def test_solver_inference_can_judge_each_card_from_its_players_view():
    # With inference_layouts=K, a card counts by the share of K layouts its player could
    # have dealt (its hand then kept) in which the reference finds it worse.
    views = [run_deal_to(34, 1, 12).view(1), no_tricks_view(1)]
    shares = set()
    for view in views:
        player = ExpertPlayer(
            2, effort=LIGHT, tt_mb=4, threads=1, solver_inference=2, inference_layouts=3
        )
        weigh = player._play_evidence(view)
        for world in player._worlds(view, 4):
            expected = 1.0
            for k, leader, before, seat, card, hands in others_last_plays(view, world, 2):
                held = CardSet(hands[seat])
                options = legal_cards(held, before, view.game, view.rules.void)
                if len(options) < 2:
                    continue
                play = _Play(k, leader, tuple(before), seat, card)
                layouts = player._seat_layouts(view, world, play, held, options)
                assert len(layouts) == 3 and all(seen[seat] == hands[seat] for seen in layouts)
                # The others' hands then are dealt again: not always the layout's.
                verdicts = [found_worse(view, seen, leader, before, card) for seen in layouts]
                share = sum(verdicts) / 3
                shares.add(share)
                expected *= OFF_SOLVER_PLAY**share
            budget = SolveBudget(player._solvers[0], 1, 0.0)
            assert weigh(budget, world) == pytest.approx(expected), (view, world)
    assert len(shares) > 1  # the verdicts differ between the player's layouts somewhere
    assert make_player("expert:solver_inference=2:inference_layouts=4").inference_layouts == 4


@pytest.mark.slow
@pytest.mark.parametrize("void", list(VoidRule), ids=str)
def test_no_illegal_decision_in_many_seeded_matches(void):
    # Tiny budgets: legality does not depend on them, and the bounded paths run all the more.
    tiny = dataclasses.replace(LIGHT, node_budget=60_000)
    for seed in range(30):
        match = Match(Rules(void=void, length=3), seed=1000 + seed)
        players = [
            ExpertPlayer(seed, effort=tiny, tt_mb=4, threads=1),
            HeuristicPlayer(),
            ExpertPlayer(seed + 1, effort=tiny, tt_mb=4, threads=2, solver_inference=4),
        ]
        players = players[seed % 3 :] + players[: seed % 3]
        while (pending := match.pending()) is not None:
            match.apply_answer(players[pending.seat].decide(pending.view))
        assert sum(match.totals) == 0


def play_on_reference(view, hands, lead, trick, stop):
    """The deal played on from ``trick`` (cards, of role ``lead``), written out plainly over
    the reference minimax: each seat plays its best card by its own value (the lowest rank,
    then suit, of equal ones) until this seat is to play (``stop``) or the deal ends. This
    seat's tricks won from ``trick`` on, the cards played, and its (card id, value) pairs
    where it stopped (None at the end)."""
    game = view.game
    me = int(view.role)
    own = -1 if game is Contract.NO_TRICKS else 1  # each seat's sense of better
    hands, trick, won, seen = list(hands), list(trick), 0, []
    while True:
        if len(trick) == 3:
            lead = (lead + trick_winner(trick, game)) % 3
            won += lead == me
            trick = []
            if not hands[lead]:
                return won, seen, None
        mover = (lead + len(trick)) % 3
        moves = reference_move_values(
            hands, lead, [c.id for c in trick], int(game), int(view.rules.void)
        )
        if stop and mover == me:
            return won, seen, moves
        best = max(own * v for _, v in moves)
        pick = min(
            (Card.from_id(c) for c, v in moves if own * v == best),
            key=lambda c: (c.rank, c.suit),
        )
        hands[mover] &= ~pick.mask
        trick.append(pick)
        seen.append(pick.id)


def after_card(view, world, card):
    """The layout's hands by role with ``card`` played, the trick with it, and its leader."""
    hands = list(role_hands(view, world))
    hands[int(view.role)] &= ~card.mask
    lead = int(view.role_of(view.leader if view.leader is not None else view.seat))
    return hands, lead, [*view.trick, card]


def delayed_values(view, worlds, weights, pooled=True):
    """Each card's value with the perfect information delayed past the seat's next turn,
    written out plainly over the reference minimax: in each layout the others play their
    best cards (:func:`play_on_reference`) until the seat's turn; layouts that showed the
    same cards share one choice of its next card (with ``pooled=False`` each layout
    chooses its own, as if it knew the hidden cards)."""
    game, role = view.game, view.role
    values = {}
    for card in view.options:
        pools = {}
        for i, (world, weight) in enumerate(zip(worlds, weights)):
            won, seen, moves = play_on_reference(view, *after_card(view, world, card), True)
            pool = pools.setdefault((tuple(seen), 0 if pooled else i), {})
            for c, v in moves:
                score = role.score(game, view.taken[view.seat] + won + v)
                pool[c] = pool.get(c, 0.0) + weight * score
        values[card] = sum(max(pool.values()) for pool in pools.values()) / sum(weights)
    return values


def selfish_values(view, worlds, weights):
    """Each card's value when every seat plays on its own best card to the end of the deal
    in each layout (:func:`play_on_reference`), the paranoid value breaking ties."""
    game, role = view.game, view.role
    taken = view.taken[view.seat]
    hands = [role_hands(view, world) for world in worlds]
    lead = int(view.role_of(view.leader if view.leader is not None else view.seat))
    trick = [c.id for c in view.trick]
    paranoid = [
        dict(reference_move_values(h, lead, trick, int(game), int(view.rules.void))) for h in hands
    ]
    values = {}
    for card in view.options:
        total = 0.0
        for world, weight, own in zip(worlds, weights, paranoid):
            won, _, _ = play_on_reference(view, *after_card(view, world, card), False)
            total += weight * (
                role.score(game, taken + won) + SELFISH_TIE * role.score(game, taken + own[card.id])
            )
        values[card] = total / sum(weights)
    return values


def against_the_reference(positions, layouts, values, **settings):
    """For each (match seed, seat) of ``positions`` with a choice of card (four cards in
    hand, so that the reference minimax is quick): the expert's estimate with ``settings``
    on ``layouts`` layouts, every one solved exactly, checked equal to ``values(view,
    worlds, weights)`` written out over the reference; yields (view, worlds, weights, those
    values)."""
    effort = dataclasses.replace(LIGHT, play_late=layouts)
    for match_seed, seat in positions:
        view = run_deal_to(match_seed, seat, 12).view(seat)
        if len(view.options) < 2:
            continue
        player = ExpertPlayer(2, effort=effort, tt_mb=4, threads=1, **settings)
        estimate = player.estimate_play(view)
        assert estimate.bounded == 0 and estimate.solved == layouts
        worlds = player._worlds(view, layouts)
        weights = player._layout_weights(view, worlds)
        expected = values(view, worlds, weights)
        assert estimate.scores.keys() == expected.keys()
        for card, value in expected.items():
            assert estimate.scores[card] == pytest.approx(value), (match_seed, card)
        yield view, worlds, weights, expected


def test_the_delayed_solve_agrees_with_a_plain_reference():
    # In some of the positions pooling the layouts must change a value (a sum of maxima is
    # at least the maximum of the sums, and there more), else agreement would not show that
    # the layouts were pooled.
    pooling_mattered = 0
    positions = [(14, 2), (34, 1), (31, 1), (8, 0), (23, 0)]
    for view, worlds, weights, expected in against_the_reference(
        positions, 12, delayed_values, fusion=4
    ):
        alone = delayed_values(view, worlds, weights, pooled=False)
        assert all(expected[c] <= alone[c] + 1e-9 for c in expected)
        pooling_mattered += any(expected[c] < alone[c] - 1e-9 for c in expected)
    assert pooling_mattered


def test_the_selfish_play_out_agrees_with_a_plain_reference():
    # Somewhere the play-out must rank the cards otherwise than the paranoid values do,
    # else agreement would not show that it played out.
    reordered = 0
    effort = dataclasses.replace(LIGHT, play_late=8)
    paranoid = ExpertPlayer(2, effort=effort, tt_mb=4, threads=1, selfish=0)
    positions = [(14, 2), (16, 2), (8, 0), (27, 2), (50, 1)]
    for view, _, _, expected in against_the_reference(positions, 8, selfish_values, selfish=4):
        plain = paranoid.estimate_play(view).scores
        reordered += max(expected, key=expected.get) != max(plain, key=plain.get)
    assert reordered
    assert make_player("expert:selfish=6").selfish == 6


def test_return_scores_are_the_deals_after_the_return_solved():
    # Written out plainly: on each layout this seat (the chooser, who received a trump)
    # sends the card back to the giver, takes the talon and discards by rule of thumb, and
    # the whole deal is solved for it. With a budget that solves everything, exactly that.
    deal = exchange_deal(0)
    trump = next(c for c in deal.view(0).options if c.suit.value == deal.game.value)
    deal.give(trump)
    view = deal.pending().view
    assert view.give_to == 0 and view.received == trump and trump in view.hand
    effort = dataclasses.replace(EXPERT_EFFORT, give=2, node_budget=10**9)
    player = ExpertPlayer(2, effort=effort, threads=1)
    advice = player.advise(view)
    assert advice.basis is Basis.SOLVED and advice.exact and advice.solved == 2
    # Every suit held is offered, by its lowest card, and the rule of thumb's card.
    returns = [answer for answer, _ in advice.options]
    assert HeuristicPlayer().decide(view) in returns
    assert {c.suit for c in returns} == {c.suit for c in view.hand}
    solver = _core358.Solver(16)
    expected = {}
    for answer in returns:
        total = 0
        for world in player._worlds(view, 2):
            assert len(world.hands[0]) == 15 and len(world.hands[1]) == 17
            hands = list(world.hands)
            hands[0] = hands[0].with_card(answer)
            hands[1] = hands[1].without_card(answer)
            total += score_after_the_talon(view, hands, world.pile, solver)
        expected[answer] = total / 2
    assert dict(advice.options) == expected
    assert len(set(expected.values())) > 1  # the cards do differ


def test_the_solver_can_be_switched_off_for_the_choice_and_the_discard():
    # Off, the decision compares rule-of-thumb play-outs on the same layouts (as the hard
    # player does when it solves none); the other kinds keep the solver.
    choose = recorded_view(2, DecisionKind.CHOOSE)
    discard = recorded_view(2, DecisionKind.DISCARD)
    settings = ":".join(f"{name}={getattr(LIGHT, name)}" for name in ("choose", "discard"))
    for switch, off_view, on_view in [
        ("solver_choice", choose, discard),
        ("solver_discard", discard, choose),
    ]:
        player = make_player(f"expert:{switch}=0:threads=1:nodes=400000:{settings}", 4)
        off = player.advise(off_view)
        assert off.basis is Basis.ROLLOUTS and off.solved + off.bounded == 0, switch
        assert len(off.options) > 1 and all(score is not None for _, score in off.options)
        assert player.advise(on_view).basis is Basis.SOLVED, switch
        assert (
            make_player(f"expert:threads=1:nodes=400000:{settings}", 4).advise(off_view).basis
            is Basis.SOLVED
        )


def test_the_solver_can_be_switched_off_for_the_exchange():
    # Off, the gives and the returns are the rule of thumb's, as the hard player's; on, the
    # solver's, which differ from it on these views (so the switch is seen to act).
    returning = exchange_deal(0)
    trump = next(c for c in returning.view(0).options if c.suit.value == returning.game.value)
    returning.give(trump)
    views = [exchange_deal(2).view(0), exchange_deal(5).view(0), returning.pending().view]
    settings = "threads=1:nodes=400000:give=2"
    rule_of_thumb = [HeuristicPlayer().decide(view) for view in views]
    off = [make_player(f"expert:solver_exchange=0:{settings}", 4).decide(v) for v in views]
    assert off == rule_of_thumb
    solved = [make_player(f"expert:{settings}", 4).decide(view) for view in views]
    assert solved == [make_player(f"expert:{settings}", 4).advise(v).best for v in views]
    assert solved != rule_of_thumb


def test_by_default_the_layouts_of_a_card_are_solved_in_turn_as_hard_does():
    # The first card of a deal, which the light budget cannot solve on one layout: by
    # default the first layout spends the budget, as hard's; with shares every layout
    # counts by what it proved.
    for seed in (0, 2):
        view = recorded_view(seed, DecisionKind.PLAY)
        hard = SamplingPlayer(2, effort=LIGHT, tt_mb=4, threads=1).estimate_play(view)
        in_turn = ExpertPlayer(2, effort=LIGHT, tt_mb=4, threads=1, inference=False)
        shared = ExpertPlayer(
            2, effort=LIGHT, tt_mb=4, threads=1, inference=False, play_shares=True
        )
        assert in_turn.estimate_play(view) == hard
        assert hard.solved + hard.bounded < LIGHT.play_early
        every = shared.estimate_play(view)
        assert every.solved + every.bounded == LIGHT.play_early
    assert make_player("expert:play_shares=1")._spread_play is True
    assert make_player("expert")._spread_play is False
