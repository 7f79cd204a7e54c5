"""The Cython card core against a plain Python statement of the rules of play."""

import random

import pytest

from ts358 import Card, CardSet, Contract, VoidRule, _core358, legal_cards, trick_winner
from ts358.cards import DECK

ALL = list(DECK)


def rule_legal(hand, trick, contract, void):
    """docs/rules.md#playing-the-tricks, written out naively."""
    if not trick:
        return set(hand)
    led = trick[0].suit
    follow = {c for c in hand if c.suit == led}
    if follow:
        return follow
    trump = contract.trump
    if void is VoidRule.HOUSE and trump is not None:
        trumps = {c for c in hand if c.suit == trump}
        if trumps:
            return trumps
    return set(hand)


def rule_winner(trick, contract):
    trump = contract.trump
    trumps = [c for c in trick if c.suit == trump]
    pool = trumps or [c for c in trick if c.suit == trick[0].suit]
    return trick.index(max(pool, key=lambda c: c.rank))


@pytest.mark.parametrize("void", list(VoidRule))
@pytest.mark.parametrize("contract", list(Contract))
def test_legal_moves_match_the_rules(contract, void):
    rng = random.Random(f"{contract}-{void}")
    for _ in range(400):
        cards = rng.sample(ALL, rng.randint(4, 19))
        trick, hand = cards[: rng.randint(0, 2)], CardSet(cards[3:])
        assert set(legal_cards(hand, trick, contract, void)) == rule_legal(
            hand, trick, contract, void
        )


@pytest.mark.parametrize("contract", list(Contract))
def test_trick_winner_matches_the_rules(contract):
    rng = random.Random(str(contract))
    for _ in range(2000):
        trick = rng.sample(ALL, rng.randint(1, 3))
        assert trick_winner(trick, contract) == rule_winner(trick, contract)


def test_house_forces_a_trump_and_kurnik_does_not():
    hand = CardSet.parse("-.2.-.AK")
    led = [Card.parse("3S")]
    assert set(legal_cards(hand, led, Contract.HEARTS, VoidRule.HOUSE)) == {Card.parse("2H")}
    assert legal_cards(hand, led, Contract.HEARTS, VoidRule.KURNIK) == hand
    assert legal_cards(hand, led, Contract.NO_TRUMP, VoidRule.HOUSE) == hand


def test_low_trump_beats_ace_of_suit_led():
    trick = [Card.parse("AS"), Card.parse("2H"), Card.parse("KS")]
    assert trick_winner(trick, Contract.HEARTS) == 1
    assert trick_winner(trick, Contract.NO_TRUMP) == 0


@pytest.mark.parametrize("void", [0, 1])
@pytest.mark.parametrize("contract", range(6))
def test_random_deals_play_sixteen_tricks_each(contract, void):
    n = 300
    totals = _core358.random_deals(n, 1234 + contract, contract, void)
    assert sum(totals) == 16 * n
    assert all(t > 0 for t in totals)


def test_random_playout_is_seeded_and_counts_every_trick():
    rng = random.Random(5)
    cards = rng.sample(range(52), 30)
    hands = tuple(CardSet([ALL[i] for i in cards[k * 10 : (k + 1) * 10]]).mask for k in range(3))
    first = _core358.random_playout(hands, 1, 2, 0, 99)
    assert sum(first) == 10
    assert _core358.random_playout(hands, 1, 2, 0, 99) == first
    outcomes = {_core358.random_playout(hands, 1, 2, 0, s) for s in range(50)}
    assert len(outcomes) > 1


@pytest.mark.parametrize(
    "call",
    [
        lambda: _core358.legal_moves(0, [], 6),
        lambda: _core358.legal_moves(0, [], 0, 2),
        lambda: _core358.legal_moves(0, [13], 0),
        lambda: _core358.legal_moves(0, [0, 1, 2], 0),
        lambda: _core358.trick_winner([], 0),
        lambda: _core358.random_playout((1, 1, 2), 0, 0, 0, 1),
        lambda: _core358.random_playout((1, 2, 4 | 8), 0, 0, 0, 1),
        lambda: _core358.random_playout((1, 2, 4), 3, 0, 0, 1),
        lambda: _core358.random_deals(-1, 1, 0),
    ],
)
def test_core_rejects_bad_arguments(call):
    with pytest.raises(ValueError):
        call()
