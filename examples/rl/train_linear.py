#!/usr/bin/env python3
"""Train a linear softmax policy for 3-5-8 against ts358's easy players, with NumPy only.

The policy scores every action linearly in the observation (``logits = W @ x + b``), keeps
the legal ones (the observation's action mask) and samples from their softmax. It learns by
REINFORCE: after each deal (one episode, the agent in a random seat) the log-probability of
every action it took is pushed up or down by how much better the deal's score was than
usual. Every ``--every`` deals it prints the mean score of those training deals and the
greedy policy's mean score in the duplicate arena against two easy players (par is 0).

    python examples/rl/train_linear.py --save linear.npz
    python examples/rl/evaluate.py --weights linear.npz --opponents easy,medium
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from ts358.rl import (
    LAYOUT,
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    POLICY_LABEL,
    evaluate_policy,
    field_slice,
    single_agent_env,
)

# Decisions of different kinds get their own weights: the same ace is good to play but bad
# to discard, which one set of weights (linear in the observation) cannot say. The kind is
# the one-hot field ``decision`` (its last label, none, asks for no action).
DECISION = field_slice("decision")
KINDS = DECISION.stop - DECISION.start - 1
# Each number scaled to about [-1, 1]: the totals run to hundreds, the card planes are 0/1.
SCALE = np.concatenate([np.full(f.size, max(abs(f.low), abs(f.high)), np.float32) for f in LAYOUT])


class LinearPolicy:
    """``softmax(W[k] @ (x - mean[k]) + b[k])`` over the legal actions, k the decision kind."""

    def __init__(self) -> None:
        # Zero weights: every legal action equally likely, a random player to start with.
        self.W = np.zeros((KINDS, NUM_ACTIONS, OBSERVATION_SIZE))
        self.b = np.zeros((KINDS, NUM_ACTIONS))
        # The features are centred on their running mean, per kind. Without this, the many
        # numbers that are the same in every decision of a kind (the rules, the deal's
        # number, ...) act as one big bias that learns far faster than the cards: the game
        # choice then settles on one game for every hand before it learns to read the hand.
        self.mean = np.zeros((KINDS, OBSERVATION_SIZE))

    def features(self, observation: dict) -> tuple[int, np.ndarray]:
        x = observation["observation"] / SCALE
        kind = int(np.argmax(x[DECISION][:KINDS]))
        return kind, x

    def probabilities(self, kind: int, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = np.where(mask > 0, self.W[kind] @ (x - self.mean[kind]) + self.b[kind], -np.inf)
        e = np.exp(logits - logits.max())
        return e / e.sum()

    def greedy(self, observation: dict) -> int:
        """The most probable legal action: the policy as it is evaluated."""
        kind, x = self.features(observation)
        return int(np.argmax(self.probabilities(kind, x, observation["action_mask"])))

    def save(self, path: str) -> None:
        with open(path, "wb") as file:  # a file, so that numpy adds no .npz to the name
            np.savez(file, W=self.W, b=self.b, mean=self.mean)

    @classmethod
    def load(cls, path: str) -> LinearPolicy:
        policy = cls()
        with np.load(path) as saved:
            policy.W, policy.b, policy.mean = saved["W"], saved["b"], saved["mean"]
        return policy


def arena_mean(policy, boards: int, seed: int) -> float:
    """The policy's mean score per deal against easy, easy in the duplicate arena: every
    board in every seating, so the luck of the cards mostly cancels out."""
    results = evaluate_policy(policy, ("easy", "easy"), boards=boards, seed=seed)
    return next(r["mean"] for r in results["results"] if r["config"] == POLICY_LABEL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=40_000, help="deals to train on")
    parser.add_argument("--lr", type=float, default=0.02, help="learning rate")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and of sampling")
    parser.add_argument("--every", type=int, default=5_000, help="report every N deals")
    parser.add_argument("--eval-boards", type=int, default=50, help="arena boards per report")
    parser.add_argument("--eval-seed", type=int, default=1, help="the arena's seed")
    parser.add_argument("--save", metavar="PATH", help="save the weights (.npz) at the end")
    parser.add_argument("--quick", action="store_true", help="a tiny run, as a smoke test")
    args = parser.parse_args()
    if args.quick:
        args.episodes, args.every, args.eval_boards = 300, 100, 2

    rng = np.random.default_rng(args.seed)
    # seat=None: a new seat each deal, so that one policy learns all three roles. The deals
    # are first deals of a match (all games open, no exchange): 4x faster to make than the
    # arena's boards, and what is learnt carries over to them.
    env = single_agent_env(opponents="easy", seat=None)
    policy = LinearPolicy()
    start = time.perf_counter()
    # The untrained policy is scored by sampling: greedy, all its logits equal, it would
    # always take the first legal action, a much worse player than a random one.
    sample = np.random.default_rng(args.seed)
    untrained = arena_mean(
        lambda o: int(sample.choice(np.flatnonzero(o["action_mask"]))),
        args.eval_boards,
        args.eval_seed,
    )
    print(f"untrained (random legal actions): arena mean {untrained:+.3f}", flush=True)
    baseline, variance, scores = 0.0, 10.0, []  # random play's scores: mean 0, sd about 3
    for episode in range(1, args.episodes + 1):
        observation, _ = env.reset(seed=int(rng.integers(2**63)))
        steps, score, done = [], 0.0, False
        while not done:
            kind, x = policy.features(observation)
            policy.mean[kind] += 0.001 * (x - policy.mean[kind])
            p = policy.probabilities(kind, x, observation["action_mask"])
            action = rng.choice(NUM_ACTIONS, p=p)
            # d log p(action) / d logits = onehot(action) - p, for all the logits at once.
            grad = -p
            grad[action] += 1
            steps.append((kind, x - policy.mean[kind], grad))
            observation, reward, done, _, _ = env.step(action)
            score += reward
        # REINFORCE with a baseline: the score less its running mean says whether the deal
        # went better than usual (the baseline leaves the gradient unbiased but far less
        # noisy); divided by the scores' running deviation, the step size is in units of it.
        advantage = (score - baseline) / np.sqrt(variance)
        baseline += 0.01 * (score - baseline)
        variance += 0.01 * ((score - baseline) ** 2 - variance)
        kinds, xs, grads = (np.array(column) for column in zip(*steps))
        for kind in np.unique(kinds):  # sum(grad x^T) over the steps, as one product
            G, X = advantage * grads[kinds == kind], xs[kinds == kind]
            policy.W[kind] += args.lr * G.T @ X
            policy.b[kind] += args.lr * G.sum(axis=0)
        scores.append(score)
        if episode % args.every == 0:
            mean = arena_mean(policy.greedy, args.eval_boards, args.eval_seed)
            print(
                f"deals {episode:6d}  training mean {np.mean(scores[-args.every :]):+.3f}  "
                f"arena mean {mean:+.3f}  ({time.perf_counter() - start:.0f} s)",
                flush=True,
            )
    if args.save:
        policy.save(args.save)
        print(f"saved {args.save}")


if __name__ == "__main__":
    main()
