"""The observation: exactly what one seat may know, as a fixed-length vector.

The vector is built from the seat's :class:`~ts358.view.SeatView` (which never holds another
seat's hidden card) and from what the seat itself remembers of earlier views
(:class:`SeatMemory`: the cards it saw when choosing, the discards it has picked), nothing
else. Seats are written *relative* to the observer: position 0 is the observer, 1 the seat
that plays after it (clockwise), 2 the seat after that. Cards are the 52 card actions'
order (:mod:`ts358.rl.actions`).

:data:`LAYOUT` lists the fields in order; docs/rl.md prints it. Binary fields (one-hot
choices and card planes) come first, then numbers. :func:`decode` turns a vector back into a
dict of named fields, for reading.

>>> OBSERVATION_SIZE
691
>>> [f.name for f in LAYOUT][:4]
['decision', 'role', 'dealer', 'game']
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import numpy.typing as npt

from ts358.cards import CardSet
from ts358.rl.actions import CARD_ACTIONS, card_of, cards_mask
from ts358.rules import Contract, Role, Talon, VoidRule
from ts358.view import DecisionKind, SeatView

__all__ = [
    "LAYOUT",
    "OBSERVATION_SIZE",
    "Field",
    "SeatMemory",
    "decode",
    "encode",
    "field_slice",
    "observation_bounds",
]

_KINDS = (*DecisionKind, None)
_MAX_TOTAL = 16 * 18  # no total of an 18-deal match goes beyond 16 points a deal


@dataclasses.dataclass(frozen=True)
class Field:
    """One field of the observation vector.

    Attributes:
        name: the key of the field in :func:`decode`'s dict.
        size: how many numbers it takes.
        low, high: the bounds of each of its numbers.
        labels: what each position means for a one-hot field (else empty).
        cards: whether it is one or more planes of the 52 cards.
        doc: what it holds.
    """

    name: str
    size: int
    low: float
    high: float
    doc: str
    labels: tuple[str, ...] = ()
    cards: bool = False

    @property
    def binary(self) -> bool:
        return self.low == 0 and self.high == 1


def _onehot(name: str, labels: tuple[str, ...], doc: str) -> Field:
    return Field(name, len(labels), 0, 1, doc, labels)


def _cards(name: str, planes: int, doc: str) -> Field:
    return Field(name, planes * CARD_ACTIONS, 0, 1, doc, cards=True)


_REL = ("self", "next", "after-next")

LAYOUT: tuple[Field, ...] = (
    _onehot(
        "decision",
        tuple(str(k) if k else "none" for k in _KINDS),
        "the decision due from this seat now (none: another seat's turn, or the deal is over)",
    ),
    _onehot("role", tuple(r.label for r in Role), "this seat's role in the deal"),
    _onehot("dealer", _REL, "the dealer's seat, relative"),
    _onehot("game", (*(c.label for c in Contract), "none"), "the game chosen (none before)"),
    _onehot(
        "leader", _REL, "the leader of the trick in progress, relative (none outside the play)"
    ),
    _onehot("give_to", _REL, "where the card given or returned now goes, relative"),
    Field(
        "games_left",
        18,
        0,
        1,
        "the games each seat may still choose, 6 per relative "
        "seat in the game order (the game being played counts as used)",
        tuple(f"{r}:{c.label}" for r in _REL for c in Contract),
    ),
    _onehot(
        "void_rule",
        tuple(v.label for v in VoidRule),
        "what a player void in the suit led must do (rules)",
    ),
    _onehot("talon_rule", tuple(t.label for t in Talon), "how the chooser takes the talon (rules)"),
    _onehot("talon_taken", ("yes",), "whether the chooser has taken the talon"),
    _onehot(
        "has_previous",
        ("yes",),
        "whether there was a previous deal (its scores decide the exchange)",
    ),
    _cards("hand", 1, "the cards this seat holds (the chooser's first cards before the choice)"),
    _cards("seen_at_choice", 1, "the cards this seat saw when choosing the game (chooser only)"),
    _cards("talon", 1, "the talon, once this seat has seen it"),
    _cards("discard", 1, "this seat's discards (as chooser), those picked so far while discarding"),
    _cards("gave", 1, "the cards this seat handed over in the exchange"),
    _cards(
        "received", 1, "the cards this seat received in the exchange (a trump to return included)"
    ),
    _cards(
        "played",
        3,
        "the cards each relative seat has played in this deal, the trick in progress included",
    ),
    _cards("trick", 3, "the trick in progress: the card each relative seat played to it"),
    Field("taken", 3, 0, 16, "tricks taken by each relative seat"),
    Field(
        "targets",
        3,
        0,
        16,
        "each relative seat's target (tricks to take), or in "
        "no-tricks its limit (most tricks allowed)",
    ),
    Field(
        "others_exchanged", 1, 0, 16, "cards exchanged between the two other seats (the count only)"
    ),
    Field("gives_left", 1, 0, 16, "cards this seat may still give in this transfer"),
    Field("totals", 3, -_MAX_TOTAL, _MAX_TOTAL, "match totals before this deal, by relative seat"),
    Field(
        "previous_scores",
        3,
        -16,
        16,
        "the previous deal's scores by relative seat (0 in a first deal)",
    ),
    Field("deal_number", 1, 1, 18, "the deal's number in the match"),
    Field("match_length", 1, 3, 18, "the deals of the match"),
)
"""The fields of the observation vector, in order."""

OBSERVATION_SIZE = sum(f.size for f in LAYOUT)
"""The length of the observation vector."""

_OFFSETS: dict[str, int] = {}
_at = 0
for _f in LAYOUT:
    _OFFSETS[_f.name] = _at
    _at += _f.size
# The binary fields come first: they are packed into one integer and unpacked at once.
_BITS = _OFFSETS[next(f.name for f in LAYOUT if not f.binary)]
_BYTES = (_BITS + 7) // 8
_CONTRACT_BIT = {c: 1 << c.value for c in Contract}


def field_slice(name: str) -> slice:
    """Where field ``name`` of :data:`LAYOUT` lies in the vector:
    ``vector[field_slice("hand")]`` is the hand's 52 numbers. KeyError for another name."""
    if name not in _OFFSETS:
        raise KeyError(f"no observation field {name!r} (one of {', '.join(_OFFSETS)})")
    start = _OFFSETS[name]
    return slice(start, start + next(f.size for f in LAYOUT if f.name == name))


