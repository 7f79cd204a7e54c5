"""3-5-8 for reinforcement learning (docs/rl.md): PettingZoo environments for one deal and
for a match, a single-agent Gymnasium wrapper against ts358's players, and an OpenSpiel game.

Needs the ``rl`` extra (``pip install "ts358[rl]"``: PettingZoo, Gymnasium, NumPy); the
OpenSpiel game needs the ``openspiel`` extra as well (:mod:`ts358.rl.openspiel`).

>>> from ts358.rl import deal_env
>>> env = deal_env()
>>> env.reset(seed=1)
>>> observation, reward, termination, truncation, info = env.last()
>>> env.agent_selection, observation["observation"].shape, int(observation["action_mask"].sum())
('seat_0', (691,), 6)
"""

from __future__ import annotations

try:
    import gymnasium
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - the extra is part of the test install
    raise ImportError(
        f"ts358.rl needs the rl extra ({exc.name} is missing): pip install 'ts358[rl]'"
    ) from None

from ts358.rl.actions import (
    CARD_ACTIONS,
    NUM_ACTIONS,
    STOP,
    action_of,
    card_of,
    describe_action,
    game_of,
)
from ts358.rl.aec import (
    AGENTS,
    ILLEGAL_REWARD,
    DealEnv,
    MatchEnv,
    deal_env,
    match_env,
    raw_deal_env,
    raw_match_env,
)
from ts358.rl.context import DealContext
from ts358.rl.observation import (
    LAYOUT,
    OBSERVATION_SIZE,
    SeatMemory,
    decode,
    encode,
    field_slice,
    observation_bounds,
)
from ts358.rl.policy import POLICY_LABEL, PlayerPolicy, Policy, PolicyPlayer, evaluate_policy
from ts358.rl.single import SingleAgentEnv, single_agent_env
from ts358.rl.stepper import IllegalAction, Stepper

# gymnasium.make("ts358/Deal-v0", opponents="medium"): the single-agent wrapper by name.
gymnasium.register(id="ts358/Deal-v0", entry_point="ts358.rl.single:SingleAgentEnv")
gymnasium.register(
    id="ts358/Match-v0", entry_point="ts358.rl.single:SingleAgentEnv", kwargs={"match": True}
)

__all__ = [
    "AGENTS",
    "CARD_ACTIONS",
    "ILLEGAL_REWARD",
    "LAYOUT",
    "NUM_ACTIONS",
    "OBSERVATION_SIZE",
    "POLICY_LABEL",
    "STOP",
    "DealContext",
    "DealEnv",
    "IllegalAction",
    "MatchEnv",
    "PlayerPolicy",
    "Policy",
    "PolicyPlayer",
    "SeatMemory",
    "SingleAgentEnv",
    "Stepper",
    "action_of",
    "card_of",
    "deal_env",
    "decode",
    "describe_action",
    "encode",
    "evaluate_policy",
    "field_slice",
    "game_of",
    "match_env",
    "observation_bounds",
    "raw_deal_env",
    "raw_match_env",
    "single_agent_env",
]
