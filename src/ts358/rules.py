"""Contracts, roles and rule options: the vocabulary of the rules (docs/rules.md) as value
types, and the arithmetic of seats and roles.

>>> Contract.parse("nt"), Contract.HEARTS.trump
(<Contract.NO_TRUMP: 4>, <Suit.HEARTS: 1>)
>>> Role.THIRD.seat(dealer=2), Role.of_seat(1, dealer=2)
(1, <Role.THIRD: 1>)
>>> Role.CHOOSER.score(Contract.SPADES, 10), Role.DEALER.score(Contract.NO_TRICKS, 10)
(2, -2)
>>> Rules.named("kurnik", length=9)
Rules(void=<VoidRule.KURNIK: 1>, exchange=True, exchange_trumps=False, length=9)
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterable
from typing import Any, TypeVar

from ts358._input import quote
from ts358.cards import NotationError, Suit

__all__ = [
    "HAND_SIZE",
    "MATCH_LENGTHS",
    "TRICKS_PER_DEAL",
    "Contract",
    "Role",
    "Rules",
    "Seating",
    "Triple",
    "VoidRule",
    "check_match_length",
    "triple",
]

MATCH_LENGTHS = (3, 6, 9, 18)
"""The deals a match may have: 3k with k in 1, 2, 3, 6."""

TRICKS_PER_DEAL = 16
"""Tricks in a deal."""

HAND_SIZE = 16
"""Cards dealt to each player (the talon holds the other four)."""


_T = TypeVar("_T")

Triple = tuple[_T, _T, _T]
"""One value per seat (0-2) or per role (chooser, third, dealer)."""


def triple(values: Iterable[_T]) -> Triple[_T]:
    """``values`` (exactly three) as a :data:`Triple`; ValueError for another count."""
    a, b, c = values
    return (a, b, c)


def check_match_length(length: object) -> int:
    """``length`` if a match may have that many deals; ValueError saying what may."""
    if isinstance(length, bool) or length not in MATCH_LENGTHS:
        allowed = ", ".join(map(str, MATCH_LENGTHS[:-1])) + f" or {MATCH_LENGTHS[-1]}"
        raise ValueError(f"a match has {allowed} deals, not {quote(length)}")
    return length


_L = TypeVar("_L", bound="_Labelled")


class _Labelled(enum.IntEnum):
    """An enum written in files and on the command line as its lower-case name."""

    @property
    def label(self) -> str:
        """The name used in files, records and options."""
        return self.name.lower().replace("_", "-")

    @classmethod
    def parse(cls: type[_L], text: str) -> _L:
        """The member whose label is ``text`` (case and surrounding spaces ignored)."""
        key = text.strip().lower()
        for member in cls:
            if member.label == key:
                return member
        labels = ", ".join(m.label for m in cls)
        raise NotationError(f"not a {cls._noun()}: {quote(text)} (one of {labels})")

    @classmethod
    def _noun(cls) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.label


class Contract(_Labelled):
    """The six games the chooser can pick; the value is the core's contract code. Labels:
    spades, hearts, diamonds, clubs, no-trump, no-tricks."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3
    NO_TRUMP = 4
    NO_TRICKS = 5

    @property
    def trump(self) -> Suit | None:
        """The trump suit, or None in no-trump and no-tricks."""
        return Suit(self.value) if self.value < 4 else None

    @classmethod
    def parse(cls, text: str) -> Contract:
        """A contract from its label (``hearts``, ``no-trump``, ``no-tricks``, also ``nt`` and
        ``misere``) or a suit's letter or symbol."""
        key = text.strip().lower().replace("_", "-").replace(" ", "-")
        key = {"nt": "no-trump", "notrump": "no-trump", "misere": "no-tricks"}.get(key, key)
        for contract in cls:
            if contract.label == key:
                return contract
        try:
            return cls(Suit.parse(key).value)
        except NotationError:
            labels = ", ".join(c.label for c in cls)
            raise NotationError(f"not a game: {quote(text)} (one of {labels})") from None