def observation_bounds() -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """The low and high bound of each number of the vector (for a Box space)."""
    low = np.concatenate([np.full(f.size, f.low, np.float32) for f in LAYOUT])
    high = np.concatenate([np.full(f.size, f.high, np.float32) for f in LAYOUT])
    return low, high


class SeatMemory:
    """What one seat remembers of a deal beyond its view of the moment: the cards it saw
    when it chose the game, the discards it has picked so far (one per decision), and the
    cards each seat has played (counted from the view's tricks as they come)."""

    __slots__ = ("_deal", "_fixed", "_tricks", "picked", "played", "seen")

    def __init__(self) -> None:
        self.seen = 0
        self.picked = 0
        self.played = [0, 0, 0]  # by seat, finished tricks only
        self._tricks = 0
        self._deal: tuple[int, int] = (-1, -1)
        # The fields that change only with the game chosen, for the deal's (seat, game).
        self._fixed: tuple[int, Contract | None, int, list[int]] | None = None

    def follow(self, view: SeatView) -> None:
        """Bring the memory up to ``view`` (a new deal starts afresh; the cards seen at the
        choice are noted when the choice is due)."""
        if (view.deal_number, view.seat) != self._deal:
            self.__init__()  # type: ignore[misc]
            self._deal = (view.deal_number, view.seat)
        if view.kind is DecisionKind.CHOOSE:
            self.seen = view.hand.mask
        tricks = view.tricks
        if len(tricks) > self._tricks:
            for trick in tricks[self._tricks :]:
                for i, card in enumerate(trick.cards):
                    self.played[(trick.leader + i) % 3] |= card.mask
            self._tricks = len(tricks)

    def fixed(self, view: SeatView) -> tuple[int, list[int]]:
        """The bits and numbers of the fields that change only when the game is chosen."""
        fixed = self._fixed
        if fixed is None or fixed[1] is not view.game:
            fixed = self._fixed = (view.seat, view.game, *_fixed_fields(view))
        return fixed[2], fixed[3]


_FIELD_AT = {f.name: at for f, at in zip(LAYOUT, _OFFSETS.values())}
_KIND_BIT = {kind: 1 << i for i, kind in enumerate(_KINDS)}


