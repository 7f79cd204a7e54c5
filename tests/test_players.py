"""The computer players: the protocol, the random player, and the rule-of-thumb player's tips."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ts358 import Card, CardSet, Contract, Rules
from ts358.cards import DECK
from ts358.exchange import ExchangeStep
from ts358.match import Match
from ts358.players import HeuristicPlayer, Player, RandomPlayer, make_player
from ts358.view import DecisionKind, SeatView, Trick

C = Card.parse
ALL = frozenset(Contract)


def view(hand, kind, seat=1, dealer=0, game=None, available=None, **kw):
    hand = CardSet.parse(hand) if isinstance(hand, str) else hand
    avail = available if available is not None else ALL
    return SeatView(
        seat=seat,
        deal_number=2,
        dealer=dealer,
        rules=Rules(),
        hand=hand,
        available=(ALL, avail, ALL) if seat == 1 else (avail, ALL, ALL),
        totals=(0, 0, 0),
        previous_scores=None,
        game=game,
        kind=kind,
        options=kw.pop("options", hand),
        **kw,
    )


def test_protocol_dispatches_on_the_kind():
    class Echo(Player):
        def choose_game(self, v):
            return "choose"

        def give(self, v):
            return "give"

        def choose_return(self, v):
            return "return"

        def discard(self, v):
            return "discard"

        def play(self, v):
            return "play"

    for kind in DecisionKind:
        assert Echo().decide(view("A.-.-.-", kind)) == kind.value
    with pytest.raises(ValueError):
        Echo().decide(view("A.-.-.-", None))
    with pytest.raises(NotImplementedError):
        Player().decide(view("A.-.-.-", DecisionKind.PLAY))


def test_make_player():
    assert isinstance(make_player("easy", 1), RandomPlayer)
    assert isinstance(make_player("medium"), HeuristicPlayer)
    with pytest.raises(ValueError, match="not a level"):
        make_player("master")


def test_random_player_is_reproducible_and_legal():
    v = view(
        "AKQ.432.-.T98", DecisionKind.PLAY, options=CardSet.parse("AKQ.-.-.-"), game=Contract.HEARTS
    )
    a = [RandomPlayer(5).decide(v) for _ in range(5)]
    b = [RandomPlayer(5).decide(v) for _ in range(5)]
    assert a == b
    picks = {RandomPlayer(s).decide(v) for s in range(40)}
    assert picks == set(CardSet.parse("AKQ.-.-.-"))
    discard = RandomPlayer(1).decide(
        view(DECK - CardSet.parse("AKQJT98765432.-.-.-"), DecisionKind.DISCARD)
    )
    assert len(discard) == 4


# ---------------------------------------------------------------- the choice of game


@pytest.mark.parametrize(
    "six, game",
    [
        ("AK.Q5.-.32", Contract.SPADES),  # two suits of two: the one with more high cards
        ("-.T7532.-.A", Contract.HEARTS),  # longest suit
        ("A.A.A.KQ", Contract.NO_TRUMP),  # high cards, no long suit
        ("2.32.42.3", Contract.NO_TRICKS),  # all low
        ("-.-.K9873.2", Contract.DIAMONDS),
    ],
)
def test_choose_game_from_six(six, game):
    assert HeuristicPlayer().decide(view(six, DecisionKind.CHOOSE)) is game


def test_choose_game_only_from_available():
    v = view(
        "-.T7532.-.A",
        DecisionKind.CHOOSE,
        available=frozenset({Contract.CLUBS, Contract.NO_TRICKS}),
    )
    assert HeuristicPlayer().decide(v) in {Contract.CLUBS, Contract.NO_TRICKS}


@settings(max_examples=50, deadline=None)
@given(
    st.lists(st.sampled_from(list(DECK)), min_size=6, max_size=6, unique=True),
    st.sets(st.sampled_from(list(Contract)), min_size=1),
)
def test_choice_is_always_available(six, games):
    v = view(CardSet(six), DecisionKind.CHOOSE, available=frozenset(games))
    assert HeuristicPlayer().decide(v) in games


# ---------------------------------------------------------------- exchange and discard


def test_give_low_card_of_a_suit_without_the_ace():
    # Hearts trump; spades has the ace, clubs does not: give the lowest club, never a trump.
    v = view("A32.2.-.K74", DecisionKind.GIVE, game=Contract.HEARTS, give_to=0, gives_left=2)
    assert HeuristicPlayer().decide(v) is C("4C")


def test_give_skips_a_suit_that_came_back():
    steps = (ExchangeStep(1, 0, C("AC"), C("AC")),)
    v = view(
        "A32.2.-.AK",
        DecisionKind.GIVE,
        game=Contract.HEARTS,
        give_to=0,
        gives_left=1,
        exchanges=steps,
    )
    assert HeuristicPlayer().decide(v).suit != C("AC").suit


def test_give_never_a_trump_stops_instead():
    v = view("-.AK2.-.-", DecisionKind.GIVE, game=Contract.HEARTS, give_to=0, gives_left=1)
    assert HeuristicPlayer().decide(v) is None


def test_return_for_a_trump_is_a_low_side_card():
    v = view("-.AK5.Q3.K", DecisionKind.RETURN, game=Contract.HEARTS, received=C("5H"))
    assert HeuristicPlayer().decide(v) is C("3D")


@pytest.mark.parametrize(
    "hand, game, expected",
    [
        # Hearts trump; diamonds is the shortest side suit, then clubs.
        pytest.param(
            "AKQJT98765.AK2.T3.K5432", Contract.HEARTS, "-.-.T3.32", id="low_cards_of_short_suits"
        ),
        pytest.param(
            "A2.AKQJT98765432.A.AKQJ", Contract.HEARTS, "2.-.-.KQJ", id="keeps_trumps_and_aces"
        ),
        pytest.param(
            "AKQJT98.765432.5432.432",
            Contract.NO_TRICKS,
            "AKQJ.-.-.-",
            id="high_cards_in_no_tricks",
        ),
    ],
)
def test_discard(hand, game, expected):
    hand = CardSet.parse(hand)
    assert len(hand) == 20
    discard = HeuristicPlayer().decide(view(hand, DecisionKind.DISCARD, game=game))
    assert discard == CardSet.parse(expected)


# ---------------------------------------------------------------- play


def test_last_to_play_wins_as_cheaply_as_possible():
    v = view(
        "AKQ9.-.-.2",
        DecisionKind.PLAY,
        game=Contract.NO_TRUMP,
        options=CardSet.parse("AKQ9.-.-.-"),
        leader=2,
        trick=(C("TS"), C("JS")),
    )
    assert HeuristicPlayer().decide(v) is C("QS")


def test_cannot_win_plays_low():
    v = view(
        "Q92.-.-.2",
        DecisionKind.PLAY,
        game=Contract.NO_TRUMP,
        options=CardSet.parse("Q92.-.-.-"),
        leader=2,
        trick=(C("AS"), C("3S")),
    )
    assert HeuristicPlayer().decide(v) is C("2S")


def test_ruffs_cheaply_when_void():
    v = view(
        "-.Q2.-.2",
        DecisionKind.PLAY,
        game=Contract.HEARTS,
        options=CardSet.parse("-.Q2.-.-"),
        leader=2,
        trick=(C("AS"), C("3S")),
    )
    assert HeuristicPlayer().decide(v) is C("2H")


def test_no_tricks_ducks_under_the_winner():
    v = view(
        "QT52.-.-.2",
        DecisionKind.PLAY,
        game=Contract.NO_TRICKS,
        options=CardSet.parse("QT52.-.-.-"),
        leader=0,
        trick=(C("JS"),),
    )
    assert HeuristicPlayer().decide(v) is C("TS")


def test_no_tricks_sheds_high_when_void():
    v = view("-.A3.K2.-", DecisionKind.PLAY, game=Contract.NO_TRICKS, leader=0, trick=(C("JS"),))
    assert HeuristicPlayer().decide(v) is C("AH")


def test_no_tricks_leads_low():
    v = view("K4.A3.K2.-", DecisionKind.PLAY, game=Contract.NO_TRICKS, leader=1)
    assert HeuristicPlayer().decide(v) is C("2D")  # the lowest card
    # Two lowest cards of the same rank: the one from the longer suit.
    v = view("K2.A32.K.-", DecisionKind.PLAY, game=Contract.NO_TRICKS, leader=1)
    assert HeuristicPlayer().decide(v) is C("2H")


def test_leads_a_winner_when_it_has_one():
    # Spades A K played already: the queen is the top spade left.
    tricks = (Trick(1, (C("AS"), C("2S"), C("3S")), 1), Trick(1, (C("KS"), C("4S"), C("5S")), 1))
    v = view("Q6.-.72.-", DecisionKind.PLAY, game=Contract.NO_TRUMP, leader=1, tricks=tricks)
    assert HeuristicPlayer().decide(v) is C("QS")


def _duplicate(level_a, seeds):
    """Mean score per deal of a level_a player against two random ones, over every seat."""
    total = deals = 0
    for seed in seeds:
        for seat in range(3):
            match = Match(Rules(length=6), seed)
            players = [RandomPlayer(seed * 3 + s) for s in range(3)]
            players[seat] = make_player(level_a, seed)
            match.run(players)
            total += match.totals[seat]
            deals += 6
    return total / deals


def test_heuristic_beats_random():
    # Each seat's score is zero-sum against the others; random play should lose on average.
    assert _duplicate("medium", range(6)) > 0.3
