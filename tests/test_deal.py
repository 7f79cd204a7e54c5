"""One deal: the deal itself, what each seat sees when, illegal decisions, scoring."""

import random

import pytest

from ts358 import Card, CardSet, Contract, Role, Rules, VoidRule
from ts358.cards import DECK
from ts358.deal import Deal, DealSetup, IllegalDecision
from ts358.view import DecisionKind

C = Card.parse


def fresh(seed=1, dealer=0, rules=Rules()):
    return Deal(DealSetup.shuffled(1, dealer, random.Random(seed)), rules)


def play_out(deal, choose=lambda options: min(options)):
    while (p := deal.pending()) is not None:
        if p.kind is DecisionKind.CHOOSE:
            deal.choose(sorted(p.view.available[p.seat])[0])
        elif p.kind is DecisionKind.DISCARD:
            deal.discard(CardSet(sorted(p.view.options)[:4]))
        elif p.kind is DecisionKind.GIVE:
            deal.stop_giving()
        else:
            deal.play(choose(p.view.options))
    return deal.result()


def test_shuffled_deal_is_a_partition_and_reproducible():
    a = DealSetup.shuffled(1, 2, random.Random(5))
    b = DealSetup.shuffled(1, 2, random.Random(5))
    c = DealSetup.shuffled(1, 2, random.Random(6))
    assert a == b and a != c
    assert [len(h) for h in a.hands] == [16, 16, 16] and len(a.talon) == 4
    assert CardSet([*a.hands[0], *a.hands[1], *a.hands[2], *a.talon]) == DECK


def test_setup_rejects_a_bad_deal():
    cards = list(DECK)
    with pytest.raises(ValueError):
        DealSetup(
            1, 0, (tuple(cards[:16]), tuple(cards[:16]), tuple(cards[32:48])), tuple(cards[48:])
        )
    with pytest.raises(ValueError):
        DealSetup(
            1, 3, (tuple(cards[:16]), tuple(cards[16:32]), tuple(cards[32:48])), tuple(cards[48:])
        )


def test_roles_from_the_dealer():
    for dealer in range(3):
        deal = fresh(dealer=dealer)
        assert deal.chooser == (dealer + 1) % 3 and deal.third == (dealer + 2) % 3
        view = deal.view(deal.chooser)
        assert view.role is Role.CHOOSER
        assert deal.view(dealer).role is Role.DEALER


def test_chooser_sees_only_the_first_six_then_all():
    deal = fresh(seed=3, dealer=1)
    chooser = deal.chooser
    pending = deal.pending()
    assert (pending.seat, pending.kind) == (chooser, DecisionKind.CHOOSE)
    assert pending.view.hand == CardSet(deal.setup.hands[chooser][:6])
    # The other seats hold their sixteen cards all along.
    for seat in (deal.dealer, deal.third):
        assert deal.view(seat).hand == CardSet(deal.setup.hands[seat])
        assert deal.view(seat).kind is None
    assert pending.view.talon is None
    deal.apply_answer(Contract.NO_TRUMP)
    # No exchange in a first deal: the talon is shown to everyone and taken.
    talon = CardSet(deal.setup.talon)
    for seat in range(3):
        assert deal.view(seat).talon == talon
    view = deal.pending().view
    assert view.kind is DecisionKind.DISCARD and len(view.hand) == 20
    assert view.hand == CardSet(deal.setup.hands[chooser]) | talon


def test_discards_are_seen_only_by_the_chooser():
    deal = fresh(seed=4)
    deal.apply("spades")
    discard = CardSet(sorted(deal.pending().view.options)[:4])
    deal.apply_answer(discard)
    assert deal.view(deal.chooser).discard == discard
    for seat in (deal.dealer, deal.third):
        assert deal.view(seat).discard is None
    assert len(deal.hand(deal.chooser)) == 16
    assert deal.pending().seat == deal.chooser  # the chooser leads