def _fixed_fields(view: SeatView) -> tuple[int, list[int]]:
    me, dealer, game, rules = view.seat, view.dealer, view.game, view.rules
    at = _FIELD_AT
    bits = 1 << (at["role"] + (me - dealer - 1) % 3)
    bits |= 1 << (at["dealer"] + (dealer - me) % 3)
    bits |= 1 << (at["game"] + (game.value if game is not None else 6))
    chooser = (dealer + 1) % 3
    for rel in range(3):
        seat = (me + rel) % 3
        left = 0
        for contract in view.available[seat]:
            left |= _CONTRACT_BIT[contract]
        if seat == chooser and game is not None:
            left &= ~_CONTRACT_BIT[game]
        bits |= left << (at["games_left"] + 6 * rel)
    bits |= 1 << (at["void_rule"] + rules.void.value)
    bits |= 1 << (at["talon_rule"] + rules.talon.value)
    bits |= (view.previous_scores is not None) << at["has_previous"]
    order = [(me + r) % 3 for r in range(3)]
    roles = [Role((s - dealer - 1) % 3) for s in order]
    limits = game is Contract.NO_TRICKS
    previous = view.previous_scores or (0, 0, 0)
    numbers = [
        *(rules.limit(r) if limits else rules.target(r) for r in roles),
        *(view.totals[s] for s in order),
        *(previous[s] for s in order),
        view.deal_number,
        rules.length,
    ]
    return bits, numbers


_LEADER_AT = _FIELD_AT["leader"]
_GIVE_TO_AT = _FIELD_AT["give_to"]
_TALON_TAKEN_AT = _FIELD_AT["talon_taken"]
_PLANES_AT = _FIELD_AT["hand"]


def encode(view: SeatView, memory: SeatMemory) -> npt.NDArray[np.float32]:
    """The observation vector of ``view`` (see :data:`LAYOUT`); ``memory`` is brought up to
    the view first (:meth:`SeatMemory.follow`)."""
    memory.follow(view)
    me = view.seat
    leader = view.leader
    bits, numbers = memory.fixed(view)
    bits |= _KIND_BIT[view.kind] | view.talon_taken << _TALON_TAKEN_AT
    if leader is not None:
        bits |= 1 << (_LEADER_AT + (leader - me) % 3)
    if view.give_to is not None:
        bits |= 1 << (_GIVE_TO_AT + (view.give_to - me) % 3)
    gave = received = 0
    for step in view.exchanges:
        if step.giver == me:
            gave |= step.given.mask
            received |= step.returned.mask
        else:
            gave |= step.returned.mask
            received |= step.given.mask
    if view.received is not None:
        received |= view.received.mask
    played = list(memory.played)
    trick = [0, 0, 0]
    if leader is not None:
        for i, card in enumerate(view.trick):
            seat = (leader + i) % 3
            played[seat] |= card.mask
            trick[seat] = card.mask
    next_, after = (me + 1) % 3, (me + 2) % 3
    at = _PLANES_AT
    for mask in (
        view.hand.mask,
        memory.seen if me == (view.dealer + 1) % 3 else 0,
        view.talon.mask if view.talon is not None else 0,
        view.discard.mask if view.discard is not None else memory.picked,
        gave,
        received,
        played[me],
        played[next_],
        played[after],
        trick[me],
        trick[next_],
        trick[after],
    ):
        if mask:
            bits |= cards_mask(mask) << at
        at += CARD_ACTIONS
    out = np.empty(OBSERVATION_SIZE, np.float32)
    out[:_BITS] = np.unpackbits(
        np.frombuffer(bits.to_bytes(_BYTES, "little"), np.uint8), count=_BITS, bitorder="little"
    )
    taken = view.taken
    out[_BITS:] = [
        taken[me],
        taken[next_],
        taken[after],
        *numbers[:3],
        view.others_exchanged,
        view.gives_left,
        *numbers[3:],
    ]
    return out


def decode(vector: npt.ArrayLike) -> dict[str, Any]:
    """The observation vector as a dict of its fields, for reading: one-hot fields as their
    label (None if none is set), card planes as hands in notation (a list of three for the
    relative seats), ``games_left`` as three lists of games, numbers as numbers."""
    values = np.asarray(vector, dtype=np.float32)
    if values.shape != (OBSERVATION_SIZE,):
        raise ValueError(f"an observation has {OBSERVATION_SIZE} numbers, not {values.shape}")
    out: dict[str, Any] = {}
    for f in LAYOUT:
        part = values[_OFFSETS[f.name] : _OFFSETS[f.name] + f.size]
        if f.cards:
            hands = [
                str(CardSet(card_of(a) for a in range(CARD_ACTIONS) if part[a + p]))
                for p in range(0, f.size, CARD_ACTIONS)
            ]
            out[f.name] = hands[0] if len(hands) == 1 else hands
        elif f.name == "games_left":
            out[f.name] = [[c.label for c in Contract if part[6 * r + c.value]] for r in range(3)]
        elif f.labels == ("yes",):
            out[f.name] = bool(part[0])
        elif f.labels:
            on = [label for label, v in zip(f.labels, part) if v]
            out[f.name] = on[0] if on else None
        else:
            numbers = [int(v) for v in part]
            out[f.name] = numbers[0] if f.size == 1 else numbers
    return out
