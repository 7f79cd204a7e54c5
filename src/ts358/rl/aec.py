"""PettingZoo AEC environments: one deal (:class:`DealEnv`) and a whole match
(:class:`MatchEnv`), the seats ``seat_0``-``seat_2`` as agents (docs/rl.md).

Every agent has the same spaces: the :data:`~ts358.rl.actions.NUM_ACTIONS` actions, and an
observation ``{"observation": vector, "action_mask": mask}`` (the vector of
:mod:`ts358.rl.observation`, the mask of the legal actions, zeros when it is not the
agent's turn). Rewards are the deal scores (zero-sum), given when a deal ends.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from ts358.deal import Deal, DealResult
from ts358.match import Match
from ts358.rl.actions import NUM_ACTIONS
from ts358.rl.context import DealContext, new_match, rules_of
from ts358.rl.observation import OBSERVATION_SIZE, observation_bounds
from ts358.rl.stepper import IllegalAction, Stepper
from ts358.rules import Rules
from ts358.seeds import derived_rng
from ts358.view import SeatView

__all__ = [
    "AGENTS",
    "ILLEGAL_REWARD",
    "DealEnv",
    "MatchEnv",
    "deal_env",
    "match_env",
    "observation_space",
    "raw_deal_env",
    "raw_match_env",
]

AGENTS = ("seat_0", "seat_1", "seat_2")
"""The agents: the match seats, clockwise."""

ILLEGAL_REWARD = -16.0
"""The reward of an illegal action in the wrapped environments (which then end): below any
deal score."""


def observation_space() -> spaces.Dict:
    """The space of each agent's observation."""
    low, high = observation_bounds()
    return spaces.Dict(
        {
            "observation": spaces.Box(low, high, (OBSERVATION_SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        }
    )


# PettingZoo has no type information: its base class is Any to mypy.
class _SeatsEnv(AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """What the deal and the match environments share: agents, spaces, turn and rewards."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads it from the class
        "render_modes": ["ansi", "human"],
        "name": "ts358_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self, rules: Rules | str, render_mode: str | None, illegal_reward: float | None
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is ansi, human or None, not {render_mode!r}")
        self.rules = rules_of(rules)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self._observation_space = observation_space()
        self._action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_spaces = dict.fromkeys(AGENTS, self._observation_space)
        self.action_spaces = dict.fromkeys(AGENTS, self._action_space)
        self._rng = random.Random()
        self._stepper: Stepper | None = None
        self.illegal_reward = illegal_reward

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    @property
    def stepper(self) -> Stepper:
        """The deal or match under the environment (after :meth:`reset`)."""
        if self._stepper is None:
            raise RuntimeError("call reset() before using the environment")
        return self._stepper

    def seat_view(self, agent: str) -> SeatView:
        """The agent's view of the moment: what its seat knows, as ts358's players see it
        (for a ts358 player acting through the environment, :class:`~ts358.rl.PlayerPolicy`)."""
        return self.stepper.view(AGENTS.index(agent))

    def observe(self, agent: str) -> dict[str, Any]:
        seat = AGENTS.index(agent)
        stepper = self.stepper
        return {"observation": stepper.observe(seat), "action_mask": stepper.mask(seat)}

    def _game(self, seed: int, options: dict[str, Any]) -> Deal | Match:
        raise NotImplementedError

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new deal (or match): from ``seed`` if given, else the next of the sequence the
        last seed started (a fresh random one at first)."""
        if seed is not None:
            self._rng = derived_rng("rl-env", seed)
        self._stepper = Stepper(self._game(self._rng.getrandbits(64), dict(options or {})))
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[self._due()]

    def _due(self) -> int:
        seat = self.stepper.seat
        assert seat is not None
        return seat

    def step(self, action: int) -> None:
        """Take ``action`` for :attr:`agent_selection`; ``None`` once it is terminated.
        An action outside the space raises :class:`~ts358.rl.IllegalAction`; so does one
        the rules don't allow now, unless the environment has an ``illegal_reward``: then
        the episode ends, that reward to the agent (``infos[agent]["illegal_action"]`` says
        why)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        stepper = self.stepper
        try:
            result = stepper.step(action)
        except IllegalAction as exc:
            if self.illegal_reward is None or not (
                isinstance(action, (int, np.integer)) and 0 <= action < NUM_ACTIONS
            ):
                raise
            self._illegal(agent, str(exc))
            return
        self._cumulative_rewards[agent] = 0.0
        if result is not None:
            self.rewards = {a: float(result.scores[s]) for s, a in enumerate(AGENTS)}
            self._deal_over(result)
        else:
            self.rewards = dict.fromkeys(AGENTS, 0.0)
        if stepper.done:
            self.terminations = dict.fromkeys(AGENTS, True)
        else:
            self.agent_selection = AGENTS[self._due()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def _illegal(self, agent: str, why: str) -> None:
        # As PettingZoo's TerminateIllegalWrapper does it, in the environment itself: one
        # wrapper fewer to pass through at every step.
        self._cumulative_rewards[agent] = 0.0
        self.terminations = dict.fromkeys(AGENTS, True)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self.rewards[agent] = float(self.illegal_reward or 0.0)
        self.infos[agent] = {**self.infos[agent], "illegal_action": why}
        self._accumulate_rewards()
        self._deads_step_first()

    def _deal_over(self, result: DealResult) -> None:
        for s, agent in enumerate(AGENTS):
            self.infos[agent] = {"deal_scores": result.scores, "deal_taken": result.taken[s]}

    def render(self) -> str | None:
        """The table as text: the deal, the game, tricks taken, the trick in progress."""
        if self.render_mode is None:
            return None
        deal = self.stepper.deal
        game = deal.game.label if deal.game is not None else "not chosen"
        taken = deal.view(0).taken
        trick = " ".join(str(c) for c in deal.trick) or "-"
        return (
            f"deal {deal.setup.number}, dealer seat_{deal.dealer}, game {game}; tricks taken "
            f"{taken[0]}-{taken[1]}-{taken[2]}; trick {trick}"
        )

    def close(self) -> None:
        """Nothing to free."""


class DealEnv(_SeatsEnv):
    """One deal of 3-5-8 as a PettingZoo AEC environment, with its match context.

    Args:
        rules: the rules (:class:`~ts358.rules.Rules` or their text, ``house``, ``kurnik``).
        dealer: the dealer's seat; None draws it at each reset.
        deal_number: the deal's number in its match (a first deal has no exchange).
        previous_scores: the previous deal's scores by seat, which decide the exchange
            (None in a first deal; with them the deal number is 2 unless given).
        games_left: the games each seat may still choose (None: all of the rules' games).
        totals: the match totals before the deal, by seat.
        arena_context: draw the whole context at each reset as the arena's boards are drawn
            (a match played to a random deal by rule-of-thumb players; the other context
            arguments are then not used).
        render_mode: ``ansi`` (:meth:`render` returns text), ``human`` (printed each step).
        illegal_reward: None (the default) raises :class:`~ts358.rl.IllegalAction` for an
            action the rules don't allow; a number ends the episode instead, with that
            reward to the agent (as :func:`deal_env` does, with :data:`ILLEGAL_REWARD`).

    ``reset(options={"setup": DealSetup})`` plays those cards (their dealer and number),
    ``reset(options={"board": Board})`` an arena board, cards and context.
    """

    metadata = {**_SeatsEnv.metadata, "name": "ts358_deal_v0"}  # noqa: RUF012

    def __init__(
        self,
        rules: Rules | str = "house",
        *,
        render_mode: str | None = None,
        illegal_reward: float | None = None,
        **context: Any,
    ) -> None:
        self.context = DealContext.of(rules, **context)
        super().__init__(self.context.rules, render_mode, illegal_reward)

    def _game(self, seed: int, options: dict[str, Any]) -> Deal:
        return self.context.deal(seed, options)


class MatchEnv(_SeatsEnv):
    """A whole match of 3-5-8 as a PettingZoo AEC environment: deal after deal to the end
    the rules set; the reward of each deal's score comes when that deal ends (the
    environment's ``infos`` then hold the deal's scores).

    Args:
        rules: the rules and the match length (``house,length=9``, ``sergeant-major``).
        render_mode, illegal_reward: as :class:`DealEnv`.
    """

    metadata = {**_SeatsEnv.metadata, "name": "ts358_match_v0"}  # noqa: RUF012

    def __init__(
        self,
        rules: Rules | str = "house",
        *,
        render_mode: str | None = None,
        illegal_reward: float | None = None,
    ) -> None:
        super().__init__(rules, render_mode, illegal_reward)

    def _game(self, seed: int, options: dict[str, Any]) -> Match:
        return new_match(self.rules, seed)

    @property
    def match(self) -> Match:
        """The match being played (its totals, results and standings)."""
        game = self.stepper.game
        assert isinstance(game, Match)
        return game


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's ``OrderEnforcingWrapper`` answering ``last()`` through the environment's
    own once reset: the generic ``last()`` reads five attributes through the wrapper's
    ``__getattr__``, a tenth of a step's time."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.last(observe)  # type: ignore[no-any-return]


def raw_deal_env(rules: Rules | str = "house", **kwargs: Any) -> DealEnv:
    """The unwrapped deal environment (:class:`DealEnv`'s arguments): an illegal action
    raises :class:`~ts358.rl.IllegalAction` unless ``illegal_reward`` is given."""
    return DealEnv(rules, **kwargs)


def deal_env(rules: Rules | str = "house", **kwargs: Any) -> AECEnv[str, dict[str, Any], int]:
    """The deal environment as PettingZoo's classic games come (:class:`DealEnv`'s
    arguments): calls out of order are refused (PettingZoo's ``OrderEnforcingWrapper``), an
    illegal action ends the deal with ``illegal_reward`` (:data:`ILLEGAL_REWARD` unless
    given) for its agent, an action outside the space raises."""
    kwargs.setdefault("illegal_reward", ILLEGAL_REWARD)
    return _OrderEnforcing(DealEnv(rules, **kwargs))


def raw_match_env(rules: Rules | str = "house", **kwargs: Any) -> MatchEnv:
    """The unwrapped match environment (:class:`MatchEnv`'s arguments)."""
    return MatchEnv(rules, **kwargs)


def match_env(rules: Rules | str = "house", **kwargs: Any) -> AECEnv[str, dict[str, Any], int]:
    """The match environment as :func:`deal_env` wraps the deal's."""
    kwargs.setdefault("illegal_reward", ILLEGAL_REWARD)
    return _OrderEnforcing(MatchEnv(rules, **kwargs))
