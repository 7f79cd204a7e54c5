"""Card, suit, rank and hand notation: parsing, formatting, round trips and errors."""

import pickle
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ts358 import Card, CardSet, NotationError, Rank, Suit
from ts358.cards import DECK

ALL_CARDS = list(DECK)
card_sets = st.integers(min_value=0, max_value=(1 << 52) - 1).map(
    lambda bits: CardSet(c for i, c in enumerate(ALL_CARDS) if bits >> i & 1)
)


def test_deck_has_52_distinct_cards():
    assert len(DECK) == 52
    assert len({(c.suit, c.rank) for c in DECK}) == 52


@pytest.mark.parametrize(
    "text, suit, rank",
    [
        ("AS", Suit.SPADES, Rank.ACE),
        ("as", Suit.SPADES, Rank.ACE),
        ("TH", Suit.HEARTS, Rank.TEN),
        ("10H", Suit.HEARTS, Rank.TEN),
        ("10h", Suit.HEARTS, Rank.TEN),
        ("A♠", Suit.SPADES, Rank.ACE),
        ("♠A", Suit.SPADES, Rank.ACE),
        ("Q♥", Suit.HEARTS, Rank.QUEEN),
        ("♦10", Suit.DIAMONDS, Rank.TEN),
        ("2c", Suit.CLUBS, Rank.TWO),
        (" jd ", Suit.DIAMONDS, Rank.JACK),
    ],
)
def test_card_parse_accepts_every_notation(text, suit, rank):
    card = Card.parse(text)
    assert (card.suit, card.rank) == (suit, rank)


@pytest.mark.parametrize("text", ["", "A", "1S", "11H", "XS", "AX", "A♠♠", "S", "ASA"])
def test_card_parse_rejects_bad_text_quoting_it(text):
    with pytest.raises(NotationError) as info:
        Card.parse(text)
    assert repr(text) in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_card_round_trips_through_both_notations(card):
    assert Card.parse(str(card)) is card
    assert Card.parse(card.symbol()) is card
    assert Card.parse(str(card).lower()) is card
    assert Card.from_id(card.id) is card
    assert pickle.loads(pickle.dumps(card)) is card


def test_card_is_immutable_and_hashable():
    card = Card.parse("KD")
    with pytest.raises(AttributeError):
        card._id = 3
    assert {card: 1}[Card(Suit.DIAMONDS, Rank.KING)] == 1


def test_card_ids_match_the_core_layout():
    assert Card.parse("2S").id == 0
    assert Card.parse("AS").id == 12
    assert Card.parse("2H").id == 16
    assert Card.parse("AC").id == 3 * 16 + 12


@pytest.mark.parametrize("bad", [-1, 13, 64, "x", None])
def test_card_from_id_rejects_non_cards(bad):
    with pytest.raises(ValueError):
        Card.from_id(bad)


def test_hand_notation_parses_suits_in_order():
    hand = CardSet.parse("AKQ2.T98.-.J76543")
    assert len(hand) == 13
    assert [str(c) for c in hand.suit(Suit.SPADES).descending()] == ["AS", "KS", "QS", "2S"]
    assert not hand.suit(Suit.DIAMONDS)
    assert Card.parse("10H") in hand
    assert str(hand) == "AKQ2.T98.-.J76543"


def test_hand_notation_accepts_10_lowercase_and_empty_voids():
    assert CardSet.parse("ak10.-..2") == CardSet.parse("AKT.-.-.2")


def test_hand_accepts_a_list_of_cards():
    assert CardSet.parse("AS, 10H Q♥") == CardSet(
        [Card.parse("AS"), Card.parse("TH"), Card.parse("QH")]
    )


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("AKQ.T98.-", "four suits"),
        ("AKX.-.-.-", "'X'"),
        ("AA.-.-.-", "twice"),
        ("A.B.C.D.E", "four suits"),
        ("AS ZZ", "not a hand"),
    ],
)
def test_bad_hand_notation_says_what_is_wrong(text, fragment):
    with pytest.raises(NotationError) as info:
        CardSet.parse(text)
    message = str(info.value)
    assert repr(text) in message
    assert fragment in message


@given(card_sets)
def test_hand_notation_round_trips(cards):
    assert CardSet.parse(str(cards)) == cards
    assert CardSet.parse(" ".join(c.symbol() for c in cards) or "-") == cards


@given(card_sets, card_sets)
def test_card_set_operations_agree_with_python_sets(a, b):
    assert set(a | b) == set(a) | set(b)
    assert set(a & b) == set(a) & set(b)
    assert set(a - b) == set(a) - set(b)
    assert len(a) == len(set(a))
    assert list(a) == sorted(a, key=lambda c: c.id)
    if a:
        assert a.highest() == max(a, key=lambda c: c.id)
        assert a.lowest() == min(a, key=lambda c: c.id)


def test_card_set_is_immutable_and_rejects_duplicates():
    cards = CardSet.parse("A.-.-.-")
    with pytest.raises(AttributeError):
        cards._mask = 0
    with pytest.raises(ValueError):
        CardSet(["AS", "AS"])
    with pytest.raises(ValueError):
        CardSet(1 << 13)
    with pytest.raises(KeyError):
        cards.without_card(Card.parse("KS"))


@given(card_sets)
def test_card_sets_pickle(a):
    assert pickle.loads(pickle.dumps(a)) == a


@given(card_sets, card_sets)
def test_with_and_without_a_card_return_new_sets(a, b):
    for card in b:
        before = CardSet(a.mask)
        added = a.with_card(card)
        assert set(added) == set(a) | {card} and a == before  # the set itself never changes
        if card in a:
            assert set(a.without_card(card)) == set(a) - {card}
        else:
            with pytest.raises(KeyError):
                a.without_card(card)


def test_cards_are_totally_ordered_by_suit_then_rank():
    deck = [Card(s, r) for s in Suit for r in Rank]  # notation order, ranks low to high
    for i, x in enumerate(deck):
        for j, y in enumerate(deck):
            assert (x < y, x <= y, x > y, x >= y, x == y) == (i < j, i <= j, i > j, i >= j, i == j)
    shuffled = deck[:]
    random.Random(5).shuffle(shuffled)
    assert sorted(shuffled) == deck
    with pytest.raises(TypeError):
        Card.parse("AS") <= 3  # noqa: B015
