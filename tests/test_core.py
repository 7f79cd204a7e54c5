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
    if void is VoidRule.KURNIK or trump is None:
        return set(hand)
    trumps = {c for c in hand if c.suit == trump}
    if not trumps:
        return set(hand)
    if void is VoidRule.OVERTRUMP:
        played = [c.rank for c in trick if c.suit == trump]
        higher = {c for c in trumps if played and c.rank > max(played)}
        if higher:
            return higher
    return trumps


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


def test_overtrump_rule_legal_moves():
    """The overtrump rule (VoidRule.OVERTRUMP, core code 2), through the core's legal_moves
    and the Python wrapper."""

    def legal(hand, trick, contract, void):
        ids = [Card.parse(c).id for c in trick.split()]
        return CardSet(_core358.legal_moves(CardSet.parse(hand).mask, ids, contract, void))

    over, house, kurnik = VoidRule.OVERTRUMP, VoidRule.HOUSE, VoidRule.KURNIK
    hearts = Contract.HEARTS
    # Void in spades after a ruff with 5H, holding higher and lower trumps: only the higher.
    assert legal("-.Q93.2.-", "AS 5H", hearts, over) == CardSet.parse("-.Q9.-.-")
    assert legal("-.Q93.2.-", "AS 5H", hearts, house) == CardSet.parse("-.Q93.-.-")
    assert legal("-.Q93.2.-", "AS 5H", hearts, kurnik) == CardSet.parse("-.Q93.2.-")
    # Only lower trumps: any of them (not the diamond).
    assert legal("-.43.2.-", "AS 5H", hearts, over) == CardSet.parse("-.43.-.-")
    # No trump in the trick yet (second hand): any trump.
    assert legal("-.Q93.2.-", "AS", hearts, over) == CardSet.parse("-.Q93.-.-")
    assert legal("-.Q93.2.-", "AS 2D", hearts, over) == CardSet.parse("-.Q93.-.-")
    # A player who can follow must, with any card of the suit: no overtrumping then,
    # whether a side suit or trumps were led.
    assert legal("2.Q93.-.-", "AS 5H", hearts, over) == CardSet.parse("2.-.-.-")
    assert legal("-.Q93.2.-", "4H 5H", hearts, over) == CardSet.parse("-.Q93.-.-")
    # Void without a trump: any card.
    assert legal("-.-.2.K", "AS 5H", hearts, over) == CardSet.parse("-.-.2.K")
    # No trump suit: any card when void.
    for contract in (Contract.NO_TRUMP, Contract.NO_TRICKS):
        assert legal("-.Q93.2.-", "AS 5H", contract, over) == CardSet.parse("-.Q93.2.-")
    # The wrapper the engine uses passes the trick.
    trick = [Card.parse("AS"), Card.parse("5H")]
    assert legal_cards(CardSet.parse("-.Q93.2.-"), trick, hearts, over) == CardSet.parse("-.Q9.-.-")


def test_low_trump_beats_ace_of_suit_led():
    trick = [Card.parse("AS"), Card.parse("2H"), Card.parse("KS")]
    assert trick_winner(trick, Contract.HEARTS) == 1
    assert trick_winner(trick, Contract.NO_TRUMP) == 0


@pytest.mark.parametrize("void", [0, 1, 2])
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
        lambda: _core358.legal_moves(0, [], 0, 3),
        lambda: _core358.legal_moves(0, [], 0, -1),
        lambda: _core358.legal_moves(0, [0, 13], 0, 2),
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
