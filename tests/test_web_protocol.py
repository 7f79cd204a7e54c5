"""The messages of the web protocol, read and written without a server."""

from __future__ import annotations

import pytest

from ts358.cards import Card, CardSet, Suit
from ts358.match import Match
from ts358.rules import Contract
from ts358.web.messages import hand_order, phase_of
from ts358.web.protocol import (
    Choose,
    Discard,
    Hint,
    Join,
    Next,
    Pace,
    Play,
    ProtocolError,
    Refresh,
    Stop,
    parse_request,
)


@pytest.mark.parametrize(
    "text, request_",
    [
        ('{"type": "join", "token": "abc"}', Join("abc")),
        ('{"type": "choose", "game": "no-tricks"}', Choose(Contract.NO_TRICKS)),
        ('{"type": "play", "card": "TH"}', Play(Card.parse("TH"))),
        ('{"type": "stop"}', Stop()),
        (
            '{"type": "discard", "cards": ["2C", "3C", "4D", "5D"]}',
            Discard(tuple(Card.parse(c) for c in ("2C", "3C", "4D", "5D"))),
        ),
        ('{"type": "hint"}', Hint()),
        ('{"type": "next"}', Next()),
        ('{"type": "state"}', Refresh()),
        ('{"type": "pace", "seconds": 1}', Pace(1.0)),
        (b'{"type": "next"}', Next()),
    ],
)
def test_each_message_is_read(text, request_):
    assert parse_request(text) == request_


@pytest.mark.parametrize(
    "text",
    [
        '{"type": "join", "token": ""}',
        '{"type": "pace", "seconds": true}',
        '{"type": "discard", "cards": []}',
        '{"type": "join", "token": "' + "x" * 101 + '"}',
        '{"a": ' * 200 + "1" + "}" * 200,
        '{"type": "play", "card": "A" }',
    ],
)
def test_what_is_not_a_message_is_one_line(text):
    with pytest.raises(ProtocolError) as caught:
        parse_request(text)
    assert "\n" not in str(caught.value)


def test_the_hand_is_shown_trumps_first():
    hand = CardSet.parse("A2.K.Q.J")
    assert [str(c) for c in hand_order(hand, Suit.DIAMONDS)] == ["QD", "AS", "2S", "KH", "JC"]
    assert [str(c) for c in hand_order(hand, None)] == ["AS", "2S", "KH", "QD", "JC"]


def test_the_phase_comes_from_the_view():
    match = Match(seed=3)
    chooser = match.deal.chooser
    assert phase_of(match.deal.view(chooser)) == "choose"
    match.choose(Contract.NO_TRUMP)
    assert phase_of(match.deal.view(chooser)) == "discard"
