"""Contracts, roles and rule options: the vocabulary of RULES.md as value types."""

from __future__ import annotations

import dataclasses
import enum

from ts358.cards import NotationError, Suit

__all__ = ["Contract", "Role", "VoidRule", "Rules", "MATCH_LENGTHS"]

MATCH_LENGTHS = (3, 6, 9, 18)


class Contract(enum.IntEnum):
    """The six games the chooser can pick; the value is the core's contract code."""

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

    @property
    def label(self) -> str:
        """The name used in files and records: spades ... clubs, no-trump, no-tricks."""
        return self.name.lower().replace("_", "-")

    @classmethod
    def parse(cls, text: str) -> Contract:
        """A contract from its label (``hearts``, ``no-trump``, ``no-tricks``) or suit letter."""
        key = text.strip().lower().replace("_", "-").replace(" ", "-")
        aliases = {"nt": "no-trump", "notrump": "no-trump", "misere": "no-tricks"}
        key = aliases.get(key, key)
        for contract in cls:
            if contract.label == key:
                return contract
        try:
            return cls(Suit.parse(key).value)
        except NotationError:
            pass
        labels = ", ".join(c.label for c in cls)
        raise NotationError(f"not a game: {text!r} (one of {labels})")

    def __str__(self) -> str:
        return self.label


class Role(enum.IntEnum):
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

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Role:
        key = text.strip().lower()
        for role in cls:
            if role.label == key:
                return role
        raise NotationError(f"not a role: {text!r} (one of chooser, third, dealer)")

    def __str__(self) -> str:
        return self.label


class VoidRule(enum.IntEnum):
    """What a player void in the suit led must do; the value is the core's code."""

    HOUSE = 0  # must play a trump if holding one (need not overtrump)
    KURNIK = 1  # may play any card

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> VoidRule:
        key = text.strip().lower()
        for rule in cls:
            if rule.label == key:
                return rule
        raise NotationError(f"not a rule set: {text!r} (one of house, kurnik)")

    def __str__(self) -> str:
        return self.label


@dataclasses.dataclass(frozen=True)
class Rules:
    """The rule options of a match (RULES.md, Variants); the defaults are the house rules."""

    void: VoidRule = VoidRule.HOUSE
    exchange: bool = True
    exchange_trumps: bool = True
    length: int = 6

    def __post_init__(self) -> None:
        if not isinstance(self.void, VoidRule):
            object.__setattr__(self, "void", VoidRule.parse(str(self.void)))
        if self.length not in MATCH_LENGTHS:
            raise ValueError(f"a match has 3, 6, 9 or 18 deals, not {self.length!r}")

    @property
    def games_per_player(self) -> int:
        """How many different games each player chooses in the match (k of 3k deals)."""
        return self.length // 3

    @classmethod
    def kurnik(cls, length: int = 6) -> Rules:
        """The Kurnik variant: void in the suit led, any card; trumps not exchanged."""
        return cls(void=VoidRule.KURNIK, exchange_trumps=False, length=length)
