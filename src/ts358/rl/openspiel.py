"""One deal of 3-5-8 as an OpenSpiel game, ``python_ts358``, registered on import.

Three players (the seats 0-2, player ``p`` is seat ``p``), sequential, imperfect
information, zero-sum, with explicit chance and the deal's scores as the terminal returns
(:attr:`DealResult.scores <ts358.deal.DealResult>`). One deal is one game: a match is not
offered, since its information states would have to carry every earlier deal.

>>> import pyspiel
>>> import ts358.rl.openspiel
>>> game = pyspiel.load_game("python_ts358", {"rules": "kurnik"})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 52)
>>> game.observation_tensor_shape(), game.information_state_tensor_shape()
([691], [5203])

Parameters (``pyspiel.load_game("python_ts358", {...})``, :func:`load`, or a game string
``python_ts358(rules=sergeant-major;length:9,dealer=2)``):

``rules`` (text, ``house``)
    :meth:`Rules.parse <ts358.rules.Rules.parse>`'s text; ``;`` may stand for its commas and
    ``:`` for its equals signs, which a game string takes for its own.
``dealer`` (0)
    The dealer's seat, :attr:`DealSetup.dealer <ts358.deal.DealSetup>`: the chooser is the
    seat after it (under ``top = dealer`` the chooser deals the cards, as in ts358).
``deal_number`` (0: 1, or 2 with previous scores), ``previous_scores`` (text, none),
``totals`` (text, ``0;0;0``)
    The deal's match context (:class:`~ts358.rl.context.DealContext`): the previous deal's
    scores, by seat, decide the exchange, which a first deal does not have. Three whole
    numbers separated by ``;``, commas or spaces: ``4;-1;-3``.

**Chance.** The first 52 nodes deal the cards one at a time: each outcome is a card not
yet dealt (its card action, 0-51), all equally likely. The ``i``-th card dealt goes as
:meth:`DealSetup.shuffled <ts358.deal.DealSetup.shuffled>` deals the ``i``-th card of its
shuffled deck: to role ``i % 3`` (chooser, third, dealer) for ``i < 48``, the last four to
the talon; so the chooser's first six cards are the first six dealt to them. Then the
deal's decisions follow, driven by a :class:`~ts358.rl.stepper.Stepper` in the one action
space of :mod:`ts358.rl.actions` (the four discards are four decisions).

**Observation tensor**: the vector of :mod:`ts358.rl.observation`
(:data:`~ts358.rl.observation.LAYOUT`), the same as the PettingZoo environments'.

**Information-state tensor**: the observation, then what the observation loses of the
player's own history, as the pieces of ``Observation.dict`` in this order (seats relative
to the player: 0 the player, 1 the seat after it, 2 the seat after that; cards as the card
actions, ``suit * 13 + rank``):

=====================  ============  ===================================================
piece                  shape         holds
=====================  ============  ===================================================
``observation``        691           the observation tensor
``trick_leader``       16 x 3        trick ``t``'s leader (one-hot), the trick in
                                     progress included
``trick_cards``        16 x 3 x 52   trick ``t``: the card each seat played to it
``exchange_giver``     16 x 3        exchange step ``k`` the player took part in: the
                                     seat that gave a card
``exchange_receiver``  16 x 3        ... the seat that received it
``exchange_given``     16 x 52       ... the card given
``exchange_returned``  16 x 52       ... the card that came back
``discard_order``      4 x 52        the chooser's discards in the order picked
=====================  ============  ===================================================

No player takes part in more than 16 exchange steps: a deal score is at most 16 either
way. Everything comes from the player's :class:`~ts358.view.SeatView` and
:class:`~ts358.rl.observation.SeatMemory`, and the discard order from the player's own
actions, so no tensor or string holds a card the player has not seen. While the cards are
being dealt the player sees none: its tensors are those of an empty hand with the deal's
context (role, dealer, rules, scores).

The strings are the same knowledge as text: the observation's fields by name
(:func:`~ts358.rl.observation.decode`, empty ones left out), and for the information state
the tricks, exchange steps and discard order after them.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

try:
    import pyspiel
except ImportError:  # pragma: no cover - the extra is part of the test install on Linux
    raise ImportError(
        "ts358.rl.openspiel needs OpenSpiel: pip install 'ts358[openspiel]'"
    ) from None

from ts358.cards import Card, CardSet
from ts358.deal import DealSetup
from ts358.exchange import plan_exchange
from ts358.rl.actions import CARD_ACTIONS, NUM_ACTIONS, action_of, card_of, describe_action
from ts358.rl.context import DealContext
from ts358.rl.observation import OBSERVATION_SIZE, SeatMemory, decode, encode
from ts358.rl.stepper import Stepper
from ts358.rules import TRICKS_PER_DEAL, Role, Rules
from ts358.view import DecisionKind, SeatView

__all__ = [
    "GAME_NAME",
    "GAME_TYPE",
    "INFORMATION_STATE_PIECES",
    "TS358Game",
    "TS358Observer",
    "TS358State",
    "deal_setup",
    "load",
]

GAME_NAME = "python_ts358"
"""The game's short name, for ``pyspiel.load_game``."""

