"""The OpenSpiel game python_ts358 (ts358.rl.openspiel): OpenSpiel's own checks, the deal's
chance nodes, what each player's tensors hold and hide, returns and clones."""

import random

import numpy as np
import pytest

from ts358.cards import DECK, CardSet
from ts358.deal import DealSetup
from ts358.rl.actions import action_of
from ts358.rl.observation import decode
from ts358.rules import Role
from ts358.view import DecisionKind

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.observation import INFO_STATE_OBS_TYPE, make_observation  # noqa: E402

from ts358.rl.openspiel import GAME_NAME, deal_setup, load  # noqa: E402

ALL_CARDS = set(range(52))


def step(state, rng):
    if state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def play(state, rng, until=lambda state: False):
    while not state.is_terminal() and not until(state):
        step(state, rng)
    return state


def dealt(state, order):
    for action in order:
        state.apply_action(action)
    return state


def shuffled_order(seed):
    order = list(range(52))
    random.Random(seed).shuffle(order)
    return order


@pytest.mark.parametrize(
    "params",
    [
        {"rules": "house"},
        {"rules": "kurnik", "dealer": 2},
        {"rules": "sergeant-major"},
        {"rules": "house", "previous_scores": "4;-1;-3", "dealer": 1},
        {"rules": "sergeant-major;length:9", "previous_scores": "-6;3;3"},
    ],
    ids=["house", "kurnik", "sergeant-major", "house-exchange", "sergeant-major-exchange"],
)
def test_openspiel_random_simulation(params):
    game = pyspiel.load_game(GAME_NAME, params)
    pyspiel.random_sim_test(game, num_sims=4, serialize=False, verbose=False)


def test_game_type_and_parameters():
    game = pyspiel.load_game("python_ts358(rules=sergeant-major;length:9,dealer=2)")
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_players() == 3 and game.num_distinct_actions() == 59
    assert game.max_chance_outcomes() == 52
    assert game.setting.rules.length == 9 and game.setting.dealer == 2
    # Sergeant Major has no no-tricks: no score below -8 (the chooser's target).
    assert (game.min_utility(), game.max_utility()) == (-8.0, 13.0)
    assert game.observation_tensor_size() == 691
    assert game.information_state_tensor_size() == 691 + 16 * 3 + 16 * 3 * 52 + 16 * 110 + 4 * 52
    for bad in (
        {"dealer": 3},
        {"rules": "nothing"},
        {"previous_scores": "2;-1"},
        {"previous_scores": "3;-1;-1"},  # not a deal's scores: they add up to 1
        {"previous_scores": "2;-1;-1", "deal_number": 1},
    ):
        with pytest.raises(Exception, match=r"dealer|rules|previous"):
            pyspiel.load_game(GAME_NAME, bad)


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_chance_nodes_deal_as_dealsetup_shuffled(dealer):
    deck = list(DECK)
    random.Random(dealer).shuffle(deck)
    order = [action_of(card) for card in deck]
    expected = DealSetup.shuffled(1, dealer, random.Random(dealer))
    assert deal_setup(1, dealer, order) == expected
    state = load(dealer=dealer).new_initial_state()
    for n, action in enumerate(order):
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 52 - n and {a for a, _ in outcomes} == ALL_CARDS - set(order[:n])
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        state.apply_action(action)
    assert state.stepper.deal.setup == expected
    chooser = Role.CHOOSER.seat(dealer)
    assert state.current_player() == chooser
    # The chooser chooses from the first six cards dealt to them.
    seen = decode(state.observation_tensor(chooser))["hand"]
    assert seen == str(state.stepper.view(chooser).hand)
    assert sorted(state.stepper.view(chooser).hand) == sorted(deck[0:18:3])


