"""ts358.rl: the environments pass PettingZoo's and Gymnasium's own checks for every rule
set, observations hold only what the seat may know, and ts358's players acting through the
environment reproduce their arena results."""

from __future__ import annotations

import random
import re
import warnings
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from ts358.batch.arena import make_board, play_board, seat_permutations
from ts358.cards import DECK, Card, CardSet
from ts358.deal import Deal, DealSetup
from ts358.match import Match
from ts358.players import make_player
from ts358.rl import (
    AGENTS,
    ILLEGAL_REWARD,
    LAYOUT,
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    STOP,
    IllegalAction,
    PlayerPolicy,
    PolicyPlayer,
    Stepper,
    action_of,
    card_of,
    deal_env,
    decode,
    describe_action,
    evaluate_policy,
    game_of,
    match_env,
    raw_deal_env,
    raw_match_env,
    single_agent_env,
)
from ts358.rl.actions import cards_mask
from ts358.rules import PRESETS, Contract, Rules
from ts358.seeds import derived_seed
from ts358.view import DecisionKind

RULE_SETS = sorted(PRESETS)
# Deals with an exchange need the previous deal's scores; sergeant-major exchanges before
# the choice in every deal after the first.
CONTEXTS = [
    {},
    {"previous_scores": (4, -1, -3)},
    {"previous_scores": (-2, 3, -1), "games_left": (["hearts", "no-tricks"], ["clubs"], ["nt"])},
    {"arena_context": True},
]


@pytest.fixture(autouse=True)
def _quiet():
    # PettingZoo's tests warn that a Dict observation is not a Box: that is its convention.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


# ------------------------------------------------------------------ actions


def test_every_card_and_game_has_one_action():
    cards = [card_of(a) for a in range(52)]
    assert CardSet(cards) == DECK
    assert [action_of(c) for c in cards] == list(range(52))
    assert [action_of(game_of(a)) for a in range(52, 58)] == list(range(52, 58))
    assert action_of(None) == STOP == NUM_ACTIONS - 1
    assert [describe_action(a) for a in (0, 12, 51, 52, 57, 58)] == [
        "2S", "AS", "AC", "spades", "no-tricks", "stop"
    ]  # fmt: skip
    for a in range(52):
        assert cards_mask(card_of(a).mask) == 1 << a
    with pytest.raises(ValueError, match="not a card"):
        card_of(52)
    with pytest.raises(ValueError, match="not a game"):
        game_of(51)


# ------------------------------------------------------------------ the standard checks


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("context", range(len(CONTEXTS)))
def test_deal_env_passes_pettingzoo_api_and_seed_tests(rules, context):
    options = CONTEXTS[context]
    if rules in ("sergeant-major", "9-5-2") and "games_left" in options:
        options = {**options, "games_left": (["hearts"], ["clubs"], ["spades"])}
    api_test(deal_env(rules, **options), num_cycles=100)
    seed_test(lambda: deal_env(rules, **options), num_cycles=100)


@pytest.mark.parametrize("rules", RULE_SETS)
def test_match_env_passes_pettingzoo_api_and_seed_tests(rules):
    api_test(match_env(f"{rules},length=3"), num_cycles=300)
    seed_test(lambda: match_env(f"{rules},length=3"), num_cycles=300)


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("match", [False, True])
def test_single_agent_env_passes_gymnasiums_check(rules, match):
    env = single_agent_env(("easy", "medium"), rules=f"{rules},length=3", match=match)
    check_env(env, skip_render_check=True)


# ------------------------------------------------------------------ playing through


