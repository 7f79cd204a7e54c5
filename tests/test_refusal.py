"""Refusals as values (ts358.refusal): the engine's checks and the check of a seat's view
come to the same reason for every answer, in whole seeded matches of both rule sets, and
the front ends' words for each reason name the card, suit or games it is about."""

from __future__ import annotations

import random

import pytest

from ts358 import Card, CardSet, Contract, Rules
from ts358.cards import DECK
from ts358.deal import IllegalDecision
from ts358.match import Match
from ts358.players import HeuristicPlayer
from ts358.refusal import Reason, Refusal, verify
from ts358.rules import PRESETS
from ts358.table.texts import Translator
from ts358.view import DecisionKind


def candidates(view, rng):
    """Answers to try at ``view``: some legal, most not (cards not held, cards that don't
    follow, used games, discards of the wrong size or with a card twice, wrong types)."""
    kind = view.kind
    if kind is DecisionKind.CHOOSE:
        return [*Contract, "hearts", Card.parse("AS")]
    if kind is DecisionKind.DISCARD:
        held = sorted(view.options)
        out = [CardSet(rng.sample(held, n)) for n in (3, 4, 5)]
        stranger = rng.choice([c for c in DECK if c not in held])
        out.append(CardSet([*rng.sample(held, 3), stranger]))
        twice = rng.sample(held, 3)
        out.append([*twice, twice[0]])
        out.append(Card.parse("AS"))
        return out
    cards = rng.sample(list(DECK), 12) + rng.sample(sorted(view.hand), min(4, len(view.hand)))
    return [*cards, None, Contract.HEARTS]


@pytest.mark.parametrize("rules", [Rules.named(n, 3) for n in PRESETS], ids=list(PRESETS))
@pytest.mark.parametrize("seed", range(4))
def test_the_view_and_the_engine_refuse_alike(rules, seed):
    rng = random.Random(seed)
    match = Match(rules, seed)
    player = HeuristicPlayer()
    reasons = set()
    while not match.done:
        pending = match.pending()
        deal = match.deal
        for answer in candidates(pending.view, rng):
            refusal = verify(pending.view, answer)
            assert deal.verify(answer) == refusal
            if refusal is None:
                continue
            reasons.add(refusal.reason)
            before = deal.decisions
            if isinstance(answer, list):
                continue  # a list is a person's typed discard; the engine takes sets
            with pytest.raises(IllegalDecision) as raised:
                match.apply_answer(answer)
            assert raised.value.refusal == refusal
            assert str(raised.value) == str(refusal)
            assert deal.decisions == before
        match.apply_answer(player.decide(pending.view))
    assert {Reason.NOT_HELD, Reason.MALFORMED, Reason.DISCARD_COUNT, Reason.DISCARD_TWICE} <= (
        reasons
    )
    assert {Reason.MUST_FOLLOW, Reason.GAME_USED} & reasons or rules.length < 3


def test_a_refusal_names_what_it_is_about():
    card, trump = Card.parse("2H"), Card.parse("KC").suit
    follow = Refusal(Reason.MUST_FOLLOW, 1, DecisionKind.PLAY, card=card, suit=card.suit)
    assert str(follow) == "seat 1 can't play 2H: must follow hearts"
    void = Refusal(Reason.MUST_TRUMP, 2, DecisionKind.PLAY, card=card, suit=trump, trump=trump)
    assert str(void) == "seat 2 can't play 2H: void in clubs, must play a trump"
    used = Refusal(
        Reason.GAME_USED,
        0,
        DecisionKind.CHOOSE,
        game=Contract.HEARTS,
        games=frozenset({Contract.SPADES, Contract.NO_TRUMP}),
    )
    assert str(used) == (
        "seat 0 has already played hearts in this match (games left: spades, no-trump)"
    )


@pytest.mark.parametrize(
    "lang, follow, used",
    [
        ("en", "2♥ is not allowed: you must follow suit (♥)", "hearts"),
        ("pl", "nie możesz zagrać 2♥: musisz dołożyć do koloru (♥)", "kier"),
        ("cs", "2♥", "srdce"),
    ],
)
def test_the_front_ends_translate_the_same_values(lang, follow, used):
    tr = Translator(lang)
    card = Card.parse("2H")
    refusal = Refusal(Reason.MUST_FOLLOW, 1, DecisionKind.PLAY, card=card, suit=card.suit)
    assert follow in tr.refusal(refusal)
    assert "2H" in tr.refusal(refusal, symbols=False) and "♥" not in tr.refusal(refusal, False)
    game = Refusal(
        Reason.GAME_USED, 0, DecisionKind.CHOOSE, game=Contract.HEARTS, games=frozenset(Contract)
    )
    assert used in tr.refusal(game)
    # A reason no person's answer can have is said as the engine says it.
    over = tr.refusal(Refusal(Reason.DEAL_OVER))
    assert "the deal is over" in over and over != str(Refusal(Reason.DEAL_OVER))