def test_unavailable_game_is_rejected_and_nothing_changes():
    setup = DealSetup.shuffled(4, 0, random.Random(1))
    available = (frozenset(Contract), frozenset({Contract.CLUBS, Contract.NO_TRICKS}), frozenset())
    deal = Deal(setup, available=available)
    before = deal.pending()
    with pytest.raises(IllegalDecision, match="already played hearts"):
        deal.apply_answer(Contract.HEARTS)
    with pytest.raises(IllegalDecision, match="not a game"):
        deal.apply("trumps")
    assert deal.pending() == before
    deal.apply("no-tricks")
    assert deal.game is Contract.NO_TRICKS


@pytest.mark.parametrize(
    "cards, why",
    [
        (3, "exactly 4"),  # that many cards of the chooser's hand
        (5, "exactly 4"),
        ("AS AS KS QS", "twice"),
        (42, "expected four cards"),
        ([C("AS"), C("KS"), C("QS"), C("JS")], "expected four cards"),
    ],
)
def test_bad_discard_is_rejected(cards, why):
    deal = fresh(seed=9)
    deal.apply("hearts")
    before = (deal.pending(), deal.hand(deal.chooser))
    if why == "exactly 4":
        cards = " ".join(map(str, list(deal.hand(deal.chooser))[:cards]))
    with pytest.raises(IllegalDecision, match=why):
        if isinstance(cards, str):
            deal.apply(cards)
        else:
            deal.apply_answer(cards)
    assert (deal.pending(), deal.hand(deal.chooser)) == before


def test_discarding_a_card_not_held_is_rejected():
    deal = fresh(seed=9)
    deal.apply("hearts")
    hand = deal.hand(deal.chooser)
    outside = sorted(DECK - hand)[:1] + sorted(hand)[:3]
    with pytest.raises(IllegalDecision, match="not in their hand"):
        deal.discard(CardSet(outside))


def _following_deal(void):
    """A deal in hearts where the third seat, after the chooser leads a club, holds no club."""
    chooser = CardSet.parse("AKQJ.AKQJ.AKQJ.AK")  # 14 cards
    third = CardSet.parse("T98.T98.T98765.-")  # no clubs, has hearts (trumps)
    rest = DECK - chooser - third
    others = sorted(rest)
    chooser_cards = tuple(chooser) + tuple(others[:2])
    third_cards = tuple(third) + tuple(c for c in others[2:] if c.suit != 3)[:4]
    used = CardSet(chooser_cards) | CardSet(third_cards)
    left = sorted(DECK - used)
    setup = DealSetup(1, 0, (tuple(left[:16]), chooser_cards, third_cards), tuple(left[16:]))
    deal = Deal(setup, Rules(void=void))
    deal.apply("hearts")
    deal.apply_answer(CardSet(sorted(deal.pending().view.options - chooser)[:4]))
    deal.apply_answer(C("AC"))
    return deal


def test_must_follow_suit():
    deal = fresh(seed=2)
    deal.apply("no-trump")
    deal.apply_answer(CardSet(sorted(deal.pending().view.options)[:4]))
    lead = max(deal.pending().view.options)
    deal.apply_answer(lead)
    p = deal.pending()
    hand = deal.hand(p.seat)
    follow = hand.suit(lead.suit)
    assert p.view.options == (follow or hand)
    if follow and hand - follow:
        wrong = min(hand - follow)
        with pytest.raises(IllegalDecision, match="must follow"):
            deal.apply_answer(wrong)
        assert deal.pending() == p


def test_house_rule_void_must_trump():
    deal = _following_deal(VoidRule.HOUSE)
    p = deal.pending()
    assert p.view.options == deal.hand(p.seat).suit(Contract.HEARTS.trump)
    with pytest.raises(IllegalDecision, match="must play a trump"):
        deal.apply_answer(C("5D"))
    deal.apply_answer(C("8H"))


def test_kurnik_void_any_card():
    deal = _following_deal(VoidRule.KURNIK)
    p = deal.pending()
    assert p.view.options == deal.hand(p.seat)
    deal.apply_answer(C("5D"))


