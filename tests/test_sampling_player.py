"""The sampling ("hard") player: legal, reproducible, blind to hidden cards, and its card
scores are the average of exact solves over layouts that fit its view."""

import random

import pytest

from reference_solver import reference_move_values
from ts358 import CardSet, Role, Rules, VoidRule
from ts358.deal import Deal, DealSetup
from ts358.match import Match
from ts358.players import (
    Effort,
    HeuristicPlayer,
    PlayEstimate,
    RandomPlayer,
    SamplingPlayer,
    make_player,
)
from ts358.players.layouts import role_hands, sample_worlds
from ts358.view import DecisionKind

# Few layouts keep the tests quick; the logic is the same at any effort.
LIGHT = Effort(play_early=2, play_late=3, late_from=8, choose=1, discard=1, discard_candidates=2)


def light(seed):
    return SamplingPlayer(seed, effort=LIGHT, tt_mb=4)


@pytest.mark.parametrize(
    "rules",
    [Rules(length=3), Rules(void=VoidRule.KURNIK, exchange_trumps=False, length=3)],
    ids=str,
)
def test_every_decision_is_legal_over_a_match(rules):
    kinds = play_a_match(rules, [light(1), HeuristicPlayer(), RandomPlayer(2)])
    assert DecisionKind.PLAY in kinds


def play_a_match(rules, players):
    """Play match seed 21 to its end, seat by seat (IllegalDecision on an illegal answer);
    the kinds of decision seat 0 was asked."""
    match = Match(rules, seed=21)
    kinds = set()
    while (pending := match.pending()) is not None:
        decision = players[pending.seat].decide(pending.view)
        if pending.seat == 0:
            kinds.add(pending.kind)
        match.apply_answer(decision)
    assert sum(match.totals) == 0
    return kinds


def test_make_player_hard_is_the_sampling_player():
    assert isinstance(make_player("hard", 3), SamplingPlayer)
    with pytest.raises(ValueError):
        make_player("master")


def run_deal_to(match_seed, seat, tricks_done):
    """A deal 1 (no exchange) played by medium players until ``seat`` must play with
    ``tricks_done`` tricks finished; returns the deal."""
    match = Match(Rules(length=3), seed=match_seed)
    players = [HeuristicPlayer()] * 3
    while True:
        pending = match.pending()
        if (
            pending.kind is DecisionKind.PLAY
            and pending.seat == seat
            and len(pending.view.tricks) >= tricks_done
        ):
            return match.deal
        match.apply_answer(players[pending.seat].decide(pending.view))


def twin(deal, seat, rng):
    """The same deal, history and view for ``seat``, but the other seats' unseen cards
    re-dealt consistently with that view (voids shown, talon, discard)."""
    view = deal.view(seat)
    world = next(sample_worlds(view, 1, rng))
    played = {s: [] for s in range(3)}
    for trick in view.tricks:
        for index, card in enumerate(trick.cards):
            played[trick.seat_of(index)].append(card)
    for index, card in enumerate(view.trick):
        played[(view.leader + index) % 3].append(card)
    chooser = view.chooser
    talon = CardSet(deal.setup.talon)
    discard = deal.discarded if seat == chooser else world.pile
    hands = []
    for s in range(3):
        if s == seat:
            hands.append(deal.setup.hands[s])
            continue
        cards = world.hands[s] | CardSet(played[s])
        if s == chooser:
            cards = (cards | discard) - talon
        hands.append(tuple(cards))
    other = Deal(DealSetup(1, deal.dealer, tuple(hands), deal.setup.talon), deal.rules)
    for decision in deal.decisions:
        if len(decision.split()) == 4:  # the discard: the sampled one when the seat can't see it
            decision = " ".join(map(str, discard))
        other.apply(decision)
    return other