def _random_run(env, seed):
    """A whole episode with random legal actions; each agent's summed rewards."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    totals = dict.fromkeys(AGENTS, 0.0)
    steps = 0
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        assert observation["observation"].shape == (OBSERVATION_SIZE,)
        if termination or truncation:
            action = None
        else:
            action = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
            steps += 1
        env.step(action)
    return totals, steps


@pytest.mark.parametrize("rules", RULE_SETS)
def test_a_match_pays_each_deal_and_the_rewards_add_up_to_the_totals(rules):
    env = raw_match_env(f"{rules},length=6")
    totals, steps = _random_run(env, seed=5)
    match = env.match
    assert match.done and steps >= 16 * 3 * len(match.results)
    assert [totals[a] for a in AGENTS] == list(match.totals)
    assert sum(totals.values()) == 0


def test_the_deal_env_is_reproducible_and_seeds_differ():
    a = _random_run(raw_deal_env(), seed=11)
    b = _random_run(raw_deal_env(), seed=11)
    assert a == b
    hands = set()
    for seed in range(5):
        env = raw_deal_env()
        env.reset(seed=seed)
        hands.add(env.stepper.deal.setup.hands)
    assert len(hands) == 5


def test_the_context_reaches_the_deal():
    env = raw_deal_env(
        "house",
        dealer=2,
        previous_scores=(3, -2, -1),
        games_left=(["spades"], ["hearts", "clubs"], ["no-trump"]),
        totals=(4, -1, -3),
    )
    env.reset(seed=1)
    deal = env.stepper.deal
    assert deal.dealer == 2 and deal.setup.number == 2 and deal.previous_scores == (3, -2, -1)
    chooser = AGENTS[deal.chooser]
    observation = decode(env.observe(chooser)["observation"])
    assert observation["totals"] == [4, -1, -3][deal.chooser :] + [4, -1, -3][: deal.chooser]
    mask = env.observe(chooser)["action_mask"]
    assert [describe_action(a) for a in np.flatnonzero(mask)] == ["spades"]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"dealer": 3}, "dealer is a seat"),
        ({"deal_number": 2}, "needs the previous deal's scores"),
        ({"previous_scores": (1, 2)}, "three whole numbers"),
        ({"games_left": (["spades"], ["nope"], [])}, "not a game"),
        ({"games_left": (["spades"], ["clubs"], [])}, "seat 2 may choose and has no game"),
        ({"deal_number": 1, "previous_scores": (1, 0, -1)}, "a first deal has no previous"),
    ],
)
def test_bad_context_is_refused_in_one_line(kwargs, message):
    with pytest.raises(ValueError, match=message) as info:
        raw_deal_env(**kwargs)
    assert "\n" not in str(info.value)


def test_discards_are_four_actions_each_out_of_the_next_mask():
    env = raw_deal_env()
    env.reset(seed=2)
    stepper = env.stepper
    rng = random.Random(0)
    while stepper.kind is not DecisionKind.DISCARD:
        env.step(rng.choice(stepper.legal_actions()))
    chooser = stepper.seat
    picked = []
    for n in range(4):
        mask = env.observe(AGENTS[chooser])["action_mask"]
        assert mask.sum() == 20 - n and not any(mask[a] for a in picked)
        assert decode(env.observe(AGENTS[chooser])["observation"])["discard"] == str(
            CardSet(card_of(a) for a in picked)
        )
        picked.append(int(np.flatnonzero(mask)[-1]))
        assert stepper.kind is DecisionKind.DISCARD and stepper.seat == chooser
        env.step(picked[-1])
    assert stepper.kind is DecisionKind.PLAY
    assert stepper.deal.discarded == CardSet(card_of(a) for a in picked)


def test_an_illegal_action_is_refused_by_the_raw_env_and_ends_the_wrapped_one():
    raw = raw_deal_env()
    raw.reset(seed=3)
    legal = raw.stepper.legal_actions()
    illegal = next(a for a in range(NUM_ACTIONS) if a not in legal)
    with pytest.raises(IllegalAction, match=rf"action {illegal} .* not legal .*legal: "):
        raw.step(illegal)
    assert raw.stepper.legal_actions() == legal  # nothing changed
    env = deal_env()
    env.reset(seed=3)
    agent = env.agent_selection
    for outside in (NUM_ACTIONS, -1, "AS", None):
        with pytest.raises(IllegalAction, match="not legal"):
            env.step(outside)  # outside the space: an error, not a move
    env.step(illegal)
    assert all(env.terminations.values())
    assert (
        env.rewards[agent] == ILLEGAL_REWARD and "not legal" in env.infos[agent]["illegal_action"]
    )
    totals, _ = _random_run(env, seed=4)  # a new episode after it plays normally
    assert sum(totals.values()) == 0


def test_the_single_agent_env_scores_its_seat_and_ends_on_an_illegal_action():
    env = single_agent_env("medium", seat=2)
    observation, _ = env.reset(seed=8)
    rng = random.Random(8)
    total, done, info = 0.0, False, {}
    while not done:
        assert env.action_masks().any() and env.stepper.seat == 2
        action = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
        observation, reward, done, _, info = env.step(action)
        total += reward
    assert info["deal_scores"][2] == total
    env.reset(seed=8)
    illegal = int(np.flatnonzero(env.action_masks() == 0)[0])
    _, reward, done, _, info = env.step(illegal)
    assert done and reward == ILLEGAL_REWARD and "not legal" in info["illegal_action"]
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


# ------------------------------------------------------------------ observations


def test_docs_print_the_layout():
    text = (Path(__file__).resolve().parent.parent / "docs" / "rl.md").read_text("utf-8")
    rows = re.findall(r"^\| (\d+) \| `(\w+)` \| (\d+) \|", text, re.M)
    at = 0
    expected = []
    for field in LAYOUT:
        expected.append((str(at), field.name, str(field.size)))
        at += field.size
    assert rows == expected


def test_the_layout_adds_up_and_decode_reads_the_view():
    assert sum(f.size for f in LAYOUT) == OBSERVATION_SIZE
    assert len({f.name for f in LAYOUT}) == len(LAYOUT)
    env = raw_deal_env(previous_scores=(2, -1, -1))
    for seed in range(30):
        env.reset(seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(60)):
            if env.stepper.done:
                break
            env.step(rng.choice(env.stepper.legal_actions()))
        for seat, agent in enumerate(AGENTS):
            view = env.seat_view(agent)
            read = decode(env.observe(agent)["observation"])
            assert read["hand"] == str(view.hand)
            assert read["role"] == view.role.label
            assert read["decision"] == (str(view.kind) if view.kind else "none")
            assert read["game"] == (view.game.label if view.game is not None else None)
            me = [view.taken[(seat + r) % 3] for r in range(3)]
            assert read["taken"] == me
            assert read["talon"] == str(view.talon or CardSet())
            played = [CardSet() for _ in range(3)]
            for trick in view.tricks:
                for i, card in enumerate(trick.cards):
                    played[(trick.seat_of(i) - seat) % 3] |= CardSet([card])
            if view.leader is not None:
                for i, card in enumerate(view.trick):
                    played[(view.leader + i - seat) % 3] |= CardSet([card])
            assert read["played"] == [str(p) for p in played]


def _seen_by(view):
    """Every card a view shows its seat."""
    seen = view.hand.mask | view.played.mask
    for cards in (view.talon, view.discard):
        if cards is not None:
            seen |= cards.mask
    for step in view.exchanges:
        seen |= step.given.mask | step.returned.mask
    if view.received is not None:
        seen |= view.received.mask
    return seen


def _relabel(card, x, y):
    return y if card == x else x if card == y else card


def _twin(setup, x, y):
    hands = tuple(tuple(_relabel(c, x, y) for c in hand) for hand in setup.hands)
    talon = tuple(_relabel(c, x, y) for c in setup.talon)
    return DealSetup(setup.number, setup.dealer, hands, talon)


def _relabel_action(action, x, y):
    if action < 52:
        return action_of(_relabel(card_of(action), x, y))
    return action


def test_hidden_information_twins_observe_the_same():
    """Re-deal what a seat cannot have seen (two cards of one suit it never saw swap places
    in the deal and in every decision so far; kept only where the seat's view at every step
    is the same, e.g. not where the swap changed a card returned to it): its observations
    and masks are the same, while a seat that saw one of the two cards observes a
    difference."""
    rng = random.Random(1)
    compared = differed = 0
    for trial in range(300):
        rules = PRESETS[RULE_SETS[trial % len(RULE_SETS)]]
        first, second = rng.randint(-4, 6), rng.randint(-4, 4)
        kwargs = {"previous_scores": (first, second, -first - second)}
        setup = DealSetup.shuffled(2, rng.randrange(3), rng)
        stepper = Stepper(Deal(setup, rules, **kwargs))
        actions = []
        views = []
        observations = []
        for _ in range(rng.randrange(1, 70)):
            if stepper.done:
                break
            views.append([stepper.view(s) for s in range(3)])
            observations.append([stepper.observe(s) for s in range(3)])
            actions.append(rng.choice(stepper.legal_actions()))
            stepper.step(actions[-1])
        views.append([stepper.view(s) for s in range(3)])
        observations.append([stepper.observe(s) for s in range(3)])
        seen = [0, 0, 0]
        for at_step in views:
            for s in range(3):
                seen[s] |= _seen_by(at_step[s])
        seat = rng.randrange(3)
        unseen = [c for c in DECK if not seen[seat] & c.mask]
        pairs = [(x, y) for x in unseen for y in unseen if x < y and x.suit == y.suit]
        if not pairs:
            continue
        x, y = rng.choice(pairs)
        twin = Stepper(Deal(_twin(setup, x, y), rules, **kwargs))
        twins = [(twin.view(seat), twin.observe(seat))]
        try:
            for action in actions:
                twin.step(_relabel_action(action, x, y))
                twins.append((twin.view(seat), twin.observe(seat)))
        except IllegalAction:
            continue
        if any(view != at_step[seat] for (view, _), at_step in zip(twins, views)):
            continue  # the swap changed what the seat saw: not a twin for it
        for step, ((_, observed), at_step) in enumerate(zip(twins, observations)):
            assert np.array_equal(observed, at_step[seat]), (trial, step, seat, x, y)
            compared += 1
        assert np.array_equal(stepper.mask(seat), twin.mask(seat))
        for other in range(3):
            if seen[other] & (x.mask | y.mask) and other != seat:
                differed += not np.array_equal(stepper.observe(other), twin.observe(other))
    assert compared >= 3000 and differed >= 100, (compared, differed)


def test_a_policy_sees_only_its_seats_observation():
    # A PolicyPlayer in a match gets exactly what the environment gives the same seat.
    env = raw_match_env("house,length=3")
    env.reset(seed=4)
    match = Match(env.match.rules, seed=env.match.seed)  # the same match, outside the env
    given = []

    def policy(observation):
        given.append(observation["observation"])
        return int(np.flatnonzero(observation["action_mask"])[0])

    players = [PolicyPlayer(policy) for _ in range(3)]
    expected = []
    while (pending := match.pending()) is not None:
        answer = players[pending.seat].decide(pending.view)
        n = 4 if pending.kind is DecisionKind.DISCARD else 1
        for _ in range(n):
            agent = AGENTS[env.stepper.seat]
            expected.append(env.observe(agent)["observation"])
            env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
        match.apply_answer(answer)
    assert len(given) == len(expected) > 100
    assert all(np.array_equal(a, b) for a, b in zip(given, expected))
    assert match.totals == env.match.totals


# ------------------------------------------------------------------ ts358's players through


def test_players_through_the_env_reproduce_their_arena_results():
    """Each board of an arena run, in every seat permutation, played through the deal
    environment by policies that take the action a ts358 player would: identical scores."""
    seed = 17
    configs = ("medium", "easy", "easy")
    perms = seat_permutations(configs)
    for index in range(20):
        board = make_board(seed, index)
        outcome = play_board(board, configs, seed)
        env = raw_deal_env()
        for p, perm in enumerate(perms):
            policies = [
                PlayerPolicy(make_player(perm[s], derived_seed("arena-player", seed, index, p, s)))
                for s in range(3)
            ]
            env.reset(options={"board": board})
            scores = dict.fromkeys(AGENTS, 0.0)
            for agent in env.agent_iter():
                _, reward, done, _, _ = env.last()
                scores[agent] += reward
                seat = AGENTS.index(agent)
                env.step(None if done else policies[seat].action(env.seat_view(agent)))
            assert tuple(scores[a] for a in AGENTS) == outcome.scores[p], (index, perm)


def test_evaluate_policy_plays_the_arenas_boards():
    def first_legal(observation):
        return int(np.flatnonzero(observation["action_mask"])[0])

    results = evaluate_policy(first_legal, ("easy", "medium"), boards=3, seed=2)
    again = evaluate_policy(first_legal, ("easy", "medium"), boards=3, seed=2)
    assert results["digest"] == again["digest"] and results["boards"] == 3
    policy = next(r for r in results["results"] if r["config"] == "policy")
    assert policy["seat_deals"] == 3 * 6

    def illegal(observation):
        return int(np.flatnonzero(observation["action_mask"] == 0)[0])

    with pytest.raises(IllegalAction, match="not legal"):
        evaluate_policy(illegal, boards=1)


def test_player_policy_gives_a_discard_one_card_at_a_time():
    setup = DealSetup.shuffled(1, 0, random.Random(6))
    stepper = Stepper(Deal(setup, Rules()))
    stepper.step(action_of(Contract.NO_TRUMP))
    medium = make_player("medium")
    policy = PlayerPolicy("medium")
    cards = medium.decide(stepper.view(stepper.seat))
    actions = [policy.action(stepper.view(stepper.seat)) for _ in range(4)]
    assert CardSet(card_of(a) for a in actions) == cards
    assert all(isinstance(card_of(a), Card) for a in actions)
