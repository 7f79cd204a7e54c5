"""A single-agent Gymnasium environment: one seat is the agent, ts358's players hold the
other two (docs/rl.md#one-agent-against-ts358).

Any Gymnasium algorithm can train against fixed opponents of a chosen level. The
observation and the actions are the PettingZoo environments' (:mod:`ts358.rl.aec`); the
reward of a step is the agent's deal score when a deal ends in it (its own action or the
opponents' after it), else 0. :meth:`SingleAgentEnv.action_masks` gives the legal actions
for the algorithms that mask (e.g. sb3-contrib's MaskablePPO).

>>> from ts358.rl import single_agent_env
>>> env = single_agent_env(opponents="easy", seat=1)
>>> observation, info = env.reset(seed=3)
>>> total, done = 0.0, False
>>> while not done:
...     action = int(observation["action_mask"].nonzero()[0][0])  # the first legal action
...     observation, reward, done, truncated, info = env.step(action)
...     total += reward
>>> info["deal_scores"][1] == total
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ts358.match import player_seed
from ts358.players import PlayerSpec
from ts358.players.base import Player
from ts358.rl.actions import NUM_ACTIONS
from ts358.rl.aec import ILLEGAL_REWARD, observation_space
from ts358.rl.context import DealContext, new_match
from ts358.rl.stepper import IllegalAction, Stepper
from ts358.rules import Rules

__all__ = ["SingleAgentEnv", "single_agent_env"]


class SingleAgentEnv(gymnasium.Env[dict[str, npt.NDArray[Any]], int]):
    """One seat against two ts358 players, as a Gymnasium environment.

    Args:
        opponents: the other two seats' players: a level (``easy``, ``medium``, ``hard``,
            ``expert``) or a player specification (``hard:layouts=8``) for both, or one
            for each (clockwise after the agent), or :class:`~ts358.players.base.Player`
            objects (kept from episode to episode, as given).
        seat: the agent's seat, 0-2; None draws it at each reset.
        match: play a whole match per episode (rewards per deal) instead of one deal.
        rules: the rules, or their text (``kurnik``, ``house,length=9``).
        illegal_reward: the reward of an illegal action, which ends the episode (below any
            deal score by default); ``info["illegal_action"]`` then says so.
        **context: a deal's match context, as :class:`~ts358.rl.DealEnv` takes it
            (``previous_scores``, ``games_left``, ``dealer``, ``arena_context`` ...; not
            with ``match``).
    """

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012 - Gymnasium's convention

    def __init__(
        self,
        opponents: str | PlayerSpec | Player | Sequence[str | PlayerSpec | Player] = "medium",
        *,
        seat: int | None = None,
        match: bool = False,
        rules: Rules | str = "house",
        illegal_reward: float = ILLEGAL_REWARD,
        **context: Any,
    ) -> None:
        if seat is not None and seat not in (0, 1, 2):
            raise ValueError(f"seat is 0-2 or None, not {seat!r}")
        if match and context:
            raise ValueError(f"a match makes its own deals: no {', '.join(sorted(context))}")
        self.context = DealContext.of(rules, **context)
        self.rules = self.context.rules
        given = (
            [opponents, opponents]
            if isinstance(opponents, (str, PlayerSpec, Player))
            else list(opponents)
        )
        if len(given) != 2:
            raise ValueError(f"two opponents are needed, not {len(given)}")
        self._opponents = [o if isinstance(o, Player) else PlayerSpec.parse(str(o)) for o in given]
        self.seat = seat
        self.match = match
        self.illegal_reward = float(illegal_reward)
        self.observation_space = cast(
            "spaces.Space[dict[str, npt.NDArray[Any]]]", observation_space()
        )
        self.action_space = cast("spaces.Space[int]", spaces.Discrete(NUM_ACTIONS))
        self._stepper: Stepper | None = None
        self._me = 0
        self._players: dict[int, Player] = {}
        self._over = False

    @property
    def stepper(self) -> Stepper:
        """The deal or match being played (after :meth:`reset`)."""
        if self._stepper is None:
            raise RuntimeError("call reset() before using the environment")
        return self._stepper

    @property
    def agent_seat(self) -> int:
        """The agent's seat in this episode."""
        return self._me

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]]:
        super().reset(seed=seed)
        episode = int(self.np_random.integers(2**63))
        self._me = self.seat if self.seat is not None else int(self.np_random.integers(3))
        game = new_match(self.rules, episode) if self.match else self.context.deal(episode, options)
        self._stepper = Stepper(game)
        self._players = {}
        for i, opponent in enumerate(self._opponents):
            seat = (self._me + 1 + i) % 3
            self._players[seat] = (
                opponent
                if isinstance(opponent, Player)
                else opponent.make(player_seed(episode, seat))
            )
        self._over = False
        # No deal ends before the agent's first decision: the agent plays in every trick.
        _, info = self._advance()
        return self._observation(), info

    def step(
        self, action: int
    ) -> tuple[dict[str, npt.NDArray[Any]], float, bool, bool, dict[str, Any]]:
        stepper = self.stepper
        if stepper.done:
            raise RuntimeError("the episode is over: call reset()")
        if self._over:
            raise RuntimeError("the episode ended with an illegal action: call reset()")
        try:
            result = stepper.step(action)
        except IllegalAction as exc:
            # Nothing changed, but the episode ends: the last observation stands.
            self._over = True
            illegal = {"illegal_action": str(exc)}
            return self._observation(), self.illegal_reward, True, False, illegal
        reward = 0.0
        info: dict[str, Any] = {}
        if result is not None:
            reward += result.scores[self._me]
            info = self._deal_over(result)
        more, later = self._advance()
        reward += more
        info |= later
        return self._observation(), reward, stepper.done, False, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as booleans (for masking algorithms)."""
        return self.stepper.mask(self._me).astype(bool)

    def _advance(self) -> tuple[float, dict[str, Any]]:
        """The opponents' decisions up to the agent's next one (or the end)."""
        stepper = self.stepper
        reward = 0.0
        info: dict[str, Any] = {}
        while not stepper.done and stepper.seat != self._me:
            seat = stepper.seat
            assert seat is not None
            result = stepper.answer(self._players[seat].decide(stepper.view(seat)))
            if result is not None:
                reward += result.scores[self._me]
                info = self._deal_over(result)
        return reward, info

    def _deal_over(self, result: Any) -> dict[str, Any]:
        for seat, player in self._players.items():
            player.deal_over(seat, result)
        return {"deal_scores": result.scores, "deal_taken": result.taken}

    def _observation(self) -> dict[str, npt.NDArray[Any]]:
        stepper = self.stepper
        return {"observation": stepper.observe(self._me), "action_mask": stepper.mask(self._me)}


def single_agent_env(
    opponents: str | PlayerSpec | Player | Sequence[str | PlayerSpec | Player] = "medium",
    **kwargs: Any,
) -> SingleAgentEnv:
    """:class:`SingleAgentEnv` (its arguments): one seat against two ts358 players."""
    return SingleAgentEnv(opponents, **kwargs)