@pytest.mark.parametrize("seat, tricks_done", [(0, 0), (1, 3), (2, 6), (0, 10)])
def test_decision_ignores_the_real_hidden_cards(seat, tricks_done):
    deal = run_deal_to(31, seat, tricks_done)
    view = deal.view(seat)
    player = light(5)
    decision = player.decide(view)
    rng = random.Random(seat)
    changed = 0
    for _ in range(3):
        other = twin(deal, seat, rng)
        assert other.view(seat) == view  # the seat cannot tell the two deals apart
        others = [s for s in range(3) if s != seat]
        changed += any(other.hand(s) != deal.hand(s) for s in others)
        assert light(5).decide(other.view(seat)) == decision
    assert changed  # the hidden cards really were different


def test_same_seed_same_view_same_decision():
    deal = run_deal_to(8, 1, 2)
    view = deal.view(1)
    assert light(9).play_scores(view) == light(9).play_scores(view)


@pytest.mark.parametrize("seed", range(6))
def test_play_scores_average_exact_values_over_the_sampled_layouts(seed):
    # Late in a deal the layouts are small enough for the pure-Python reference solver.
    seat = seed % 3
    deal = run_deal_to(100 + seed, seat, 13)
    view = deal.view(seat)
    player = light(seed)
    scores = player.play_scores(view)
    assert set(scores) == set(view.options)
    worlds = player._worlds(view, LIGHT.play_late)
    expected = dict.fromkeys(view.options, 0.0)
    role = view.role
    for world in worlds:
        hands = role_hands(view, world)
        values = reference_move_values(
            hands,
            int(view.role_of(view.leader)),
            [c.id for c in view.trick],
            int(view.game),
            int(view.rules.void),
        )
        for card_id, tricks in values:
            card = next(c for c in view.options if c.id == card_id)
            expected[card] += role.score(view.game, view.taken[seat] + tricks) / len(worlds)
    assert scores == pytest.approx(expected)
    assert isinstance(role, Role)


def test_out_of_budget_the_bounds_decide_and_with_nothing_proven_the_rule_of_thumb():
    deal = run_deal_to(11, 0, 0)
    view = deal.view(0)
    broke = SamplingPlayer(5, effort=Effort(node_budget=1), tt_mb=1)
    estimate = broke.estimate_play(view)
    # One node: the layout is cut short at once, and counts by what its search proved.
    assert estimate.solved == 0 and estimate.bounded == 1 and not estimate.exact
    assert set(estimate.scores) == set(view.options)
    best = max(estimate.scores.values())
    assert estimate.scores[broke.decide(view)] == best
    # No time at all: nothing is proven, the estimate is empty and the rule of thumb plays.
    assert broke.estimate_play(view, time_limit=1e-9).scores == {}
    broke.estimate_play = lambda view, time_limit=None: PlayEstimate({}, 0, 0)
    assert broke.decide(view) == HeuristicPlayer().decide(view)


def test_bounded_layouts_count_by_the_middle_of_their_intervals():
    deal = run_deal_to(11, 0, 0)
    view = deal.view(0)
    full = SamplingPlayer(5, effort=Effort(play_early=2, play_late=2), tt_mb=4)
    exact = full.estimate_play(view)
    assert exact.exact and exact.solved == 2
    cut = SamplingPlayer(5, effort=Effort(play_early=2, play_late=2, node_budget=2000), tt_mb=4)
    estimate = cut.estimate_play(view)
    assert estimate.bounded >= 1 and estimate.solved + estimate.bounded <= 2
    assert set(estimate.scores) == set(exact.scores)


def test_out_of_budget_game_choice_and_discard_come_from_rollouts():
    match = Match(Rules(length=3), seed=4)
    broke = SamplingPlayer(5, effort=Effort(node_budget=1, choose=2, discard=2), tt_mb=1)
    view = match.pending().view
    assert view.kind is DecisionKind.CHOOSE
    game = broke.decide(view)
    assert game in view.available[view.seat]
    assert (
        SamplingPlayer(5, effort=Effort(node_budget=1, choose=2, discard=2), tt_mb=1).decide(view)
        == game
    )
    match.apply_answer(game)
    while (pending := match.pending()).kind is not DecisionKind.DISCARD:
        match.apply_answer(HeuristicPlayer().decide(pending.view))
    discard = broke.decide(pending.view)
    assert discard in broke._discard_candidates(pending.view)
    match.apply_answer(discard)