_PLAYERS = 3
_DECK_SIZE = CARD_ACTIONS
_DISCARDS = 4
_MAX_STEPS = TRICKS_PER_DEAL  # exchange steps a seat takes part in (see the module notes)
_REL = ("self", "next", "after-next")
_NO_CARDS = str(CardSet())

INFORMATION_STATE_PIECES: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("observation", (OBSERVATION_SIZE,)),
    ("trick_leader", (TRICKS_PER_DEAL, 3)),
    ("trick_cards", (TRICKS_PER_DEAL, 3, CARD_ACTIONS)),
    ("exchange_giver", (_MAX_STEPS, 3)),
    ("exchange_receiver", (_MAX_STEPS, 3)),
    ("exchange_given", (_MAX_STEPS, CARD_ACTIONS)),
    ("exchange_returned", (_MAX_STEPS, CARD_ACTIONS)),
    ("discard_order", (_DISCARDS, CARD_ACTIONS)),
)
"""The pieces of the information-state tensor, in order, with their shapes."""

_DEFAULTS: dict[str, Any] = {
    "rules": "house",
    "dealer": 0,
    "deal_number": 0,
    "previous_scores": "",
    "totals": "",
}

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="3-5-8, one deal (ts358)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=_PLAYERS,
    min_num_players=_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)
"""The game's type; its parameters are the module notes'."""


@dataclasses.dataclass(frozen=True)
class _Setting:
    """A game's parameters, checked, and what follows from them."""

    context: DealContext
    dealer: int

    @classmethod
    def of(cls, params: dict[str, Any]) -> _Setting:
        values = {**_DEFAULTS, **params}
        unknown = set(values) - set(_DEFAULTS)
        if unknown:
            raise ValueError(f"{GAME_NAME} has no parameter {sorted(unknown)[0]!r}")
        number = values["deal_number"]
        context = DealContext.of(
            _rules_text(values["rules"]),
            dealer=values["dealer"],
            deal_number=number if number != 0 else None,
            previous_scores=_numbers("previous_scores", values["previous_scores"]),
            totals=_numbers("totals", values["totals"]) or (0, 0, 0),
        )
        assert context.dealer is not None
        scores = context.previous_scores
        low, high = _score_range(context.rules)
        if scores is not None and (
            sum(scores) != 0 or not low <= min(scores) <= max(scores) <= high
        ):
            # Deal scores add up to zero and stay within the rules' range, which is also
            # what bounds the exchange (and the information state's exchange steps).
            raise ValueError(
                f"previous_scores are a deal's scores: adding up to 0, each {low} to {high}, "
                f"not {scores}"
            )
        return cls(context, context.dealer)

    @property
    def rules(self) -> Rules:
        return self.context.rules

    def game_info(self) -> Any:
        low, high = _score_range(self.rules)
        return pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=_DECK_SIZE,
            num_players=_PLAYERS,
            min_utility=float(low),
            max_utility=float(high),
            utility_sum=0.0,
            max_game_length=1 + self._exchange_actions() + _DISCARDS + 3 * TRICKS_PER_DEAL,
        )

    def _exchange_actions(self) -> int:
        # Each card given is one action, and one more when it is a trump whose return is
        # chosen; stopping early gives fewer cards than that takes actions.
        games = (None, *sorted(self.rules.contracts))
        plans = (
            plan_exchange(self.context.previous_scores, self.dealer, game, self.rules)
            for game in games
        )
        return max(sum(2 * t.count for t in plan) for plan in plans)

    def empty_view(self, seat: int) -> SeatView:
        """What ``seat`` knows before it has a card."""
        context = self.context
        return SeatView(
            seat=seat,
            deal_number=context.deal_number,
            dealer=self.dealer,
            rules=self.rules,
            hand=CardSet(),
            available=context.games_left or (self.rules.contracts,) * 3,
            totals=context.totals,
            previous_scores=context.previous_scores,
        )

    def __deepcopy__(self, memo: dict[int, Any]) -> _Setting:
        return self  # immutable, and shared by every state of the game and its clones


