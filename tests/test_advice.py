"""Advice at every decision (``ts358.advise``, ``SamplingPlayer.advise``): the options
ranked by the seat's expected deal score, the hard player deciding by it exactly as it did
before the advice existed, honest about what its values rest on, and blind to the hidden
cards like the player."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest

from test_sampling_player import run_deal_to, twin
from ts358 import Advice, Basis, Contract, Effort, Match, Role, Rules, _core358, advise
from ts358.deal import Deal, DealSetup, format_decision
from ts358.exchange import automatic_return
from ts358.players import HeuristicPlayer, SamplingPlayer
from ts358.view import DecisionKind

DATA = Path(__file__).resolve().parent / "data" / "hard-decisions.json"

# Budgets that bind (as in test_sampling_threads): game choices come from rollouts, discards
# and gives from solves on part of their layouts or from rollouts, early plays are cut short.
CHOICE = Effort(choose=3, discard=2, discard_candidates=3, give=2, node_budget=1_500_000)
PLAY = Effort(play_early=4, play_late=5, late_from=8, node_budget=60_000)
BROKE = Effort(choose=2, discard=2, give=2, node_budget=1)


def recorded_view(seed, kind):
    """The first ``kind`` decision of deal 1 of a seeded match played by medium players (the
    views of tests/data/hard-decisions.json)."""
    match = Match(Rules(length=3), seed=seed)
    while (pending := match.pending()).kind is not kind:
        match.apply_answer(HeuristicPlayer().decide(pending.view))
    return pending.view


PREVIOUS = (2, -2, 0)


def exchange_deal(seed):
    """A second deal (dealer seat 0, so seat 1 chooses) with an exchange: seat 0 was plus and
    gives to seat 1. The game is a trump suit seat 0 holds, so that it can give a trump."""
    setup = DealSetup.shuffled(2, dealer=0, rng=random.Random(seed))
    deal = Deal(setup, Rules(), previous_scores=PREVIOUS)
    deal.choose(Contract(setup.hands[0][0].suit.value))
    assert deal.pending().kind is DecisionKind.GIVE and deal.pending().seat == 0
    assert deal.chooser == 1
    return deal


def redealt(setup, keep):
    """``setup`` with every card but ``keep`` dealt again at random among the other places,
    each place keeping its size and each card of ``keep`` its position."""
    places = [*setup.hands, setup.talon]
    hidden = [c for place in places for c in place if c not in keep]
    random.Random(len(keep)).shuffle(hidden)
    out = [tuple(c if c in keep else hidden.pop() for c in place) for place in places]
    return DealSetup(setup.number, setup.dealer, tuple(out[:3]), out[3])


def ranked(advice):
    """The answers of a valued advice, checking that they come best first."""
    scores = [score for _, score in advice.options]
    assert scores == sorted(scores, reverse=True)
    return [answer for answer, _ in advice.options]


def unvalued(advice):
    """The answers of an advice that values nothing."""
    assert all(score is None for _, score in advice.options)
    assert not advice.exact and advice.layouts == 0
    return [answer for answer, _ in advice.options]


# ---------------------------------------------------------------- the player is unchanged


def test_the_hard_player_decides_as_recorded_before_the_advice():
    # Recorded with the code before the advice (tests/data/README.md): whole matches of
    # three hard players on binding budgets (one and two threads, both rule sets), and game
    # choices and discards on seeded views.
    data = json.loads(DATA.read_text(encoding="utf-8"))
    effort = Effort(**data["match_effort"])
    for case in data["matches"]:
        rules = dataclasses.replace(Rules.named(case["rules"]), length=3)
        match = Match(rules, seed=case["seed"])
        players = [
            SamplingPlayer(10 + s, effort=effort, tt_mb=4, threads=case["threads"])
            for s in range(3)
        ]
        while (pending := match.pending()) is not None:
            match.apply_answer(players[pending.seat].decide(pending.view))
        assert list(match.snapshot().decisions) == case["decisions"], case["rules"]
    effort = Effort(**data["choice_effort"])
    for case in data["choices"]:
        kind = DecisionKind(case["kind"])
        view = recorded_view(case["seed"], kind)
        player = SamplingPlayer(case["seed"], effort=effort, tt_mb=4, threads=case["threads"])
        assert format_decision(kind, player.decide(view)) == case["decision"], case


# ---------------------------------------------------------------- each kind of decision


@pytest.mark.parametrize("seed", range(3))
def test_game_choice_ranks_every_game_left_and_is_the_players_choice(seed):
    view = recorded_view(seed, DecisionKind.CHOOSE)
    advice = advise(view, time_limit=None, seed=seed, effort=CHOICE)
    assert isinstance(advice, Advice) and advice.kind is DecisionKind.CHOOSE
    assert sorted(ranked(advice)) == sorted(view.available[view.seat])
    assert advice.best == SamplingPlayer(seed, effort=CHOICE).decide(view)
    # Six whole deals a layout, no-tricks among them, do not fit the budget: play-outs.
    assert advice.basis is Basis.ROLLOUTS and not advice.exact
    assert advice.layouts == advice.sampled == CHOICE.choose and advice.solved == 0


def test_discard_ranks_the_candidates_and_is_the_players_discard():
    bases = set()
    for seed in range(4):
        view = recorded_view(seed, DecisionKind.DISCARD)
        advice = advise(view, time_limit=None, seed=seed, effort=CHOICE)
        player = SamplingPlayer(seed, effort=CHOICE)
        assert set(ranked(advice)) == set(player._discard_candidates(view))
        assert all(len(d) == 4 and not d - view.options for d in ranked(advice))
        assert advice.best == player.decide(view)
        assert advice.sampled == CHOICE.discard
        if advice.basis is Basis.SOLVED:
            assert advice.exact and 0 < advice.solved == advice.layouts
        bases.add(advice.basis)
    assert bases == {Basis.SOLVED, Basis.ROLLOUTS}  # both ways were met


@pytest.mark.parametrize("match_seed, seat, tricks", [(31, 1, 3), (8, 2, 6), (40, 0, 10)])
def test_play_ranks_every_legal_card_and_is_the_players_card(match_seed, seat, tricks):
    view = run_deal_to(match_seed, seat, tricks).view(seat)
    advice = advise(view, time_limit=None, seed=3, effort=PLAY)
    assert sorted(ranked(advice)) == sorted(view.options)
    assert advice.best == SamplingPlayer(3, effort=PLAY).decide(view)
    estimate = SamplingPlayer(3, effort=PLAY).estimate_play(view)
    assert dict(advice.options) == estimate.scores and advice.basis is Basis.SOLVED
    assert (advice.solved, advice.bounded) == (estimate.solved, estimate.bounded)
    assert advice.exact == estimate.exact
    assert advice.layouts == estimate.solved + estimate.bounded <= advice.sampled


def test_give_values_each_suits_lowest_card_and_stopping():
    bases = set()
    for seed in range(4):
        view = exchange_deal(seed).view(0)
        advice = advise(view, time_limit=None, seed=seed, effort=CHOICE)
        lowest = {view.options.suit(c.suit).lowest() for c in view.options}
        assert set(ranked(advice)) == lowest | {None}
        # The player itself still gives by rule of thumb; its card is among those valued.
        give = SamplingPlayer(seed, effort=CHOICE).decide(view)
        assert give == HeuristicPlayer().decide(view) and give in ranked(advice)
        assert advice.sampled == CHOICE.give
        bases.add(advice.basis)
    assert bases == {Basis.SOLVED, Basis.ROLLOUTS}


def score_after_the_talon(view, hands, talon, solver):
    """``view``'s seat's score in the whole deal of ``hands`` (by seat) once the chooser has
    taken ``talon`` and discarded by rule of thumb, solved exactly."""
    hands = list(hands)
    chooser = view.chooser
    full = hands[chooser] | talon
    hands[chooser] = full - HeuristicPlayer().discard(view._replace(hand=full, options=full))
    masks = tuple(hands[view.seat_of(r)].mask for r in Role)
    tricks = solver.value(masks, 0, [], int(view.game), int(view.rules.void), int(view.role))
    return view.role.score(view.game, tricks)


def test_give_scores_are_the_deals_after_the_exchange_solved():
    # Written out plainly: on each layout, this seat gives the card and gets the automatic
    # return (for a trump, the rule of thumb's), the chooser takes the talon and discards
    # by rule of thumb, and the whole deal is solved for this seat.
    view = exchange_deal(2).view(0)
    effort = Effort(give=2, node_budget=10**9)
    player = SamplingPlayer(2, effort=effort)
    advice = player.advise(view)
    assert advice.exact and advice.solved == 2
    game = view.game
    rule = HeuristicPlayer()
    solver = _core358.Solver(16)
    expected = {}
    for answer, _ in advice.options:
        total = 0
        for world in player._worlds(view, 2):
            hands = list(world.hands)
            if answer is not None:
                received = hands[1].with_card(answer)
                back = automatic_return(hands[1], answer, game) or rule.choose_return(
                    view._replace(seat=1, hand=received, options=received, received=answer)
                )
                hands[0] = hands[0].without_card(answer).with_card(back)
                hands[1] = received.without_card(back)
            total += score_after_the_talon(view, hands, world.pile, solver)
        expected[answer] = total / 2
    assert dict(advice.options) == expected
    assert len(set(expected.values())) > 1  # the cards do differ


def test_return_of_a_trump_is_the_rule_of_thumbs_and_says_so():
    deal = exchange_deal(0)
    trump = next(c for c in deal.view(0).options if c.suit.value == deal.game.value)
    deal.give(trump)
    assert deal.pending().kind is DecisionKind.RETURN
    view = deal.pending().view
    advice = advise(view, time_limit=None)
    assert advice.basis is Basis.RULE_OF_THUMB and advice.kind is DecisionKind.RETURN
    assert advice.best == HeuristicPlayer().decide(view) == SamplingPlayer(0).decide(view)
    assert sorted(unvalued(advice)) == sorted(view.options)


def test_one_legal_card_is_forced():
    match = Match(Rules(length=3), seed=5)
    while (p := match.pending()).kind is not DecisionKind.PLAY or len(p.view.options) > 1:
        match.apply_answer(HeuristicPlayer().decide(p.view))
    advice = advise(p.view, time_limit=None)
    assert advice.basis is Basis.FORCED and unvalued(advice) == list(p.view.options)


# ---------------------------------------------------------------- out of budget


def test_out_of_budget_every_kind_says_its_values_are_estimates():
    play = run_deal_to(11, 0, 0).view(0)
    cut = advise(play, time_limit=None, effort=BROKE)
    assert cut.basis is Basis.SOLVED and cut.bounded == 1 and not cut.exact
    assert sorted(ranked(cut)) == sorted(play.options)
    # No time at all: nothing proven, the rule of thumb's card first, no scores.
    none = advise(play, time_limit=1e-9, effort=BROKE)
    assert none.basis is Basis.RULE_OF_THUMB and none.best == HeuristicPlayer().decide(play)
    assert sorted(unvalued(none)) == sorted(play.options) and none.sampled == 12
    # The same when the budget proves nothing: the hard player plays that card.
    play = run_deal_to(31, 0, 0).view(0)
    none = advise(play, time_limit=None, seed=3, effort=PLAY)
    assert none.basis is Basis.RULE_OF_THUMB
    assert none.best == SamplingPlayer(3, effort=PLAY).decide(play)
    views = [recorded_view(4, DecisionKind.CHOOSE), recorded_view(4, DecisionKind.DISCARD)]
    views.append(exchange_deal(4).view(0))
    for view in views:
        advice = advise(view, time_limit=None, effort=BROKE)
        assert advice.basis is Basis.ROLLOUTS and not advice.exact, view.kind
        assert advice.solved == 0 and advice.layouts == advice.sampled == 2
        ranked(advice)


def test_the_time_limit_stops_the_solves_of_a_discard_and_a_give():
    for view in (recorded_view(2, DecisionKind.DISCARD), exchange_deal(2).view(0)):
        assert advise(view, time_limit=None, seed=2, effort=CHOICE).basis is Basis.SOLVED
        assert advise(view, time_limit=1e-9, seed=2, effort=CHOICE).basis is Basis.ROLLOUTS


# ---------------------------------------------------------------- hidden information

TWIN = dataclasses.replace(CHOICE, play_early=4, play_late=5, late_from=8)


def hidden_card_cases():
    """(deal, seat, twins) for a decision of each kind: play at three points of a deal, the
    game choice, the discard, a give and a trump's return; each twin deal shows
    ``seat`` the same view with the cards it cannot see dealt otherwise."""
    rng = random.Random(3)
    cases = []
    for seat, tricks in [(0, 0), (1, 3), (2, 9)]:
        deal = run_deal_to(31, seat, tricks)
        cases.append((deal, seat, [twin(deal, seat, rng) for _ in range(2)]))
    # The game choice: the chooser sees six of its cards; the rest is dealt again.
    deal = Match(Rules(length=3), seed=6).deal
    chooser = deal.chooser
    first_six = set(deal.setup.hands[chooser][:6])
    cases.append((deal, chooser, [Deal(redealt(deal.setup, first_six), deal.rules)]))
    # The discard: the chooser sees its twenty.
    deal = Match(Rules(length=3), seed=6).deal
    while (pending := deal.pending()).kind is not DecisionKind.DISCARD:
        deal.apply_answer(HeuristicPlayer().decide(pending.view))
    cases.append((deal, chooser, [twin(deal, chooser, rng)]))
    # A give: the giver sees its sixteen.
    deal = exchange_deal(2)
    other = Deal(redealt(deal.setup, set(deal.setup.hands[0])), previous_scores=PREVIOUS)
    other.choose(deal.game)
    cases.append((deal, 0, [other]))
    # A trump's return: the receiver sees its sixteen and the trump received.
    deal = exchange_deal(0)
    trump = next(c for c in deal.view(0).options if c.suit.value == deal.game.value)
    deal.give(trump)
    receiver = deal.pending().seat
    keep = {*deal.setup.hands[receiver], trump}
    other = Deal(redealt(deal.setup, keep), previous_scores=PREVIOUS)
    other.choose(deal.game)
    other.give(trump)
    cases.append((deal, receiver, [other]))
    return cases


def test_advice_ignores_the_real_hidden_cards():
    cases = hidden_card_cases()
    kinds = set()
    for deal, seat, twins in cases:
        view = deal.view(seat)
        kinds.add(view.kind)
        advice = advise(view, time_limit=None, seed=5, effort=TWIN)
        for other in twins:
            assert other.view(seat) == view  # the seat cannot tell the two deals apart
            assert any(other.hand(s) != deal.hand(s) for s in range(3) if s != seat)
            assert advise(other.view(seat), time_limit=None, seed=5, effort=TWIN) == advice
    assert kinds == set(DecisionKind)