def test_sergeant_major_exchanges_before_the_choice_of_all_16_cards():
    rng = random.Random(3)
    game = load("sergeant-major", previous_scores=(5, -2, -3))
    state = play(game.new_initial_state(), rng, lambda s: not s.is_chance_node())
    assert state.stepper.kind is DecisionKind.GIVE and state.current_player() == 0
    gave = 0
    while state.stepper.kind is not DecisionKind.CHOOSE:
        gave += state.stepper.kind is DecisionKind.GIVE
        step(state, rng)
    assert gave >= 1
    chooser = state.current_player()
    observed = decode(state.observation_tensor(chooser))
    assert observed["decision"] == "choose"
    assert len(state.stepper.view(chooser).hand) == 16
    assert observed["hand"] == observed["seen_at_choice"] == str(state.stepper.view(chooser).hand)
    # Without the exchange the chooser still sees 16 cards; under the house rules, 6.
    for rules, seen in (("sergeant-major", 16), ("house", 6)):
        state = play(load(rules).new_initial_state(), rng, lambda s: not s.is_chance_node())
        assert state.stepper.kind is DecisionKind.CHOOSE
        hand = decode(state.observation_tensor(state.current_player()))["hand"]
        assert len(CardSet.parse(hand)) == seen


def _swap(order, i, j):
    out = list(order)
    out[i], out[j] = out[j], out[i]
    return out


def _places(place):
    """The deal positions of ``place``: a role's cards (the chooser's after its first six)
    or the talon."""
    if place == "talon":
        return list(range(48, 52))
    role = Role[place.upper()]
    return [i for i in range(role, 48, 3) if role is not Role.CHOOSER or i >= 18]


@pytest.mark.parametrize(
    "rules, player, places",
    [
        ("house", Role.CHOOSER, ("third", "dealer")),
        ("house;talon:unseen", Role.THIRD, ("talon", "chooser")),
        ("kurnik", Role.DEALER, ("chooser", "third")),
    ],
)
def test_cards_a_player_cannot_see_change_nothing_it_observes(rules, player, places):
    dealer = 0
    game = pyspiel.load_game(GAME_NAME, {"rules": rules, "dealer": dealer})
    rng = random.Random(11)
    order = shuffled_order(5)
    i = _places(places[0])[1]
    j = _places(places[1])[2]
    a = dealt(game.new_initial_state(), order)
    b = dealt(game.new_initial_state(), _swap(order, i, j))
    me = player.seat(dealer)
    holder = places[1] if places[0] == "talon" else places[0]
    other = Role[holder.upper()].seat(dealer)
    compared = differed = 0
    while not a.is_terminal():
        assert a.information_state_tensor(me) == b.information_state_tensor(me)
        assert a.observation_tensor(me) == b.observation_tensor(me)
        assert a.information_state_string(me) == b.information_state_string(me)
        assert a.observation_string(me) == b.observation_string(me)
        compared += 1
        # The seat holding a swapped card sees it (the chooser once it has all its
        # cards): the same comparison would catch a leak to the player.
        if a.information_state_tensor(other) != b.information_state_tensor(other):
            assert a.observation_string(other) != b.observation_string(other)
            differed += 1
        # A swapped card held by two seats is never legal in both deals; the chooser's
        # card and the talon's, both in the chooser's hand once taken, may be.
        common = sorted(set(a.legal_actions()) & set(b.legal_actions()))
        if not common:
            break
        action = rng.choice(common)
        a.apply_action(action)
        b.apply_action(action)
    assert compared > 20, compared  # into the tricks, past the choice and the discards
    assert differed >= compared - 1


def test_nothing_is_seen_while_the_cards_are_dealt():
    game = load()
    a = dealt(game.new_initial_state(), shuffled_order(1)[:30])
    b = dealt(game.new_initial_state(), shuffled_order(2)[:30])
    start = game.new_initial_state()
    for p in range(3):
        assert a.information_state_tensor(p) == b.information_state_tensor(p)
        assert a.information_state_tensor(p) == start.information_state_tensor(p)
        assert a.observation_string(p) == b.observation_string(p)
        assert "hand" not in a.observation_string(p)
        observed = decode(a.observation_tensor(p))
        assert observed["role"] == Role.of_seat(p, 0).label and observed["hand"] == "-.-.-.-"