def test_playing_a_card_not_held_is_rejected():
    deal = fresh(seed=2)
    deal.apply("no-trump")
    deal.apply_answer(CardSet(sorted(deal.pending().view.options)[:4]))
    p = deal.pending()
    not_mine = min(DECK - deal.hand(p.seat))
    with pytest.raises(IllegalDecision, match="not in their hand"):
        deal.apply_answer(not_mine)
    with pytest.raises(IllegalDecision, match="not a card"):
        deal.apply("ZZ")
    assert deal.pending() == p


def test_no_decision_after_the_end():
    deal = fresh(seed=8)
    play_out(deal)
    assert deal.pending() is None
    with pytest.raises(IllegalDecision, match="over"):
        deal.apply("AS")


def test_result_before_the_end_is_an_error():
    with pytest.raises(ValueError):
        fresh().result()


# Obligations and limits written out per role (docs/rules.md#seats-and-roles), not taken from
# the code.
OBLIGATION = {Role.CHOOSER: 8, Role.THIRD: 5, Role.DEALER: 3}
LIMIT = {Role.CHOOSER: 3, Role.THIRD: 5, Role.DEALER: 8}


@pytest.mark.parametrize("game", ["clubs", "no-trump", "no-tricks"])
@pytest.mark.parametrize("seed", range(4))
def test_deal_scores(game, seed):
    deal = fresh(seed=seed, dealer=seed % 3)
    deal.apply(game)
    rng = random.Random(seed)
    result = play_out(deal, choose=lambda options: rng.choice(list(options)))
    assert len(result.tricks) == 16 and sum(result.taken) == 16
    for seat in range(3):
        role = Role((seat - result.dealer - 1) % 3)
        won = sum(t.winner == seat for t in result.tricks)
        assert result.taken[seat] == won
        if game == "no-tricks":
            assert result.scores[seat] == LIMIT[role] - won
        else:
            assert result.scores[seat] == won - OBLIGATION[role]
    assert sum(result.scores) == 0


def test_tricks_follow_the_winner():
    deal = fresh(seed=11)
    result = play_out(deal)
    assert result.tricks[0].leader == result.chooser
    for before, after in zip(result.tricks, result.tricks[1:]):
        assert after.leader == before.winner
        winning = before.cards[(before.winner - before.leader) % 3]
        led = before.cards[0].suit
        trump = result.game.trump
        contenders = [c for c in before.cards if c.suit == trump] or [
            c for c in before.cards if c.suit == led
        ]
        assert winning == max(contenders, key=lambda c: c.rank)


def test_position_during_play():
    deal = fresh(seed=12, dealer=2)
    deal.apply("diamonds")
    deal.apply_answer(CardSet(sorted(deal.pending().view.options)[:4]))
    for _ in range(4):
        deal.apply_answer(min(deal.pending().view.options))
    position = deal.position()
    assert position.contract is Contract.DIAMONDS
    for role in Role:
        assert position.hands[role] == deal.hand((deal.dealer + 1 + role) % 3)
    assert position.trick == deal.view(0).trick and len(position.trick) == 1
    leader_seat = deal.view(0).leader
    assert position.leader == Role((leader_seat - deal.dealer - 1) % 3)
    assert sum(position.taken) == 1


def test_position_only_during_play():
    deal = fresh(seed=12)
    with pytest.raises(ValueError):
        deal.position()


def test_decisions_restore_the_state():
    deal = fresh(seed=13)
    deal.apply("spades")
    deal.apply_answer(CardSet(sorted(deal.pending().view.options)[:4]))
    for _ in range(7):
        deal.apply_answer(max(deal.pending().view.options))
    copy = Deal(deal.setup, deal.rules)
    for decision in deal.decisions:
        copy.apply(decision)
    assert copy.pending() == deal.pending()
    assert [copy.hand(s) for s in range(3)] == [deal.hand(s) for s in range(3)]