def _rules_text(text: object) -> str:
    if not isinstance(text, str):
        raise ValueError(
            f"rules is text such as 'house' or 'sergeant-major;length:9', not {text!r}"
        )
    # A game string splits on commas and on equals signs, whatever they are in.
    return text.replace(";", ",").replace(":", "=")


def _numbers(name: str, text: object) -> tuple[int, ...] | None:
    if not isinstance(text, str):
        raise ValueError(f"{name} is text, three numbers such as 4;-1;-3, not {text!r}")
    if not text.strip():
        return None
    try:
        return tuple(int(part) for part in re.split(r"[;,\s]+", text.strip()))
    except ValueError:
        raise ValueError(f"{name} is three numbers such as 4;-1;-3, not {text!r}") from None


def _score_range(rules: Rules) -> tuple[int, int]:
    scores = [
        rules.score(role, game, taken)
        for role in Role
        for game in rules.contracts
        for taken in range(TRICKS_PER_DEAL + 1)
    ]
    return min(scores), max(scores)


class TS358Game(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type information
    """The game ``python_ts358`` (see the module notes)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.setting = _Setting.of(dict(params or {}))
        super().__init__(GAME_TYPE, self.setting.game_info(), dict(params or {}))

    def new_initial_state(self) -> TS358State:
        """The state before the first card is dealt."""
        return TS358State(self, self.setting)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> TS358Observer:
        """The observation (``iig_obs_type`` None or without perfect recall) or the
        information state (perfect recall) of one player."""
        return TS358Observer(iig_obs_type, params)


class TS358State(pyspiel.State):  # type: ignore[misc]
    """A state of the game: the cards dealt so far, then the deal being played."""

    def __init__(self, game: TS358Game, setting: _Setting) -> None:
        super().__init__(game)
        self._setting = setting
        self._dealt: list[int] = []
        self._undealt = (1 << _DECK_SIZE) - 1
        self._stepper: Stepper | None = None
        # The chooser's discards in the order picked: the only part of a seat's own history
        # that neither its view nor its SeatMemory keeps (SeatMemory.picked is a set).
        self._picks: list[int] = []
        self._scores: tuple[int, int, int] | None = None

    @property
    def stepper(self) -> Stepper | None:
        """The deal being played, None while the cards are being dealt."""
        return self._stepper

    def current_player(self) -> int:
        stepper = self._stepper
        if stepper is None:
            return int(pyspiel.PlayerId.CHANCE)
        if stepper.done:
            return int(pyspiel.PlayerId.TERMINAL)
        seat = stepper.seat
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        stepper = self._stepper
        if stepper is None or stepper.seat != player:
            return []
        return stepper.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not yet dealt, each as likely as the others."""
        left = [a for a in range(_DECK_SIZE) if self._undealt >> a & 1]
        p = 1.0 / len(left)
        return [(a, p) for a in left]

    def _apply_action(self, action: int) -> None:
        action = int(action)
        stepper = self._stepper
        if stepper is None:
            if not 0 <= action < _DECK_SIZE or not self._undealt >> action & 1:
                raise ValueError(f"chance outcome {action}: not a card still to deal")
            self._dealt.append(action)
            self._undealt &= ~(1 << action)
            if len(self._dealt) == _DECK_SIZE:
                self._start()
            return
        discarding = stepper.kind is DecisionKind.DISCARD
        result = stepper.step(action)  # IllegalAction, nothing changed, if not legal
        if discarding:
            self._picks.append(action)
        if result is not None:
            self._scores = result.scores

    def _start(self) -> None:
        setup = deal_setup(self._setting.context.deal_number, self._setting.dealer, self._dealt)
        self._stepper = Stepper(self._setting.context.deal(0, {"setup": setup}))

    def _action_to_string(self, player: int, action: int) -> str:
        if player < 0:
            return f"deal {describe_action(action)}"
        return describe_action(action)

    def is_terminal(self) -> bool:
        return self._stepper is not None and self._stepper.done

    def returns(self) -> list[float]:
        """The deal's scores by seat once it is over, zeros before."""
        if self._scores is None:
            return [0.0] * _PLAYERS
        return [float(s) for s in self._scores]

    def knowledge(self, player: int) -> tuple[SeatView, SeatMemory, tuple[int, ...]]:
        """What ``player`` knows: its view, its memory, and its discards in the order it
        picked them (empty for the other seats)."""
        stepper = self._stepper
        if stepper is None:
            return self._setting.empty_view(player), SeatMemory(), ()
        picks = tuple(self._picks) if player == stepper.deal.chooser else ()
        return stepper.view(player), stepper.memories[player], picks

    def __str__(self) -> str:
        dealer = self._setting.dealer
        stepper = self._stepper
        if stepper is None:
            dealt = " ".join(describe_action(a) for a in self._dealt)
            return f"dealer {dealer}; dealt {len(self._dealt)}: {dealt}"
        deal = stepper.deal
        hands = "; ".join(f"seat {s}: {CardSet(deal.setup.hands[s])}" for s in range(_PLAYERS))
        decisions = ", ".join(deal.decisions)
        picking = " ".join(describe_action(a) for a in self._picks) if not deal.discarded else ""
        return (
            f"dealer {dealer}; {hands}; talon {CardSet(deal.setup.talon)}; "
            f"decisions: {decisions}" + (f"; discarding {picking}" if picking else "")
        )


def deal_setup(number: int, dealer: int, dealt: Sequence[int]) -> DealSetup:
    """The deal of the 52 card actions ``dealt`` in the order dealt (:meth:`DealSetup.dealt
    <ts358.deal.DealSetup.dealt>`)."""
    return DealSetup.dealt(number, dealer, [card_of(a) for a in dealt])


class TS358Observer:
    """One player's observation or information state, as OpenSpiel's Python observers
    are: :attr:`tensor` (float32), :attr:`dict` (its named pieces), :meth:`set_from`,
    :meth:`string_from`."""

    def __init__(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> None:
        if params:
            raise ValueError(f"{GAME_NAME} takes no observation parameters, not {params}")
        if iig_obs_type is not None and (
            not iig_obs_type.public_info
            or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                f"{GAME_NAME} observes for one player, with the public information: "
                f"not {iig_obs_type}"
            )
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        pieces = INFORMATION_STATE_PIECES if self.perfect_recall else INFORMATION_STATE_PIECES[:1]
        sizes = [int(np.prod(shape)) for _, shape in pieces]
        self.tensor: npt.NDArray[np.float32] = np.zeros(sum(sizes), np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        at = 0
        for (name, shape), size in zip(pieces, sizes):
            self.dict[name] = self.tensor[at : at + size].reshape(shape)
            at += size

    def set_from(self, state: TS358State, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s knowledge of ``state``."""
        view, memory, picks = state.knowledge(player)
        self.tensor.fill(0)
        pieces = self.dict
        pieces["observation"][:] = encode(view, memory)
        if not self.perfect_recall:
            return
        for t, (leader, cards) in enumerate(_tricks(view)):
            pieces["trick_leader"][t, (leader - player) % 3] = 1
            for i, card in enumerate(cards):
                pieces["trick_cards"][t, (leader + i - player) % 3, action_of(card)] = 1
        for k, step in enumerate(view.exchanges):
            pieces["exchange_giver"][k, (step.giver - player) % 3] = 1
            pieces["exchange_receiver"][k, (step.receiver - player) % 3] = 1
            pieces["exchange_given"][k, action_of(step.given)] = 1
            pieces["exchange_returned"][k, action_of(step.returned)] = 1
        for k, action in enumerate(picks):
            pieces["discard_order"][k, action] = 1

    def string_from(self, state: TS358State, player: int) -> str:
        """``player``'s knowledge of ``state`` as text (see the module notes)."""
        view, memory, picks = state.knowledge(player)
        lines = _observation_lines(encode(view, memory))
        if not self.perfect_recall:
            return "\n".join(lines)
        for t, (leader, cards) in enumerate(_tricks(view), 1):
            played = " ".join(str(c) for c in cards) or "-"
            lines.append(f"trick {t}: {_REL[(leader - player) % 3]} leads, {played}")
        for step in view.exchanges:
            giver, receiver = _REL[(step.giver - player) % 3], _REL[(step.receiver - player) % 3]
            lines.append(f"exchange: {giver} gave {step.given} to {receiver}, {step.returned} back")
        if picks:
            lines.append("discard order: " + " ".join(describe_action(a) for a in picks))
        return "\n".join(lines)


def _tricks(view: SeatView) -> list[tuple[int, tuple[Card, ...]]]:
    """The tricks in order as (leader, cards), the trick in progress last."""
    out = [(trick.leader, trick.cards) for trick in view.tricks]
    if view.leader is not None:
        out.append((view.leader, view.trick))
    return out


def _observation_lines(vector: npt.NDArray[np.float32]) -> list[str]:
    lines = []
    for name, value in decode(vector).items():
        if value is None or value is False or value == _NO_CARDS:
            continue
        if value is True:
            text = "yes"
        elif name == "games_left":
            text = ", ".join(f"{r} {' '.join(games) or '-'}" for r, games in zip(_REL, value))
        elif isinstance(value, list) and isinstance(value[0], str):
            if all(v == _NO_CARDS for v in value):
                continue
            text = ", ".join(f"{r} {v}" for r, v in zip(_REL, value))
        elif isinstance(value, list):
            text = ", ".join(f"{r} {v}" for r, v in zip(_REL, value))
        else:
            text = str(value)
        lines.append(f"{name}: {text}")
    return lines


def load(
    rules: str = "house",
    *,
    dealer: int = 0,
    deal_number: int | None = None,
    previous_scores: Sequence[int] | None = None,
    totals: Sequence[int] = (0, 0, 0),
) -> Any:
    """The game with these parameters, as Python values (``pyspiel.load_game`` takes them
    as text): ``load("sergeant-major,length=9", previous_scores=(4, -1, -3))``."""
    params: dict[str, Any] = {"rules": rules, "dealer": dealer}
    if deal_number is not None:
        params["deal_number"] = deal_number
    if previous_scores is not None:
        params["previous_scores"] = ";".join(str(s) for s in previous_scores)
    params["totals"] = ";".join(str(t) for t in totals)
    return pyspiel.load_game(GAME_NAME, params)


pyspiel.register_game(GAME_TYPE, TS358Game)
