"""Policies and players, both ways round, and a policy's score in the duplicate arena.

- :class:`PlayerPolicy`: a ts358 computer player acting through an environment (the action
  it would take; its four discards one at a time), for baselines, imitation and checks.
- :class:`PolicyPlayer`: any policy over the environment's observations as a ts358
  :class:`~ts358.players.base.Player`, so it can sit at any table: the arena, a match.
- :func:`evaluate_policy`: a policy against ts358's players in the duplicate arena
  (docs/arena.md), every board in every seat permutation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ts358.batch.arena import make_board, play_board, summarize_arena
from ts358.cards import CardSet
from ts358.deal import Answer
from ts358.players import PlayerSpec, make_player
from ts358.players.base import Player
from ts358.rl.actions import STOP, action_of, card_of, game_of, legal_bits, mask_array
from ts358.rl.observation import SeatMemory, encode
from ts358.rl.stepper import IllegalAction
from ts358.rules import Rules
from ts358.view import DecisionKind, SeatView

__all__ = ["POLICY_LABEL", "PlayerPolicy", "Policy", "PolicyPlayer", "evaluate_policy"]

Policy = Callable[[dict[str, npt.NDArray[Any]]], int]
"""A policy: from an observation ``{"observation": vector, "action_mask": mask}`` (as the
environments give them) to an action."""

POLICY_LABEL = "policy"
"""The policy's name in :func:`evaluate_policy`'s results."""

_DISCARDS = 4


class PlayerPolicy:
    """A ts358 player (a level such as ``medium``, a specification, or a
    :class:`~ts358.players.base.Player`) as a policy: :meth:`action` is the action the
    player would take from a seat's view. It answers a discard once, then gives its four
    cards one per call, lowest first.

    >>> from ts358.rl import raw_deal_env
    >>> env = raw_deal_env()
    >>> env.reset(seed=4)
    >>> medium = PlayerPolicy("medium")
    >>> scores = dict.fromkeys(env.agents, 0.0)
    >>> for agent in env.agent_iter():
    ...     observation, reward, done, truncated, info = env.last()
    ...     scores[agent] += reward
    ...     env.step(None if done else medium.action(env.seat_view(agent)))
    >>> sum(scores.values())  # the deal's scores: zero-sum
    0.0
    """

    def __init__(self, player: Player | PlayerSpec | str, seed: int | None = None) -> None:
        self.player = player if isinstance(player, Player) else make_player(player, seed)
        self._discards: list[int] = []

    def action(self, view: SeatView) -> int:
        """The action the player takes for the decision of ``view``."""
        if view.kind is not DecisionKind.DISCARD:
            self._discards = []
            answer = self.player.decide(view)
            if view.kind is DecisionKind.GIVE and answer is None:
                return STOP
            if isinstance(answer, CardSet):
                raise IllegalAction(f"{self.player.name} answered {answer} to a {view.kind}")
            return action_of(answer)
        if not self._discards:
            cards = self.player.decide(view)
            if not isinstance(cards, CardSet):
                raise IllegalAction(f"{self.player.name} discarded {cards!r}, not four cards")
            self._discards = [action_of(c) for c in cards]
        return self._discards.pop(0)


class PolicyPlayer(Player):
    """A policy over the environments' observations as a ts358 player: each decision is
    the observation of the seat's view, as an environment would give it, and the policy's
    action; a discard is four of them. An action that is not legal raises
    :class:`~ts358.rl.IllegalAction`."""

    name = POLICY_LABEL

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self._memory = SeatMemory()

    def _act(self, view: SeatView) -> int:
        memory = self._memory
        legal = legal_bits(view, memory.picked)
        observation: dict[str, npt.NDArray[Any]] = {
            "observation": encode(view, memory),
            "action_mask": mask_array(legal),
        }
        action = self.policy(observation)
        if not isinstance(action, (int, np.integer)) or not legal >> int(action) & 1:
            raise IllegalAction(f"the policy's action {action!r} is not legal for a {view.kind}")
        return int(action)

    def decide(self, view: SeatView) -> Answer:
        kind = view.kind
        if kind is DecisionKind.DISCARD:
            self._memory.follow(view)
            self._memory.picked = 0
            for _ in range(_DISCARDS):
                self._memory.picked |= card_of(self._act(view)).mask
            return CardSet(self._memory.picked)
        action = self._act(view)
        if kind is DecisionKind.CHOOSE:
            return game_of(action)
        if action == STOP:
            return None
        return card_of(action)


def evaluate_policy(
    policy: Policy,
    opponents: Sequence[str] = ("medium", "medium"),
    boards: int = 20,
    seed: int = 0,
    rules: Rules | None = None,
    on_board: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """``policy`` against two ts358 players (levels or specifications) in the duplicate
    arena: ``boards`` boards of the arena's run ``seed`` (the same deals ``ts358 arena
    --seed`` plays), each in every seat permutation. The results are
    :func:`~ts358.batch.arena.summarize_arena`'s, the policy named :data:`POLICY_LABEL`.
    ``on_board(i)`` is called after each board (progress). Played in this process."""
    if len(opponents) != 2:
        raise ValueError(f"two opponents are needed, not {len(opponents)}")
    configs = (POLICY_LABEL, *(str(PlayerSpec.parse(o)) for o in opponents))

    def factory(config: str, player_seed: int) -> Player:
        if config == POLICY_LABEL:
            return PolicyPlayer(policy)
        return make_player(config, player_seed)

    outcomes = []
    for index in range(boards):
        board = make_board(seed, index, rules)
        outcomes.append(play_board(board, configs, seed, factory))
        if on_board is not None:
            on_board(index)
    return {"seed": seed, **summarize_arena(configs, outcomes)}
