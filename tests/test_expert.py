"""The expert player: legal and reproducible, blind to the hidden cards, the solver behind every
decision kind, and whole deals it cannot solve in budget valued inside the bounds it proved."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from test_advice import exchange_deal, hidden_card_cases, recorded_view, score_after_the_talon
from test_sampling_player import play_a_match, run_deal_to
from ts358 import Basis, Contract, Match, Role, Rules, VoidRule, _core358
from ts358.players import HeuristicPlayer, RandomPlayer, SamplingPlayer, make_player
from ts358.players.expert import EXPERT_EFFORT, ExpertPlayer, bounded_estimate
from ts358.players.layouts import World, sample_worlds
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


def light(seed, threads=1):
    return ExpertPlayer(seed, effort=LIGHT, tt_mb=4, threads=threads)


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
    kinds = play_a_match(rules, [light(1), HeuristicPlayer(), RandomPlayer(2)])
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
        for other in twins:
            assert other.view(seat) == view  # the seat cannot tell the two deals apart
            assert any(other.hand(s) != deal.hand(s) for s in range(3) if s != seat)
            assert light(5, threads=2).decide(other.view(seat)) == decision
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
            ExpertPlayer(seed + 1, effort=tiny, tt_mb=4, threads=2),
        ]
        players = players[seed % 3 :] + players[: seed % 3]
        while (pending := match.pending()) is not None:
            match.apply_answer(players[pending.seat].decide(pending.view))
        assert sum(match.totals) == 0


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


def test_the_layouts_of_a_card_are_solved_in_turn_as_hard_does():
    # The first card of a deal, which the light budget cannot solve on one layout: the
    # first layout spends the budget, as hard's, and the rest are not reached (given shares
    # of the budget, as the expert's other decisions are, every layout would count).
    for seed in (0, 2):
        view = recorded_view(seed, DecisionKind.PLAY)
        hard = SamplingPlayer(2, effort=LIGHT, tt_mb=4, threads=1).estimate_play(view)
        in_turn = ExpertPlayer(2, effort=LIGHT, tt_mb=4, threads=1, inference=False)
        assert in_turn.estimate_play(view) == hard
        assert hard.solved + hard.bounded < LIGHT.play_early