def test_information_state_keeps_the_tricks_exchanges_and_discard_order():
    rng = random.Random(8)
    game = load("house", previous_scores=(4, -1, -3))
    info = make_observation(game, INFO_STATE_OBS_TYPE)
    checked = set()
    for _ in range(6):
        state = play(game.new_initial_state(), rng, lambda s: s.move_number() > 52 + 25)
        deal = state.stepper.deal
        for p in range(3):
            info.set_from(state, p)
            pieces = info.dict
            assert list(pieces["observation"]) == list(state.stepper.observe(p))
            assert list(pieces["observation"]) == state.observation_tensor(p)
            tricks = deal.tricks
            for t, trick in enumerate(tricks):
                assert pieces["trick_leader"][t].argmax() == (trick.leader - p) % 3
                for k, card in enumerate(trick.cards):
                    row = pieces["trick_cards"][t, (trick.leader + k - p) % 3]
                    assert row.sum() == 1 and row[action_of(card)] == 1
            assert pieces["trick_cards"][len(tricks) + 1 :].sum() == 0
            mine = [s for s in deal.exchanges if p in (s.giver, s.receiver)]
            assert pieces["exchange_given"].sum() == len(mine)
            for k, s in enumerate(mine):
                assert pieces["exchange_given"][k, action_of(s.given)] == 1
                assert pieces["exchange_returned"][k, action_of(s.returned)] == 1
                assert pieces["exchange_giver"][k].argmax() == (s.giver - p) % 3
            others = len(deal.exchanges) - len(mine)
            checked.add(("others exchanged", others > 0))
            order = pieces["discard_order"].argmax(axis=1)
            if p == deal.chooser and deal.discarded is not None:
                discards = [action_of(c) for c in deal.discarded]
                assert sorted(order) == sorted(discards)
                assert list(order) == _discard_actions(state)
                checked.add("discards")
            elif p != deal.chooser:
                assert pieces["discard_order"].sum() == 0
            assert np.array_equal(info.tensor, state.information_state_tensor(p))
    assert {"discards", ("others exchanged", True)} <= checked


def _discard_actions(state):
    history = state.history()[52:]
    kinds = []
    replay = state.get_game().new_initial_state()
    for action in state.history()[:52]:
        replay.apply_action(action)
    for action in history:
        kinds.append(replay.stepper.kind)
        replay.apply_action(action)
    return [a for a, kind in zip(history, kinds) if kind is DecisionKind.DISCARD]


@pytest.mark.parametrize("rules", ["house", "kurnik", "sergeant-major"])
def test_returns_are_the_deal_scores_and_sum_to_zero(rules):
    rng = random.Random(rules)
    game = load(rules, previous_scores=(2, -1, -1))
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            assert state.returns() == [0.0, 0.0, 0.0]
            step(state, rng)
        scores = state.stepper.deal.result().scores
        assert state.returns() == [float(s) for s in scores]
        assert sum(state.returns()) == 0
        assert game.min_utility() <= min(scores) <= max(scores) <= game.max_utility()
        assert len(state.history()) - 52 <= game.max_game_length()


def test_a_clone_is_independent():
    rng = random.Random(4)
    game = load()
    dealing = dealt(game.new_initial_state(), shuffled_order(3)[:20])
    clone = dealing.clone()
    dealt(clone, shuffled_order(3)[20:])
    assert dealing.is_chance_node() and len(dealing.chance_outcomes()) == 32
    assert not clone.is_chance_node() and dealing.stepper is None

    state = play(game.new_initial_state(), rng, lambda s: s.move_number() > 52 + 12)
    history, legal = state.history(), state.legal_actions()
    tensors = [state.information_state_tensor(p) for p in range(3)]
    text = str(state)
    clone = state.clone()
    assert clone.history() == history and clone.information_state_tensor(0) == tensors[0]
    play(clone, rng)
    assert clone.is_terminal() and not state.is_terminal()
    assert state.history() == history and state.legal_actions() == legal
    assert [state.information_state_tensor(p) for p in range(3)] == tensors
    assert str(state) == text and state.returns() == [0.0, 0.0, 0.0]
    assert clone.stepper.deal is not state.stepper.deal
