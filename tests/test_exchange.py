"""The exchange (docs/rules.md#the-exchange): the plan, the automatic return, and the exchange
played through the deal engine, including docs/rules.md#an-exchange-worked-through."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ts358 import Card, CardSet, Contract, Rules
from ts358.cards import DECK
from ts358.deal import Deal, DealSetup, IllegalDecision
from ts358.exchange import Transfer, automatic_return, plan_exchange
from ts358.view import DecisionKind

C = Card.parse
HEARTS = Contract.HEARTS


# ---------------------------------------------------------------- the plan

# Obligations written out for dealer 0: seat 1 chooses (8), seat 2 is third (5), seat 0 deals (3).


def test_one_plus_one_minus_gives_the_plus():
    assert plan_exchange((0, 2, -2), 0, HEARTS, Rules()) == (Transfer(1, 2, 2),)


def test_one_plus_two_minus_lower_new_obligation_first():
    # Seat 1 (obligation 8) is -1, seat 2 (obligation 5) is -2: seat 2 first.
    assert plan_exchange((3, -1, -2), 0, HEARTS, Rules()) == (
        Transfer(0, 2, 2),
        Transfer(0, 1, 1),
    )
    # Seat 0 (obligation 3) is -1, seat 1 (obligation 8) -3: seat 0 first.
    assert plan_exchange((-1, -3, 4), 0, HEARTS, Rules()) == (
        Transfer(2, 0, 1),
        Transfer(2, 1, 3),
    )


def test_two_plus_one_minus_higher_new_obligation_first():
    # Seat 0 (obligation 3) +1, seat 2 (obligation 5) +2, seat 1 (8) -3: seat 2 gives first.
    assert plan_exchange((1, -3, 2), 0, HEARTS, Rules()) == (
        Transfer(2, 1, 2),
        Transfer(0, 1, 1),
    )
    # Dealer 2: seat 0 chooses (8), seat 1 is third (5); both plus, seat 0 gives first.
    assert plan_exchange((2, 1, -3), 2, HEARTS, Rules()) == (
        Transfer(0, 2, 2),
        Transfer(1, 2, 1),
    )


@pytest.mark.parametrize(
    "scores, contract, rules",
    [
        ((0, 0, 0), HEARTS, Rules()),
        (None, HEARTS, Rules()),
        ((2, -2, 0), Contract.NO_TRUMP, Rules()),
        ((2, -2, 0), Contract.NO_TRICKS, Rules()),
        ((2, -2, 0), HEARTS, Rules(exchange=False)),
    ],
)
def test_no_exchange(scores, contract, rules):
    assert plan_exchange(scores, 1, contract, rules) == ()


# ---------------------------------------------------------------- the automatic return

# Bartek of docs/rules.md#an-exchange-worked-through: A♣ 9♣, K♦ 3♦ (and hearts).
BARTEK = CardSet.parse("-.AKQJT9876432.K3.A9")


def test_seed_example_returns():
    assert automatic_return(BARTEK, C("4C"), HEARTS) is C("AC")
    assert automatic_return(BARTEK, C("7D"), HEARTS) is C("KD")
    assert automatic_return(BARTEK, C("5H"), HEARTS) is None  # a trump: he chooses


def test_nothing_higher_or_void_returns_the_same_card():
    assert automatic_return(BARTEK, C("AD"), HEARTS) is C("AD")
    assert automatic_return(BARTEK, C("2S"), HEARTS) is C("2S")  # void in spades


@given(
    st.lists(st.sampled_from(list(DECK)), min_size=1, max_size=17, unique=True),
    st.sampled_from(list(Contract)),
)
def test_return_is_the_highest_of_the_suit(cards, contract):
    given_card, hand = cards[0], CardSet(cards[1:])
    back = automatic_return(hand, given_card, contract)
    if given_card.suit == contract.trump:
        assert back is None
        return
    assert back.suit == given_card.suit and back.rank >= given_card.rank
    assert back is given_card or back in hand
    assert all(c.rank <= back.rank for c in hand if c.suit == given_card.suit)


# ---------------------------------------------------------------- through the engine

# docs/rules.md#an-exchange-worked-through. Previous deal: Bartek chose (8) and took 6 (-2),
# Ania was third (5) and took 7 (+2), "you" dealt (3) and took 3 (0). Seats clockwise dealer,
# chooser, third: you 2, Bartek 0, Ania 1. In the new deal the dealer moves one seat: Bartek
# deals, Ania chooses.
BARTEK_SEAT, ANIA, YOU = 0, 1, 2
PREVIOUS = (-2, 2, 0)


def example_setup():
    bartek_hand = CardSet.parse("2.AKQJT987632.K3.A9")  # 2♠, 11 hearts, K♦ 3♦, A♣ 9♣
    ania_hand = CardSet.parse("AKQJT3.5.AQ7.K4")  # 4♣ 7♦ 5♥ among 12 cards
    rest = list(DECK - bartek_hand - ania_hand)
    ania = tuple(ania_hand) + tuple(rest[:4])
    you = tuple(rest[4:20])
    talon = tuple(rest[20:])
    return DealSetup(2, BARTEK_SEAT, (tuple(bartek_hand), ania, you), talon)


def example_deal(rules=Rules(), number=2, game="hearts"):
    setup = example_setup()
    if number != 2:
        setup = DealSetup(number, setup.dealer, setup.hands, setup.talon)
    deal = Deal(setup, rules, previous_scores=PREVIOUS)
    assert deal.chooser == ANIA
    deal.apply(game)
    return deal


def test_seed_example_through_the_engine():
    deal = example_deal()
    pending = deal.pending()
    assert (pending.seat, pending.kind) == (ANIA, DecisionKind.GIVE)
    assert pending.view.give_to == BARTEK_SEAT and pending.view.gives_left == 2
    deal.apply_answer(C("4C"))
    deal.apply_answer(C("7D"))
    assert [(s.given, s.returned) for s in deal.exchanges] == [
        (C("4C"), C("AC")),
        (C("7D"), C("KD")),
    ]
    assert {C("AC"), C("KD")} <= set(deal.hand(ANIA))
    assert {C("4C"), C("7D")} <= set(deal.hand(BARTEK_SEAT))
    assert C("AC") not in deal.hand(BARTEK_SEAT)
    # Two cards given: the exchange is over, the talon is shown and taken.
    assert deal.pending().kind is DecisionKind.DISCARD
    assert len(deal.hand(ANIA)) == 20


def test_trump_given_the_receiver_chooses_any_card():
    deal = example_deal()
    deal.apply_answer(C("5H"))
    pending = deal.pending()
    assert (pending.seat, pending.kind) == (BARTEK_SEAT, DecisionKind.RETURN)
    assert pending.view.received is C("5H")
    assert C("5H") in pending.view.options and C("2S") in pending.view.options
    deal.apply_answer(C("2S"))
    assert deal.exchanges[-1].returned is C("2S")
    assert C("2S") in deal.hand(ANIA) and C("5H") in deal.hand(BARTEK_SEAT)
    # The second card is still Ania's to give.
    assert deal.pending().kind is DecisionKind.GIVE


def test_return_must_be_a_card_the_receiver_holds():
    deal = example_deal()
    deal.apply_answer(C("5H"))
    with pytest.raises(IllegalDecision, match="not in their hand"):
        deal.apply_answer(C("AS"))  # Ania's card
    assert deal.pending().kind is DecisionKind.RETURN


def test_a_card_with_nothing_higher_comes_back():
    deal = example_deal()
    deal.apply_answer(C("AD"))  # Bartek's best diamond is the king
    assert deal.exchanges[-1].returned is C("AD")
    assert C("AD") in deal.hand(ANIA)
    deal.apply_answer(C("KS"))  # Bartek's only spade is the 2
    assert deal.exchanges[-1].returned is C("KS")


def test_stop_early():
    deal = example_deal()
    deal.apply_answer(C("4C"))
    deal.apply_answer(None)
    assert len(deal.exchanges) == 1
    assert deal.pending().kind is DecisionKind.DISCARD
    assert deal.decisions == ("hearts", "4C", "stop")


def test_stop_at_once_by_name():
    deal = example_deal()
    deal.apply("stop")
    assert deal.exchanges == ()
    assert deal.pending().kind is DecisionKind.DISCARD


def test_the_uninvolved_player_sees_only_the_count():
    deal = example_deal()
    you_before = deal.view(YOU).hand
    deal.apply_answer(C("4C"))
    deal.apply_answer(C("5H"))
    deal.apply_answer(C("3D"))
    you = deal.view(YOU)
    assert you.exchanges == () and you.others_exchanged == 2
    assert you.hand == you_before
    exchanged = {C("4C"), C("AC"), C("5H"), C("3D")}
    assert not exchanged & (set(you.hand) | set(you.options))
    for seat in (ANIA, BARTEK_SEAT):
        view = deal.view(seat)
        assert len(view.exchanges) == 2 and view.others_exchanged == 0


def test_no_trump_exchange_when_the_rules_forbid_it():
    deal = example_deal(Rules(exchange_trumps=False))
    options = deal.pending().view.options
    assert not options.suit(HEARTS.trump) and C("4C") in options
    before = (deal.decisions, deal.hand(ANIA), deal.hand(BARTEK_SEAT))
    with pytest.raises(IllegalDecision, match="trump"):
        deal.apply_answer(C("5H"))
    assert (deal.decisions, deal.hand(ANIA), deal.hand(BARTEK_SEAT)) == before
    assert deal.pending().kind is DecisionKind.GIVE


def test_giving_a_card_not_held_is_rejected():
    deal = example_deal()
    with pytest.raises(IllegalDecision, match="not in their hand"):
        deal.apply_answer(C("AC"))
    assert deal.exchanges == () and deal.pending().view.gives_left == 2


@pytest.mark.parametrize(
    "rules, number, game",
    [
        (Rules(), 1, "hearts"),  # a match's first deal
        (Rules(), 2, "no-trump"),
        (Rules(), 2, "no-tricks"),
        (Rules(exchange=False), 2, "hearts"),
    ],
)
def test_no_exchange_in_the_engine(rules, number, game):
    deal = example_deal(rules, number, game)
    assert deal.pending().kind is DecisionKind.DISCARD
    assert deal.view(YOU).talon is not None


def _setup_for(dealer):
    cards = list(DECK)
    return DealSetup(
        2, dealer, (tuple(cards[0:16]), tuple(cards[16:32]), tuple(cards[32:48])), tuple(cards[48:])
    )


def _givers_and_receivers(deal):
    seen = []
    while (p := deal.pending()).kind is DecisionKind.GIVE:
        seen.append((p.seat, p.view.give_to))
        card = next(c for c in p.view.options if c.suit != deal.game.trump)
        deal.apply_answer(card)
    return seen


def test_one_plus_two_minus_in_the_engine():
    # Dealer 0: seat 1 has obligation 8, seat 2 obligation 5. Seat 0 is +3.
    deal = Deal(_setup_for(0), previous_scores=(3, -1, -2))
    deal.apply("spades")
    assert _givers_and_receivers(deal) == [(0, 2), (0, 2), (0, 1)]


def test_two_plus_one_minus_in_the_engine():
    deal = Deal(_setup_for(0), previous_scores=(1, -3, 2))
    deal.apply("clubs")
    assert _givers_and_receivers(deal) == [(2, 1), (2, 1), (0, 1)]


def test_stopping_ends_only_the_current_transfer():
    deal = Deal(_setup_for(0), previous_scores=(3, -1, -2))
    deal.apply("spades")
    deal.apply("stop")  # nothing to seat 2
    pending = deal.pending()
    assert (pending.seat, pending.view.give_to, pending.view.gives_left) == (0, 1, 1)
