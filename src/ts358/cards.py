"""Cards and card sets, with their notation.

A card is written rank then suit (``AS``, ``TH``, ``10H``, ``A♠``) or suit then rank
(``♠A``), case-insensitive on input; it is written back as ``AS`` (or ``A♠`` with
:meth:`Card.symbol`). A hand is written ``AKQ2.T98.-.J76543``: suits in the order
spades, hearts, diamonds, clubs, ranks high to low, ``-`` for a void.

Internally a card is the integer ``suit * 16 + rank`` and a card set is the bitboard of
those integers, the layout the Cython core uses. Cards order by that integer: by suit in
notation order, then by rank.

>>> Card.parse("10h"), Card.parse("♠A").symbol()
(Card.parse('TH'), 'A♠')
>>> hand = CardSet.parse("AKQ2.T98.-.J76543")
>>> len(hand), str(hand.suit(Suit.HEARTS)), hand.highest()
(13, '-.T98.-.-', Card.parse('JC'))
>>> hand.without_card(Card.parse("AS")).with_card(Card.parse("5D"))
CardSet.parse('KQ2.T98.5.J76543')
>>> Card.parse("2S") < Card.parse("AS") < Card.parse("2H")
True
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator

from ts358._input import quote

__all__ = ["DECK", "Card", "CardSet", "NotationError", "Rank", "Suit"]


class NotationError(ValueError):
    """Text that is not valid card, hand or game notation; the message quotes it."""


class Suit(enum.IntEnum):
    """A suit; the value is its lane in a card bitboard (notation order S, H, D, C)."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return "SHDC"[self]

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """A suit from its letter (S H D C), symbol (♠♥♦♣, also ♤♡♢♧) or English name."""
        key = text.strip().upper()
        if key in _SUIT_BY_TEXT:
            return _SUIT_BY_TEXT[key]
        raise NotationError(f"not a suit: {quote(text)}")

    def __str__(self) -> str:
        return self.letter


_SUIT_BY_TEXT: dict[str, Suit] = {}
for _s in Suit:
    _SUIT_BY_TEXT[_s.letter] = _s
    _SUIT_BY_TEXT[_s.symbol] = _s
    _SUIT_BY_TEXT["♤♡♢♧"[_s]] = _s
    _SUIT_BY_TEXT[_s.name] = _s