class Role(_Labelled):
    """A seat's role in one deal; the value is its place in the play order from the chooser."""

    CHOOSER = 0
    THIRD = 1
    DEALER = 2

    @property
    def obligation(self) -> int:
        """Tricks to take in trump and no-trump games: 8, 5, 3."""
        return (8, 5, 3)[self]

    @property
    def limit(self) -> int:
        """Most tricks allowed in no-tricks: 3, 5, 8."""
        return (3, 5, 8)[self]

    def score(self, contract: Contract, tricks: int) -> int:
        """The deal score for taking ``tricks`` tricks in this role."""
        if contract is Contract.NO_TRICKS:
            return self.limit - tricks
        return tricks - self.obligation

    def seat(self, dealer: int) -> int:
        """The seat (0-2) holding this role in a deal dealt by ``dealer``."""
        return (dealer + 1 + self) % 3

    def next(self, steps: int = 1) -> Role:
        """The role ``steps`` places later in the play order (clockwise)."""
        return Role((self + steps) % 3)

    @classmethod
    def of_seat(cls, seat: int, dealer: int) -> Role:
        """The role of ``seat`` in a deal dealt by ``dealer`` (the inverse of :meth:`seat`)."""
        return cls((seat - dealer - 1) % 3)

    @classmethod
    def _noun(cls) -> str:
        return "role"


class VoidRule(_Labelled):
    """What a player void in the suit led must do; the value is the core's code."""

    HOUSE = 0  # must play a trump if holding one (need not overtrump)
    KURNIK = 1  # may play any card

    @classmethod
    def _noun(cls) -> str:
        return "rule set"


class Seating:
    """The seats of a deal's roles, for anything that knows its deal's ``dealer``."""

    __slots__ = ()
    dealer: int

    @property
    def chooser(self) -> int:
        """The seat choosing the game (left of the dealer)."""
        return Role.CHOOSER.seat(self.dealer)

    @property
    def third(self) -> int:
        """The seat of the third player (right of the dealer)."""
        return Role.THIRD.seat(self.dealer)

    def role_of(self, seat: int) -> Role:
        """The role of ``seat`` in this deal."""
        return Role.of_seat(seat, self.dealer)

    def seat_of(self, role: Role) -> int:
        """The seat holding ``role`` in this deal."""
        return role.seat(self.dealer)


@dataclasses.dataclass(frozen=True)
class Rules:
    """The rule options of a match (docs/rules.md#variants); the defaults are the house rules."""

    void: VoidRule = VoidRule.HOUSE
    exchange: bool = True
    exchange_trumps: bool = True
    length: int = 6

    def __post_init__(self) -> None:
        if not isinstance(self.void, VoidRule):  # a label, e.g. from a file
            object.__setattr__(self, "void", VoidRule.parse(str(self.void)))  # type: ignore[unreachable]
        check_match_length(self.length)

    @property
    def games_per_player(self) -> int:
        """How many different games each player chooses in the match (k of 3k deals)."""
        return self.length // 3

    @classmethod
    def kurnik(cls, length: int = 6) -> Rules:
        """The Kurnik variant: void in the suit led, any card; trumps not exchanged."""
        return cls(void=VoidRule.KURNIK, exchange_trumps=False, length=length)

    @classmethod
    def named(cls, name: str, length: int = 6) -> Rules:
        """The house rules (``"house"``) or the Kurnik variant (``"kurnik"``) for a match of
        ``length`` deals; NotationError for another name, ValueError for another length."""
        if VoidRule.parse(name) is VoidRule.KURNIK:
            return cls.kurnik(length)
        return cls(length=length)

    def to_json(self) -> dict[str, Any]:
        """The options as the ``rules`` object of saves and match records (the length is
        stored beside it, as ``length``)."""
        return {
            "void": self.void.label,
            "exchange": self.exchange,
            "exchange_trumps": self.exchange_trumps,
        }