class Rank(enum.IntEnum):
    """A rank; the value is its bit within a suit's lane (2 lowest, ace highest)."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def letter(self) -> str:
        return "23456789TJQKA"[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """A rank from ``2``-``9``, ``T`` or ``10``, ``J``, ``Q``, ``K``, ``A``."""
        key = text.strip().upper()
        if key == "10":
            key = "T"
        if len(key) == 1 and key in "23456789TJQKA":
            return cls("23456789TJQKA".index(key))
        raise NotationError(f"not a rank: {quote(text)}")

    def __str__(self) -> str:
        return self.letter


class Card:
    """One playing card. Immutable and hashable; there is exactly one object per card."""

    __slots__ = ("_id",)
    _id: int

    def __new__(cls, suit: Suit | int, rank: Rank | int) -> Card:
        suit, rank = int(suit), int(rank)
        if not (0 <= suit < 4 and 0 <= rank < 13):
            raise ValueError(f"no card with suit {suit} and rank {rank}")
        return _CARDS[suit * 16 + rank]

    @classmethod
    def from_id(cls, card_id: int) -> Card:
        """The card with core id ``suit * 16 + rank``."""
        try:
            card = _CARDS[card_id]
        except (KeyError, TypeError):
            card = None
        if card is None:
            raise ValueError(f"not a card id: {quote(card_id)}")
        return card

    @classmethod
    def parse(cls, text: str) -> Card:
        """A card from ``AS``, ``as``, ``TH``, ``10h``, ``A♠`` or ``♠A``."""
        key = text.strip()
        if len(key) >= 2:
            for suit_text, rank_text in ((key[-1], key[:-1]), (key[0], key[1:])):
                try:
                    return cls(Suit.parse(suit_text), Rank.parse(rank_text))
                except NotationError:
                    continue
        raise NotationError(f"not a card: {quote(text)} (write e.g. AS, 10H, TH or Q♥)")

    @property
    def id(self) -> int:
        return self._id

    @property
    def suit(self) -> Suit:
        return Suit(self._id >> 4)

    @property
    def rank(self) -> Rank:
        return Rank(self._id & 15)

    @property
    def mask(self) -> int:
        """The one-card bitboard."""
        return 1 << self._id

    def symbol(self) -> str:
        """The card with a suit symbol, e.g. ``A♠``."""
        return self.rank.letter + self.suit.symbol

    def __str__(self) -> str:
        return _NAMES[self._id]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return self._id

    def __lt__(self, other: object) -> bool:
        return self._id < other._id if isinstance(other, Card) else NotImplemented

    def __le__(self, other: object) -> bool:
        return self._id <= other._id if isinstance(other, Card) else NotImplemented

    def __gt__(self, other: object) -> bool:
        return self._id > other._id if isinstance(other, Card) else NotImplemented

    def __ge__(self, other: object) -> bool:
        return self._id >= other._id if isinstance(other, Card) else NotImplemented

    def __copy__(self) -> Card:
        return self  # one object per card

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_id, (self._id,))


def _make_card(card_id: int) -> Card:
    card = object.__new__(Card)
    object.__setattr__(card, "_id", card_id)
    return card


_CARDS: dict[int, Card] = {s * 16 + r: _make_card(s * 16 + r) for s in range(4) for r in range(13)}
_NAMES = {i: "23456789TJQKA"[i % 16] + "SHDC"[i // 16] for i in _CARDS}  # written often
_SUIT_LANE = 0x1FFF


class CardSet:
    """An immutable set of cards, stored as a bitboard; iterates in ascending card id."""

    __slots__ = ("_mask",)
    _mask: int

    def __init__(self, cards: Iterable[Card | str] | int = 0) -> None:
        if isinstance(cards, int):
            if cards < 0 or cards & ~DECK_MASK:
                raise ValueError(f"not a card bitboard: {cards:#x}")
            mask = cards
        else:
            mask = 0
            for card in cards:
                if isinstance(card, str):
                    card = Card.parse(card)
                if mask & card.mask:
                    raise ValueError(f"card {card} is listed twice")
                mask |= card.mask
        object.__setattr__(self, "_mask", mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """A hand from ``AKQ2.T98.-.J76543`` (suits S.H.D.C, ``-`` or nothing for a void).

        A list of cards separated by spaces or commas (``AS 10H Q♥``) is accepted too.
        """
        stripped = text.strip()
        if "." not in stripped:
            if stripped in ("", "-"):
                return cls()
            try:
                return cls(Card.parse(t) for t in stripped.replace(",", " ").split())
            except NotationError:
                raise NotationError(
                    f"not a hand: {quote(text)} (write e.g. AKQ2.T98.-.J76543, suits S.H.D.C)"
                ) from None
        parts = stripped.split(".")
        if len(parts) != 4:
            raise NotationError(
                f"not a hand: {quote(text)} (needs four suits S.H.D.C separated by dots, "
                f"found {len(parts)})"
            )
        mask = 0
        for suit, part in zip(Suit, parts):
            body = part.strip().upper().replace("10", "T")
            if body in ("", "-"):
                continue
            for ch in body:
                try:
                    bit = Card(suit, Rank.parse(ch)).mask
                except NotationError:
                    raise NotationError(
                        f"not a hand: {quote(text)} ({ch!r} is not a rank, in {suit.name.lower()})"
                    ) from None
                if mask & bit:
                    raise NotationError(f"not a hand: {quote(text)} ({ch}{suit.letter} twice)")
                mask |= bit
        return cls(mask)

    @property
    def mask(self) -> int:
        return self._mask

    def suit(self, suit: Suit) -> CardSet:
        """The cards of one suit."""
        return CardSet(self._mask & (_SUIT_LANE << (16 * suit)))

    def __iter__(self) -> Iterator[Card]:
        mask = self._mask
        while mask:
            low = mask & -mask
            yield _CARDS[low.bit_length() - 1]
            mask ^= low

    def __len__(self) -> int:
        return self._mask.bit_count()

    def __bool__(self) -> bool:
        return self._mask != 0

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self._mask & card.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self._mask | other._mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self._mask & other._mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self._mask & ~other._mask)

    def with_card(self, card: Card) -> CardSet:
        """A new set: this one and ``card`` (a set never changes)."""
        return CardSet(self._mask | card.mask)

    def without_card(self, card: Card) -> CardSet:
        """A new set: this one less ``card``; KeyError if ``card`` is not in it."""
        if not self._mask & card.mask:
            raise KeyError(f"{card} is not in the set")
        return CardSet(self._mask & ~card.mask)

    def highest(self) -> Card:
        if not self._mask:
            raise ValueError("the set is empty")
        return _CARDS[self._mask.bit_length() - 1]

    def lowest(self) -> Card:
        if not self._mask:
            raise ValueError("the set is empty")
        return _CARDS[(self._mask & -self._mask).bit_length() - 1]

    def descending(self) -> list[Card]:
        """Cards in display order: suits S H D C, ranks high to low."""
        return sorted(self, key=lambda c: (c.suit, -c.rank))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and self._mask == other._mask

    def __hash__(self) -> int:
        return hash(("CardSet", self._mask))

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (CardSet, (self._mask,))

    def format(self, symbols: bool = False) -> str:
        """Dotted hand notation; with ``symbols`` each suit is prefixed by its symbol."""
        parts = []
        for suit in Suit:
            ranks = "".join(c.rank.letter for c in sorted(self.suit(suit), reverse=True))
            ranks = ranks or "-"
            parts.append(suit.symbol + ranks if symbols else ranks)
        return " ".join(parts) if symbols else ".".join(parts)

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"


DECK_MASK = sum(_SUIT_LANE << (16 * s) for s in range(4))
DECK = CardSet(DECK_MASK)
